"""The score as a game's log makes it and its act keeps it (issue 88): the log and the objectives as the score
reads them (`logged`, `objectives_of`, `conditions_of`), and the stored score, advanced in the unit of work of
every act that logs an event (a hook at its commit: every event the session flushed, whoever wrote it) and
stored as the game's row (app.data.score_state.StoredScore, its state a ScoreState), which app.services.score
reads. The replay goes on from the stored state over the new events alone, reading only the units they touch as
they stand now, their changes taken back (the places are the units' rows, never stored twice); the worker that
stored the newest point keeps its replay, so its next act on the game goes on from it over the act's own
events, none read back nor decoded (`_Head`: checked against the stored point in the act's transaction). A
point is kept every EVERY events: an undo of an act already scored goes on from the newest point before it (at
most EVERY events and those since replayed, in the undo's own unit of work), the points after it deleted."""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from functools import cached_property
from typing import Any, NamedTuple, Protocol

from pydantic import JsonValue
from sqlalchemy import Select, bindparam, delete, func, insert, inspect, update
from sqlalchemy import event as sa_event
from sqlalchemy.orm.util import identity_key
from sqlmodel import Session, col, select

from app.data.changes import UnitCounted, UnitSet, changes_in
from app.data.models import Event, Game, Unit
from app.data.score_state import ScoreState, StoredScore
from app.services import events, secret_objectives
from app.services.kept_units import KEPT_GAMES, Key, game_key
from app.services.markers import rules_of
from rules.core.acts import BuildForce
from rules.core.score import (
    PLACE_FIELDS,
    Logged,
    Moved,
    Piece,
    Replay,
    pieces_before,
    points_at,
    replay_start,
    resumed,
)
from rules.core.victory import Condition, conditions_from_json
from rules.table.objectives import Objective, objectives_from_geojson

__all__ = [
    "CALLED",
    "EVERY",
    "FINISHED",
    "PLAYED_ON",
    "Frame",
    "LogRow",
    "advanced",
    "conditions_of",
    "frames",
    "logged",
    "objectives_of",
]

CALLED = "objective-called"  # rules.core.acts.CallObjective.event
FINISHED = "game-finished"  # rules.core.acts.EndGame.event
TURN_OVER = (
    "last-turn",
    "clock",
)  # an EndGame's reasons that end the game as a turn would start (turns._ended)
PLAYED_ON = "victory-played-on"  # the referee plays on after a victory condition met (app.services.result)


def objectives_of(game: Game) -> list[Objective]:
    """The game's objectives as its scenario wrote them (none for a game made without one)."""
    kept = game.board.get("table_objectives")
    if not kept:
        return []
    return objectives_from_geojson(kept, game.table_width_cm, game.table_length_cm)


def conditions_of(game: Game, objectives: Sequence[Objective]) -> list[Condition]:
    """The game's victory conditions as its scenario wrote them (checked as it was imported)."""
    kept = game.board.get("victory_conditions")
    if not kept:
        return []
    return conditions_from_json(list(kept), {o.id for o in objectives}, rules_of(game).book.broken)


class LogRow(Protocol):
    """An event's columns the score reads (`Event`'s; read alone, no row object made: 2,000 of them were 0.4 s)."""

    id: int
    turn: int
    kind: str
    payload: dict[str, Any]
    private: dict[str, Any]
    reverses_id: int | None


def logged(events: Iterable[LogRow], undone: set[int]) -> list[Logged]:
    """The game's events as the score reads them: the stands' places changed, the units added, the referee's
    calls and the game's end; an act undone and its undoing marked (nothing scores by them: Logged.undone)."""
    out: list[Logged] = []
    for ev in events:
        whole = {**ev.payload, **(ev.private or {}).get("referee", {})}
        moved = tuple(
            Moved(c.unit, c.field, getattr(c, "before", None), c.after)
            for c in changes_in(whole)
            if isinstance(c, UnitSet | UnitCounted) and c.field in PLACE_FIELDS
        )
        added: tuple[int, ...] = ()
        unit = whole.get("unit")
        if ev.kind == "unit-added" and isinstance(unit, dict) and isinstance(unit.get("id"), int):
            added = (unit["id"],)
        call = None
        if ev.kind == CALLED and ev.id not in undone:
            side = whole.get("side")
            call = (str(whole.get("objective_id")), side if isinstance(side, str) else None)
        played_on = whole.get("condition") if ev.kind == PLAYED_ON and ev.id not in undone else None
        out.append(
            Logged(
                ev.turn,
                moved,
                added,
                call,
                ev.kind == FINISHED,
                ev.id,
                played_on if isinstance(played_on, int) else None,
                ev.id in undone or ev.reverses_id is not None,
                whole.get("reason", TURN_OVER[0]) in TURN_OVER,
            )
        )
    return out


