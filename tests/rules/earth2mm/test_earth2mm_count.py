"""A 2mm shot entered as the table counts it (issue 69): how many dice, how many reached the target's Resilience
and (issue 89) where a (+#) bonus lifts a die, whether it lifted one short of it, read as the faces would be (a
property over every pool and roll), the count's exact odds the resolver's own, and a count the dice cannot show
refused naming its field. The faces standing for a count: rules.core.ruleset."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules.core.acts import Roll
from rules.core.dice import Count, Threshold, count_odds
from rules.core.errors import RulesError
from rules.core.rolls import work_out
from rules.earth2mm.data import UNIT_IDS
from rules.earth2mm.resolvers import ShootRequest, hits_key
from rules.registry import get_ruleset
from tests.rules.earth2mm.test_earth2mm_rolls import GAME, M, table

RS = get_ruleset("2mm-earth-1418")
TERRAINS = ("open", "rough", "fortification")
POSTURES = ("moving", "stationary", "dug-in")
DUG_IN = table(m={"dug_in_bounds": 1})


def counted(req: ShootRequest) -> Threshold | None:
    """The shot's threshold where its rule counts, None where it reads faces or refuses the request."""
    resolver = RS.resolvers["shoot"]()
    ctx = RS.context(req.period, req.variants)
    try:
        resolver.check(req, ctx)
    except RulesError:
        return None
    return resolver.counted(req, ctx)


def lifted_in(threshold: Threshold, rolled: Sequence[int]) -> bool:
    """Whether the faces have a die short of the number that the bonus lifts to it (the first alone where the
    reading marks it): how the table reads a bonus's die in a count."""
    if not threshold.faces_lifted:
        return False
    short = rolled[:1] if threshold.first_only else rolled
    return any(max(1, threshold.lift) <= f < threshold.reach for f in short)


@settings(max_examples=150, deadline=None)
@given(
    shooter=st.sampled_from(UNIT_IDS),
    target=st.sampled_from(UNIT_IDS),
    bases=st.integers(1, 8),
    melee=st.booleans(),
    terrain=st.sampled_from(TERRAINS),
    posture=st.sampled_from(POSTURES),
    designated=st.booleans(),
    faces=st.lists(st.integers(1, 6), min_size=12, max_size=12),
)
def test_a_count_answers_what_the_faces_answer(
    shooter: str,
    target: str,
    bases: int,
    melee: bool,
    terrain: str,
    posture: str,
    designated: bool,
    faces: list[int],
) -> None:
    # Issue 89: a pool with a (+#) bonus is counted too (how many reached, and whether the bonus lifted a die
    # short of it), under either reading of which die the bonus goes on.
    try:
        req = ShootRequest(
            shooter=shooter,
            bases=bases,
            melee=melee,
            target=target,
            target_formation_resilience=3,
            target_cover={"terrain": terrain, "posture": posture},
            variants={"bonus-which-die": "designated-die"} if designated else {},
        )
    except ValueError:
        assume(False)
    threshold = counted(req)
    assume(threshold is not None and threshold.dice * (2 if threshold.again else 1) <= len(faces))
    assert threshold is not None
    n = threshold.dice
    rolled = faces[: 2 * n if threshold.again else n]
    by_faces = RS.resolve("shoot", req.model_copy(update={"dice": rolled})).as_dict()
    reached = sum(1 for f in rolled[:n] if f >= threshold.reach)
    # At a vehicle the hits are rolled again, one die each from the dice after the first roll's.
    again = sum(1 for f in rolled[n : n + reached] if f >= threshold.reach) if threshold.again else None
    count = Count(n, reached, lifted_in(threshold, rolled[:n]), again)
    stand_in, _ = RS.counted("shoot", req, count)
    by_count = RS.resolve("shoot", req.model_copy(update={"dice": list(stand_in)})).as_dict()
    assert (by_count["outcome_key"], by_count["outcome"]) == (by_faces["outcome_key"], by_faces["outcome"])


