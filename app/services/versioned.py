"""A game or a campaign is one row with a version and an append-only log, written one writer at a time. The
same idea for both, here once: take the row's lock before a write, refuse a client that saw another version
(409 with the current state), and read which log entries a later entry has taken back (undo appends an entry
naming the one it reverses; nothing is deleted). Their tables stay their own."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, TypeVar

from sqlalchemy import Update, bindparam, update
from sqlalchemy.orm import defer
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from app.data.models import Campaign, CampaignEvent, Event, Game
from app.errors import Conflict
from rules.core.errors import NotFoundError

Row = TypeVar("Row", Game, Campaign)
Log = TypeVar("Log", Event, CampaignEvent)


def lock_row(session: Session, model: type[Row], row_id: int, what: str, unread: Sequence[Any] = ()) -> Row:
    """Start a write: every write takes the row first, so writes to one game or campaign run one at a time
    and log ids commit in order (a stream's Last-Event-ID resume relies on it). PostgreSQL: SELECT .. FOR
    UPDATE; SQLite: a no-op UPDATE, which takes the database's write lock at once. `unread`: columns left
    unread until the write asks for them."""
    taken, read = _lock_statements(model, tuple(unread))
    if session.get_bind().dialect.name == "sqlite":
        session.execute(taken, {"row_id": row_id})
    row = session.exec(read, params={"row_id": row_id}).first()
    if row is None:
        raise NotFoundError(what, str(row_id))
    return row


@cache
def _lock_statements(model: type[Row], unread: tuple[Any, ...]) -> tuple[Update, SelectOfScalar[Row]]:
    """A row's lock (SQLite's no-op UPDATE, of the table: no ORM objects to bring in step) and its read, built
    once for each kind of row, the row's id bound at each write (their making cost more than their running)."""
    table = model.__table__  # type: ignore[attr-defined]
    taken = update(table).where(table.c.id == bindparam("row_id")).values(version=table.c.version)
    read = (
        select(model)
        .where(col(model.id) == bindparam("row_id"))
        .options(*(defer(c) for c in unread))
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return taken, read


def check_version(what: str, version: int, expected: int, current: Callable[[], Any]) -> None:
    """A stale client gets 409 with `current()`, the state it should have seen."""
    if expected != version:
        raise Conflict(
            f"Someone changed this {what} meanwhile: reload and try again",
            current=current(),
            why=f"{what} version is {version}, not {expected}",
        )


def reversed_ids(session: Session, log: type[Log], owner: str, owner_id: int) -> set[int]:
    """The ids of the log entries (of the game or campaign named by column `owner`) taken back since."""
    reverses = col(log.reverses_id)
    rows = session.exec(select(reverses).where(getattr(log, owner) == owner_id, reverses.is_not(None)))
    return {r for r in rows if r is not None}