# -- the stored score (app.data.score_state.StoredScore, issue 88) ------------------------------------------------
_STORED = StoredScore.__table__  # type: ignore[attr-defined]
EVERY = 500  # a point stored each 500 events: an undo replays at most these and those after the one undone


@dataclass(frozen=True)
class Frame:
    """What a game's replay is made with: its objectives (its secret ones too) and victory conditions, their
    `digest` (a stored state made with others is not gone on from), and its rule set's bases and broken. The
    objectives are made of their GeoJSON only when a replay is made anew (an act going on from the worker's
    kept replay of the same digest needs none)."""

    game: Game
    secret: list[Given]  # its secret objectives: each side's feature
    digest: str

    @cached_property
    def _made(self) -> Made:
        """What the digest names, made once a worker (`_MADE`)."""
        with _MADE_LOCK:
            made = _MADE.get(self.digest)
            if made is not None:
                _MADE.move_to_end(self.digest)
                return made
        game = self.game
        objectives = objectives_of(game)
        for side, given in self.secret:
            feature = {"type": "FeatureCollection", "features": [given]}
            secret = objectives_from_geojson(feature, game.table_width_cm, game.table_length_cm)
            objectives += [replace(o, secret_to=side) for o in secret]
        # A condition names a public objective only (rules.core.scenario): its words are every seat's.
        conditions = conditions_of(game, [o for o in objectives if o.secret_to is None])
        book = rules_of(game).book
        start = replay_start(objectives, book.kit.bases, {}, conditions, book.broken, book.turn_word)
        made = Made(tuple(objectives), tuple(conditions), start)
        with _MADE_LOCK:
            _MADE[self.digest] = made
            while len(_MADE) > KEPT_GAMES:
                _MADE.popitem(last=False)
        return made

    @property
    def objectives(self) -> list[Objective]:
        return list(self._made.objectives)

    @property
    def conditions(self) -> list[Condition]:
        return list(self._made.conditions)

    def start(self) -> Replay:
        """A replay of no unit and no event, of these objectives and conditions: the one every game of this digest
        shares, to be left as it is (ScoreState.replay, its one reader, goes on from a copy; a copy here too was
        a second one, 2 of every game's 4 on the organiser's board of 400 tables)."""
        return self._made.start


class Made(NamedTuple):
    """A frame's objectives (their shapes prepared), its conditions and a replay of no unit and no event."""

    objectives: tuple[Objective, ...]
    conditions: tuple[Condition, ...]
    start: Replay


# What a frame's digest names (its inputs, all of them), made once a worker and shared by every game of the same
# digest, the least recently read dropped first: a round's hundreds of tables are copies of one scenario, and
# the organiser's board made each one's objectives, their shapes and its start anew at every read (issue 93:
# 43% of the board's CPU at 200 tables). Objectives and their shapes are never changed; a start is copied.
_MADE: OrderedDict[str, Made] = OrderedDict()
_MADE_LOCK = threading.Lock()


def frames(session: Session, games: Sequence[Game]) -> dict[int, Frame]:
    """Each game's Frame, their secret objectives read in one query (a game's in play kept by the worker)."""
    secret = _secrets(session, games)
    out: dict[int, Frame] = {}
    for game in games:
        made_with = [
            game.ruleset,
            game.table_width_cm,
            game.table_length_cm,
            game.board.get("table_objectives"),
            game.board.get("victory_conditions"),
            [list(given) for given in secret[game.pk]],
        ]
        digest = hashlib.sha256(json.dumps(made_with, sort_keys=True, default=str).encode()).hexdigest()
        out[game.pk] = Frame(game, secret[game.pk], digest)
    return out