@pytest.mark.parametrize("designated", [False, True])
@pytest.mark.parametrize(
    ("shooter", "target", "bases"),
    [
        ("machineguns", "line-inf", 2),
        ("mother-tank", "line-inf", 2),
        ("howitzers-120", "reserve-inf", 4),
        ("line-inf", "mother-tank", 4),
    ],
)
def test_a_pools_counts_have_the_resolvers_odds(
    shooter: str, target: str, bases: int, designated: bool
) -> None:
    # Every count a pool can show (how many reached, a bonus's die lifted or not, how many reached it again where
    # the hits are rolled again), its exact chance, sums to the resolver's own odds of as many hits: the count's
    # odds are the book's.
    variants = {"bonus-which-die": "designated-die"} if designated else {}
    req = ShootRequest(shooter=shooter, bases=bases, target=target, variants=variants)
    threshold = counted(req)
    assert threshold is not None and bool(threshold.lift) is not threshold.again
    assert threshold.first_only is (designated and bool(threshold.lift))
    odds = RS.resolvers["shoot"]().probabilities(req, RS.context(None, variants))
    by_hits: dict[str, Fraction] = {}
    for k in range(threshold.dice + 1):
        for lifted, again in (
            [(False, j) for j in range(k + 1)] if threshold.again else [(False, None), (True, None)]
        ):
            p = count_odds(threshold, k, lifted, again)
            if p:
                stand_in, _ = RS.counted("shoot", req, Count(threshold.dice, k, lifted, again))
                key = RS.resolve("shoot", req.model_copy(update={"dice": list(stand_in)})).as_dict()[
                    "outcome_key"
                ]
                by_hits[key] = by_hits.get(key, Fraction(0)) + p
    assert by_hits == {k: v for k, v in odds.items() if v}


@pytest.mark.parametrize(("reach", "dice"), [(1, 4), (3, 5), (4, 1), (6, 7), (7, 3)])
def test_the_counts_odds_are_the_resolvers_odds_of_as_many_hits(reach: int, dice: int) -> None:
    # Line infantry's 1 die, one more a base beyond two: `dice` dice at the target's Resilience `reach`.
    odds = {k: count_odds(Threshold(dice, reach), k) for k in range(dice + 1)}
    assert sum(odds.values(), Fraction(0)) == 1
    p = Fraction(max(0, min(6, 7 - reach)), 6)
    assert odds[dice] == p**dice and odds[0] == (1 - p) ** dice


def test_a_counted_shot_in_the_game_keeps_its_count_and_its_odds() -> None:
    # A's three line bases (2/1: one die, a base beyond two another) at M's MGs dug in (R3 as S.F.): one of two
    # dice reached 3, at 2 x 2/3 x 1/3.
    act = Roll(resolver="shoot", unit_id=12, target_id=M + 2, count=Count(2, 1))
    res = work_out(GAME, GAME.book.roll_terms, RS, DUG_IN, act).resolution
    assert res["count"] == {"dice": 2, "reached": 1, "reach": 3, "odds": "4/9"}
    assert res["outcome_key"] == hits_key(1) and res["rolled_by_server"] is False
    assert res["probabilities_exact"][hits_key(1)] == res["count"]["odds"]


@pytest.mark.parametrize(
    ("count", "field"),
    [(Count(3, 1), "count.dice"), (Count(1, 1), "count.dice"), (Count(2, 3), "count.reached")],
)
def test_a_count_the_pool_cannot_show_is_refused_naming_its_field(count: Count, field: str) -> None:
    act = Roll(resolver="shoot", unit_id=12, target_id=M + 2, count=count)
    with pytest.raises(RulesError) as e:
        work_out(GAME, GAME.book.roll_terms, RS, DUG_IN, act)
    assert e.value.field == field


def test_a_roll_that_reads_its_faces_refuses_a_count() -> None:
    # Hits rolled again with a bonus (machineguns at a vehicle): which dice hit, and which the bonus goes on,
    # matter, not only how many reached.
    req: Any = ShootRequest(shooter="machineguns", bases=2, target="mother-tank", target_bases=2)
    with pytest.raises(RulesError) as e:
        RS.counted("shoot", req, Count(len(RS.resolvers["shoot"]().dice(req, RS.context(None))), 0))
    assert e.value.field == "count"
    act = Roll(resolver="shoot", unit_id=12, target_id=M + 2, count=Count(2, 1), dice=[6, 6])
    with pytest.raises(RulesError) as both:
        work_out(GAME, GAME.book.roll_terms, RS, DUG_IN, act)
    assert both.value.field == "count"


@pytest.mark.parametrize(
    ("count", "said"),
    [
        (Count(3, 0, lifted=True), None),
        (Count(3, 3, lifted=True), "none was left to lift"),
    ],
)
def test_a_bonus_pools_lifted_die_is_refused_where_the_dice_cannot_show_it(
    count: Count, said: str | None
) -> None:
    # A Machinegun pair (3 dice, +1) at line infantry: a die lifted to 4 by the bonus is one more hit; a lifted
    # die where every die reached is refused naming the field.
    req: Any = ShootRequest(shooter="machineguns", bases=2, target="line-inf")
    if said is None:
        faces, threshold = RS.counted("shoot", req, count)
        answer = RS.resolve("shoot", req.model_copy(update={"dice": list(faces)})).as_dict()
        assert threshold.faces_lifted and answer["outcome_key"] == hits_key(1)
        return
    with pytest.raises(RulesError) as e:
        RS.counted("shoot", req, count)
    assert e.value.field == "count.lifted" and said in e.value.message
