"""A game or a campaign is one row with a version and an append-only log, written one writer at a time. The
same idea for both, here once: take the row's lock before a write, refuse a client that saw another version
(409 with the current state), and read which log entries a later entry has taken back (undo appends an entry
naming the one it reverses; nothing is deleted). Their tables stay their own."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, TypeVar

from sqlalchemy import Executable, Float, bindparam, cast, update
from sqlalchemy.orm import defer
from sqlmodel import Session, col, select

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
    read = _lock_statement(model, tuple(unread), session.get_bind().dialect.name == "sqlite")
    row = session.scalars(read, {"row_id": row_id}).first()
    if not isinstance(row, model):
        raise NotFoundError(what, str(row_id))
    return row


@cache
def _lock_statement(model: type[Row], unread: tuple[Any, ...], sqlite: bool) -> Executable:
    """A row's lock and its read in one statement, built once for each kind of row, the row's id bound at each
    write (its making cost more than its running). PostgreSQL: SELECT .. FOR UPDATE; SQLite: a no-op UPDATE
    answering the row (RETURNING), which takes the database's write lock at once; the `unread` columns left
    unread until asked, either way."""
    if not sqlite:
        return (
            select(model)
            .where(col(model.id) == bindparam("row_id"))
            .options(*(defer(c) for c in unread))
            .with_for_update()
            .execution_options(populate_existing=True)
        )
    table = model.__table__  # type: ignore[attr-defined]
    left = {c.key for c in unread}
    # SQLite keeps a whole REAL as an integer on disk and answers it so from RETURNING (1000, not the 1000.0 a
    # SELECT reads): a float column cast, as a SELECT reads it.
    answered = [
        cast(c, Float).label(c.key) if isinstance(c.type, Float) else c for c in table.c if c.key not in left
    ]
    taken = update(table).where(table.c.id == bindparam("row_id")).values(version=table.c.version)
    taken = taken.returning(*answered)
    return select(model).from_statement(taken).execution_options(populate_existing=True)


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