Given = tuple[str, dict[str, JsonValue]]  # a secret objective: the side given it and its feature

# Each game's secret objectives (side, feature) as the worker read them, by game and version: they are given at
# set-up only (app.services.secret_objectives.give), so a game in play holds the same ones at each version, and
# an act there does not ask for them again.
_SECRETS: OrderedDict[tuple[Key, int], list[Given]] = OrderedDict()


def _secrets(session: Session, games: Sequence[Game]) -> dict[int, list[Given]]:
    """Each game's secret objectives (side, feature) in the order given: kept of a game in play, else read."""
    out: dict[int, list[Given]] = {}
    keys = {g.pk: (game_key(session, g), g.version) for g in games if g.status != "setup"}
    with _HEADS_LOCK:
        for pk, key in keys.items():
            if (kept := _SECRETS.get(key)) is not None:
                out[pk] = kept
    asked = [g.pk for g in games if g.pk not in out]
    if not asked:
        return out
    read: dict[int, list[Given]] = {pk: [] for pk in asked}
    for row in secret_objectives.rows(session, asked):
        read[row.game_id].append((row.side, row.feature))
    with _HEADS_LOCK:
        for pk, given in read.items():
            if pk in keys:
                _SECRETS[keys[pk]] = given
                _SECRETS.move_to_end(keys[pk])
        while len(_SECRETS) > KEPT_GAMES:
            _SECRETS.popitem(last=False)
    return out | read


def advanced(
    session: Session, game: Game, frame: Frame, store: bool, logging: Sequence[Event] = ()
) -> Replay:
    """The game's replay after its newest event, gone on from its newest stored point that no later undo has
    made stale (an undo of an event at or before it: its state scored by an act that never happened), over the
    events since, the units those events touch read as they stand now with the events' changes taken back; with
    no such point, its whole log replayed over all its stands. With `store` (the act's unit of work, `logging`
    its events of the game) the replay is written: a point every EVERY events and the newest, the stale ones
    deleted. Where the newest point is the event before the act's, the act's events are the log gone on over
    (none read back: the log holds no other event after the point) and the worker's kept replay of that point,
    if it has it, is gone on from (none decoded)."""
    if store and _plain(logging):
        moved_on = _moved_on_at_once(session, game, frame, logging)
        if moved_on is not None:
            return moved_on
    first = min((e.pk for e in logging), default=None)
    last = max((e.pk for e in logging), default=None)
    points = session.execute(_POINTS, {"game_id": game.pk, "first": first or 0}).all()
    good = [p.event_id for p in points if p.inputs == frame.digest]
    at = good[-1] if good else None
    key = game_key(session, game)
    before = _kept_before(key, frame, points, logging) if store else None
    if before is not None:  # an undo of the newest act: its events and the undo's the log gone on over
        at, rows = before[0], _events_after(session, game.pk, before[0])
    elif at is not None and points[-1].before == at and _plain(logging) and points[-1].newest == last:
        rows = sorted(logging, key=lambda e: e.pk)  # as _events_after's rows
    else:
        rows = _events_after(session, game.pk, at)
    while at is not None and before is None:
        early = [r.reverses_id for r in rows if r.reverses_id is not None and r.reverses_id <= at]
        if not early:
            break
        earlier = [e for e in good if e < min(early)]
        at = earlier[-1] if earlier else None
        rows = _events_after(session, game.pk, at)
    if at is not None and any(r.kind == BuildForce.event for r in rows):
        # A force built names none of its units: they stand from the start, as the whole log's replay reads them.
        at, before, rows = None, None, _events_after(session, game.pk, None)
    log = logged(rows, {r.reverses_id for r in rows if r.reverses_id is not None})
    if at is None:
        now = _stands(session, game.pk, None)
        back, added_at = pieces_before(now, log)
        book = rules_of(game).book
        replay = replay_start(
            frame.objectives, book.kit.bases, back, frame.conditions, book.broken, book.turn_word
        )
    else:
        back, added_at = _touched_before(session, game.pk, log)
        if before is not None:
            replay = replace(before[1], pieces={**before[1].pieces, **back})
        else:
            replay = _gone_on_from(session, key, game.pk, at, frame, back)
    made: list[tuple[int, Replay]] = []
    done = 0
    while done < len(log):  # up to the next multiple of EVERY events (or the log's end), a point kept there
        upto = min(len(log), done + EVERY - replay.events % EVERY)
        replay = resumed(replay, log[done:upto], added_at[done:upto])
        done = upto
        if replay.events % EVERY == 0:
            made.append((log[done - 1].id, replay))
    if store:
        head = log[-1].id if log else at or 0
        _stored(session, game.pk, frame.digest, points, at, made, (head, replay))
        session.info.setdefault(_HEADS_MADE, {})[key] = _Head(head, frame.digest, replay)
    return replay


