"""The game clock (issue 55), read from the game's event log with the times they were logged at: the game
started, each step and turn begun, the game ended, and the referee's clock acts (paused, resumed, time given,
limits set); the limits chosen as the game was created are in its first event. The rules work it out
(rules.core.clock.clock); the present moment is the caller's (the app's clock, at the edge: app.deps.NowDep).
Nothing is kept in memory, so a restarted server, or a second one on the same database, answers the same."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlmodel import Session, col, select

from app.data.models import Event, Game
from app.services.markers import rules_of
from rules.core.acts import GiveTime, PauseClock, ResumeClock, SetClockLimits
from rules.core.clock import SOURCE as SOURCE
from rules.core.clock import Clock, Ended, Entry, Given, Limits, LimitsSet, Moved, Paused, Resumed, clock

CREATED = "game-created"
# The events where the game's turn moves on (app.services.turns logs them after the move).
MOVED = ("game-started", "step", "turn-started")
ENDED = ("game-finished",)
# Every event kind the clock reads: a frame of one of these carries the clock (app.routes.events).
KINDS = frozenset(
    {CREATED, *MOVED, *ENDED, PauseClock.event, ResumeClock.event, GiveTime.event, SetClockLimits.event}
)


def limits_of(values: Mapping[str, Any] | None) -> Limits:
    """Limits as an event's payload (or a request) gives them."""
    values = values or {}
    return Limits(values.get("game_minutes"), values.get("turn_minutes"))


def _utc(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)  # SQLite hands back naive UTC times


def entry(ev: Event) -> Entry | None:
    """A logged event as the clock reads it (None: nothing the clock reads)."""
    at = _utc(ev.created_at).timestamp()
    if ev.kind in MOVED:
        return Moved(at, ev.turn, ev.side, ev.step)
    if ev.kind in ENDED:
        return Ended(at)
    if ev.kind == PauseClock.event:
        return Paused(at)
    if ev.kind == ResumeClock.event:
        return Resumed(at)
    if ev.kind == GiveTime.event:
        return Given(at, str(ev.payload["side"]), int(ev.payload["seconds"]))
    if ev.kind == SetClockLimits.event or (ev.kind == CREATED and ev.payload.get("clock")):
        return LimitsSet(at, limits_of(ev.payload.get("clock", ev.payload)))
    return None


def entries(session: Session, game_id: int) -> list[Entry]:
    """The game's log as the clock reads it, in order."""
    q = (
        select(Event)
        .where(Event.game_id == game_id, col(Event.kind).in_(sorted(KINDS)))
        .order_by(col(Event.id))
    )
    return [e for ev in session.exec(q) if (e := entry(ev)) is not None]


def game_clock(session: Session, game: Game, now: datetime | None = None) -> Clock:
    """The game's clock as of `now` (None: as of its latest entry, for what does not depend on the time)."""
    return clock_of(game, entries(session, game.pk), now)


def clock_of(game: Game, log: Sequence[Entry], now: datetime | None = None) -> Clock:
    """The game's clock from its log as the clock reads it (`entries`), as of `now` (None: its latest entry)."""
    at = now.timestamp() if now else max((e.at for e in log), default=_utc(game.created_at).timestamp())
    return clock(log, rules_of(game), game.period, at)


def _minutes(seconds: int) -> str:
    whole, rest = divmod(seconds, 60)
    said = [f"{whole} min" if whole else "", f"{rest} s" if rest else ""]
    return " ".join(s for s in said if s)


def told(kind: str, payload: Mapping[str, Any]) -> str:
    """A clock event in the story's words (app.services.story), "" for any other event."""
    if kind == PauseClock.event:
        return "The referee paused the clock."
    if kind == ResumeClock.event:
        return "The referee restarted the clock."
    if kind == GiveTime.event:
        return (
            f"The referee gave the {payload.get('side')} {_minutes(int(payload.get('seconds') or 0))} back."
        )
    if kind == SetClockLimits.event:
        limits = limits_of(payload)
        said = [
            f"{limits.game_minutes} min a side for the game" if limits.game_minutes else "",
            f"{limits.turn_minutes} min a side each turn" if limits.turn_minutes else "",
        ]
        return f"The referee set the clock: {' and '.join(s for s in said if s) or 'no limit'}."
    return ""
