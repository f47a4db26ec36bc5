"""The event log: appending an event, reading the events a viewer may see, and the split of each event into
a public payload and the private parts only one side (or the referee) may read.

Two rules make a secret safe by default. Writing (`split`, run by `record` on every event): a change that
names a side (to its own row: its hand of cards, its once-per-player allowances; or to a secret of one of its
units: a battery's aiming point) is that side's, so it is moved out of the public payload whoever wrote the
event, and with them the unit they are all about when nothing else of the event is public. Reading (`view`,
run by `event_dict` on every read path: the log, the stream, the report, the pages): a viewer gets the public
payload with the parts of the roles it holds merged over it, and nothing else."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any, TypedDict

from pydantic import BaseModel, JsonValue
from sqlalchemy import bindparam, delete, insert
from sqlalchemy import event as sa_event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import class_mapper, make_transient_to_detached
from sqlalchemy.orm.attributes import instance_dict
from sqlmodel import Session, col, func, select

from app.core import live
from app.data.log_index import EventUnit
from app.data.models import Event, Game, Token, utcnow
from app.data.schemas_answers import LoggedEvent
from app.services import versioned
from app.services.seating import Viewer
from rules.core.errors import NotFoundError
from rules.core.vocabulary import SIDES


# -- events ------------------------------------------------------------------------------------------------
def record(
    session: Session,
    game: Game,
    kind: str,
    actor: str,
    payload: dict[str, Any],
    *,
    step: str = "",
    visibility: str = "all",
    reverses_id: int | None = None,
    private: Mapping[str, Mapping[str, Any]] | None = None,
) -> Event:
    """Append to the log (call within lock_game); streams are woken once the transaction commits. What a
    side alone may read goes to `private` (by role); side-row changes are moved there by split."""
    row = event_row(game, kind, actor, payload, step=step, visibility=visibility, reverses_id=reverses_id,
                    private=private)  # fmt: skip
    # Written by the table's own statement (the ORM's flush of one new object was a fifth of an act's CPU), the
    # object then made as a row read is and put in the session as one it holds: SQLModel's constructor sets
    # each field through pydantic and SQLAlchemy both (0.19 ms an event, for values written as they are).
    ev = _held(row, session.execute(_LOGGED, row).scalar_one())
    session.add(ev)
    session.info.setdefault(_LOGGING, []).append(ev)
    _index_units(session, ev)
    live.mark(session, game.pk)
    return ev


_LOG = Event.__table__  # type: ignore[attr-defined]
_LOGGED = insert(_LOG).returning(_LOG.c.id)
_LOGGING = "events-logged"  # session.info: the events this unit of work logged, in order
_EVENTS = class_mapper(Event).class_manager


def _held(row: EventRow, event_id: int) -> Event:
    """The event `event_id` of `row`, a row written by this unit of work, as the session holds a row it read
    (SQLAlchemy's own way of making an object of a loaded row: a new instance, its values put in its dict and
    committed at once; set as committed one by one, they were 2% of a marker's CPU)."""
    ev: Event = _EVENTS.new_instance()
    instance_dict(ev).update(row, id=event_id)
    make_transient_to_detached(ev)
    return ev


def logged_in(session: Session) -> list[Event]:
    """The events this unit of work has logged so far (`record`'s, in order): what advances the game's derived
    state as the unit of work commits reads them (app.services.score_store, the score; app.services.clock, the
    clock), the list let go once it commits or rolls back."""
    return list(session.info.get(_LOGGING, ()))


@sa_event.listens_for(Session, "after_flush")
def _flushed(session: Session, _: object) -> None:
    """An event written otherwise, as a new object the session flushed (a script's, a test's), logged too."""
    for obj in session.new:
        if isinstance(obj, Event):
            session.info.setdefault(_LOGGING, []).append(obj)


@sa_event.listens_for(Session, "after_commit")
@sa_event.listens_for(Session, "after_rollback")
def _let_go(session: Session) -> None:
    session.info.pop(_LOGGING, None)


# -- the log by stand (app.data.log_index.EventUnit) ------------------------------------------------------
def units_named(payload: Mapping[str, Any], private: Mapping[str, Any]) -> set[int]:
    """Every unit a logged event names or changes, in its public payload or any side's part: whatever any
    viewer reads it touching (app.core.touched.touched_units of the viewer's view) is among them."""
    out: set[int] = set()
    for part in (payload, *private.values()):
        if not isinstance(part, Mapping):
            continue
        out.update(part[key] for key in ("unit_id", "target_id") if isinstance(part.get(key), int))
        changes = part.get("changes")
        for c in changes if isinstance(changes, list) else ():
            if isinstance(c, Mapping) and isinstance(c.get("unit"), int):
                out.add(c["unit"])
    return out


# Built once: built at each event, it was 2% of a marker's CPU (py-spy's samples).
_BY_STAND = EventUnit.__table__  # type: ignore[attr-defined]
_INDEXED = insert(_BY_STAND)


def _index_units(session: Session, ev: Event) -> None:
    """The log by stand kept with the event, in its unit of work: an undo takes its event's rows out (it no
    longer stands) and is itself no stand's act; any other event is each of its units' newest."""
    if ev.reverses_id is not None:
        undone = session.get(Event, ev.reverses_id)  # read by the undo in this session: no statement
        named = units_named(undone.payload, undone.private) if undone is not None else set()
        if named:
            # The table's statement (Core): the ORM's would first look for its rows among the session's objects.
            stand = (_BY_STAND.c.game_id == ev.game_id, _BY_STAND.c.event_id == ev.reverses_id)
            session.execute(delete(_BY_STAND).where(*stand, _BY_STAND.c.unit_id.in_(sorted(named))))
    if ev.kind == "undo":
        return
    rows = [
        {"game_id": ev.game_id, "unit_id": u, "event_id": ev.pk}
        for u in sorted(units_named(ev.payload, ev.private))
    ]
    if rows:  # the table's own statement: the ORM's bulk insert costs three times as much (28 against 90 µs)
        session.execute(_INDEXED, rows)


def unit_acts(session: Session, game_id: int, unit_id: int, batch: int = 4) -> Iterator[Event]:
    """The events that changed or named unit `unit_id` and stand (none taken back, no undo), newest first,
    read from the log by stand a few at a time: the first is the stand's newest act however long the game."""
    before = None
    while True:
        asked = {"game_id": game_id, "unit_id": unit_id, "batch": batch}
        found = session.exec(
            _UNIT_ACTS_BEFORE if before else _UNIT_ACTS, params={**asked, "before": before}
        ).all()
        yield from found
        if len(found) < batch:
            return
        before, batch = found[-1].pk, batch * 4


# A stand's acts, newest first, a batch at a time (and the batches after the first, before the last one read): built
# once, bound at each read (each card's Undo asks them; built anew they were a twentieth of a stand's card's CPU).
_UNIT_ACTS = (
    select(Event)
    .join(EventUnit, col(EventUnit.event_id) == col(Event.id))
    .where(col(EventUnit.game_id) == bindparam("game_id"), col(EventUnit.unit_id) == bindparam("unit_id"))
    .order_by(col(EventUnit.event_id).desc())
    .limit(bindparam("batch"))
)
_UNIT_ACTS_BEFORE = _UNIT_ACTS.where(col(EventUnit.event_id) < bindparam("before"))


class EventRow(TypedDict):
    """An event's row as `record` writes it: every column but its id, which the database gives."""

    game_id: int
    turn: int
    side: str
    step: str
    kind: str
    actor: str
    visibility: str
    payload: dict[str, JsonValue]
    private: dict[str, dict[str, JsonValue]]
    reverses_id: int | None
    created_at: datetime


def event_row(
    game: Game,
    kind: str,
    actor: str,
    payload: dict[str, Any],
    *,
    step: str = "",
    visibility: str = "all",
    reverses_id: int | None = None,
    private: Mapping[str, Mapping[str, Any]] | None = None,
) -> EventRow:
    """The row of the event `record` logs (the first events of a round's games are written in one statement,
    app.services.game_setup.create_games, which marks their games)."""
    payload, parts = split(payload, private)
    return {
        "game_id": game.pk,
        "turn": game.turn,
        "side": game.side_to_move,
        "step": step,
        "kind": kind,
        "actor": actor,
        "visibility": visibility,
        "payload": payload,
        "private": parts,
        "reverses_id": reverses_id,
        "created_at": utcnow(),
    }


def list_events(
    session: Session,
    game_id: int,
    roles: Iterable[str],
    after_id: int = 0,
    limit: int = 1000,
    turn: int | None = None,
) -> list[Event]:
    """Events a viewer may see (visibility 'all' or one of `roles`), in id order."""
    q = select(Event).where(
        Event.game_id == game_id, col(Event.id) > after_id, col(Event.visibility).in_(["all", *roles])
    )
    if turn is not None:
        q = q.where(Event.turn == turn)
    return list(session.exec(q.order_by(col(Event.id)).limit(limit)))


def get_event(session: Session, game_id: int, event_id: int) -> Event:
    ev = session.exec(select(Event).where(Event.id == event_id, Event.game_id == game_id)).first()
    if ev is None:
        raise NotFoundError("event", str(event_id))
    return ev


def readable(session: Session, game_id: int, viewer: Viewer, event_id: int, kind: str) -> Event:
    """Event `event_id` of the game, of `kind`, that `viewer` may read (`event_dict` its payload); none of another game, one the
    viewer may not read or of another kind is refused as one that does not exist, in the same sentence ("unknown
    event"), so that a refusal tells a seat nothing of which ids exist nor what they are."""
    ev = session.exec(select(Event).where(Event.id == event_id, Event.game_id == game_id)).first()
    if ev is None or ev.kind != kind or not viewer.sees(ev.visibility):
        raise NotFoundError("event", str(event_id))
    return ev


def reversed_ids(session: Session, game_id: int) -> set[int]:
    return versioned.reversed_ids(session, Event, "game_id", game_id)


def taken_back(session: Session, game_id: int, event_id: int) -> bool:
    """Whether an undo took event `event_id` back: one step of the undos' own index (`ix_event_reverses_id`),
    however long the log."""
    return session.exec(_TAKEN_BACK, params={"event_id": event_id, "game_id": game_id}).first() is not None


_TAKEN_BACK = (
    select(col(Event.id))
    .where(col(Event.reverses_id) == bindparam("event_id"), col(Event.game_id) == bindparam("game_id"))
    .limit(1)
)  # built once, bound at each ask (a stand's card asks it of its newest act)


def reversed_ids_of(session: Session, game_ids: Sequence[int]) -> dict[int, set[int]]:
    """reversed_ids of each of these games, in one query."""
    out: dict[int, set[int]] = {pk: set() for pk in game_ids}
    if game_ids:
        reverses = col(Event.reverses_id)
        q = select(Event.game_id, reverses).where(col(Event.game_id).in_(game_ids), reverses.is_not(None))
        for game_id, reversed_id in session.exec(q):
            if reversed_id is not None:
                out[game_id].add(reversed_id)
    return out


def last_roll_id(session: Session, game_id: int) -> int:
    """The id of the latest die roll in the game (0 if none): players may undo back to it, no further."""
    got = session.exec(_LAST_ROLL, params={"game_id": game_id, "kinds": list(ROLL_KINDS)}).one()
    return int(got or 0)


_LAST_ROLL = select(func.max(col(Event.id))).where(
    col(Event.game_id) == bindparam("game_id"), col(Event.kind).in_(bindparam("kinds", expanding=True))
)  # built once, bound at each ask (a stand's card's Undo asks it)


def newest_event_id(session: Session, game_id: int) -> int:
    """The id of the game's latest event (0 if none)."""
    got = session.exec(_NEWEST, params={"game_id": game_id}).one()
    return int(got or 0)


_NEWEST = select(func.max(col(Event.id))).where(col(Event.game_id) == bindparam("game_id"))  # as _LAST_ROLL


# Built once, the game bound at each read (built at each, it was 15% of an answered GET units' CPU, py-spy's samples).
_MARK = select(
    col(Game.version),
    col(Game.status),
    select(func.max(col(Event.id))).where(col(Event.game_id) == bindparam("game_id")).scalar_subquery(),
).where(col(Game.id) == bindparam("game_id"))


def game_mark(session: Session, game_id: int) -> tuple[int, str, int]:
    """The game's version, its status and its log's newest event id, in one statement reading the game's row
    alone: every write to a game's units is logged and every write to its own fields bumps its version, so a
    read of its units answers the same while these stay (the units' ETag, app.routes.forces)."""
    row = session.execute(_MARK, {"game_id": game_id}).first()
    if row is None:
        raise NotFoundError("game", str(game_id))
    return int(row[0]), str(row[1]), int(row[2] or 0)


ROLL_KINDS = ("roll", "arrival-roll", "arrival-fire")


def roles_of(viewer: Viewer) -> list[str]:
    return [*SIDES, "referee"] if viewer.is_referee else [viewer.role]


def event_dict(ev: Event, roles: Iterable[str] = ()) -> LoggedEvent:
    """An event as a viewer holding `roles` may read it (every read path comes through here): the public
    payload with that viewer's private parts merged in. No roles: the public view only."""
    return {
        "id": ev.pk,
        "turn": ev.turn,
        "side": ev.side,
        "step": ev.step,
        "kind": ev.kind,
        "actor": ev.actor,
        "visibility": ev.visibility,
        "payload": view(ev.payload, ev.private, roles),
        "reverses_id": ev.reverses_id,
        "created_at": ev.created_at.isoformat(),
    }


REFEREE = "referee"


# The order parts are merged in: the referee's (the whole record) last, so it wins.
PART_ORDER = ("attacker", "defender", REFEREE)


def _side_of(change: Any) -> str | None:
    return change.get("side") if isinstance(change, Mapping) and isinstance(change.get("side"), str) else None


def _unit_of(change: Any) -> int | None:
    return change.get("unit") if isinstance(change, Mapping) and isinstance(change.get("unit"), int) else None


def _as_logged(part: Mapping[str, Any]) -> dict[str, Any]:
    """A payload or part with its `changes` (the pipeline's models, app.data.changes) as the log's JSON."""
    out = dict(part)
    changes = out.get("changes")
    if isinstance(changes, list):
        out["changes"] = [c.model_dump(mode="json") if isinstance(c, BaseModel) else c for c in changes]
    return out


def split(
    payload: Mapping[str, Any], private: Mapping[str, Mapping[str, Any]] | None = None
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The public payload and the private parts of an event about to be logged, the changes in each as the log
    keeps them. Side-row changes in `payload["changes"]` go to their side's part (with the public changes, in
    order) and the referee's part keeps the whole list; a part given in `private` keeps its own `changes` when
    it has them."""
    public = _as_logged(payload)
    parts: dict[str, dict[str, Any]] = {role: _as_logged(part) for role, part in (private or {}).items()}
    changes = public.get("changes")
    if isinstance(changes, list) and any(_side_of(c) for c in changes):
        public["changes"] = [c for c in changes if _side_of(c) is None]
        # An event of its unit's secrets alone (a battery aimed) names the unit to no other side: that
        # something was written down is every seat's, whose plan it was is not (ARTILLERY AIMING POINT).
        unit = public.get("unit_id")
        alone = not public["changes"] and all(_unit_of(c) == unit for c in changes)
        named = {"unit_id": public.pop("unit_id")} if alone and isinstance(unit, int) else {}
        for side in sorted({s for c in changes if (s := _side_of(c))}):
            own = [c for c in changes if _side_of(c) in (None, side)]
            parts.setdefault(side, {}).setdefault("changes", own)
            parts[side].update(named)
        parts.setdefault(REFEREE, {}).setdefault("changes", list(changes))
        parts[REFEREE].update(named)
    return public, parts


def view(
    payload: Mapping[str, Any], private: Mapping[str, Any] | None, roles: Iterable[str]
) -> dict[str, Any]:
    """What a viewer holding `roles` reads of an event: the public payload, with its own parts over it."""
    mine = set(roles)
    out = dict(payload)
    for role in PART_ORDER:
        part = (private or {}).get(role)
        if role in mine and isinstance(part, Mapping):
            out.update(part)
    return out


def feed_read(
    engine: Engine, game_id: int, after_id: int, limit: int
) -> tuple[list[live.FeedItem], frozenset[int]]:
    """The shared read of a wake-up: the game's new events of every visibility (each stream filters for its
    viewer) and the devices still active (each stream ends when its own is not)."""
    with Session(engine) as session:
        every = [*SIDES, "referee"]
        events = list_events(session, game_id, every, after_id, limit)
        active = session.exec(
            select(Token.id).where(Token.game_id == game_id, col(Token.revoked_at).is_(None))
        ).all()
        return [live.FeedItem(e.pk, e.visibility, e) for e in events], frozenset(i for i in active if i)