def stored_at_start(session: Session, games: Sequence[Game]) -> None:
    """Each game's score stored at its first events, where no act stored it: a round's games, their first events
    written in bulk (app.services.game_setup.make_games, not `record`) once each force is whole. Else every read of
    their score, the organiser's board's of every table above all, replayed each game's log from its start (10 ms
    a table: a board of 100 tables 1 s of CPU, issue 93)."""
    kept = [g for g in games if not rules_of(g).book.score_kept]
    for frame in frames(session, kept).values():
        advanced(session, frame.game, frame, store=True)


def _points_asked() -> Select[Any]:
    """The game's stored points (event, periodic, inputs) in order, each with the game's newest event before
    the act's first (bound `first`: 0 for none) as `before`, and its newest event as `newest`: built once, its
    values bound at each act (the statement's making was most of its cost)."""
    log = Event.__table__  # type: ignore[attr-defined]
    newest = select(func.max(log.c.id)).where(log.c.game_id == bindparam("game_id"))
    before = newest.where(log.c.id < bindparam("first"))
    return (
        select(_STORED.c.event_id, _STORED.c.periodic, _STORED.c.inputs)
        .add_columns(before.scalar_subquery().label("before"), newest.scalar_subquery().label("newest"))
        .where(_STORED.c.game_id == bindparam("game_id"))
        .order_by(_STORED.c.event_id)
    )


_POINTS = _points_asked()
# The newest point moved on to an act's event (the table's, Core: no ORM objects to bring in step).
_MOVED_ON = (
    update(_STORED)
    .where(_STORED.c.game_id == bindparam("b_game_id"), _STORED.c.event_id == bindparam("b_was"))
    .values(
        event_id=bindparam("b_event_id"),
        periodic=bindparam("b_periodic"),
        inputs=bindparam("b_inputs"),
        state=bindparam("b_state", type_=_STORED.c.state.type),
        points=bindparam("b_points", type_=_STORED.c.points.type),
    )
)


# The same, where the point moved on is the newest and was the event just before the act's first (`b_first`), of
# the same objectives and not one of every EVERY: the check and the write in one statement, under the game's lock.
_LOG = Event.__table__  # type: ignore[attr-defined]
_MOVED_ON_AT_ONCE = _MOVED_ON.where(
    _STORED.c.periodic.is_(False),
    _STORED.c.inputs == bindparam("b_inputs"),
    bindparam("b_was")
    == select(func.max(_LOG.c.id))
    .where(_LOG.c.game_id == bindparam("b_game_id"), _LOG.c.id < bindparam("b_first"))
    .scalar_subquery(),
)


