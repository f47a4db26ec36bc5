"""An upload over the body limit, sent to a real server as a browser sends it (the whole body, at once): the
client reads a 413 in the refusal shape, which the editor can show, instead of a connection reset while it
is still sending (the server answered and closed before reading the body)."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.config import MAX_BODY_BYTES_DEFAULT, Settings
from app.main import create_app
from app.server import uvicorn_options
from tests.conftest import _sqlite_clone, served_in_thread

UPLOAD = 3 * 1024 * 1024


@pytest.fixture
def served(sqlite_template: Path, tmp_path: Path) -> Iterator[int]:
    app = create_app(Settings(database_url=_sqlite_clone(sqlite_template, tmp_path), var_dir=tmp_path))
    with served_in_thread(app, **uvicorn_options(1)) as port:
        yield port


def _answer(sock: socket.socket) -> bytes:
    got = b""
    while chunk := sock.recv(65536):
        got += chunk
    return got


@pytest.mark.parametrize("declared", [True, False], ids=["content-length", "chunked"])
def test_a_3_mb_upload_reads_a_413_in_the_refusal_shape(served: int, declared: bool) -> None:
    body = json.dumps({"name": "x" * UPLOAD}).encode()
    if declared:
        head = f"Content-Length: {len(body)}"
        wire = body
    else:
        head = "Transfer-Encoding: chunked"
        wire = b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in (body[:UPLOAD], body[UPLOAD:]))
        wire += b"0\r\n\r\n"
    with socket.create_connection(("127.0.0.1", served), timeout=20) as sock:
        sock.sendall(
            f"POST /api/v1/scenarios HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n{head}"
            "\r\n\r\n".encode()
        )
        sock.sendall(wire)  # a reset here was the bug: the server had answered and closed unread
        status, _, rest = _answer(sock).partition(b"\r\n")
    assert status == b"HTTP/1.1 413 Request Entity Too Large"
    refusal = json.loads(rest.partition(b"\r\n\r\n")[2])
    assert refusal["field"] == "body" and refusal["allowed"] == {"max_bytes": MAX_BODY_BYTES_DEFAULT}
    assert len(refusal["detail"]) <= 120
