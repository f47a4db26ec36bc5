"""A command stand moves at most twice a turn (issue 53, finding 7): "All command stands including any
artillery liaison officers may move twice, at speed of their type" (each playsheet's MOVE COMMAND STANDS,
step 3 of the 1914 sheet, step 7 of the later two), through the path a move takes (GameRules.forbidden, then
GameRules.play)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.core.acts import MoveFormation, MoveStand
from rules.core.records import Snapshot
from rules.flanders_fields.book.sequence import COMMAND_MOVE
from rules.flanders_fields.play.changes import CommandMoved
from rules.flanders_fields.ruleset import cite
from tests.rules.flanders_fields.play.test_game_rules import GAME, battalion, snapshot

HQ = 2  # the battalion's command stand, at (10, 10)


def _moved(snap: Snapshot, y: float) -> Snapshot:
    move = MoveStand(unit_id=HQ, x=10, y=y, facing_deg=90)
    assert GAME.forbidden(snap, move) == ()
    return snap.after(GAME.play(snap, move).changes)


@pytest.mark.parametrize(("period", "step"), [("early", 3), ("mid", 7), ("late", 7)])
def test_a_command_stand_moves_twice_a_turn_and_no_more(period: str, step: int) -> None:
    snap = replace(snapshot(battalion(), turn=1), period=period)
    source = cite(f"ORDER SEQUENCE NOTES, {step} MOVE COMMAND STANDS", period)
    first = GAME.play(snap, MoveStand(unit_id=HQ, x=10, y=25, facing_deg=90)).changes
    assert CommandMoved("unit 2 has moved once this turn", source, HQ, 1, 1) in first
    twice = _moved(_moved(snap, 25), 40)
    assert twice.unit(HQ).action_under_way == {"act": "command-move", "turn": 1, "moves": 2}
    (refusal,) = GAME.forbidden(twice, MoveStand(unit_id=HQ, x=10, y=55, facing_deg=90))
    assert refusal == "unit 2 has moved twice this turn: a command stand may move twice"
    assert refusal.why == COMMAND_MOVE and refusal.source == source
    # Turned about, or moved with a formation, it moves as well.
    assert GAME.forbidden(twice, MoveStand(unit_id=HQ, x=10, y=40, facing_deg=0)) != ()
    assert GAME.forbidden(twice, MoveFormation(unit_id=1, dx=0, dy=5)) != ()


def test_the_count_starts_again_each_turn_and_not_in_set_up() -> None:
    twice = _moved(_moved(snapshot(battalion(), turn=1), 25), 40)
    next_turn = replace(twice, turn=2)
    assert GAME.forbidden(next_turn, MoveStand(unit_id=HQ, x=10, y=55, facing_deg=90)) == ()
    setup = snapshot(battalion())
    deployed = GAME.play(setup, MoveStand(unit_id=HQ, x=10, y=25, facing_deg=90)).changes
    assert deployed and not [c for c in deployed if isinstance(c, CommandMoved)]
    # A stand not moved (placed where it stands) makes no move.
    still = GAME.play(twice, MoveStand(unit_id=HQ, x=10, y=40, facing_deg=90)).changes
    assert not [c for c in still if isinstance(c, CommandMoved)]