def _moved_on_at_once(session: Session, game: Game, frame: Frame, logging: Sequence[Event]) -> Replay | None:
    """An act's score in one statement, where this worker keeps the replay of the game's newest point and that
    point is the event just before the act's (the UPDATE checks it): the act's events gone on over from the kept
    replay, the point moved on to the last, no point read. None where the statement finds no such point (another
    worker's act since, a point of every EVERY, other objectives) or a point of every EVERY falls before the
    act's last event: `advanced` reads the points."""
    key = game_key(session, game)
    with _HEADS_LOCK:
        kept = _HEADS.get(key)
    if kept is None or kept.digest != frame.digest:
        return None
    rows: Sequence[Any] = sorted(logging, key=lambda e: e.pk)  # as _events_after's rows
    log = logged(rows, set())
    since = kept.replay.events % EVERY  # 0: the point kept is one of every EVERY, which no act moves on
    if since == 0 or since + len(log) > EVERY:
        return None
    if kept.settled and all(_quiet(ev, kept.replay.turn) for ev in log):
        # Events that change nothing the score reads (a marker that kills no stand) leave the replay as it was
        # but for its count of events: its state written as the kept point wrote it, nothing replayed nor made
        # again (resumed and ScoreState.of were 4% of a marker's CPU).
        replay = replace(kept.replay, events=kept.replay.events + len(log))
        state = {**kept.state(), "events": replay.events}
    else:
        back, added_at = _touched_before(session, game.pk, log)
        replay = resumed(replace(kept.replay, pieces={**kept.replay.pieces, **back}), log, added_at)
        state = ScoreState.of(replay).model_dump(mode="json")
    head = log[-1].id
    periodic = replay.events % EVERY == 0  # the act's last event is one of every EVERY: the point kept there
    moved = {"b_game_id": game.pk, "b_was": kept.event_id, "b_event_id": head, "b_periodic": periodic}
    written = {"b_inputs": frame.digest, "b_state": state, "b_points": points_at(replay)}
    done = session.execute(_MOVED_ON_AT_ONCE, {**moved, **written, "b_first": rows[0].pk})
    if done.rowcount != 1:  # type: ignore[attr-defined]
        return None
    before = (kept.event_id, kept.replay)  # what an undo of this act goes on from (`_kept_before`)
    made = _Head(head, frame.digest, replay, before, settled=True, written=state)
    session.info.setdefault(_HEADS_MADE, {})[key] = made
    return replay


def _quiet(ev: Logged, turn: int) -> bool:
    """Whether the replay (`turn`: its turn), settled after an event it scored (`_Head.settled`), goes on over
    `ev` unchanged but for its count of events (rules.core.score's replay): no stand moved, put or taken off,
    no call, no end, no condition played on, no new turn, nothing undone."""
    return (
        not (ev.moved or ev.added or ev.ended or ev.undone)
        and ev.call is None
        and ev.played_on is None
        and ev.turn == turn
    )


def _kept_before(
    key: Key, frame: Frame, points: Sequence[Any], logging: Sequence[Event]
) -> tuple[int, Replay] | None:
    """Where `logging` (an undo's events) takes back events of the act that moved the game's newest stored point
    on, and of no act before it, and no event stands between that act's and the undo's: the point that act went
    on from and its replay, as the worker that stored both keeps them. The undo goes on from there over that
    act's events and its own, where it replayed every event since the point of every EVERY before (500 at most,
    each read and decoded: an undo cost two acts)."""
    with _HEADS_LOCK:
        kept = _HEADS.get(key)
    if kept is None or kept.before is None or kept.digest != frame.digest or not points:
        return None
    newest = points[-1]
    if (newest.event_id, newest.inputs, newest.before) != (kept.event_id, frame.digest, kept.event_id):
        return None
    undone = [e.reverses_id for e in logging if e.reverses_id is not None]
    return kept.before if undone and min(undone) > kept.before[0] else None


def _plain(logging: Sequence[Event]) -> bool:
    """Whether an act's events go on from the point before them as they are: logged, none an undo (which may
    take back an event a point has scored) nor a force built (whose units stand from the start)."""
    return bool(logging) and all(e.reverses_id is None and e.kind != BuildForce.event for e in logging)


def _gone_on_from(
    session: Session, key: Key, game_id: int, at: int, frame: Frame, pieces: dict[int, Piece]
) -> Replay:
    """The replay of the game's stored point `at`, with `pieces` (the units the events to come touch, as they
    stood then): the worker's kept replay of that point and digest where it has it (its untouched units as they
    stood after their own last event, which nothing logged has changed since), else the stored state read."""
    with _HEADS_LOCK:
        kept = _HEADS.get(key)
    if kept is not None and kept.event_id == at and kept.digest == frame.digest:
        return replace(kept.replay, pieces={**kept.replay.pieces, **pieces})
    state = session.execute(
        select(col(StoredScore.state)).where(
            col(StoredScore.game_id) == game_id, col(StoredScore.event_id) == at
        )
    ).scalar_one()
    return ScoreState.model_validate(state).replay(frame.start(), pieces)


