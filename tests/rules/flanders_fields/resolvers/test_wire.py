"""Wire crossing: the main text's thresholds per period, belts, and exact per-platoon odds."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from rules.core.errors import RulesError
from tests.rules.flanders_fields import FF, resolve

# "1914 to Early 1915 = 3+ / Mid 1915 to Mid1917 = 5+ / Mid 1917 onwards = 3+"
NEEDS = {"early": 3, "mid": 5, "late": 3}
EARLY_ROLL = {"early-wire-crossing": "platoon-roll"}


@pytest.mark.parametrize("period", sorted(NEEDS))
@pytest.mark.parametrize("die", range(1, 7))
def test_wire_threshold_per_period(period: str, die: int) -> None:
    variants = EARLY_ROLL if period == "early" else {}
    res = resolve("wire-crossing", period=period, platoons=1, dice=[die], variants=variants)
    assert res.evaluation.outcome["platoons"][0]["result"] == ("crossed" if die >= NEEDS[period] else "stuck")


def test_the_books_example() -> None:
    # "in a game set in 1917 ... the dice come up 1,3, 5 and 5 this allows 3 platoons to move through the
    # wire": three of four pass, which is the 3+ of "Mid 1917 onwards".
    res = resolve("wire-crossing", period="late", platoons=4, dice=[1, 3, 5, 5])
    assert res.evaluation.outcome["crossed"] == 3 and res.evaluation.key == "3-crossed"


def test_every_belt_needs_its_own_roll() -> None:
    # "The above rules apply to every 2cm depth of wire": platoon 1 rolls 5 then 2 (stuck on the 2nd belt).
    res = resolve("wire-crossing", period="mid", platoons=2, belts=2, dice=[5, 2, 6, 5])
    p1, p2 = res.evaluation.outcome["platoons"]
    assert (p1["result"], p1["belts_crossed"]) == ("stuck", 1)
    assert (p2["result"], p2["belts_crossed"]) == ("crossed", 2)


@pytest.mark.parametrize(
    ("period", "platoons", "belts"), [("mid", 2, 2), ("late", 3, 1), ("late", 1, 3), ("mid", 4, 1)]
)
def test_probabilities_match_brute_force(period: str, platoons: int, belts: int) -> None:
    res = resolve(
        "wire-crossing", period=period, platoons=platoons, belts=belts, dice=[6] * (platoons * belts)
    )
    counts: dict[str, int] = {}
    for dice in itertools.product(range(1, 7), repeat=platoons * belts):
        key = resolve(
            "wire-crossing", period=period, platoons=platoons, belts=belts, dice=list(dice)
        ).evaluation.key
        counts[key] = counts.get(key, 0) + 1
    total = 6 ** (platoons * belts)
    assert res.probabilities == {k: Fraction(v, total) for k, v in counts.items()}


def test_many_platoons_are_not_enumerated() -> None:
    # 16 platoons x 3 belts = 48 dice; mid: each platoon crosses with (2/6)^3 = 1/27.
    res = resolve("wire-crossing", period="mid", platoons=16, belts=3, dice=[6] * 48)
    assert res.probabilities["16-crossed"] == Fraction(1, 27) ** 16
    assert sum(res.probabilities.values()) == 1


def test_early_playsheet_reading_refuses_the_platoon_roll() -> None:
    with pytest.raises(RulesError) as err:
        resolve("wire-crossing", period="early", platoons=2, dice=[3, 3])
    assert err.value.field == "period" and err.value.allowed == ["mid", "late"]


def test_wire_rules_dataset() -> None:
    data = FF.data("wire-rules")
    assert {n["period"]: n["needs"] for n in data["needs"]} == NEEDS
    assert data["belt_cm"] == 2 and len(data["extra_rules"]["rules"]) == 4
