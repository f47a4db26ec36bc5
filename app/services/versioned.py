"""A game or a campaign is one row with a version and an append-only log, written one writer at a time. The
same idea for both, here once: take the row's lock before a write, refuse a client that saw another version
(409 with the current state), and read which log entries a later entry has taken back (undo appends an entry
naming the one it reverses; nothing is deleted). Their tables stay their own."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, TypeVar

from sqlalchemy import Executable, Float, bindparam, cast, update
from sqlmodel import Session, col, select

from app.data.held import held
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
    # What the session holds unwritten is written first, as the ORM's own statement would (the row read below
    # is set over the one the session holds).
    session.flush()
    row = session.execute(read, {"row_id": row_id}).first()
    if row is None:
        raise NotFoundError(what, str(row_id))
    return held(session, model, row)


@cache
def _lock_statement(model: type[Row], unread: tuple[Any, ...], sqlite: bool) -> Executable:
    """A row's lock and its read in one statement of the table (not the ORM's: app.data.held), built once for
    each kind of row, the row's id bound at each write (its making cost more than its running). PostgreSQL:
    SELECT .. FOR UPDATE; SQLite: a no-op UPDATE answering the row (RETURNING), which takes the database's write
    lock at once; the `unread` columns left unread until asked, either way."""
    table = model.__table__  # type: ignore[attr-defined]
    left = {c.key for c in unread}
    if not sqlite:
        read = [c for c in table.c if c.key not in left]
        return select(*read).where(table.c.id == bindparam("row_id")).with_for_update()
    # SQLite keeps a whole REAL as an integer on disk and answers it so from RETURNING (1000, not the 1000.0 a
    # SELECT reads): a float column cast, as a SELECT reads it.
    answered = [
        cast(c, Float).label(c.key) if isinstance(c.type, Float) else c for c in table.c if c.key not in left
    ]
    taken = update(table).where(table.c.id == bindparam("row_id")).values(version=table.c.version)
    return taken.returning(*answered)


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