def _events_after(session: Session, game_id: int, after: int | None) -> list[Any]:
    """The game's events after event `after` (None: all of them), in order, as the score reads them (of the
    table, Core: no ORM loading of thousands of rows an undo's replay reads)."""
    log = Event.__table__  # type: ignore[attr-defined]
    q = (
        select(log.c.id, log.c.turn, log.c.kind, log.c.payload)
        .add_columns(log.c.private, log.c.reverses_id)
        .where(log.c.game_id == game_id)
    )
    if after is not None:
        q = q.where(log.c.id > after)
    return list(session.execute(q.order_by(log.c.id)))


def _touched_before(
    session: Session, game_id: int, log: Sequence[Logged]
) -> tuple[dict[int, Piece], list[Mapping[int, Piece]]]:
    """The units `log`'s events move or add, as they stood before them (rules.core.score.pieces_before), read
    as they stand now: those alone, where a replay goes on from a point; those the unit of work holds whole
    (the act's own stands) from their objects, the others from their rows."""
    touched = {m.unit_id for ev in log for m in ev.moved} | {u for ev in log for u in ev.added}
    held = _held(session, game_id, touched)
    unread = touched - held.keys()
    now = [*held.values(), *(_stands(session, game_id, unread) if unread else [])]
    return pieces_before(sorted(now, key=lambda piece: piece.id), log)


_PIECE = tuple(field.name for field in fields(Piece))


def _held(session: Session, game_id: int, ids: set[int]) -> dict[int, Piece]:
    """The stands of `ids` whose objects this unit of work holds with every column loaded, as they stand now:
    an act reads its stand and writes it through its object (app.services.units sets on it what it wrote over
    the version), and no statement writes a unit's place behind its object, so its row need not be read again
    (a move's score read its own stand back: a statement, 7% of a move's CPU)."""
    out: dict[int, Piece] = {}
    for uid in ids:
        unit = session.identity_map.get(identity_key(Unit, (uid,)))
        if not isinstance(unit, Unit):
            continue
        state = inspect(unit)
        if not state.persistent or state.unloaded & {*_PIECE, "game_id"} or unit.game_id != game_id:
            continue
        if unit.base:
            out[uid] = Piece(*(getattr(unit, name) for name in _PIECE))
    return out


def _stands(session: Session, game_id: int, ids: set[int] | None) -> list[Piece]:
    """The game's stands as the database holds them now (`ids`: those units only), their columns alone."""
    if ids is not None:
        rows = session.execute(_STANDS_BY_ID, {"game_id": game_id, "ids": sorted(ids)})
    else:
        rows = session.execute(_STANDS, {"game_id": game_id})
    return [Piece(*row) for row in rows if row[2]]


_STANDS = (  # built once, its values bound at each read (as _POINTS)
    select(*(getattr(Unit.__table__.c, name) for name in _PIECE))  # type: ignore[attr-defined]
    .where(col(Unit.game_id) == bindparam("game_id"), col(Unit.base).is_not(None))
    .order_by(col(Unit.id))
)
_STANDS_BY_ID = _STANDS.where(col(Unit.id).in_(bindparam("ids", expanding=True)))


def _stored(
    session: Session,
    game_id: int,
    digest: str,
    points: Sequence[Any],
    at: int | None,
    made: list[tuple[int, Replay]],
    head: tuple[int, Replay],
) -> None:
    """The points `made` and the newest (`head`) written after point `at`; every point after it, of other
    objectives, or `at` itself where it was the newest, not one of every EVERY, deleted."""
    stale = [
        p.event_id
        for p in points
        if p.inputs != digest or at is None or p.event_id > at or (p.event_id == at and not p.periodic)
    ]
    rows = [(e, True, r) for e, r in made]
    if not made or made[-1][0] != head[0]:
        rows.append((head[0], False, head[1]))
    rows = [r for r in rows if r[0] not in {p.event_id for p in points} - set(stale)]
    if (
        len(stale) == 1 and len(rows) == 1
    ):  # an act's: the newest point moved on to its event, in one statement
        (e, periodic, r) = rows[0]
        state = ScoreState.of(r).model_dump(mode="json")
        moved = {"b_game_id": game_id, "b_was": stale[0], "b_event_id": e, "b_periodic": periodic}
        session.execute(_MOVED_ON, {**moved, "b_inputs": digest, "b_state": state, "b_points": points_at(r)})
        return
    if stale:
        session.execute(delete(_STORED).where(_STORED.c.game_id == game_id, _STORED.c.event_id.in_(stale)))
    if rows:
        values = [
            {
                "game_id": game_id,
                "event_id": e,
                "periodic": periodic,
                "inputs": digest,
                "state": ScoreState.of(r).model_dump(mode="json"),
                "points": points_at(r),
            }
            for e, periodic, r in rows
        ]
        session.execute(insert(_STORED), values)


