"""Typed dependencies for the routes. The engine and settings belong to the app instance (app.state),
so a test or a second app can run on its own database without touching globals."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, TypeVar

import anyio
from fastapi import Depends, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BeforeValidator
from sqlalchemy.engine import Connection, Engine
from sqlmodel import Session

from app.core.config import Settings
from app.data.bounded import INT32_MAX


# The dependencies that only read the app's state (or the request) are coroutines: FastAPI runs a plain function
# on its thread pool, a hand-over to a thread and back (under the GIL: ~0.1-0.3 ms a request each) for no I/O.
async def get_engine(request: Request) -> Engine:
    engine: Engine = request.app.state.engine
    return engine


async def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def get_session(engine: Annotated[Engine, Depends(get_engine)]) -> AsyncIterator[Session]:
    """A session for the request. Made here, on the event loop: a session opens no connection until its first
    query (on the thread that runs it). Closed here too when closing waits on nothing (never read, committed, or
    only read on SQLite: `_may_wait`); else on a thread, as the rollback that returns its connection waits on the
    database.
    Shielded, so a client gone mid-request still has its connection returned."""
    session = Session(engine)
    try:
        yield session
    finally:
        if _may_wait(session):
            with anyio.CancelScope(shield=True):
                # A limiter of its own, not the thread pool's: were every pooled thread a route waiting for a
                # connection, the close that returns one would wait behind them.
                await anyio.to_thread.run_sync(session.close, limiter=anyio.CapacityLimiter(1))
        else:
            session.close()


def _may_wait(session: Session) -> bool:
    """Whether closing `session` may wait on the database: a transaction on a server (its rollback a round trip
    away), or one SQLite began for a write (the rollback undoes it in the file). The SQLite driver begins one
    before a write alone: a session that only read gives its connection back with nothing to undo, closed on the
    event loop with no hop to a thread and back (0.15 ms of CPU, every read a token authorises: issue 88)."""
    if not session.in_transaction():
        return False
    if session.get_bind().dialect.name != "sqlite":
        return True
    # SQLAlchemy's own record of the transaction's connections (private): anything unexpected is taken to wait.
    held = getattr(session.get_transaction(), "_connections", None)
    if not isinstance(held, dict) or not held:
        return True
    for connection, *_ in set(held.values()):
        if not isinstance(connection, Connection) or connection.closed or connection.invalidated:
            return True
        if getattr(connection.connection.dbapi_connection, "in_transaction", True):
            return True
    return False


async def get_now(request: Request) -> datetime:
    """The present moment, from the app's clock (`app.state.clock`, the system's by default): the one place a
    route reads the time it answers as of (the game clock's `as_of`)."""
    now: datetime = request.app.state.clock()
    return now


EngineDep = Annotated[Engine, Depends(get_engine)]
SessionDep = Annotated[Session, Depends(get_session)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
NowDep = Annotated[datetime, Depends(get_now)]

# Ids are 32-bit on every backend; larger numbers cannot name a row and are refused as 422, not a 500.
GameId = Annotated[int, Path(ge=1, le=INT32_MAX, description="Game id")]


def cursor(description: str) -> Any:
    """A list's cursor typed as a number in the query (the id of the last item read, 0 before the first): an id,
    so at most INT32_MAX as a path's id is; larger is a 422 naming it, not a 500 where the database casts it.
    Taken with `DIGITS`, as `Annotated[int, DIGITS, cursor(...)]`: plain digits only, as Page's are."""
    return Query(ge=0, le=INT32_MAX, description=description)


_PLAIN = re.compile(r"[0-9]+")


def _plain_digits(value: Any) -> Any:
    """A query's number as plain digits (leading zeros read as the number): what pydantic's int also reads,
    `1_000`, `+1`, ` 1`, `1.0`, is refused, as a Page's `after` refuses it."""
    if isinstance(value, str) and not _PLAIN.fullmatch(value):
        raise ValueError("give a number of digits only")
    return value


DIGITS = BeforeValidator(_plain_digits)


# -- paging (issue 68) ---------------------------------------------------------------------------------------------
# Every list that grows with the server's use answers a page: `limit` items (PAGE unless asked, at most MAX_PAGE),
# from the one after `after` (the id of the last item of the page before) in the list's own order.
PAGE = 100
MAX_PAGE = 1000
Item = TypeVar("Item")


@dataclass(frozen=True)
class Page:
    limit: int
    after: str | None

    def of(self, items: Sequence[Item], key: Callable[[Item], int | str]) -> list[Item]:
        """The page of `items` (in their order) after the one whose `key` is `after`; one since deleted: the
        items of a larger id, where the ids are numbers in order (a newest-first list pages in the database,
        `older_than`). An `after` that names no item is a 422."""
        if self.after is None:
            return list(items[: self.limit])
        keys = [key(i) for i in items]
        if self.after in [str(k) for k in keys]:
            start = [str(k) for k in keys].index(self.after) + 1
            return list(items[start : start + self.limit])
        if self.after.isdecimal() and all(isinstance(k, int) for k in keys):
            mark = _as_id(self.after)
            return [i for i, k in zip(items, keys, strict=True) if int(k) > mark][: self.limit]
        raise _names_no_item()

    def newer_than(self) -> int:
        """`after` as the id the next page of an oldest-first list starts above (0 for its first page), for a
        list the database pages as `older_than`'s; past every stored id, the largest (a page of none); not an
        id: 422. The same rows as `of` of the whole list by id."""
        if self.after is None:
            return 0
        if not self.after.isdecimal():
            raise _names_no_item()
        return min(_as_id(self.after), INT32_MAX)

    def older_than(self) -> int | None:
        """`after` as the id the next page of a newest-first list starts below, for a list the database pages
        (its ids in order: a page reads `limit` rows however many there are); not an id: 422."""
        if self.after is None:
            return None
        if not self.after.isdecimal():
            raise _names_no_item()
        mark = _as_id(self.after)
        return None if mark > INT32_MAX else mark  # past every stored id: every row is older, no bound


def _as_id(after: str) -> int:
    """A cursor of digits as an id: INT32_MAX + 1 for any past every id stored (32-bit on both backends, and
    PostgreSQL casts a bound to its column's type, so a larger one is never handed to the database)."""
    digits = after.lstrip("0") or "0"  # 00000000001 is 1, however many zeros lead it
    return INT32_MAX + 1 if len(digits) > len(str(INT32_MAX)) else min(int(digits), INT32_MAX + 1)


def _names_no_item() -> RequestValidationError:
    msg = "names no item of this list: give the id of the last item of the page before"
    return RequestValidationError([{"loc": ("query", "after"), "msg": msg, "type": "value_error"}])


# A Page's cursor: an item's id, a number or a name (a scenario's); said in words where it is refused.
AFTER = re.compile(r"^[a-z0-9-]+$")


def _after_words() -> RequestValidationError:
    msg = "a number, or a name of lower-case letters, digits and hyphens"
    return RequestValidationError(
        [{"loc": ("query", "after"), "msg": msg, "type": "string_pattern_mismatch"}]
    )


async def paging(
    limit: Annotated[
        int, Query(ge=1, le=MAX_PAGE, description=f"How many items (at most {MAX_PAGE}); {PAGE} if not given")
    ] = PAGE,
    after: Annotated[
        str | None,
        Query(
            max_length=64,
            json_schema_extra={"pattern": AFTER.pattern},  # said in words as it is refused (_after_words)
            description="The id of the last item of the page before: the next page starts after it",
        ),
    ] = None,
) -> Page:
    if after is not None and not AFTER.fullmatch(after):
        raise _after_words()
    return Page(limit, after)


PageDep = Annotated[Page, Depends(paging)]
