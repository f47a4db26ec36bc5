"""Heroic actions, visibility distances, deviation and casualties, against their sections of the book."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.core.dice import all_rolls
from rules.core.errors import RulesError
from rules.flanders_fields.resolvers.casualties import casualty_split, quality_after
from rules.flanders_fields.resolvers.deviation import clock_of
from tests.rules.flanders_fields.resolving import ff, odds, resolve


def test_heroic_action() -> None:
    # "the attacker rolls a D6, a 5 or 6 indicates success, 1-4 a failure ... if a failure the platoon is
    # immediately destroyed and removed from play."
    assert odds("heroic-action", period="early") == {
        "platoon-destroyed": Fraction(4, 6),
        "success": Fraction(2, 6),
    }
    # Hearts - Jack "Good day to be a hero" - gain +1 on heroic action roll
    answer = resolve("heroic-action", period="mid", hero_card=True, dice=[4])
    assert answer["total"] == 5 and answer["outcome"] == "success"


def see(viewer: str, target: str, fired: bool = False) -> int:
    answer = resolve("visibility", period="mid", viewer=viewer, target=target, target_has_fired=fired)
    assert answer["dice"] == [] and answer["probabilities_exact"] == {answer["outcome_key"]: "1/1"}
    return int(answer["outcome"]["distance_cm"])


def test_visibility_table() -> None:
    # "Infantry (including MGs)* 100 30 or until fired 150 / Artillery 200 100 250 / Vehicles (Tanks etc.)
    # 50 10 or until fired 100"
    big = "buildings-vehicles-heavy-artillery"
    assert [see("infantry", t) for t in ("open", "cover", big)] == [100, 30, 150]
    assert [see("artillery", t) for t in ("open", "cover", big)] == [200, 100, 250]
    assert [see("vehicle", t) for t in ("open", "cover", big)] == [50, 10, 100]
    # "Once Infantry and Field artillery have opened fire from cover they may be seen at a range of 50."
    assert see("infantry", "cover", fired=True) == 50
    assert see("vehicle", "cover", fired=True) == 50
    assert see("artillery", "cover", fired=True) == 100
    assert ff().data("visibility-distances")["seen_firing_from_cover_cm"] == 50


def test_deviation_d6_method() -> None:
    # "if the first is 3 and the second a 5 the total is 5 but if the first die is a 4 and the second a 3 the
    # total is 9"
    assert clock_of(3, 5) == 5 and clock_of(4, 3) == 9
    # "Roll a D6 if the result is a 5 or 6 then there is no deviation"
    table = odds("deviation", period="mid")
    assert table["no-deviation"] == Fraction(2, 6)
    # "roll 2D6 for distance in cm": 7 cm is 6/36 of the 4/6 that deviate.
    assert table["7cm"] == Fraction(4, 6) * Fraction(6, 36)
    answer = resolve("deviation", period="mid", dice=[1, 4, 3, 2, 5])
    assert answer["outcome"] == {"deviates": True, "clock": 9, "distance_cm": 7}
    assert resolve("deviation", period="mid", dice=[6, 1, 1, 1, 1])["outcome"]["deviates"] is False


def test_deviation_clock_is_uniform() -> None:
    counts: dict[int, int] = {}
    for a, b in all_rolls((6, 6)):
        counts[clock_of(a, b)] = counts.get(clock_of(a, b), 0) + 1
    assert counts == {c: 3 for c in range(1, 13)}


def test_deviation_die() -> None:
    answer = resolve("deviation", period="late", method="deviation-die", direction=12, dice=[6, 6])
    assert answer["outcome"] == {"deviates": True, "clock": 12, "distance_cm": 12}
    with pytest.raises(RulesError) as err:
        resolve("deviation", period="late", method="deviation-die")
    assert err.value.field == "direction"
    with pytest.raises(RulesError):
        resolve("deviation", period="late", method="d6", direction=3)


def test_casualties_example_from_the_text() -> None:
    # "the Germans narrowly lost a game after loosing 36 rifle platoons, 3 machineguns and a battery of
    # artillery. This equates to about 600 casualties, 200 killed, 100 crippled, 100 seriously and 200
    # lightly wounded."
    answer = resolve("casualties", period="early", bases_killed=40)
    assert answer["outcome"] == {
        "men": 600,
        "killed": 200,
        "lightly_wounded": 200,
        "crippled": 100,
        "badly_wounded": 100,
    }
    assert answer["dice"] == []


def test_casualty_rounding_erratum() -> None:
    # One base: 15 men, 5 + 5 + 2.5 + 2.5.
    assert casualty_split(1) == {
        "men": 15,
        "killed": 5,
        "lightly_wounded": 5,
        "crippled": 2,
        "badly_wounded": 3,
    }
    assert casualty_split(1, "crippled")["crippled"] == 3
    answer = resolve("casualties", period="mid", bases_killed=3)
    assert answer["exact"]["crippled"] == "15/2"
    assert any("silent" in s for s in answer["sources"])


@given(bases=st.integers(min_value=0, max_value=10000), up=st.sampled_from(["badly-wounded", "crippled"]))
def test_casualty_parts_add_up(bases: int, up: str) -> None:
    split = casualty_split(bases, up)
    assert split["men"] == 15 * bases
    assert (
        split["killed"] + split["lightly_wounded"] + split["crippled"] + split["badly_wounded"] == 15 * bases
    )
    assert abs(Fraction(split["crippled"]) - Fraction(15 * bases, 6)) <= Fraction(1, 2)


def test_quality_roll() -> None:
    # "roll 2D6 if this number is above the number of platoons brought in as drafts the battalion retains
    # it's old status, otherwise it is reduced to Raw. If a 12 is rolled the battalion is upgraded to Veteran."
    assert quality_after("experienced", 5, 6) == ("retains", "experienced")
    assert quality_after("experienced", 5, 5) == ("reduced-to-raw", "raw")
    assert quality_after("raw", 14, 12) == ("upgraded-to-veteran", "veteran")
    assert quality_after("storm", 3, 12) == ("upgraded-to-veteran", "storm")
    table = odds("casualties", period="late", bases_killed=6, drafts=7, quality="veteran")
    # above 7: 8..11 = 5+4+3+2 = 14/36; 12: 1/36; 2..7: 21/36
    assert table == {
        "retains": Fraction(14, 36),
        "upgraded-to-veteran": Fraction(1, 36),
        "reduced-to-raw": Fraction(21, 36),
    }
