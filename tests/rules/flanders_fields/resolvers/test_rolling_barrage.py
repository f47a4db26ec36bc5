"""Rolling barrages: effect on defenders, danger to the attackers, duration; against ROLLING BARRAGE."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.flanders_fields.resolvers.barrage import d3, field_artillery_cell
from tests.rules.flanders_fields.resolving import ff, odds, resolve


def effect(cover: str, face: int, **kw: object) -> str:
    return str(resolve("rolling-barrage", period="late", cover=cover, dice=[face], **kw)["outcome"])


def test_rolling_barrage_medium_cover_table() -> None:
    # "1 or 2 No Suppression. 3-5 Platoon is suppressed. 6 Platoon is killed." (trenches or other Medium Cover)
    assert [effect("medium", f) for f in range(1, 7)] == ["no-effect"] * 2 + ["suppressed"] * 3 + ["killed"]


def test_rolling_barrage_cover_modifiers() -> None:
    # "If the target is in Hard Cover reduce the die roll by 1"
    assert [effect("hard", f) for f in range(1, 7)] == ["no-effect"] * 3 + ["suppressed"] * 3
    # "If the target is in Soft Cover increase the die roll by 1, if in Open increase by 2."
    assert [effect("soft", f) for f in range(1, 7)] == ["no-effect"] + ["suppressed"] * 3 + ["killed"] * 2
    # A natural 1 always fails ("ROLLING A NATURAL ONE"), by default; the table-only variant makes it a 3.
    assert [effect("open", f) for f in range(1, 7)] == ["no-effect"] + ["suppressed"] * 2 + ["killed"] * 3
    assert effect("open", 1, variants={"rolling-barrage-natural-one": "table"}) == "suppressed"
    # "If the target is in Fortified Positions it is immune"
    answer = resolve("rolling-barrage", period="mid", cover="fortified")
    assert answer["dice"] == [] and answer["outcome"] == "no-effect"
    assert odds("rolling-barrage", period="mid", cover="fortified") == {"no-effect": Fraction(1)}


def test_rolling_barrage_dataset() -> None:
    table = ff().data("rolling-barrage-table")
    assert table["cover_modifiers"] == {"fortified": "immune", "hard": -1, "medium": 0, "soft": 1, "open": 2}
    # "There is a danger area 6cm behind the RB"; "A Rolling Barrage covers an area 20cm wide"
    assert table["danger_zone_cm"] == 6 and table["width_cm"] == 20


def test_barrage_danger_safety_roll() -> None:
    # "if the figures are 5cm from the barrage they are safe if they roll 1-4 on the dice but at risk if they
    # roll a 5 or 6"
    table = odds("barrage-danger", period="late", distance_cm=5, resolve_attack=False)
    assert table == {"safe": Fraction(4, 6), "at-risk": Fraction(2, 6)}
    assert odds("barrage-danger", period="late", distance_cm=0, resolve_attack=False) == {
        "at-risk": Fraction(1)
    }
    assert odds("barrage-danger", period="late", distance_cm=2.5, resolve_attack=False)["safe"] == Fraction(
        2, 6
    )


def test_barrage_danger_field_artillery_attack_at_minus_one() -> None:
    # "If the figures are at risk they are attacked by field artillery at a -1 on the die roll."
    # Field Artillery - Guns, open: suppress 3, kill 4 ("Field Artillery – Guns 3 4 4 5 5 6 6 7").
    outcomes = [
        resolve("barrage-danger", period="mid", distance_cm=1, dice=[1, f])["outcome"] for f in range(1, 7)
    ]
    assert outcomes == ["no-effect"] * 3 + ["suppressed"] + ["killed"] * 2
    # Medium cover: suppress 5, kill 6: a 6 - 1 = 5 suppresses, nothing kills.
    table = odds("barrage-danger", period="mid", distance_cm=0, cover="medium")
    assert table == {"no-effect": Fraction(5, 6), "suppressed": Fraction(1, 6)}
    # Howitzers row (erratum variant), soft cover: "3 4 3 4 ..." -> suppress 3, kill 4.
    variant = odds(
        "barrage-danger",
        period="mid",
        distance_cm=0,
        cover="soft",
        variants={"barrage-danger-row": "howitzers"},
    )
    assert variant == {"no-effect": Fraction(3, 6), "suppressed": Fraction(1, 6), "killed": Fraction(2, 6)}


@pytest.mark.parametrize("period", ["early", "mid", "late"])
def test_field_artillery_rows_match_the_playsheets(period: str) -> None:
    # "Field Artillery – Guns 3 4 4 5 5 6 6 7" and "Field Artillery, Howitzers Light Mortars 3 4 3 4 4 6 6 7"
    ctx = ff().context(period)
    covers = ("open", "soft", "medium", "hard")
    guns = [v for c in covers for v in field_artillery_cell(ctx, "guns", c) or ()]
    howitzers = [v for c in covers for v in field_artillery_cell(ctx, "howitzers", c) or ()]
    assert guns == [3, 4, 4, 5, 5, 6, 6, 7]
    assert howitzers == [3, 4, 3, 4, 4, 6, 6, 7]
    # Fortifications: guns "6 (Direct) No", howitzers "No No": an indirect barrage cannot touch them.
    assert field_artillery_cell(ctx, "guns", "fortified") is None


def test_barrage_duration() -> None:
    # "When a D3 is referred to roll a D6 but count 1 & 2 as 1, 3 & 4 as 2 and 5 & 6 as 3."
    assert [d3(f) for f in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    # "the duration of any rolling barrage is four plus D3 turns i.e. 5-7 game turns"
    assert odds("barrage-duration", period="late") == {f"{t}-turns": Fraction(1, 3) for t in (5, 6, 7)}
    assert resolve("barrage-duration", period="late", dice=[6])["outcome"] == {"turns": 7}
    # Template: "Rolling Barrage duration - Number of turns available to attackers – Normally 3 +D3"
    variant = {"barrage-duration": "fire-plan-template"}
    assert resolve("barrage-duration", period="mid", dice=[1], variants=variant)["outcome"] == {"turns": 4}


@given(
    distance=st.floats(min_value=0, max_value=6), cover=st.sampled_from(["open", "soft", "medium", "hard"])
)
def test_barrage_danger_odds_agree_with_the_two_step_rule(distance: float, cover: str) -> None:
    table = odds("barrage-danger", period="late", distance_cm=distance, cover=cover)
    assert sum(table.values()) == 1
    safe_faces = sum(1 for f in range(1, 7) if f < distance)
    assert table.get("safe", Fraction(0)) == Fraction(safe_faces, 6)
    _suppress, kill = field_artillery_cell(ff().context("late"), "guns", cover) or (99, 99)
    killed = sum(1 for f in range(1, 7) if f - 1 >= kill)
    assert table.get("killed", Fraction(0)) == Fraction(6 - safe_faces, 6) * Fraction(killed, 6)
