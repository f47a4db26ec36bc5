"""2mm Earth 1418 readings of issue 23 (items 6, 7, 10, 14): each reading changes an answer, checked against
figures worked out from the quoted text, not from the code."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from rules.core.dice import all_rolls
from rules.core.errors import RulesError
from rules.earth2mm import pools
from rules.earth2mm.resolvers import BombardRequest, MoveRequest, RecoveryRequest, ShootRequest
from rules.earth2mm.sight import SightRequest
from rules.earth2mm.special import InjuryRequest
from rules.registry import get_ruleset

RS = get_ruleset("2mm-earth-1418")
SOURCE = "Battle for 2mm Earth 1418: The Great War (Version 0.8): "


@pytest.mark.parametrize(
    ("eid", "readings", "line"),
    [
        ("bonus-which-die", {"best-die", "designated-die"}, "(line 212)"),
        ("transport-order", {"rate-first", "additive", "cap-on-total"}, "(line 218)"),
        ("overwatch-who", {"stationary-only", "always-when-blocked"}, "(line 210)"),
        ("recovery-resilience", {"built-in", "current"}, "(line 212)"),
    ],
)
def test_each_reading_quotes_its_line(eid: str, readings: set[str], line: str) -> None:
    e = RS.errata[eid]
    assert {r.id for r in e.readings} == readings and e.default in readings and e.note
    for r in e.readings:
        assert r.source.startswith(SOURCE) and line in r.source and "'" in r.text


# -- 6. "The + bonus is a number added to one of the die that they roll" (line 212) ---------------------------
# Machineguns are 1/3(+1); two bases roll 3 dice. Line infantry (R4) dug in in a fortification (+3R) is R7,
# which only a 6 with the +1 reaches.
MG_AT_R7: dict[str, Any] = {
    "shooter": "machineguns",
    "bases": 2,
    "target": "line-inf",
    "target_cover": {"terrain": "fortification", "posture": "dug-in"},
}


def shoot(variants: dict[str, str] | None = None, **kw: Any) -> Any:
    return RS.resolve("shoot", ShootRequest(**{**MG_AT_R7, **kw}, variants=variants or {}))


def test_bonus_on_the_best_die_or_on_a_designated_die() -> None:
    best = shoot()
    assert best.evaluation.details["target_resilience"] == 7
    # Any of three dice showing a 6 takes the bonus: 1 - (5/6)^3.
    assert dict(best.probabilities) == {"1 hit": Fraction(91, 216), "0 hits": Fraction(125, 216)}
    marked = shoot({"bonus-which-die": "designated-die"})
    # Only the marked die carries it: it must show a 6.
    assert dict(marked.probabilities) == {"1 hit": Fraction(1, 6), "0 hits": Fraction(5, 6)}
    # The same roll: a 6 on the second die hits when the bonus goes where it helps, not on the first die.
    assert shoot(dice=[1, 6, 2]).evaluation.key == "1 hit"
    assert shoot({"bonus-which-die": "designated-die"}, dice=[1, 6, 2]).evaluation.key == "0 hits"
    assert shoot({"bonus-which-die": "designated-die"}, dice=[6, 1, 2]).evaluation.key == "1 hit"


def test_a_bombardment_takes_the_reading_too() -> None:
    # 75/77 field guns are 0/2(+1): two shots on an R7 target.
    req = {"artillery": "field-guns", "bases_firing": 2, "targets": [{"shots": 2, "resilience": 7}]}
    best = RS.resolve("bombard", BombardRequest(**req))
    assert best.probabilities["1 hit"] == 1 - Fraction(5, 6) ** 2
    marked = RS.resolve("bombard", BombardRequest(**req, variants={"bonus-which-die": "designated-die"}))
    assert marked.probabilities["1 hit"] == Fraction(1, 6)


@pytest.mark.parametrize(("n", "r", "bonus"), [(1, 7, 1), (2, 6, 2), (3, 5, 1), (3, 8, 3), (2, 4, 0)])
@pytest.mark.parametrize("reroll", [False, True])
@pytest.mark.parametrize("on_reroll", [False, True])
def test_designated_distribution_equals_every_roll(
    n: int, r: int, bonus: int, reroll: bool, on_reroll: bool
) -> None:
    width = 2 * n if reroll else n
    counts = Counter(
        pools.pool_hits(d, n, r, bonus, reroll, on_reroll, designated=True)[1]
        for d in all_rolls((6,) * width)
    )
    brute = {k: Fraction(v, 6**width) for k, v in counts.items()}
    assert pools.pool_distribution(n, r, bonus, reroll, on_reroll, designated=True) == brute


def test_one_die_gives_the_same_answer_either_way() -> None:
    # "(or their only die if they have A1)"
    for r in range(1, 10):
        assert pools.distribution(1, r, 2) == pools.pool_distribution(1, r, 2, False, True, designated=True)


# -- 7. transport: "(+50%) (to a maximum total of 12cm)" (line 218) and "add the modifiers ... together BEFORE
# applying them" (line 214). Line infantry is Medium Inf, 6cm; a road is +25%, an assault +100%.
def move(reading: str, **kw: Any) -> Fraction:
    req = MoveRequest(unit="line-inf", transport="motorised", variants={"transport-order": reading}, **kw)
    return Fraction(RS.resolve("move", req).evaluation.outcome["exact_cm"])


@pytest.mark.parametrize(
    ("reading", "road", "assault_on_road"),
    [
        ("rate-first", Fraction(6) * 3 / 2 * 5 / 4, Fraction(6) * 3 / 2 * 5 / 4 * 2),  # 11.25, 22.5
        (
            "additive",
            Fraction(6) * (1 + Fraction(50 + 25, 100)),
            Fraction(6) * Fraction(175, 100) * 2,
        ),  # 10.5, 21
        ("cap-on-total", Fraction(45, 4), Fraction(12)),  # 11.25 is under 12; 22.5 is capped at 12
    ],
)
def test_transport_order(reading: str, road: Fraction, assault_on_road: Fraction) -> None:
    assert move(reading, terrain=["road"]) == road
    assert move(reading, terrain=["road"], assaulting=True) == assault_on_road
    # In the open every reading gives 6 x 1.5 = 9.
    assert move(reading) == 9


def test_rate_first_is_the_default() -> None:
    out = RS.resolve("move", MoveRequest(unit="line-inf", transport="motorised", terrain=["road"]))
    assert Fraction(out.evaluation.outcome["exact_cm"]) == Fraction(45, 4)


# -- 10. overwatch: "Sub-units who have remained stationary (but not those who are digging in while stationary)"
# against "the marker cannot touch ... but the firer can always use overwatch" (line 210) ----------------------
@pytest.mark.parametrize("posture", ["moving", "digging"])
def test_a_moving_or_digging_firer_overwatches_only_under_always(posture: str) -> None:
    blocked = {
        "shooter": "line-inf",
        "bases": 3,
        "bases_with_direct_line": 0,
        "target_resilience": 4,
        "posture": posture,
        "overwatch": True,
    }
    with pytest.raises(RulesError) as e:
        RS.resolve("line-of-sight", SightRequest(**blocked))
    assert e.value.field == "overwatch"
    always = SightRequest(**blocked, variants={"overwatch-who": "always-when-blocked"})
    assert RS.resolve("line-of-sight", always).evaluation.key == "overwatch"
    # With a line to a target it cannot hurt (R7 beyond a rifle's 6) the terrain sentence does not apply.
    in_view = {**blocked, "bases_with_direct_line": 3, "target_resilience": 7}
    with pytest.raises(RulesError):
        RS.resolve(
            "line-of-sight", SightRequest(**in_view, variants={"overwatch-who": "always-when-blocked"})
        )


# -- 14. "a platoon must roll equal to or under its own Resilience value (a roll of 6 fails)" against
# "Resilience starts as a built-in value but is increased or decreased depending on their terrain" (line 212)
MOVING_IN_OPEN: dict[str, Any] = {"terrain": "open", "posture": "moving"}  # -3R
DUG_IN_FORT: dict[str, Any] = {"terrain": "fortification", "posture": "dug-in"}  # +3R


def test_recovery_against_built_in_or_current_resilience() -> None:
    def odds(cover: dict[str, Any], reading: str | None = None) -> Fraction:
        variants = {"recovery-resilience": reading} if reading else {}
        req = RecoveryRequest(resilience=4, cover=cover, variants=variants)
        return RS.resolve("recovery", req).probabilities["recovered"]

    assert odds(MOVING_IN_OPEN) == Fraction(4, 6)  # built-in R4: 1-4
    assert odds(MOVING_IN_OPEN, "current") == Fraction(1, 6)  # R4 - 3 = R1: only a 1
    assert odds(DUG_IN_FORT) == Fraction(4, 6)
    assert odds(DUG_IN_FORT, "current") == Fraction(5, 6)  # R7, but a 6 fails
    gassed = {**MOVING_IN_OPEN, "terrain": "rough", "gassed": True}  # rough moving -2R, gas -1R: R1
    assert odds(gassed, "current") == Fraction(1, 6)
    with pytest.raises(RulesError) as e:
        RS.resolve("recovery", RecoveryRequest(resilience=4, variants={"recovery-resilience": "current"}))
    assert e.value.field == "cover"


def test_the_same_shooter_rule_rolls_the_same_recovery_die() -> None:
    def res(reading: str, die: int) -> str:
        req = InjuryRequest(
            under_fire_from="different-shooter",
            resilience=4,
            cover=MOVING_IN_OPEN,
            dice=[die],
            variants={"recovery-resilience": reading},
        )
        return RS.resolve("injury-movement", req).evaluation.key

    assert res("built-in", 3) == "restored" and res("current", 3) == "halved"
    assert res("current", 1) == "restored"
    # No die, no cover needed, under the same shooter.
    same = InjuryRequest(
        under_fire_from="same-shooter", resilience=4, variants={"recovery-resilience": "current"}
    )
    assert RS.resolve("injury-movement", same).evaluation.key == "halved"