_HEADS_MADE = "score-heads"  # session.info: the replays this transaction stored, kept once it commits


@dataclass(frozen=True)
class _Head:
    """A game's replay as its newest stored point (`event_id`, of objectives of `digest`) holds it, kept by the
    worker that stored it: the next act on the game in this worker goes on from it without decoding the row.
    Kept only once its transaction commits (an event id rolled back may be another event's later, on SQLite)."""

    event_id: int
    digest: str
    replay: Replay  # never changed: each act's replay goes on from a copy (rules.core.score.resumed)
    before: tuple[int, Replay] | None = None  # the point its act went on from, where that act moved it on
    # Whether the replay's last event was one it scored (not undone, nor an undo): what an event after it that
    # changes nothing would leave of it is what it is (a tally reads an undo's holdings at the next event only).
    settled: bool = False
    # Its state as stored (ScoreState's JSON), where this worker wrote it.
    written: dict[str, JsonValue] | None = None

    def state(self) -> dict[str, JsonValue]:
        """Its state as stored: as written, or made of the replay (ScoreState)."""
        return (
            self.written if self.written is not None else ScoreState.of(self.replay).model_dump(mode="json")
        )

    @cached_property
    def size(self) -> int:
        """Its standings and units, and its objectives at ten of them each (an objective's shapes, prepared, are
        about 2 KB: 64 replays of 50 objectives and 127 stands were 7.3 MB): what the worker's budget counts."""
        replays = [self.replay] if self.before is None else [self.replay, self.before[1]]
        return sum(r.kept.size() + len(r.pieces) + 10 * len(r.objectives) for r in replays)


# A worker's kept replays, the least recently stored dropped first: as many games as it keeps the units of
# (app.services.kept_units), and standings and units of 200,000 in all (about 50 MB: the largest table's 50
# objectives over 1,400 stands are 53,000 standings, 13 MB; 64 of those were 0.85 GB), the newest always kept.
KEPT_SCORE_ENTRIES = 200_000
_HEADS: OrderedDict[Key, _Head] = OrderedDict()
_HEADS_LOCK = threading.Lock()


@sa_event.listens_for(Session, "before_commit")
def _advance(session: Session) -> None:
    """Each game whose events the unit of work logged (app.services.events.record's): its score advanced over
    them and stored, in the same transaction (a game's events are written under its row lock,
    app.services.games.lock_game)."""
    logging: dict[int, list[Event]] = {}
    for ev in events.logged_in(session):
        logging.setdefault(ev.game_id, []).append(ev)
    games = [g for pk in sorted(logging) if (g := session.get(Game, pk)) is not None]
    games = [g for g in games if not rules_of(g).book.score_kept]
    for frame in frames(session, games).values():
        advanced(session, frame.game, frame, store=True, logging=logging[frame.game.pk])


@sa_event.listens_for(Session, "after_commit")
def _committed(session: Session) -> None:
    made = session.info.pop(_HEADS_MADE, None)
    if made:
        with _HEADS_LOCK:
            for key, head in made.items():
                _HEADS[key] = head
                _HEADS.move_to_end(key)
            while len(_HEADS) > 1 and (
                len(_HEADS) > KEPT_GAMES or sum(h.size for h in _HEADS.values()) > KEPT_SCORE_ENTRIES
            ):
                _HEADS.popitem(last=False)


@sa_event.listens_for(Session, "after_rollback")
def _rolled_back(session: Session) -> None:
    session.info.pop(_HEADS_MADE, None)
