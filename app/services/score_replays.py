"""The score's replays kept between reads (issue 69, hostile): a read replays only the events since the last.

Every live frame's score panel and the report read the score, which is the log's replay (rules.core.score);
the events per game have no cap, so a player's moves and undos (0.2 ms a move at the largest table) would
push each read past the project's 1 s of CPU. So each worker keeps, per game (the newest `GAMES` read), the
replay after the newest event it read, and one every `EVERY` events (the newest `PERIODIC`); a read goes on
from the newest still good over the events after it. A kept replay is good while
- the game's objectives and victory conditions are the ones it was made with (`inputs`),
- no event up to it has been undone since (an undo marks an earlier event undone: nothing scores by it), and
- its last event is in the log as it replayed it (a read in a write rolled back has kept one that is not), and
  the game has as many events up to it as it replayed (an event committed late with a lower id is not missed),
- the units it ends with are the units now with the events since taken back (rules.core.score `resumed`: a
  change not logged would make them differ).
Otherwise the read replays the whole log, as before. Each worker keeps its own: correct either way, only the
cost differs (the first read after a restart replays the whole log). A replay is a value (`resumed` copies
it), so readers in other threads never see one change."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from rules.core.score import Logged, Piece, Replay, pieces_before, resumed

# The games kept, the most recently read: a worker serves a club's few tables (an organiser's board reads a
# round's hundreds at once, each a short log: those replay it whole).
GAMES = 16
EVERY = 500  # a replay kept each 500 events: an undo of an older event replays at most 500 (0.1-0.2 s)
PERIODIC = 4  # ... the newest 4 (2.3 MB each at the largest table): an undo further back replays it all


@dataclass(frozen=True, eq=False)  # one is told from another by identity (a replay's state is not compared)
class Kept:
    """A replay after the event `last` (its id `event_id`), with the events up to it then undone."""

    event_id: int
    undone: frozenset[int]
    replay: Replay
    last: Logged
    periodic: bool = False  # one of every EVERY events (else the newest read)


@dataclass
class _Game:
    inputs: object
    kept: list[Kept] = field(default_factory=list)  # oldest first


_games: OrderedDict[Hashable, _Game] = OrderedDict()
_lock = threading.Lock()


def resume_point(game: Hashable, inputs: object, undone: set[int]) -> Kept | None:
    """The newest replay kept for the `game` (its database, id and making: app.services.score) that no undo since has
    made stale, made with the same `inputs`."""
    with _lock:
        kept_for = _games.get(game)
        if kept_for is None or kept_for.inputs != inputs:
            return None
        _games.move_to_end(game)
        kept = list(kept_for.kept)
    for k in reversed(kept):
        if frozenset(u for u in undone if u <= k.event_id) == k.undone:
            return k
    return None


def replayed(
    game: Hashable,
    inputs: object,
    start: Kept | None,
    count: int,
    now: Sequence[Piece],
    log: Sequence[Logged],
    undone: set[int],
    fresh: Replay | None,
) -> Replay | None:
    """The replay after the game's newest event, from `start` over `log` (its last event and those after it),
    `count` events in the game's log; None when `start` is not good for them (a late event, a change not logged):
    the caller replays the whole log then, from `fresh` (the replay before the first event) with `start` None."""
    if start is not None:
        if not log or log[0] != start.last:
            return None
        log = log[1:]
        if start.replay.events + len(log) != count:
            return None
        back, added_at = pieces_before(now, log)
        if back != start.replay.pieces:
            return None
        state = start.replay
    else:
        assert fresh is not None
        _, added_at = pieces_before(now, log)
        state = fresh
    made: list[Kept] = []
    done = 0
    while done < len(log):
        # Up to the next multiple of EVERY events (or the log's end), kept there.
        upto = min(len(log), done + EVERY - state.events % EVERY)
        state = resumed(state, log[done:upto], added_at[done:upto])
        done = upto
        last = log[done - 1]
        made.append(
            Kept(
                last.id, frozenset(u for u in undone if u <= last.id), state, last, state.events % EVERY == 0
            )
        )
    _keep(game, inputs, start, made)
    return state


def _keep(game: Hashable, inputs: object, start: Kept | None, made: list[Kept]) -> None:
    with _lock:
        kept_for = _games.get(game)
        if kept_for is None or kept_for.inputs != inputs or start is None:
            kept_for = _games[game] = _Game(inputs)
        # Those up to the replay gone on from (the ones after it are stale), the newest read of them only.
        upto = [k for k in kept_for.kept if start is not None and k.event_id <= start.event_id]
        newest = upto[-1:] if upto and not upto[-1].periodic else []
        kept = [*[k for k in upto if k.periodic], *newest, *[k for k in made if k.periodic]]
        if made and not made[-1].periodic:
            kept.append(made[-1])
        periodic = [k for k in kept if k.periodic][-PERIODIC:]
        kept_for.kept = [k for k in kept if not k.periodic or k in periodic]
        _games.move_to_end(game)
        while len(_games) > GAMES:
            _games.popitem(last=False)


def forget() -> None:
    """Every kept replay dropped (a test's fresh start)."""
    with _lock:
        _games.clear()
