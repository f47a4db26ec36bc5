"""Past one process: two servers on different ports against the same PostgreSQL database, one a uvicorn
process, the other `firestep serve --workers 2` (two worker processes behind one port). A marker posted
through one reaches a stream held on the other, in order, either way; a stream resumes with Last-Event-ID
across a restart of the server it was held on; every stream on the two-worker server gets every marker, in order, whichever of its
workers took the write. PostgreSQL only (SQLite is one server process); in CI the test fails rather than
skips without it."""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import event as sa_event
from sqlalchemy.engine import Engine

from tests.app.club.served import free_port
from tests.app.games.conftest import Game, new_game, start_game, units_by_ref
from tests.app.games.test_live_and_concurrency import Listener
from tests.conftest import _postgresql_base, _postgresql_database

ROOT = Path(__file__).resolve().parents[3]


class Server:
    """`uvicorn app.main:app` in its own process, as a worker of a deployment would run."""

    def __init__(self, url: str, var_dir: Path, command: list[str] | None = None) -> None:
        self.port = free_port()
        self.command = command or [
            "-m",
            "uvicorn",
            "app.main:app",
            "--host",
            "127.0.0.1",
            "--log-level",
            "warning",
            "--timeout-graceful-shutdown",
            "1",
        ]
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "FIRESTEP_DATABASE_URL": url,
            "FIRESTEP_VAR_DIR": str(var_dir),
            "FIRESTEP_SECRET_KEY": "two-processes-share-one-secret-key-" + "x" * 24,
        }
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.launch()
        self.wait_ready()

    def launch(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, *self.command, "--port", str(self.port)],
            cwd=ROOT,
            env=self.env,
            start_new_session=True,  # its own process group: stopping it stops every worker it forked
        )

    def wait_ready(self) -> None:
        assert self.proc is not None
        deadline = time.monotonic() + 120  # a loaded 2-core machine is slow to import the app
        # One client for every probe: httpx.get makes a client each time, and its TLS context loads the CA
        # bundle (~35 ms of CPU), 3% of a run of tests/app/games spent polling the servers' start.
        with httpx.Client(timeout=1) as probe:
            while True:
                assert self.proc.poll() is None, "uvicorn exited"
                try:
                    if probe.get(f"{self.base}/healthz").status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
                assert time.monotonic() < deadline, "uvicorn did not start"
                time.sleep(0.1)

    def stop(self) -> None:
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
            self.proc = None


SERVE_TWO_WORKERS = ["-m", "app.cli", "serve", "--no-setup", "--workers", "2", "--host", "127.0.0.1"]


