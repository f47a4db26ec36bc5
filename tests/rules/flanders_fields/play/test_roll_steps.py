"""What each step of the order sequence lets a side roll (rules.flanders_fields.book.sequence.roll_refusal): a
resolver in the steps that list it, for the side to move and the units the step's orders reach; the book's
reactions for the side not moving; every refusal one sentence naming the step, with the rule and its line."""

from __future__ import annotations

import itertools

from rules.flanders_fields.book import sequence as S
from rules.flanders_fields.book.common import PERIODS, PeriodId

BN: tuple[S.UnitClass, ...] = ("battalion-asset",)
SUPPORT: tuple[S.UnitClass, ...] = ("support-asset",)


def at(period: PeriodId, step: str) -> int:
    return next(i for i, s in enumerate(S.SEQUENCES[period].steps) if s.id == step)


def refused(period: PeriodId, step: str, roll: S.RollAsked, mover: str = "German") -> S.Refusal | None:
    return S.roll_refusal("playing", period, at(period, step), "attacker", roll, mover)


def test_each_step_lets_the_side_to_move_roll_what_it_lists() -> None:
    for period in PERIODS:
        for i, step in enumerate(S.SEQUENCES[period].steps):
            for resolver in step.resolvers:
                assert (
                    S.roll_refusal("playing", period, i, "attacker", S.RollAsked(resolver, "attacker"))
                    is None
                )
    # ... and nothing it does not: a rolling barrage in the late war's support orders names its own step.
    barrage = refused("late", "support-orders", S.RollAsked("rolling-barrage", "attacker"))
    assert (
        barrage
        == "It is the German support orders step: make the rolling barrage roll in the rolling barrages step."
    )
    assert (
        barrage is not None
        and barrage.source == S.SEQUENCES["late"].steps[at("late", "support-orders")].source
    )
    assert refused("early", "battalion-orders", S.RollAsked("deviation", "attacker")) is not None
    assert refused("early", "support-orders", S.RollAsked("deviation", "attacker")) is None


def test_a_roll_is_named_as_the_thing_a_side_makes() -> None:
    # Its id in a sentence saying to roll it had said "roll order roll" (the newcomer pass, session 16).
    order = refused("early", "move-command-stands", S.RollAsked("order-roll", "attacker", classes=BN))
    assert order == (
        "It is the German move command stands step: make the order roll in the support orders step or the "
        "battalion orders step."
    )
    assert order is not None and "the order roll is not made" in order.why


def test_out_of_its_turn_a_side_waits() -> None:
    order = refused("early", "battalion-orders", S.RollAsked("order-roll", "defender", classes=BN))
    assert order == "It is the German battalion orders step: wait for your turn."
    assert order is not None and order.source == S.TURN_SOURCE and S.ONE_SIDE_AT_A_TIME in order.why
    # Without a nation the side names itself.
    assert S.roll_refusal("playing", "early", 0, "defender", S.RollAsked("order-roll", "attacker")) == (
        "It is the defender's support orders step: wait for your turn."
    )


def test_the_side_not_moving_keeps_what_the_book_gives_it() -> None:
    # "the defenders may shoot as the attackers close": whether they close is the table's to see, so the
    # referee allows that shot with an override; the refusal names the rule.
    back = refused("early", "battalion-orders", S.RollAsked("shooting", "defender", classes=BN))
    assert back is not None and "CLOSE COMBAT" in back.why and "override" in back.why
    # A battalion tests morale when its losses fall due, and troops leave deep shelters, in either turn.
    for period in PERIODS:
        for i in range(len(S.SEQUENCES[period].steps)):
            for resolver in ("morale", "deep-shelter", "visibility"):
                roll = S.RollAsked(resolver, "defender")
                assert S.roll_refusal("playing", period, i, "attacker", roll) is None, (period, i, resolver)
    assert refused("early", "support-orders", S.RollAsked("heroic-action", "defender")) is not None
    assert refused("early", "support-orders", S.RollAsked("heroic-action", "attacker")) is None


def test_a_step_s_orders_reach_only_its_own_units() -> None:
    # "Regiment/Brigade commanders may only issue orders to any of its own or attached assets".
    assert refused("early", "support-orders", S.RollAsked("order-roll", "attacker", classes=SUPPORT)) is None
    company = refused("early", "support-orders", S.RollAsked("order-roll", "attacker", classes=BN))
    assert company is not None and "regimental/brigade MGs, artillery and mortars" in company
    assert refused("early", "battalion-orders", S.RollAsked("shooting", "attacker", classes=BN)) is None
    assert (
        refused("early", "battalion-orders", S.RollAsked("shooting", "attacker", classes=SUPPORT)) is not None
    )
    # Steps that give no orders fire what they list, whoever fires it.
    assert (
        refused("late", "barrages-and-bombardments", S.RollAsked("shooting", "attacker", classes=BN)) is None
    )


def test_the_turn_s_first_step_draws_and_the_attacker_alone_rolls_deep_suppression() -> None:
    draw = S.RollAsked("random-event", "attacker")
    assert refused("mid", "deep-suppression", draw) is None
    assert refused("mid", "gas", draw) is not None
    theirs = S.roll_refusal("playing", "mid", 0, "defender", S.RollAsked("deep-suppression", "defender"))
    assert theirs is not None and "only the attacker" in theirs


def test_every_refusal_is_one_sentence_with_its_rule() -> None:
    resolvers = {r for p in PERIODS for s in S.SEQUENCES[p].steps for r in s.resolvers} | set(S.ROLL_PERMITS)
    for period, resolver, side, classes in itertools.product(
        PERIODS, sorted(resolvers), ("attacker", "defender"), (None, BN, SUPPORT)
    ):
        for i in range(len(S.SEQUENCES[period].steps)):
            said = S.roll_refusal("playing", period, i, "attacker", S.RollAsked(resolver, side, classes))
            if said is not None:
                assert len(said) <= S.MAX_SENTENCE and said.endswith("."), said
                assert said.why and said.source, said
