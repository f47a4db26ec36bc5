"""The log as the score reads it (app.services.score_store.logged): an act later undone and its undoing are marked,
so nothing scores by them (rules.core.score.Logged.undone)."""

from __future__ import annotations

from types import SimpleNamespace

from app.services.score_store import logged


def test_an_undone_act_and_its_undoing_are_marked_and_no_other_event() -> None:
    rows = [
        SimpleNamespace(id=1, turn=1, kind="move", payload={}, private={}, reverses_id=None),
        SimpleNamespace(id=2, turn=1, kind="move", payload={}, private={}, reverses_id=None),
        SimpleNamespace(id=3, turn=1, kind="undo", payload={}, private={}, reverses_id=2),
    ]
    assert [e.undone for e in logged(rows, undone={2})] == [False, True, True]
