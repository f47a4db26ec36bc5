"""Streams that end at once leave no threads behind: a stream holds no request session, whose closing would
take a thread of its own per stream (FastAPI closes a generator dependency in a new thread each time, and
idle threads are only reaped by a later request, ten seconds on)."""

from __future__ import annotations

import socket
import threading
import time
from urllib.parse import urlsplit

from tests.app.games.conftest import live_url, new_game  # noqa: F401 (live_url is a fixture)

STREAMS = 150
# The threads a server may keep: anyio's pool for sync endpoints (40) and asyncio's default executor.
POOLS = 40 + 32


def test_streams_dropped_at_once_leave_no_threads_behind(live_url: str) -> None:  # noqa: F811
    import httpx

    with httpx.Client(base_url=live_url, timeout=30) as http:
        g = new_game(http)
    host, port = urlsplit(live_url).hostname, urlsplit(live_url).port
    assert host and port
    before = threading.active_count()
    streams = []
    for _ in range(STREAMS):
        s = socket.create_connection((host, port), timeout=10)
        s.sendall(
            f"GET /api/v1/games/{g.id}/stream HTTP/1.1\r\nHost: {host}\r\n"
            f"Authorization: {g.attacker['Authorization']}\r\n\r\n".encode()
        )
        streams.append(s)
    for s in streams:
        got = b""
        while b"retry:" not in got:
            chunk = s.recv(4096)
            assert chunk, "a stream was refused"
            got += chunk
    for s in streams:  # every device goes away at once
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        s.close()
    deadline = time.monotonic() + 2  # the server has this long to end the streams' threads
    while threading.active_count() - before >= POOLS and time.monotonic() < deadline:
        time.sleep(0.05)
    assert threading.active_count() - before < POOLS, threading.active_count() - before
