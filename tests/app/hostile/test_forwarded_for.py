"""X-Forwarded-For read only from the proxies `firestep serve` is told of (Settings.trusted_proxies, issue 93):
uvicorn by itself trusts it from 127.0.0.1, so any process on the server's own host (the club laptop) could
write a new address into each request and escape the limits on join codes and tokens. Sent to a real server
as `firestep serve` configures uvicorn (app.server.uvicorn_options), through its own socket on loopback."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from app.core.config import Settings
from app.main import create_app
from app.server import uvicorn_options
from tests.conftest import _sqlite_clone, served_in_thread

LIMIT = 3  # join attempts a minute from one client address


@contextmanager
def served(template: Path, folder: Path, trusted: str) -> Iterator[int]:
    settings = Settings(
        database_url=_sqlite_clone(template, folder),
        var_dir=folder,
        join_attempt_limit=f"{LIMIT} per 1 minute",
        trusted_proxies=trusted,
    )
    with served_in_thread(create_app(settings), **uvicorn_options(1, settings.trusted_proxies)) as port:
        yield port


def join_as(port: int, address: str) -> int:
    """A wrong join code sent from loopback, naming `address` as the client in X-Forwarded-For: the status."""
    body = json.dumps({"code": "ZZZZZ-ZZZZZ"}).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(
            f"POST /api/v1/join HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"X-Forwarded-For: {address}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
            + body
        )
        head = s.recv(64)
    return int(head[9:12])


@pytest.mark.parametrize(("trusted", "stopped"), [("", True), ("127.0.0.1", False)], ids=["none", "loopback"])
def test_a_written_client_address_escapes_the_join_limit_only_through_a_trusted_proxy(
    sqlite_template: Path, tmp_path: Path, trusted: str, stopped: bool
) -> None:
    with served(sqlite_template, tmp_path, trusted) as port:
        statuses = [join_as(port, f"203.0.113.{i}") for i in range(LIMIT + 2)]
    assert statuses[:LIMIT] == [422] * LIMIT
    # Nothing trusted: each request is the connection's own address, whatever it wrote, and is stopped at the
    # limit. A proxy trusted: each address it names is a player of its own, counted on its own.
    assert statuses[LIMIT:] == ([429, 429] if stopped else [422, 422])
