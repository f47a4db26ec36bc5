"""A request's session (app.deps.get_session) gives its connection back where it can without waiting: on the
event loop when nothing is left to undo (a SQLite session that only read, which the driver began no transaction
for), on a thread when the rollback may wait on the database (a server's, a SQLite write left uncommitted)
(issue 88: the hop to a thread and back cost a read a token authorises 0.15 ms of CPU)."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import event, text
from sqlmodel import select

from app.core.db import make_engine
from app.data.models import Token
from app.deps import get_session

pytestmark = pytest.mark.storage  # what a backend's rollback waits on


def _returned_on(url: str, write: bool) -> str:
    """Where the request's session gave its connection back: "loop" (the event loop's thread) or "thread"."""
    engine = make_engine(url)
    returned: list[int] = []
    event.listen(engine.pool, "checkin", lambda *_: returned.append(threading.get_ident()))

    async def request() -> int:
        sessions = get_session(engine)
        session = await sessions.__anext__()
        session.exec(select(Token)).all()
        if write:
            session.execute(text("UPDATE token SET role = role"))
        await sessions.aclose()
        return threading.get_ident()

    try:
        # On a thread of its own: a test before this one may have left an event loop running on this thread
        # (the shuffled suite's xdist worker), where asyncio.run refuses to start another.
        with ThreadPoolExecutor(1) as own:
            loop = own.submit(asyncio.run, request()).result()
    finally:
        engine.dispose()
    assert len(returned) == 1
    return "loop" if returned[0] == loop else "thread"


def test_a_read_gives_its_connection_back_on_the_loop_where_nothing_waits(migrated_url: str) -> None:
    sqlite = migrated_url.startswith("sqlite")
    assert _returned_on(migrated_url, write=False) == ("loop" if sqlite else "thread")
    assert _returned_on(migrated_url, write=True) == "thread"
