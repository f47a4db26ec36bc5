"""Live updates: tell every connected device that a game's event log has grown.

The broker carries only "game N has new events"; the event log in the database is the one source of what
happened. A stream therefore reads `id > last seen` from the database after each wake-up, which gives
Last-Event-ID resume and live delivery by the same code path and can never skip an event.

The interface is two calls, `publish(game_id)` (thread-safe, after commit) and `subscribe(game_id)` (an
async waiter). `InProcessBroker` fans out within one server process. A PostgreSQL implementation replaces it
without touching the routes: `publish` runs `NOTIFY firestep_events, '<game_id>'` and one listener
connection per process (`LISTEN firestep_events`) calls the same local fan-out as `publish` does here.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from sqlalchemy import event as sa_event
from sqlmodel import Session

# Events older than this are sent in one go on resume, in pages of this many rows.
PAGE = 500
KEEPALIVE_SECONDS = 15.0


class Subscription:
    """One connected device. `wait` returns True when woken, False on timeout."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        self._loop = asyncio.get_running_loop()
        self._event = asyncio.Event()

    def notify(self) -> None:
        self._loop.call_soon_threadsafe(self._event.set)

    async def wait(self, timeout: float) -> bool:
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
        except TimeoutError:
            return False
        self._event.clear()
        return True


class Broker(Protocol):
    def publish(self, game_id: int) -> None: ...

    def subscribe(self, game_id: int) -> Any: ...  # a context manager yielding a Subscription


class InProcessBroker:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subs: dict[int, set[Subscription]] = {}

    def publish(self, game_id: int) -> None:
        with self._lock:
            subs = list(self._subs.get(game_id, ()))
        for sub in subs:
            sub.notify()

    @contextmanager
    def subscribe(self, game_id: int) -> Iterator[Subscription]:
        sub = Subscription(game_id)
        with self._lock:
            self._subs.setdefault(game_id, set()).add(sub)
        try:
            yield sub
        finally:
            with self._lock:
                self._subs[game_id].discard(sub)
                if not self._subs[game_id]:
                    del self._subs[game_id]

    def subscribers(self, game_id: int) -> int:
        with self._lock:
            return len(self._subs.get(game_id, ()))


broker: Broker = InProcessBroker()

# Writers mark the session; the games are published only once the transaction has committed, so a woken
# stream always finds the rows it was told about.
_PENDING = "firestep_live_games"


def mark(session: Session, game_id: int) -> None:
    session.info.setdefault(_PENDING, set()).add(game_id)


@sa_event.listens_for(Session, "after_commit")
def _after_commit(session: Any) -> None:
    games = session.info.pop(_PENDING, None)
    for game_id in games or ():
        broker.publish(game_id)


@sa_event.listens_for(Session, "after_rollback")
def _after_rollback(session: Any) -> None:
    session.info.pop(_PENDING, None)


def sse_frame(event_id: int, kind: str, data: str) -> str:
    """One Server-Sent Event; `data` is JSON on one line."""
    return f"id: {event_id}\nevent: {kind}\ndata: {data}\n\n"


async def stream(
    game_id: int,
    last_id: int,
    fetch: Callable[[int, int], list[tuple[int, str, str]]],
    is_disconnected: Callable[[], Any],
) -> Any:
    """Yield SSE frames: everything after `last_id`, then each new event as it is published.
    `fetch(after_id, limit)` runs in a worker thread and returns (id, kind, json) rows in id order."""
    with broker.subscribe(game_id) as sub:  # subscribe before reading so nothing falls in between
        yield "retry: 1000\n\n"
        while True:
            while True:
                rows = await asyncio.to_thread(fetch, last_id, PAGE)
                for event_id, kind, data in rows:
                    yield sse_frame(event_id, kind, data)
                    last_id = event_id
                if len(rows) < PAGE:
                    break
            if await is_disconnected():
                return
            if not await sub.wait(KEEPALIVE_SECONDS):
                yield ": keep-alive\n\n"
