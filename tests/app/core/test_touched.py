"""What an event touched (app.core.touched): the referee's acts on the clock change neither a stand nor the game
(its turn, step, board, version), so their frames carry no game state and no board reads its units anew. Counted
as touching the game, a pause or a resume had every map redraw its whole table (issue 64: 1.5-2.2 s to reach the
other devices where any other act took 0.16-0.36 s)."""

from __future__ import annotations

from typing import Any

import pytest

from app.core.touched import touches_game
from app.pages.referee import _needs_turn_panel, _reshapes
from rules import registry


def event(kind: str, payload: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"id": 9, "kind": kind, "payload": payload or {}}


@pytest.mark.parametrize("kind", ["clock-paused", "clock-resumed", "clock-time-given", "clock-limits-set"])
def test_a_clock_act_and_its_undo_touch_neither_the_game_nor_the_board(kind: str) -> None:
    rules = registry.get_game_rules("flanders-fields")
    for ev in (event(kind, {"source": "clock"}), event("undo", {"kind": kind, "undoes": 3})):
        assert not touches_game(ev)
        assert not _reshapes(ev) and not _needs_turn_panel([ev], rules)


def test_the_turn_moving_on_and_the_games_end_touch_the_game() -> None:
    assert touches_game(event("step")) and touches_game(event("game-finished"))
    assert touches_game(event("objective-called"))  # the end's list of what is still to settle moves with it
