"""Shared by the HTTP benchmarks: start a server in its own process, a minimal keep-alive HTTP/1.1 client
(asyncio streams, so the load generator costs little next to the server it measures), a Server-Sent Events
reader, and a throw-away database on PostgreSQL or SQLite. Not a test: the bench scripts only report."""

from __future__ import annotations

import abc
import asyncio
import contextlib
import ctypes
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CONTENT_LENGTH = re.compile(rb"\r\ncontent-length: *(\d+)", re.IGNORECASE)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Process:
    """A server command in its own process group, waited for until `health` answers 200 (at most `timeout`
    seconds); its output to `log` (a file open for writing) if given. A start that fails (the command exits,
    never answers, or the wait is interrupted) stops the whole group before it raises: a server of several
    workers whose supervisor respawns them served on for 23 minutes when only the supervisor was waited for,
    and no caller could stop a server it was never given. And the server stops by itself if the process that
    started it dies (Linux's parent-death signal: the command is sent SIGTERM)."""

    def __init__(
        self,
        args: list[str],
        port: int,
        env: dict[str, str],
        health: str = "/healthz",
        cwd: Path = ROOT,
        log: IO[bytes] | None = None,
        timeout: float = 180,
    ) -> None:
        self.port = port
        self.proc = subprocess.Popen(
            args,
            cwd=cwd,
            env={**os.environ, **env},
            start_new_session=True,
            stdout=log,
            stderr=None if log is None else subprocess.STDOUT,
            preexec_fn=_stopped_with_parent,
        )
        try:
            self._wait_healthy(args, health, time.monotonic() + timeout)
        except BaseException:
            self.stop()
            raise

    def _wait_healthy(self, args: list[str], health: str, deadline: float) -> None:
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {' '.join(args)}")
            # A blocking probe, not asyncio.run: the caller may be a test whose thread runs an event loop (CI: a
            # shuffled suite left one running, and the failed start raised that instead of "server exited").
            with contextlib.suppress(OSError):
                probe = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                try:
                    probe.request("GET", health)
                    if probe.getresponse().status == 200:
                        return
                finally:
                    probe.close()
            if time.monotonic() > deadline:
                raise RuntimeError(f"server did not start: {' '.join(args)}")
            time.sleep(0.2)

    def stop(self) -> None:
        """Every process of the server's group ended (SIGTERM, then SIGKILL for what is left after 20 s)."""
        group = self.proc.pid
        with contextlib.suppress(ProcessLookupError):
            os.killpg(group, signal.SIGTERM)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            self.proc.poll()  # the command reaped once it ends (its workers are the group's others)
            if not group_members(group):
                break
            time.sleep(0.05)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(group, signal.SIGKILL)
        self.proc.wait(5)

    def cpu(self) -> float:
        """The server process's CPU seconds so far (user and system, all its threads), to the nanosecond (Linux's
        CPU clock of another process, where /proc counts in ticks of 10 ms). A server of several workers does
        its work in their processes: live_fanout.group_cpu counts the group's."""
        return time.clock_gettime((~self.proc.pid << 3) | 2)  # CPUCLOCK_SCHED of the whole process


_PR_SET_PDEATHSIG = 1
_prctl = ctypes.CDLL(None, use_errno=True).prctl if sys.platform == "linux" else None


