"""The turn (rules.core.game: `GameRules.steps` and the book's `bound`, `first_position`, `next_position`,
`acting`): the rule set says which step the game is in, who may act now and what comes next; an alternating
turn and a bound in which both sides act are two of its shapes."""

from __future__ import annotations

from rules.core.acts import Roll
from rules.core.game import Book, GameRules, Position, acting, first_position, next_position
from rules.core.records import Snapshot, UnitState
from rules.core.turn import Step

BOTH = ("attacker", "defender")


def _step(id: str, sides: tuple[str, ...] = ()) -> Step:
    return Step(id, 1, id, id, "test", id, sides=sides)


class Alternating(GameRules):
    def steps(self, period: str | None) -> tuple[Step, ...]:
        return (_step("move"), _step("fire"))


class Bound(GameRules):
    book = Book(bound=True, ordered_acts=frozenset({"move-stands"}))

    def steps(self, period: str | None) -> tuple[Step, ...]:
        return (
            _step("plan", BOTH),
            _step("attacker-executes", ("attacker",)),
            _step("defender-executes", ("defender",)),
        )


def _walk(model: GameRules, n: int) -> list[tuple[int, str, int]]:
    now, seen = first_position(model), []
    for _ in range(n):
        seen.append((now.turn, now.side, now.step))
        now = next_position(model, None, now)
    return seen


def test_sides_alternate_through_the_same_steps_then_the_next_game_turn() -> None:
    assert _walk(Alternating(), 5) == [
        (1, "attacker", 0),
        (1, "attacker", 1),
        (1, "defender", 0),
        (1, "defender", 1),
        (2, "attacker", 0),
    ]
    assert acting(Alternating(), None, Position(1, "defender", 1)) == ("defender",)
    # A rule set with no steps: each advance ends the side's turn.
    assert _walk(GameRules(), 3) == [(1, "attacker", 0), (1, "defender", 0), (2, "attacker", 0)]


def test_in_a_bound_both_sides_plan_then_each_executes_in_order() -> None:
    bound = Bound()
    assert _walk(bound, 4) == [(1, "attacker", 0), (1, "attacker", 1), (1, "attacker", 2), (2, "attacker", 0)]
    assert [acting(bound, None, Position(1, "attacker", i)) for i in range(3)] == [
        BOTH,
        ("attacker",),
        ("defender",),
    ]


def test_an_ordered_act_is_the_acting_sides_alone_while_the_game_is_played() -> None:
    bound = Bound()
    stand = UnitState(1, None, "defender", "platoon")
    executing = Position(1, "attacker", 1)
    refused = bound.refusal("playing", None, executing, "move-stands", "defender", stand, [stand])
    assert refused == "Wait for your step: only the attacker may move stands now"
    assert (
        bound.refusal("playing", None, Position(1, "attacker", 0), "move-stands", "defender", stand, [])
        is None
    )
    assert bound.refusal("setup", None, executing, "move-stands", "defender", stand, []) is None
    assert bound.refusal("playing", None, executing, "place-markers", "defender", stand, []) is None


def test_a_roll_is_the_acting_sides_alone_while_the_game_is_played() -> None:
    bound = Bound()
    table = Snapshot("test", None, (), 120.0, 180.0)
    roll = Roll(resolver="rally")
    refused = bound.roll_refusal("playing", table, Position(1, "attacker", 1), roll, "defender")
    assert refused == "Wait for your step: only the attacker may roll now."
    assert bound.roll_refusal("playing", table, Position(1, "attacker", 0), roll, "defender") is None
    assert bound.roll_refusal("setup", table, Position(1, "attacker", 1), roll, "defender") is None
