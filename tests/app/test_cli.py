"""The `firestep` command line, run as a real subprocess against a temp database."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from app.core.db import current_revision, head_revision, make_engine


def _run(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "FIRESTEP_DATABASE_URL": f"sqlite:///{tmp_path / 'cli.db'}",
        "FIRESTEP_VAR_DIR": str(tmp_path / "var"),
    }
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_help_lists_the_commands(tmp_path: Path) -> None:
    out = _run(["--help"], tmp_path)
    assert out.returncode == 0
    for cmd in ("serve", "migrate", "demo"):
        assert cmd in out.stdout


@pytest.mark.long
def test_migrate_then_demo_once(tmp_path: Path) -> None:
    assert _run(["migrate"], tmp_path).returncode == 0
    engine = make_engine(f"sqlite:///{tmp_path / 'cli.db'}")
    assert current_revision(engine) == head_revision()
    engine.dispose()
    first = _run(["demo"], tmp_path)
    assert first.returncode == 0 and "loaded" in first.stdout
    second = _run(["demo"], tmp_path)
    assert "referee token:" in first.stdout and "join code for the" in first.stdout
    # What `make run` prints tells the referee how to sign in: the token, where to enter it, and the address.
    assert re.search(r"referee token: ([\w-]+)", first.stdout)
    assert "enter the referee token" in first.stdout and "http://127.0.0.1:8000/" in first.stdout
    assert second.returncode == 0 and "already has games" in second.stdout
    assert (tmp_path / "var" / "secret_key").exists()


@pytest.mark.long
def test_serve_migrates_loads_demo_and_answers_healthz(tmp_path: Path) -> None:
    import socket
    import time
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {
        **os.environ,
        "FIRESTEP_DATABASE_URL": f"sqlite:///{tmp_path / 'serve.db'}",
        "FIRESTEP_VAR_DIR": str(tmp_path / "var"),
    }
    printed = tmp_path / "serve.out"
    with printed.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--port", str(port)],
            env=env,
            stdout=out,
            stderr=subprocess.DEVNULL,
        )
    try:
        body = b""
        for _ in range(300):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
                    body = r.read()
                    break
            except OSError:
                time.sleep(0.1)
        assert b'"status":"ok"' in body and head_revision().encode() in body
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/games", timeout=5) as r:
            assert b"Mons" in r.read()
        # The sign-in line names the address served (--port), not the configured one.
        assert f"open http://127.0.0.1:{port}/ on any device" in printed.read_text()
    finally:
        proc.terminate()
        proc.wait(timeout=20)
