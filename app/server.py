"""How `firestep serve` runs uvicorn: the HTTP protocol guarded against clients that open connections and
never finish a request (slowloris), and the options every worker is started with.

A connection is *waiting* from the moment it opens, or its last answer is sent, until a whole request
(headers and body) has arrived. A waiting connection is closed after `request_timeout_seconds`. When the
process nears its open-file limit (RLIMIT_NOFILE), the oldest waiting connections are closed to make room,
when a connection opens and every RECOUNT_SECONDS (the app's own files and database connections come and go
between connections), so that a new connection is always accepted and answered: a cap per client address
would not do, since every device of a club may share one address. Connections whose request is complete (an answer being
computed, a live event stream) are never closed here.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, TypedDict

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.core.db import POOL_DESCRIPTORS
from app.core.platform import open_file_limit

# uvloop accepts every connection the kernel holds for it before any of them reaches a protocol, and at the
# open-file limit it accepts and closes all of them (libuv's EMFILE trick), fresh requests included. So the
# kernel's queue of pending connections (the listen backlog) is kept at a fraction of the limit, and twice
# that many descriptors are kept free beyond those the process holds besides its connections.
BACKLOG_MAX = 2048  # uvicorn's default
BACKLOG_MIN = 16
# The process's other descriptors are counted again at most this often (listing them is a system call each).
RECOUNT_SECONDS = 0.5
# Descriptors a burst of requests may open besides their connections, kept free too: the database pool's, and
# one file for each of anyio's 40 worker threads (a static file or a cached playsheet being sent).
REQUEST_DESCRIPTORS = POOL_DESCRIPTORS + 40


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

    def __init__(self, timeout: float, connections: set[Any], loop: asyncio.AbstractEventLoop) -> None:
        self.timeout = timeout
        self.connections = connections  # the server's open connections (uvicorn's server_state)
        self.waiting: dict[GuardedHttpToolsProtocol, None] = {}  # insertion order: oldest first
        self.closing: set[GuardedHttpToolsProtocol] = set()  # closed here, descriptor not yet released
        self.limit = open_file_limit()
        self.headroom = 2 * backlog(self.limit) + REQUEST_DESCRIPTORS
        self.others = 0
        self.counted_at = -RECOUNT_SECONDS
        self.loop = loop
        self.loop.call_later(RECOUNT_SECONDS, self.sweep)

    def sweep(self) -> None:
        """Make room again every RECOUNT_SECONDS: at the limit no connection opens to do it (the kernel's
        queue fills and uvloop closes what it accepts), so the door would stay shut while the attack holds."""
        if self.waiting:
            self.make_room(None)
        self.loop.call_later(RECOUNT_SECONDS, self.sweep)

    def cap(self, connections: int) -> int:
        """How many connections may be open, given the descriptors the process holds besides them."""
        if connections + self.others + self.headroom >= self.limit:
            now = time.monotonic()
            if now - self.counted_at >= RECOUNT_SECONDS:
                self.counted_at = now
                self.others = max(0, open_descriptors() - connections)
        return self.limit - self.others - self.headroom

    def make_room(self, newcomer: GuardedHttpToolsProtocol | None) -> None:
        """Close the oldest waiting connections (never the newcomer) while the open ones are over the cap."""
        open_now = len(self.connections) - len(self.closing)
        excess = open_now - self.cap(len(self.connections))
        for conn in list(self.waiting):
            if excess <= 0:
                break
            if conn is newcomer:
                continue
            conn.drop()
            excess -= 1


def _door(server_state: Any, timeout: float, loop: asyncio.AbstractEventLoop) -> Door:
    door: Door | None = getattr(server_state, "firestep_door", None)
    if door is None:
        door = Door(timeout, server_state.connections, loop)
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
        self.door = _door(self.server_state, _request_timeout(), self.loop)
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
        self.door.make_room(self)

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


class UvicornOptions(TypedDict):
    """Keyword arguments of uvicorn's run and Config."""

    http: str
    backlog: int
    timeout_graceful_shutdown: int
    proxy_headers: bool
    forwarded_allow_ips: str
    timeout_worker_healthcheck: int


# How long uvicorn's supervisor waits for a worker to answer its ping before it kills the worker as hung (its
# default 5 s): on a loaded laptop a worker importing the app (7.7 s of CPU at load 6) did not answer in time, and
# four workers at load 11-16 never all started (issue 93). A hung worker is still replaced, a minute later.
WORKER_HEALTHCHECK_SECONDS = 60


