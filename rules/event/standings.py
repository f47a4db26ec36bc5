"""The standings of a club event from its confirmed results, ordered by the event's tie-breakers.

Event points: a win, a draw, a loss and a bye are worth what the event says (`EventScoring`, the organiser's
choice; none of these is a rule book's value). The tie-breakers, in the order the event lists them:
- "points": event points;
- "vp": victory-point difference, the game points a player scored less those scored against them, summed over
  their games (a bye counts nothing);
- "sos": strength of schedule, the event points of every opponent they met, summed (a bye is no opponent).
Players level on every tie-breaker share a place and are listed by seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

TieBreak = Literal["points", "vp", "sos"]
TIE_BREAKS: tuple[TieBreak, ...] = ("points", "vp", "sos")


@dataclass(frozen=True)
class EventScoring:
    win: int = 3
    draw: int = 1
    loss: int = 0
    bye: int = 3
    order: tuple[TieBreak, ...] = TIE_BREAKS

    def __post_init__(self) -> None:
        if sorted(self.order) != sorted(TIE_BREAKS):
            raise ValueError("the tie-breakers are points, vp and sos, each once")


@dataclass(frozen=True)
class Played:
    """One confirmed game of the event as the standings count it: player a against b (None: a had the bye),
    the winner (None: a draw) and the game points each scored."""

    a: int
    b: int | None
    winner: int | None
    a_points: int = 0
    b_points: int = 0


@dataclass(frozen=True)
class Standing:
    place: int
    player: int
    points: int
    vp: int
    sos: int
    played: int
    won: int
    drawn: int
    lost: int
    byes: int


def event_points(player: int, game: Played, scoring: EventScoring) -> int:
    if game.b is None:
        return scoring.bye
    if game.winner is None:
        return scoring.draw
    return scoring.win if game.winner == player else scoring.loss


def standings(players: Sequence[int], games: Iterable[Played], scoring: EventScoring) -> list[Standing]:
    """Every player's line, first place first (`players` in seed order)."""
    seed = {p: i for i, p in enumerate(players)}
    points = dict.fromkeys(players, 0)
    vp = dict.fromkeys(players, 0)
    counts = {p: [0, 0, 0, 0] for p in players}  # won, drawn, lost, byes
    opponents: dict[int, list[int]] = {p: [] for p in players}
    for g in games:
        for me, them, mine, theirs in (
            (g.a, g.b, g.a_points, g.b_points),
            (g.b, g.a, g.b_points, g.a_points),
        ):
            if me is None:
                continue
            points[me] += event_points(me, g, scoring)
            if them is None:
                counts[me][3] += 1
                continue
            opponents[me].append(them)
            vp[me] += mine - theirs
            counts[me][0 if g.winner == me else 1 if g.winner is None else 2] += 1
    sos = {p: sum(points[o] for o in opponents[p]) for p in players}
    values = {"points": points, "vp": vp, "sos": sos}

    def key(p: int) -> tuple[int, ...]:
        return tuple(-values[t][p] for t in scoring.order)

    ordered = sorted(players, key=lambda p: (key(p), seed[p]))
    out: list[Standing] = []
    for i, p in enumerate(ordered):
        place = out[-1].place if out and key(ordered[i - 1]) == key(p) else i + 1
        won, drawn, lost, byes = counts[p]
        out.append(Standing(place, p, points[p], vp[p], sos[p], won + drawn + lost, won, drawn, lost, byes))
    return out
