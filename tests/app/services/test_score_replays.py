"""The score's replays kept between reads (app.services.score_replays): a read goes on from the newest kept
replay no undo has made stale, and from none kept for other objectives, or whose last event the log no longer has
as it was replayed (a read in a write rolled back); either way the score is the whole log's (rules.core.score)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.services import score_replays
from rules.core.score import Logged, Piece, pieces_before, replay_start, score_at, score_of
from tests.rules.core.test_score import BASES, HOME, ON_1, move, objectives

KEY = ("a database", 1, "made")


def test_a_read_goes_on_from_the_newest_replay_an_undo_left_good(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(score_replays, "EVERY", 2)  # kept after events 2 and 4, and the newest read (5)
    score_replays.forget()
    objs = objectives("first_taken", "each_turn")
    places = [HOME, ON_1, HOME, ON_1, HOME, ON_1]
    log = [Logged(1 + n // 2, move(1, places[n], places[n + 1]), id=n + 1) for n in range(5)]
    now = [Piece(1, "attacker", "b", *ON_1)]
    fresh = replay_start(objs, BASES, pieces_before(now, log)[0])
    first = score_replays.replayed(KEY, "inputs", None, 0, now, log, set(), fresh)
    assert first is not None and score_at(first) == score_of(objs, BASES, now, log)
    assert score_replays.resume_point(KEY, "other objectives", set()) is None

    # Event 6 undoes event 3: the replays after 4 and 5 are stale, the one after 2 goes on over 2's event on.
    undone = {3}
    log = [replace(ev, undone=ev.id == 3) for ev in log]
    log.append(Logged(3, move(1, ON_1, HOME), id=6, undone=True))
    now = [Piece(1, "attacker", "b", *HOME)]
    start = score_replays.resume_point(KEY, "inputs", undone)
    assert start is not None and start.event_id == 2
    resumed = score_replays.replayed(KEY, "inputs", start, 6, now, log[1:], undone, None)
    assert resumed is not None and score_at(resumed) == score_of(objs, BASES, now, log)
    kept = score_replays.resume_point(KEY, "inputs", undone)
    assert kept is not None and kept.event_id == 6

    # Its last event not in the log as replayed (rolled back, its id taken by another): not gone on from.
    other = [replace(log[-1], moved=move(1, ON_1, ON_1)), *log[6:]]
    assert score_replays.replayed(KEY, "inputs", kept, 6, now, other, undone, None) is None
    score_replays.forget()