def uvicorn_options(timeout_graceful_shutdown: int, trusted_proxies: str = "") -> UvicornOptions:
    """The options `firestep serve` gives uvicorn besides the app, address, workers and reload. X-Forwarded-For
    is read from the `trusted_proxies` alone (Settings.trusted_proxies): uvicorn by itself trusts it from
    127.0.0.1, where any process on the server's host may write it."""
    return {
        "http": f"{GuardedHttpToolsProtocol.__module__}:{GuardedHttpToolsProtocol.__name__}",
        "backlog": backlog(open_file_limit()),
        "timeout_graceful_shutdown": timeout_graceful_shutdown,
        "proxy_headers": bool(trusted_proxies.strip()),
        "forwarded_allow_ips": trusted_proxies,
        "timeout_worker_healthcheck": WORKER_HEALTHCHECK_SECONDS,
    }


# -- firestep serve --club: HTTPS for the app, plain HTTP for /trust and a redirect ----------------------------
# What the plain port still serves: the page that tells a tablet how to trust the club's authority (at / too:
# a tablet that types the laptop's address has no way yet to open the HTTPS one without a warning), its
# downloads, and the page's stylesheet and script. Everything else is redirected to HTTPS (307: temporary, so
# a browser remembers nothing if the laptop later serves plain HTTP again; no HSTS, which would cover this
# port too).
PLAIN_PATHS = ("/trust", "/static/")


def served_plain(path: str) -> bool:
    return path == PLAIN_PATHS[0] or path.startswith((PLAIN_PATHS[0] + "/", *PLAIN_PATHS[1:]))


def _host_of(scope: Any, hosts: Sequence[str]) -> str:
    """The server's own address the client reached this port at (the Host header's host when it is one of
    `hosts`, the addresses the server certificate names), else the first of `hosts`: a redirect never sends
    a tablet to a host a request made up."""
    host = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"host"), "").lower()
    host = host[: host.find("]") + 1] if host.startswith("[") else host.rsplit(":", 1)[0]
    return host if host in hosts else hosts[0]


def _reaching(send: Any, origin: str) -> Any:
    """`send`, with the answer's policy letting its script reach `origin` too: the trust page tries the
    HTTPS address in the background (frontend/static/js/trust.js) and moves there once it answers."""

    async def send_reaching(message: Any) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = [
                (k, v.replace(b"connect-src 'self'", b"connect-src 'self' " + origin.encode("latin-1")))
                if k.lower() == b"content-security-policy"
                else (k, v)
                for k, v in message["headers"]
            ]
        await send(message)

    return send_reaching


def plain_http_app(app: Any, https_port: int, hosts: Sequence[str]) -> Any:
    """The plain port's ASGI app: `app` for the paths in PLAIN_PATHS (and / for /trust), a redirect to HTTPS at
    one of the server's own `hosts` (the first by default) for the rest."""
    own = [h.lower() for h in hosts]

    async def plain(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        https = f"https://{_host_of(scope, own)}:{https_port}"
        if scope["path"] == "/" and scope["method"] in ("GET", "HEAD"):
            scope = {**scope, "path": PLAIN_PATHS[0], "raw_path": PLAIN_PATHS[0].encode()}
        if served_plain(scope["path"]):
            await app(scope, receive, _reaching(send, https))
            return
        path = (scope.get("raw_path") or scope["path"].encode()).decode("latin-1")
        query = scope.get("query_string", b"").decode("latin-1")
        location = f"{https}{path}" + (f"?{query}" if query else "")
        headers = [(b"location", location.encode("latin-1")), (b"content-length", b"0")]
        await send({"type": "http.response.start", "status": 307, "headers": headers})
        await send({"type": "http.response.body", "body": b""})

    return plain


class _PlainServer(uvicorn.Server):
    """The plain port's server: the HTTPS server takes the signals, and stops this one when it stops."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def serve_club(
    host: str,
    port: int,
    http_port: int,
    certfile: Path,
    keyfile: Path,
    options: UvicornOptions,
    hosts: Sequence[str],
) -> None:
    """Serve app.main:app over HTTPS on `port` and the plain port beside it, in this one process (each port
    with its own slowloris guard: the Door lives in each server's state); the plain port redirects to
    `hosts`, the server's own addresses."""
    from uvicorn._compat import asyncio_run

    from app.main import app

    secure = uvicorn.Server(
        uvicorn.Config(app, host=host, port=port, ssl_certfile=certfile, ssl_keyfile=keyfile, **options)
    )
    plain = _PlainServer(
        uvicorn.Config(plain_http_app(app, port, hosts), host=host, port=http_port, lifespan="off", **options)
    )

    async def both() -> None:
        # The plain port (its trust page is what a tablet opens first, and its links lead to the HTTPS port)
        # listens once the HTTPS port does: the app's start builds what its first requests would (app.main).
        serving = asyncio.create_task(secure.serve())
        while not secure.started and not serving.done():
            await asyncio.sleep(0.05)
        plain_task = asyncio.create_task(plain.serve()) if secure.started else None
        try:
            await serving
        finally:
            if plain_task is not None:
                plain.should_exit = True
                await plain_task

    asyncio_run(both(), loop_factory=secure.config.get_loop_factory())
