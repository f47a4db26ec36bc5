"""How `firestep serve` runs uvicorn: the HTTP protocol guarded against clients that open connections and
never finish a request (slowloris), and the options every worker is started with.

A connection is *waiting* from the moment it opens, or its last answer is sent, until a whole request
(headers and body) has arrived. A waiting connection is closed after `request_timeout_seconds`. When the
process nears its open-file limit (RLIMIT_NOFILE), the oldest waiting connections are closed to make room,
so that a new connection is always accepted and answered: a cap per client address would not do, since
every device of a club may share one address. Connections whose request is complete (an answer being
computed, a live event stream) are never closed here.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import time
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

# uvloop accepts every connection the kernel holds for it before any of them reaches a protocol, and at the
# open-file limit it accepts and closes all of them (libuv's EMFILE trick), fresh requests included. So the
# kernel's queue of pending connections (the listen backlog) is kept at a fraction of the limit, and twice
# that many descriptors are kept free beyond those the process holds besides its connections.
BACKLOG_MAX = 2048  # uvicorn's default
BACKLOG_MIN = 16
# The process's other descriptors are counted again at most this often (listing them is a system call each).
RECOUNT_SECONDS = 0.5


def descriptor_limit() -> int:
    """The process's open-file limit, first raised to its hard limit (a process may: many systems start
    servers with a soft limit of 1,024 under a far larger hard one)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def backlog(limit: int) -> int:
    return max(BACKLOG_MIN, min(BACKLOG_MAX, limit // 16))


def open_descriptors() -> int:
    for where in ("/proc/self/fd", "/dev/fd"):
        try:
            return len(os.listdir(where))
        except OSError:
            continue
    return 0  # no way to count here: only the timeout guards this server


class Door:
    """The waiting connections of one server, oldest first, and the cap on open connections."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.waiting: dict[GuardedHttpToolsProtocol, None] = {}  # insertion order: oldest first
        self.closing: set[GuardedHttpToolsProtocol] = set()  # closed here, descriptor not yet released
        self.limit = descriptor_limit()
        self.headroom = 2 * backlog(self.limit)
        self.others = 0
        self.counted_at = -RECOUNT_SECONDS

    def cap(self, connections: int) -> int:
        """How many connections may be open, given the descriptors the process holds besides them."""
        if connections + self.others + self.headroom >= self.limit:
            now = time.monotonic()
            if now - self.counted_at >= RECOUNT_SECONDS:
                self.counted_at = now
                self.others = max(0, open_descriptors() - connections)
        return self.limit - self.others - self.headroom

    def make_room(self, connections: set[Any], newcomer: GuardedHttpToolsProtocol) -> None:
        """Close the oldest waiting connections while the open ones are over the cap."""
        open_now = len(connections) - len(self.closing)
        excess = open_now - self.cap(len(connections))
        for conn in list(self.waiting):
            if excess <= 0:
                break
            if conn is newcomer:
                continue
            conn.drop()
            excess -= 1


def _door(server_state: Any, timeout: float) -> Door:
    door: Door | None = getattr(server_state, "firestep_door", None)
    if door is None:
        door = Door(timeout)
        server_state.firestep_door = door
    return door


def _request_timeout() -> float:
    from app.core.config import get_settings

    return float(get_settings().request_timeout_seconds)


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline for each request to arrive and room kept for new
    connections near the open-file limit (see the module's docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.door = _door(self.server_state, _request_timeout())
        self.deadline: asyncio.TimerHandle | None = None

    def _wait_for_request(self) -> None:
        self.door.waiting[self] = None
        if self.deadline is None:
            self.deadline = self.loop.call_later(self.door.timeout, self.drop)

    def _request_arrived(self) -> None:
        self.door.waiting.pop(self, None)
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def drop(self) -> None:
        """Close a connection that has not sent a whole request in time, or is the oldest such one."""
        self._request_arrived()
        if not self.transport.is_closing():
            self.door.closing.add(self)
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._wait_for_request()
        self.door.make_room(self.connections, self)

    def connection_lost(self, exc: Exception | None) -> None:
        self._request_arrived()
        self.door.closing.discard(self)
        super().connection_lost(exc)

    def on_message_complete(self) -> None:
        self._request_arrived()
        super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # Waiting again (keep-alive) unless a pipelined request, complete already, has just started.
        if not self.transport.is_closing() and not self.pipeline and self.cycle.response_complete:
            self._wait_for_request()


def uvicorn_options(timeout_graceful_shutdown: int) -> dict[str, Any]:
    """The options `firestep serve` gives uvicorn besides the app, address, workers and reload."""
    return {
        "http": f"{GuardedHttpToolsProtocol.__module__}:{GuardedHttpToolsProtocol.__name__}",
        "backlog": backlog(descriptor_limit()),
        "timeout_graceful_shutdown": timeout_graceful_shutdown,
    }