def _stopped_with_parent() -> None:
    """In the forked child, before the command runs: SIGTERM to it when its parent dies."""
    if _prctl is not None:
        _prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def group_members(group: int) -> list[int]:
    """The processes of a process group still running (a zombie, ended but not yet reaped, is not; Linux's
    /proc)."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()  # after the name: state, ppid, pgrp, ...
            if int(fields[2]) == group and fields[0] != "Z":
                members.append(int(stat.parent.name))
    return members


def uvicorn_args(app: str, port: int, workers: int = 1) -> list[str]:
    """The same server settings for every app a bench compares."""
    return [
        sys.executable,
        "-m",
        "uvicorn",
        app,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--log-level",
        "warning",
        "--no-access-log",
        "--timeout-graceful-shutdown",
        "1",
    ]


def encode(method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> bytes:
    data = b"" if body is None else json.dumps(body).encode()
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(data)}"]
    if body is not None:
        lines.append("Content-Type: application/json")
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + data


class Stream(abc.ABC):
    """One device's Server-Sent Events stream, read until cancelled: `ready` once the server has subscribed it
    (its first line, `retry:`), `error` why it ended early, `bytes_read` from then on. It reads whatever has
    arrived in one go and stamps its lines with the time it was read: a client that parsed line by line spent
    more time in its own loop than the server took to deliver (500 streams share one process). What a line
    means is said by each kind of device (`seen`)."""

    limit = 1 << 20  # the longest line it takes: a frame's data

    def __init__(self) -> None:
        self.ready = asyncio.Event()
        self.error = ""
        self.bytes_read = 0

    @abc.abstractmethod
    def seen(self, line: bytes, at: float) -> None:
        """One line of the stream but `retry:`, read at `at` (time.monotonic)."""

    async def follow(self, port: int, path: str, headers: dict[str, str]) -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=self.limit)
        except OSError as exc:
            self.error = f"connect: {exc}"
            self.ready.set()
            return
        try:
            writer.write(encode("GET", path, headers={**headers, "Accept": "text/event-stream"}))
            head = await reader.readuntil(b"\r\n\r\n")
            if head[9:12] != b"200":
                self.error = head[:200].decode(errors="replace")
                return
            pending = b""
            while True:
                chunk = await reader.read(1 << 20)
                if not chunk:
                    self.error = "stream closed by the server"
                    return
                now = time.monotonic()
                if self.ready.is_set():
                    self.bytes_read += len(chunk)
                *lines, pending = (pending + chunk).split(b"\n")
                for line in lines:
                    if line.startswith(b"retry:"):
                        self.ready.set()  # subscribed: the server sends this first
                    else:
                        self.seen(line, now)
        except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
            self.error = str(exc)
        finally:
            self.ready.set()
            with contextlib.suppress(Exception):
                writer.close()


async def read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    found = CONTENT_LENGTH.search(head)
    if found is None:
        raise RuntimeError(f"no Content-Length in {head[:200]!r}")
    return int(head[9:12]), await reader.readexactly(int(found.group(1)))


async def request(
    host: str, port: int, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, Any]:
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(encode(method, path, body, headers))
        status, data = await read_response(reader)
        return status, json.loads(data) if data.startswith((b"{", b"[")) else data
    finally:
        writer.close()


def call(port: int, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
    status, data = asyncio.run(request("127.0.0.1", port, method, path, body, headers))
    if status >= 300:
        raise RuntimeError(f"{method} {path}: {status} {data!r}")
    return data


class KeepAlive:
    """One keep-alive connection to a server on this host, its requests made one at a time; opened again when
    the server has closed it (its keep-alive timeout: a request it closed on was never read)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.loop = asyncio.new_event_loop()
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    def __call__(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        raw = encode(method, path, body, headers)
        try:
            status, data = self.loop.run_until_complete(self._ask(raw))
        except (asyncio.IncompleteReadError, ConnectionError):
            self.streams = None
            status, data = self.loop.run_until_complete(self._ask(raw))
        return status, json.loads(data) if data.startswith((b"{", b"[")) else data

    async def _ask(self, raw: bytes) -> tuple[int, bytes]:
        if self.streams is None or self.streams[0].at_eof():
            self.streams = await asyncio.open_connection("127.0.0.1", self.port)
        reader, writer = self.streams
        writer.write(raw)
        return await read_response(reader)

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
        self.loop.close()


async def hammer(port: int, raw: bytes, connections: int, seconds: float) -> int:
    """Completed 200 answers in `seconds`, over `connections` keep-alive connections each sending `raw`."""
    stop = time.perf_counter() + seconds
    done = 0

    async def one() -> None:
        nonlocal done
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            while time.perf_counter() < stop:
                writer.write(raw)
                status, _ = await read_response(reader)
                if status != 200:
                    raise RuntimeError(f"status {status}")
                done += 1
        finally:
            writer.close()

    await asyncio.gather(*(one() for _ in range(connections)))
    return done


@contextlib.contextmanager
def scratch_database(kind: str, tree: Path = ROOT) -> Iterator[str]:
    """A database migrated by `tree`'s firestep (another checkout's in a process of its own: its app checks the
    schema as its own migrations leave it): SQLite in a temp dir, or a new database on the PostgreSQL server of
    FIRESTEP_BENCH_DATABASE_URL (or FIRESTEP_TEST_DATABASE_URL), dropped afterwards."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    def migrate(url: str) -> None:
        if tree == ROOT:
            from app.core.db import migrate as here

            here(url)
            return
        code = "import sys; from app.core.db import migrate; migrate(sys.argv[1])"
        env = {**os.environ, "PYTHONPATH": str(tree)}
        subprocess.run([sys.executable, "-c", code, url], cwd=tree, env=env, check=True)

    if kind == "sqlite":
        with tempfile.TemporaryDirectory(prefix="firestep-bench-") as tmp:
            url = f"sqlite:///{tmp}/bench.db"
            migrate(url)
            yield url
        return
    base = os.environ.get("FIRESTEP_BENCH_DATABASE_URL") or os.environ.get("FIRESTEP_TEST_DATABASE_URL")
    if not base:
        raise SystemExit(
            "set FIRESTEP_BENCH_DATABASE_URL=postgresql+psycopg://user@host:port/db for PostgreSQL"
        )
    name = f"firestep_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(make_url(base).set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        url = make_url(base).set(database=name).render_as_string(hide_password=False)
        migrate(url)
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def load_line() -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"load average {load:.1f} on {os.cpu_count()} cores (a busy machine makes every figure noisier)"
