"""The game clock (issue 55), read from the game's event log with the times they were logged at: the game
started, each step and turn begun, the game ended, and the referee's clock acts (paused, resumed, time given,
limits set: the one clock act a referee may undo, read as if never set); the limits chosen as the game was
created are in its first event. The rules work it out (rules.core.clock: `counted`, then `clock_at`); the present
moment is the caller's (the app's clock, at the edge: app.deps.NowDep). The count is stored with the game's last
clock event, in the unit of work of the act that logged it (`_stored`, app.data.clock_state), and a read goes on from
it over the clock events since (`kept_of`; issue 93: the organiser's board counted every game's whole log at every
read). Nothing is kept in memory, so a restarted server, or a second one on the same database, answers the same."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Row, Select, and_, bindparam, case, delete, exists, func, insert, null, true
from sqlalchemy import event as sa_event
from sqlalchemy import select as sa_select
from sqlalchemy.engine import Engine
from sqlalchemy.sql.elements import BindParameter
from sqlmodel import Session, col, select

from app.core.db import ids_written
from app.core.touched import logged_kind
from app.data.clock_state import StoredClock
from app.data.models import Event, Game, utcnow
from app.services import events
from app.services.markers import rules_of
from app.services.writing import unit_of_work
from rules.core.acts import GiveTime, PauseClock, ResumeClock, SetClockLimits
from rules.core.clock import SOURCE as SOURCE
from rules.core.clock import (
    Clock,
    Counted,
    Ended,
    Entry,
    Given,
    Limits,
    LimitsSet,
    Moved,
    Paused,
    Resumed,
    clock_at,
    counted,
    out_of_time_refusal,
)
from rules.core.errors import Refusal
from rules.core.game import GameRules
from rules.registry import all_game_rules

CREATED = "game-created"
UNDO = "undo"
# The events where the game's turn moves on (app.services.turns logs them after the move).
MOVED = ("game-started", "step", "turn-started")
ENDED = ("game-finished",)
# Every event kind the clock reads: a frame of one of these carries the clock (app.routes.events).
KINDS = frozenset(
    {CREATED, *MOVED, *ENDED, PauseClock.event, ResumeClock.event, GiveTime.event, SetClockLimits.event}
)


# The clock acts the referee undoes in one (app.services.undo.UNDOABLE): the limits and settings as set.
UNDOABLE = (SetClockLimits.event,)


def reads(event: Mapping[str, Any]) -> bool:
    """Whether the clock reads this event (as the log gives it): a live frame of it carries the clock."""
    return logged_kind(event) in KINDS


def limits_of(values: Mapping[str, Any] | None, sides: Sequence[str]) -> Limits:
    """The clock's limits and settings as an event's payload gives them (`payload`); the first shape, whole
    minutes for every side ({game_minutes, turn_minutes}), as logged before issue 64 and as the lobby sends."""
    values = values or {}
    under = values.get("end_under_seconds")
    if values.get("game_minutes") is not None or values.get("turn_minutes") is not None:
        whole = Limits.minutes(sides, values.get("game_minutes"), values.get("turn_minutes"))
        game, turn = whole.game_seconds, whole.turn_seconds
    else:
        game, turn = values.get("game_seconds") or {}, values.get("turn_seconds") or {}
    return Limits(
        {str(k): None if v is None else int(v) for k, v in game.items()},
        {str(k): None if v is None else int(v) for k, v in turn.items()},
        bool(values.get("dispute_pause")),
        bool(values.get("finish_act")),
        None if under is None else int(under),
    )


def same_limits(a: Limits, b: Limits, sides: Sequence[str]) -> bool:
    """Whether two settings of the clock hold alike for the game's `sides` (a side not named has no limit): a set
    to what already stands changes nothing."""
    rules = (a.dispute_pause, a.finish_act, a.end_under_seconds)
    alike = rules == (b.dispute_pause, b.finish_act, b.end_under_seconds)
    return alike and all(a.side(s) == b.side(s) for s in sides)


def payload(limits: Limits) -> dict[str, Any]:
    """The limits and settings as an event logs them (read back by `limits_of`)."""
    return {
        "game_seconds": dict(limits.game_seconds),
        "turn_seconds": dict(limits.turn_seconds),
        "dispute_pause": limits.dispute_pause,
        "finish_act": limits.finish_act,
        "end_under_seconds": limits.end_under_seconds,
    }


def _utc(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)  # SQLite hands back naive UTC times


def entry(ev: Event | Row[Any], rules: GameRules) -> Entry | None:
    """A logged event as the clock reads it (None: nothing the clock reads): an `Event`, or its row as `entries_of`
    reads it (its payload alone where its kind needs it, `PAYLOADS`)."""
    at = _utc(ev.created_at).timestamp()
    if ev.kind in MOVED:
        return Moved(at, ev.turn, ev.side, ev.step)
    if ev.kind in ENDED:
        return Ended(at)
    if ev.kind == PauseClock.event:
        return Paused(at, bool(ev.payload.get("dispute")))
    if ev.kind == ResumeClock.event:
        return Resumed(at)
    if ev.kind == GiveTime.event:
        return Given(at, str(ev.payload["side"]), int(ev.payload["seconds"]))
    if ev.kind == SetClockLimits.event or (ev.kind == CREATED and ev.payload.get("clock")):
        return LimitsSet(at, limits_of(ev.payload.get("clock", ev.payload), rules.book.sides))
    return None


# The games' clock entries none has undone, each undo looked for by the undos' own index: not every undo of the log,
# which grows with the acts taken back (a score read after 5,000 events read them all: issue 88). One statement for
# them (the undos were a second, and every act and every card's judgement reads the clock: issue 88's card pass),
# built once, the games bound at each read. A game with a stored clock (app.data.clock_state) reads only its entries
# after it, and the undos since of an event before it (one that takes back a clock event: the clock counted anew).
_KINDS = sorted(KINDS)
# The kinds whose payload the clock reads (`entry`; an undo's names the kind it takes back): every other's is not
# read, nor decoded (a round of 400 tables at turn 4 is 9,200 clock events, and their JSON was most of the
# organiser's board's CPU: issue 93's hostile pass).
PAYLOADS = (CREATED, PauseClock.event, GiveTime.event, SetClockLimits.event, UNDO)
_UNDO = Event.__table__.alias("undo")  # type: ignore[attr-defined]
_STORED = StoredClock.__table__  # type: ignore[attr-defined]
_LOG = Event.__table__  # type: ignore[attr-defined]
_GAMES = Game.__table__  # type: ignore[attr-defined]


def _clocked(stored: bool, lateral: bool = False) -> Select[Any]:
    """The statement of the games' clock rows: with `stored`, after each game's stored clock (all of a game that
    has none) and the undos since of an event before it; else all of them. Found by kind, by the game's index of
    its events by kind and id (an OR of another column would walk the game's whole log).

    After the stored clock, each game's events are a range of that index, asked game by game: the games lead
    the join and bound each one's events. SQLite plans the join so as it is written. PostgreSQL, which cannot
    tell how few events follow a stored clock, read every clock event of the games and filtered them (60,000
    rows for 200 games of 300 steps: issue 93's hostile pass); there the events are a LATERAL subquery, which
    an OFFSET keeps from being merged into the join (`lateral`)."""

    def columns(log: Any) -> tuple[Any, ...]:
        kept = ("id", "game_id", "created_at", "kind", "turn", "side", "step", "reverses_id")
        payload = case((log.c.kind.in_(PAYLOADS), log.c.payload), else_=null()).label("payload")
        return (*(log.c[name] for name in kept), payload)

    kinds: BindParameter[list[str]] = bindparam("kinds", expanding=True)
    if not stored:
        return sa_select(*columns(_LOG)).where(
            _LOG.c.game_id.in_(ids_written("game_ids")),
            _LOG.c.kind.in_(kinds),
            ~exists().where(_UNDO.c.reverses_id == _LOG.c.id),
        )
    after = _STORED.c.event_id
    games = _GAMES.outerjoin(_STORED, _STORED.c.game_id == _GAMES.c.id)
    since = (_LOG.c.game_id == _GAMES.c.id, _LOG.c.id > func.coalesce(after, 0), _LOG.c.kind.in_(kinds))
    if lateral:
        log: Any = sa_select(*columns(_LOG)).where(*since).offset(0).lateral("clocked")
        games, picked = games.join(log, true()), tuple(log.c[c.key] for c in columns(_LOG))
    else:
        log, games, picked = _LOG, games.join(_LOG, and_(*since)), columns(_LOG)
    return (
        sa_select(*picked)
        .select_from(games)
        .where(
            _GAMES.c.id.in_(ids_written("game_ids")),
            ~exists().where(_UNDO.c.reverses_id == log.c.id),
            (log.c.kind != UNDO) | (log.c.reverses_id <= after),
        )
    )


_WHOLE = _clocked(stored=False)
_AFTER_STORED = {lateral: _clocked(stored=True, lateral=lateral) for lateral in (False, True)}


def _rows(
    session: Session, statement: Select[Any], ids: Sequence[int], kinds: Sequence[str]
) -> dict[int, list[Any]]:
    """The games' rows of `statement` by game, each game's in id order (sorted here, not asked of the database:
    SQLite, to give that order, walked the game's whole log down its game_id index, 5,000 events: 1.5 ms of a
    score read, rather than its few entries')."""
    rows: dict[int, list[Any]] = {pk: [] for pk in ids}
    for ev in sorted(
        session.execute(statement, {"game_ids": list(ids), "kinds": list(kinds)}), key=lambda ev: ev.id
    ):
        rows[ev.game_id].append(ev)
    return rows


def kept_through(session: Session, games: Sequence[Game]) -> dict[int, tuple[Counted, int]]:
    """Each game's clock as its log stands now (rules.core.clock.Counted), by id, and the newest event it has read
    (what a reader going on from it reads after: a later read's events up to it are counted already), in a few
    statements however many games: its stored clock read on over the entries since (its whole log where it has
    none, or where an undo since took back a clock event before it)."""
    if not games:
        return {}
    stored = {
        row.game_id: row
        for row in session.exec(
            select(StoredClock).where(col(StoredClock.game_id).in_(ids_written("ids"))),
            params={"ids": [g.pk for g in games]},
        )
    }
    after_stored = _AFTER_STORED[session.get_bind().dialect.name != "sqlite"]
    rows = _rows(session, after_stored, [g.pk for g in games], [*_KINDS, UNDO])
    anew = [pk for pk, got in rows.items() if any(r.kind == UNDO and reads(r._mapping) for r in got)]
    if anew:
        rows.update(_rows(session, _WHOLE, anew, _KINDS))
    out: dict[int, tuple[Counted, int]] = {}
    for game in games:
        rules = rules_of(game)
        kept_row = stored.get(game.pk) if game.pk not in anew else None
        log = [e for ev in rows[game.pk] if ev.kind != UNDO and (e := entry(ev, rules)) is not None]
        through = max([kept_row.event_id if kept_row else 0, *(ev.id for ev in rows[game.pk])])
        out[game.pk] = (counted(log, rules, game.period, kept_row.state if kept_row else None), through)
    return out


def kept_of(session: Session, games: Sequence[Game]) -> dict[int, Counted]:
    """Each game's clock as its log stands now (`kept_through`), by id."""
    return {pk: kept for pk, (kept, _) in kept_through(session, games).items()}


def kept(session: Session, game: Game) -> Counted:
    """The game's clock as its log stands now (`kept_of`)."""
    return kept_of(session, [game])[game.pk]


def read_on(
    session: Session, game: Game, was: Counted, through: int, new: Sequence[Event]
) -> tuple[Counted, int]:
    """The clock `was`, which has read the game's events up to `through`, read on over the `new` events after it
    (counted anew when one undoes a clock act), and the newest event it has then read. Events read already are
    passed over: a reader's newest event, asked first, may be older than the clock it then read (the hostile pass
    of issue 93: time given as the organiser's board first read the game, counted twice on its next read)."""
    new = [ev for ev in new if ev.pk > through]
    if any(ev.kind == UNDO and reads({"kind": ev.kind, "payload": ev.payload}) for ev in new):
        return kept_through(session, [game])[game.pk]
    rules = rules_of(game)
    read = counted([e for ev in new if (e := entry(ev, rules)) is not None], rules, game.period, was)
    return read, max([through, *(ev.pk for ev in new)])


def acts_since(session: Session, game: Game, side: str, at: float) -> int:
    """How many acts `side`'s players logged from POSIX time `at` on (the clock's own acts apart)."""
    since = datetime.fromtimestamp(at, UTC)
    q = select(Event.id).where(
        Event.game_id == game.pk,
        Event.actor == side,
        col(Event.created_at) >= since,
        col(Event.kind).not_in(sorted(KINDS)),
    )
    return len(list(session.exec(q)))


def logged_at(events: Sequence[Mapping[str, Any]]) -> datetime:
    """When the newest of `events` (as the log answers them) was logged: a live frame's clock is as of it, so the
    same events render the same frames whenever they are rendered (issue 65)."""
    at = max(datetime.fromisoformat(str(e["created_at"])) for e in events)
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)  # SQLite's times are naive UTC


def game_clock(session: Session, game: Game, now: datetime | None = None) -> Clock:
    """The game's clock as of `now` (None: as of its latest entry, for what does not depend on the time)."""
    return clock_of(game, kept(session, game), now)


def clock_of(game: Game, kept_: Counted, now: datetime | None = None) -> Clock:
    """The game's clock from its log as the clock has read it (`kept`), as of `now` (None: its latest entry)."""
    at = now.timestamp() if now else kept_.at if kept_.at is not None else _utc(game.created_at).timestamp()
    return clock_at(kept_, rules_of(game), game.period, at)


# -- the stored clock, written with the act (app.data.clock_state) ------------------------------------------------
@sa_event.listens_for(Session, "before_commit")
def _stored(session: Session) -> None:
    """Each game whose clock events (or an undo of one) the unit of work logged (app.services.events.record's):
    its clock read on over them and stored, in the same transaction (a game's events are written under its row
    lock, app.services.games.lock_game), as of the newest event it logged."""
    newest: dict[int, int] = {}
    for ev in events.logged_in(session):
        if ev.kind in KINDS or (ev.kind == UNDO and reads({"kind": ev.kind, "payload": ev.payload})):
            newest[ev.game_id] = max(newest.get(ev.game_id, 0), ev.pk)
    games = [g for pk in sorted(newest) if (g := session.get(Game, pk)) is not None]
    if not games:
        return
    now = kept_of(session, games)
    session.execute(delete(_STORED).where(_STORED.c.game_id.in_(list(now))))
    session.execute(
        insert(_STORED),
        [{"game_id": pk, "event_id": newest[pk], "state": state} for pk, state in now.items()],
    )


def store_missing(engine: Engine, batch: int = 200) -> int:
    """Each game with no stored clock (made before migration 0034, which computes nothing, or in a round's one
    statement): its clock counted from its whole log once and stored, as the database is migrated (app.cli), so
    that no read counts a whole log (a board of 200 such games of 300 steps each took 2.5 s of CPU a read). The
    games are locked as an act locks its game, so a clock an act stores meanwhile is not overwritten. A game of a
    rule set this firestep cannot play (one it only looks up) has no clock to count. How many were stored."""
    playable = [rules.book.ruleset_id for rules in all_game_rules()]
    with Session(engine) as session:
        missing = (
            select(Game.id)
            .where(col(Game.ruleset).in_(playable), ~exists().where(_STORED.c.game_id == Game.id))
            .order_by(col(Game.id))
        )
        ids = [pk for pk in session.exec(missing) if pk is not None]
    for start in range(0, len(ids), batch):
        with Session(engine) as session, unit_of_work(session):
            chunk = ids[start : start + batch]
            games = list(session.exec(select(Game).where(col(Game.id).in_(chunk)).with_for_update()))
            now = kept_through(session, games)
            session.execute(delete(_STORED).where(_STORED.c.game_id.in_(list(now))))
            rows = [
                {"game_id": pk, "event_id": through, "state": state} for pk, (state, through) in now.items()
            ]
            session.execute(insert(_STORED), rows)
    return len(ids)


def _minutes(seconds: int) -> str:
    whole, rest = divmod(seconds, 60)
    said = [f"{whole} min" if whole else "", f"{rest} s" if rest else ""]
    return " ".join(s for s in said if s)


def told(kind: str, payload: Mapping[str, Any]) -> str:
    """A clock event in the story's words (app.services.story), "" for any other event."""
    if kind == PauseClock.event:
        who = "The referee" if payload.get("by", "referee") == "referee" else f"The {payload.get('by')}"
        return f"{who} paused the clock{' for a dispute' if payload.get('dispute') else ''}."
    if kind == ResumeClock.event:
        return "The referee restarted the clock."
    if kind == GiveTime.event:
        return (
            f"The referee gave the {payload.get('side')} {_minutes(int(payload.get('seconds') or 0))} back."
        )
    if kind == SetClockLimits.event:
        return f"The referee set the clock: {settings_told(limits_of(payload, ['side']))}."
    return ""


def settings_told(limits: Limits) -> str:
    """The limits and settings in the story's and the board's words."""
    said = [*_each(limits.game_seconds, "for the game"), *_each(limits.turn_seconds, "each turn")]
    if limits.dispute_pause:
        said.append("a player may stop it for a dispute")
    if limits.finish_act:
        said.append("a side out of time finishes its act, then stops")
    if limits.end_under_seconds:
        said.append(
            f"the game ends as a turn starts with both sides under {_minutes(limits.end_under_seconds)}"
        )
    return "; ".join(said) or "no limit"


def _each(by_side: Mapping[str, int | None], what: str) -> list[str]:
    """One limit in words: "5 min a side ..." where every side has the same, else side by side."""
    if len(set(by_side.values())) == 1:
        value = next(iter(by_side.values()))
        return [f"{_minutes(value)} a side {what}"] if value else []
    return [f"the {side} {_minutes(v)} {what}" for side, v in by_side.items() if v]


def out_of_time(
    session: Session, game: Game, role: str, judging: bool = False, moving_on: bool = False
) -> Refusal | None:
    """Why a side out of time, where the clock's settings say it finishes the act under way and then stops, is
    refused any act once it has logged one since its time ran out (rules.core.clock.out_of_time_refusal), on
    the card as on the act (`judging`: one of many acts a card judges in one request, nothing written: the
    clock is read once for all of them); its step moved on is no act under way (`moving_on`: an advance,
    refused at once, else the side would move the game on with no time). None: it may act."""
    if game.status != "playing" or role not in rules_of(game).book.sides:
        return None
    key = f"out-of-time:{game.pk}:{role}"
    if judging and key in session.info:
        refused: Refusal | None = session.info[key]
        return refused
    now = game_clock(session, game, utcnow())  # judged as the act would be logged: now
    ran_out = now.side(role).out_at
    since = 0
    if now.limits.finish_act and ran_out is not None:
        since = 1 if moving_on else acts_since(session, game, role, ran_out)
    refused = out_of_time_refusal(now, role, since)
    if judging:
        session.info[key] = refused
    return refused