@pytest.fixture
def two_servers(postgresql_template: str, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    """A uvicorn process and `firestep serve --workers 2`, over one PostgreSQL database, started together."""
    with _postgresql_database(_postgresql_base(), template=postgresql_template) as url:
        servers = (Server(url, tmp_path), Server(url, tmp_path, SERVE_TWO_WORKERS))
        servers[1].env["FIRESTEP_GRACEFUL_SHUTDOWN_SECONDS"] = "1"
        try:
            for s in servers:
                s.launch()
            for s in servers:
                s.wait_ready()
            yield servers
        finally:
            for s in servers:
                s.stop()


def _targets(http: httpx.Client, g: Game) -> Iterator[dict[str, Any]]:
    """The defender's platoons in turn, so no one platoon is suppressed out of the game."""
    return itertools.cycle(
        [
            u
            for u in units_by_ref(http, g).values()
            if u["side"] == "defender" and u["kind"] == "rifle-platoon"
        ]
    )


def _marker(http: httpx.Client, g: Game, targets: Iterator[dict[str, Any]]) -> int:
    unit = next(targets)
    r = http.post(
        f"/api/v1/games/{g.id}/units/{unit['id']}/markers",
        headers=g.attacker,
        json={"delta": 1, "fire": "rifle"},
    )
    assert r.status_code == 200, r.text
    return int(r.json()["event_id"])


def _close(*listeners: Listener) -> None:
    for listener in listeners:
        listener.close()


def _ids(listener: Listener, n: int) -> list[int]:
    got = [ev for _, ev in listener.take(n)]
    assert all(e["kind"] == "marker" for e in got)
    return [e["id"] for e in got]


@pytest.mark.long
def test_a_marker_posted_through_one_process_reaches_a_stream_on_the_other(
    two_servers: tuple[Server, Server],
) -> None:
    a, b = two_servers
    with (
        httpx.Client(base_url=a.base, timeout=30) as via_a,
        httpx.Client(base_url=b.base, timeout=30) as via_b,
    ):
        g = new_game(via_a)
        start_game(via_a, g)
        target = _targets(via_a, g)
        backlog = len(via_b.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json())

        on_b = Listener(f"{b.base}/api/v1/games/{g.id}/stream", g.referee)
        on_b.take(backlog)
        posted = [_marker(via_a, g, target) for _ in range(5)]
        assert _ids(on_b, 5) == posted  # every one, in order, through the other process
        _close(on_b)

        # A restarts; meanwhile markers go through B; the tablet comes back to A with Last-Event-ID. (B's
        # restart is A's again: the same app resuming the same log, so A's, one process to start where B is
        # three, stands for both; issue 65 dropped B's, as it had A's before.)
        a.stop()
        missed = [_marker(via_b, g, target) for _ in range(3)]
        a.start()
        back_on_a = Listener(
            f"{a.base}/api/v1/games/{g.id}/stream", {**g.referee, "Last-Event-ID": str(posted[-1])}
        )
        assert _ids(back_on_a, 3) == missed
        live = _marker(via_b, g, target)
        assert _ids(back_on_a, 1) == [live]

        # The other way: a stream on B, resumed from where the tablet was, hears the writes going through A.
        again_on_b = Listener(
            f"{b.base}/api/v1/games/{g.id}/stream", {**g.referee, "Last-Event-ID": str(posted[-1])}
        )
        assert _ids(again_on_b, 4) == [*missed, live]
        through_a = [_marker(via_a, g, target) for _ in range(2)]
        assert _ids(again_on_b, 2) == through_a
        assert _ids(back_on_a, 2) == through_a  # A's own stream hears its own writes
        last = through_a[-1]
        assert again_on_b.events.empty() and back_on_a.events.empty()
        _close(again_on_b, back_on_a)

        # B is two workers behind one port: each connection lands on either, and every stream on B still
        # gets every marker, in order, whichever worker took the write.
        on_b_workers = [
            Listener(f"{b.base}/api/v1/games/{g.id}/stream", {**g.referee, "Last-Event-ID": str(last)})
            for _ in range(4)
        ]
        posted = []
        for _ in range(6):
            with httpx.Client(base_url=b.base, timeout=30) as fresh:  # a new connection each time
                posted.append(_marker(fresh, g, target))
        for listener in on_b_workers:
            assert _ids(listener, 6) == posted
        _close(*on_b_workers)


@pytest.mark.storage  # each backend wakes the streams its own way (PostgreSQL: LISTEN/NOTIFY)
def test_one_read_of_the_log_per_wake_up_serves_every_stream_of_the_process(live_url: str) -> None:
    """Eight devices on one game in one server: each marker costs that process about one read of the event
    table, not one per device (counted at the driver, on both backends)."""
    reads: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if "FROM event" in statement and "event.game_id" in statement:
            reads.append(statement)

    with httpx.Client(base_url=live_url, timeout=30) as http:
        g = new_game(http)
        start_game(http, g)
        target = _targets(http, g)
        backlog = len(http.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json())
        stream = f"{live_url}/api/v1/games/{g.id}/stream"
        roles = (g.referee, g.attacker, g.defender, g.referee, g.attacker, g.defender, g.referee, g.attacker)
        devices = [Listener(stream, h) for h in roles]
        for d in devices:
            d.take(backlog)
        time.sleep(0.5)  # let every stream settle into waiting (PostgreSQL: after the listener's first wake)
        sa_event.listen(Engine, "before_cursor_execute", count)
        try:
            for _ in range(3):
                posted = _marker(http, g, target)
                for d in devices:
                    ((_, ev),) = d.take(1)
                    assert ev["id"] == posted
        finally:
            sa_event.remove(Engine, "before_cursor_execute", count)
        _close(*devices)
    # The write itself may read the log (undo limits and the like); the streams add about one read a marker.
    streams_reads = [r for r in reads if "event.visibility IN" in r]
    assert len(streams_reads) <= 3 + 2, streams_reads


def test_a_worker_held_up_past_uvicorns_five_seconds_is_kept(
    postgresql_template: str, tmp_path: Path
) -> None:
    """A worker of `firestep serve` that cannot answer its supervisor's ping for 7 s (stopped, as a loaded laptop
    holds up a worker importing the app) is the same process after and serves: uvicorn by itself kills a
    worker after 5 s unanswered (app.server.WORKER_HEALTHCHECK_SECONDS; four workers at load 11-16 never all
    started)."""
    with _postgresql_database(_postgresql_base(), template=postgresql_template) as url:
        server = Server(url, tmp_path, SERVE_TWO_WORKERS)
        try:
            server.start()
            assert server.proc is not None
            before = _children(server.proc.pid)
            assert len(before) == 2, before
            os.kill(before[0], signal.SIGSTOP)
            time.sleep(7)  # the hold-up itself, longer than uvicorn's 5 s: nothing here waits on an outcome
            with contextlib.suppress(ProcessLookupError):  # killed as hung: the assertion below says so
                os.kill(before[0], signal.SIGCONT)
            server.wait_ready()
            assert _children(server.proc.pid) == before
        finally:
            server.stop()


def _children(pid: int) -> list[int]:
    """The supervisor's workers by their id: its children spawned by multiprocessing (not its resource tracker)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            spawned = b"spawn_main" in (stat.parent / "cmdline").read_bytes()
            if int(fields[1]) == pid and fields[0] != "Z" and spawned:
                found.append(int(stat.parent.name))
    return sorted(found)


def test_serve_refuses_several_workers_on_sqlite(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "FIRESTEP_DATABASE_URL": f"sqlite:///{tmp_path / 'one.db'}",
        "FIRESTEP_VAR_DIR": str(tmp_path),
    }
    out = subprocess.run(
        [sys.executable, "-m", "app.cli", "serve", "--no-setup", "--workers", "2"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert out.returncode == 2
    assert "--workers" in out.stderr and "PostgreSQL" in out.stderr
