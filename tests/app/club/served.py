"""`firestep serve --club` as a user starts it, in a subprocess on loopback with free ports, a fresh data
folder (created by the server) and a copy of the migrated SQLite template; for the club tests here and the
browser's in tests/frontend."""

from __future__ import annotations

import http.client
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def free_ports(count: int) -> list[int]:
    """`count` different ports free now. Each socket stays bound until all are, as a port asked for alone is free
    again the moment its socket closes and the next ask may be given it too (a server told --port and --http-port
    both 33367 refused to start)."""
    with ExitStack() as held:
        sockets = [held.enter_context(socket.socket()) for _ in range(count)]
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [int(s.getsockname()[1]) for s in sockets]


def free_port() -> int:
    return free_ports(1)[0]


def trusting_only(pem: bytes) -> ssl.SSLContext:
    """A TLS client context that trusts this authority and nothing else (cadata given: no system roots)."""
    context = ssl.create_default_context(cadata=pem.decode())
    context.verify_flags |= ssl.VERIFY_X509_STRICT
    assert len(context.get_ca_certs()) == 1
    return context


@dataclass
class Club:
    https_port: int
    http_port: int
    var: Path
    log: Path  # what the server printed (the terminal)

    def plain(self, path: str, method: str = "GET", host: str = "127.0.0.1") -> http.client.HTTPResponse:
        conn = http.client.HTTPConnection("127.0.0.1", self.http_port, timeout=30)
        conn.request(method, path, headers={"Host": f"{host}:{self.http_port}"})
        return conn.getresponse()

    def authority_pem(self) -> bytes:
        """The authority as a tablet gets it: from the plain port's /trust."""
        return self.plain("/trust/firestep-club.pem").read()

    def trusting_only_authority(self) -> ssl.SSLContext:
        return trusting_only(self.authority_pem())

    def https(
        self, host: str, path: str = "/", method: str = "GET", **kw: object
    ) -> http.client.HTTPResponse:
        conn = http.client.HTTPSConnection(
            host, self.https_port, context=self.trusting_only_authority(), timeout=10
        )
        conn.request(method, path, **kw)  # type: ignore[arg-type]
        return conn.getresponse()


@contextmanager
def serve_club(sqlite_template: Path, folder: Path, request_timeout: float = 15) -> Iterator[Club]:
    var = folder / "data"  # missing: the server creates it
    db = folder / "firestep.db"
    shutil.copyfile(sqlite_template, db)
    log_path = folder / "server.log"
    club = Club(*free_ports(2), var, log_path)
    env = {
        "PATH": "/usr/bin:/bin",
        "FIRESTEP_DATABASE_URL": f"sqlite:///{db}",
        "FIRESTEP_VAR_DIR": str(var),
        "FIRESTEP_REQUEST_TIMEOUT_SECONDS": str(request_timeout),
    }
    args = ["serve", "--club", "--no-setup", "--host", "127.0.0.1"]
    args += ["--port", str(club.https_port), "--http-port", str(club.http_port)]
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "app.cli", *args], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if club.plain("/trust").status == 200:
                        break
                except OSError:
                    pass
                assert proc.poll() is None, log_path.read_text()
                assert time.monotonic() < deadline, "the club server did not start"
                time.sleep(0.2)
            yield club
            assert proc.poll() is None, "the club server died"
        finally:
            proc.terminate()
            proc.wait(15)
    # SIGTERM stops both ports cleanly (uvicorn raises the signal again once it has shut down).
    assert proc.returncode in (0, -signal.SIGTERM), log_path.read_text()
    assert "Application shutdown complete" in log_path.read_text()
