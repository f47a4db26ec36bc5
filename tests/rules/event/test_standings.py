"""The standings' tie-breakers (rules.event.standings): points, then victory-point difference, then strength
of schedule, or the order the event chose."""

from __future__ import annotations

import pytest

from rules.event.standings import EventScoring, Played, standings

# Four players, two rounds, each wins once and loses once: level on points.
GAMES = [
    Played(1, 2, winner=1, a_points=5, b_points=1),  # 1: +4, 2: -4
    Played(3, 4, winner=3, a_points=3, b_points=2),  # 3: +1, 4: -1
    Played(1, 4, winner=4, a_points=2, b_points=6),  # 1: +4 -4 = 0, 4: -1 +4 = +3
    Played(2, 3, winner=2, a_points=4, b_points=2),  # 2: -4 +2 = -2, 3: +1 -2 = -1
]
# Level on points and on victory-point difference; 1 met the stronger schedule (2 on 3, 3 on 4).
SCHEDULE = [
    Played(1, 2, winner=1, a_points=1, b_points=0),
    Played(3, 4, winner=3, a_points=1, b_points=0),
    Played(1, 3, winner=None, a_points=0, b_points=0),
    Played(2, 4, winner=2, a_points=1, b_points=0),
]


def line(rows: list, player: int) -> tuple[int, int, int, int]:
    row = next(r for r in rows if r.player == player)
    return row.place, row.points, row.vp, row.sos


def test_points_then_victory_point_difference() -> None:
    rows = standings([1, 2, 3, 4], GAMES, EventScoring())
    assert [r.player for r in rows] == [4, 1, 3, 2]  # all on 3 points: vp +3, 0, -1, -2
    assert line(rows, 4) == (1, 3, 3, 6)
    assert [r.place for r in rows] == [1, 2, 3, 4]


def test_then_strength_of_schedule() -> None:
    rows = standings([3, 1, 2, 4], SCHEDULE, EventScoring())
    assert [line(rows, p) for p in (1, 3)] == [(1, 4, 1, 7), (2, 4, 1, 4)]


def test_the_event_chooses_the_order() -> None:
    order = EventScoring(order=("sos", "points", "vp"))
    rows = standings([1, 2, 3, 4], SCHEDULE, order)
    assert [r.player for r in rows] == [1, 4, 3, 2]  # sos 7, 7 (then points 4 and 0), 4, 4 (then points)
    games = [*GAMES, Played(3, None, winner=None)]  # a bye: event points, no opponent, no game points
    bye = next(r for r in standings([1, 2, 3, 4], games, EventScoring()) if r.player == 3)
    assert (bye.points, bye.vp, bye.byes, bye.played) == (6, -1, 1, 2)


def test_level_on_everything_shares_a_place_listed_by_seed() -> None:
    rows = standings([7, 5], [Played(5, 7, winner=None, a_points=2, b_points=2)], EventScoring())
    assert [(r.place, r.player, r.points, r.drawn) for r in rows] == [(1, 7, 1, 1), (1, 5, 1, 1)]


def test_the_tie_breakers_are_each_named_once() -> None:
    with pytest.raises(ValueError, match="each once"):
        EventScoring(order=("points", "points", "vp"))
