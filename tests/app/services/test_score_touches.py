"""Which logged events may change the score (app.services.score.touches_score): a live frame, and the event
organiser's view, work the score out again only after one of them."""

from __future__ import annotations

from typing import Any

import pytest

from app.services.score import CALLED, FINISHED, touches_score


def event(logged_kind: str, **payload: Any) -> dict[str, Any]:
    return {"kind": logged_kind, "payload": payload}


@pytest.mark.parametrize(
    ("logged", "touches"),
    [
        (event("unit-moved", changes=[{"unit": 3, "field": "x", "before": 1.0, "after": 2.0}]), True),
        (
            event("unit-updated", changes=[{"unit": 3, "field": "killed", "before": False, "after": True}]),
            True,
        ),
        (event("markers", changes=[{"unit": 3, "field": "suppression", "before": 0, "after": 1}]), False),
        (event("undo", changes=[{"unit": 3, "field": "suppression", "before": 1, "after": 0}]), False),
        (event("undo", changes=[{"unit": 3, "field": "y", "before": 1.0, "after": 0.0}]), True),
        (event("game-updated", fields=["table_objectives", "terrain"]), True),
        (event("game-updated", fields=["name"]), False),
        (event(CALLED), True),
        (event("undo", kind=CALLED, changes=[]), True),  # the referee's call taken back
        (event(FINISHED), True),
        (event("step"), True),
        (event("unit-added"), True),
    ],
)
def test_what_may_change_the_score(logged: dict[str, Any], touches: bool) -> None:
    assert touches_score(logged) is touches
