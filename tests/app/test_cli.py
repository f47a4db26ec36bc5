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


def _serve(tmp_path: Path, url: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`firestep serve` on `url` with the data folder tmp_path/var, which must stop by itself."""
    env = {**os.environ, "FIRESTEP_DATABASE_URL": url, "FIRESTEP_VAR_DIR": str(tmp_path / "var")}
    return subprocess.run(
        [sys.executable, "-m", "app.cli", "serve", "--port", "1", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def test_serve_without_setup_on_a_fresh_folder_says_what_to_do_in_one_sentence(tmp_path: Path) -> None:
    """Issue 52: the schema check failed in the server's start-up, a traceback before its sentence."""
    out = _serve(tmp_path, f"sqlite:///{tmp_path / 'var' / 'firestep.db'}", "--no-setup")
    assert out.returncode == 1 and out.stdout == ""
    assert (
        out.stderr
        == "The database has no firestep schema yet: run `firestep migrate` (firestep serve does).\n"
    )
    unreachable = _serve(tmp_path, "postgresql+psycopg://firestep@127.0.0.1:1/firestep", "--no-setup")
    assert unreachable.returncode == 1 and "Traceback" not in unreachable.stderr
    assert len(unreachable.stderr.splitlines()) == 1
    assert unreachable.stderr.startswith(
        "The database postgresql+psycopg://firestep@127.0.0.1:1/firestep cannot"
    )


def test_a_second_server_on_the_same_sqlite_database_stops_at_once(tmp_path: Path) -> None:
    """Issue 52: a second `serve` with other ports started without a word and split the live updates. The lock
    is the one `serve` holds for its life, taken here as a first server would."""
    from app.core.datafolder import hold_database

    url = f"sqlite:///{tmp_path / 'var' / 'firestep.db'}"
    first = hold_database(url)
    assert first is not None
    try:
        out = _serve(tmp_path, url)
    finally:
        first.release()
    assert out.returncode == 1 and out.stdout == "" and "Traceback" not in out.stderr
    held = tmp_path / "var" / "firestep.db"
    assert out.stderr == (
        f"Another firestep server is already serving {held}: use that one, or stop it and start again.\n"
    )
    # Released (as when the first server ends, however it ends): the next one may take it.
    again = hold_database(url)
    assert again is not None
    again.release()


@pytest.mark.storage
def test_only_sqlite_takes_the_servers_lock(migrated_url: str) -> None:
    """PostgreSQL shares live updates between servers (LISTEN/NOTIFY): several may serve one database."""
    from app.core.datafolder import ServedElsewhere, hold_database

    first = hold_database(migrated_url)
    if migrated_url.startswith("postgresql"):
        assert first is None and hold_database(migrated_url) is None
        return
    assert first is not None
    try:
        with pytest.raises(ServedElsewhere):
            hold_database(migrated_url)
    finally:
        first.release()
