"""A full disk said in words (issue 52). With the database's disk full a write failed as a bare `500` text, or
the connection dropped when it failed in a middleware, while /healthz said ok. Here:

- `is_full`: whether an error is the disk being full, whatever raised it: SQLite's SQLITE_FULL ("database or
  disk is full", as SQLite answers ENOSPC on the database, its -wal or a temporary file), PostgreSQL's
  SQLSTATE 53100 (disk_full: "could not extend file"), or the system's ENOSPC and EDQUOT (a file firestep
  writes itself);
- `Writable`: whether the database's last write failed so, from the engine's own events (a write that fails
  full marks it, the next commit of new rows clears it; an update in place, a device's last-seen time, may
  still fit where no new row does): /healthz reports the database not writable;
- `RefuseWhenFull`: the outermost middleware but for the security headers, so a write failing anywhere below
  (a route, the idempotency claim, a bookkeeping commit) answers 507 in the refusal shape (ErrorOut).
"""

from __future__ import annotations

import errno
import sqlite3
from dataclasses import dataclass
from typing import Any

from fastapi.responses import JSONResponse
from sqlalchemy import event
from sqlalchemy.engine import Engine
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import refusal

FULL = "The server's disk is full: free space on the club laptop."
SQLITE_FULL = 13  # sqlite3.h: "Insertion failed because database is full"
PG_DISK_FULL = "53100"  # PostgreSQL's disk_full
OS_FULL = (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC))


def is_full(error: BaseException | None) -> bool:
    """Whether `error`, or an error it was raised from or during, is the disk being full."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, sqlite3.Error) and getattr(error, "sqlite_errorcode", None) == SQLITE_FULL:
            return True
        if getattr(error, "sqlstate", None) == PG_DISK_FULL:
            return True
        if isinstance(error, OSError) and error.errno in OS_FULL:
            return True
        error = getattr(error, "orig", None) or error.__cause__ or error.__context__
    return False


@dataclass
class Writable:
    """Whether the database takes writes: `full` from a write failing on a full disk until new rows commit."""

    full: bool = False
    why: str = ""


def watch(engine: Engine) -> Writable:
    """The engine's writes watched: a disk-full error marks it full, a commit of new rows clears it (the
    commit event comes before the commit, so a commit that fails full marks it again)."""
    state = Writable()

    @event.listens_for(engine, "after_cursor_execute")
    def _wrote(conn: Any, _cursor: Any, _sql: Any, _params: Any, context: Any, _many: Any) -> None:
        if context is not None and context.isinsert:  # an update in place may fit where no new row does
            conn.info["firestep.wrote"] = True

    @event.listens_for(engine, "commit")
    def _committed(conn: Any) -> None:
        if conn.info.pop("firestep.wrote", False):
            state.full, state.why = False, ""

    @event.listens_for(engine, "rollback")
    def _rolled_back(conn: Any) -> None:
        conn.info.pop("firestep.wrote", None)

    @event.listens_for(engine, "handle_error")
    def _failed(context: Any) -> None:
        if is_full(context.original_exception):
            state.full, state.why = True, str(context.original_exception).strip().splitlines()[0][:200]

    return state


def full_refusal(why: str) -> JSONResponse:
    body = refusal(FULL, status=507, why=why or "No space is left on the disk.")
    return JSONResponse(status_code=507, content=body)


class RefuseWhenFull:
    """An error of a full disk anywhere below, before the answer has started: 507 with the refusal's
    sentence (after it started, nothing can be said: the connection ends as any failed answer's does)."""

    def __init__(self, app: ASGIApp, writable: Writable) -> None:
        self.app = app
        self.writable = writable

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracking)
        except Exception as error:
            if started or not is_full(error):
                raise
            if not self.writable.full:  # a file firestep writes itself, not the database
                self.writable.why = f"{type(error).__name__}: {error}"[:200]
            await full_refusal(self.writable.why)(scope, receive, send)
