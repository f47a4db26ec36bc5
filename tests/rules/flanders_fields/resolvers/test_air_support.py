"""Air support: the late-war mission roll and the opposed roll against each target (AIR SUPPORT)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.core.errors import RulesError
from rules.flanders_fields.resolvers.air import air_result
from tests.rules.flanders_fields.resolving import odds, resolve


def test_mission_roll_playsheet_default() -> None:
    # Late playsheet: "Direct Air Support mission Roll D6 1-4 no effect, 5 or 6 Biggles/Red Baron arrives"
    assert odds("air-attack", period="late", step="mission") == {
        "nothing": Fraction(4, 6),
        "arrives": Fraction(2, 6),
    }
    assert resolve("air-attack", period="late", step="mission", dice=[5])["outcome"] == "arrives"


def test_mission_roll_main_text_variant_at_minus_three() -> None:
    # "air attacks must be ordered by a Regimental Commander as a normal order except that there is a penalty
    # of -3" (read against the late Regiment/Brigade artillery order: "1-2 = No Action")
    variant = {"air-mission-order": "main-text"}
    assert odds("air-attack", period="late", step="mission", variants=variant) == {
        "nothing": Fraction(5, 6),
        "arrives": Fraction(1, 6),
    }
    answer = resolve("air-attack", period="late", step="mission", variants=variant, dice=[6])
    assert answer["total"] == 3 and [m["value"] for m in answer["modifiers"]] == [-3]


def test_result_by_margin() -> None:
    # "Draw nothing happens ... Win by 1 or 2 infantry become suppressed or aircraft is driven off ... Win by 3
    # or more, the looser is destroyed."
    assert [air_result(m) for m in (-3, -2, -1, 0, 1, 2, 3)] == [
        "aircraft-destroyed",
        "aircraft-driven-off",
        "aircraft-driven-off",
        "draw",
        "suppressed",
        "suppressed",
        "destroyed",
    ]


def test_factors() -> None:
    # "Target is in Open +3", "Target is in Soft Cover +2", "Target is in Medium Cover +1", "Target is
    # Artillery or support weapons +2"; "Infantry Factors: Target is Machine Gun +2"
    open_inf = resolve("air-attack", period="late", target="infantry", cover="open", dice=[1, 4])
    assert open_inf["aircraft_total"] == 4 and open_inf["target_total"] == 4 and open_inf["outcome"] == "draw"
    medium_art = resolve("air-attack", period="late", target="artillery", cover="medium", dice=[2, 2])
    assert medium_art["aircraft_total"] == 5 and medium_art["outcome"] == "destroyed"
    mg = resolve("air-attack", period="late", target="machine-gun", cover="soft", dice=[3, 3])
    assert (mg["aircraft_total"], mg["target_total"]) == (7, 5)
    assert mg["outcome"] == "suppressed"
    assert any("realigned" in n for n in mg["notes"])


def test_refusals() -> None:
    # "Only troops in the Open, Soft or Medium Cover may be attacked by aircraft."
    with pytest.raises(RulesError) as err:
        resolve("air-attack", period="late", cover="hard")
    assert err.value.field == "cover" and err.value.allowed == ["open", "soft", "medium"]
    # "By late 1917 the role of air power was becoming a significant factor"
    for period in ("early", "mid"):
        with pytest.raises(RulesError) as err:
            resolve("air-attack", period=period, step="mission")
        assert err.value.field == "period" and err.value.allowed == ["late"]


@given(
    target=st.sampled_from(["infantry", "machine-gun", "mortar", "artillery"]),
    cover=st.sampled_from(["open", "soft", "medium"]),
)
def test_attack_odds_match_the_difference_of_two_dice(target: str, cover: str) -> None:
    table = odds("air-attack", period="late", target=target, cover=cover)
    assert sum(table.values()) == 1
    bonus = {"open": 3, "soft": 2, "medium": 1}[cover] + (2 if target != "infantry" else 0)
    bonus -= 2 if target == "machine-gun" else 0
    expected: dict[str, Fraction] = {}
    for a in range(1, 7):
        for t in range(1, 7):
            key = air_result(a + bonus - t)
            expected[key] = expected.get(key, Fraction(0)) + Fraction(1, 36)
    assert table == expected
