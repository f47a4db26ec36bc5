"""`firestep backup` and `firestep restore` (issue 93), the command's own code in this process (app.cli.main)
against a real SQLite file: a backup taken while a real server writes a game restores it whole, with the keys
that keep every device's token alive; a backup never overwrites a file; a restore writes into an empty data
folder only; on PostgreSQL both name the tool to use, and the commands they name run as written.
`serve --backup-every` is proved by a real `firestep serve` writing its first copy; its round itself,
app.core.backup.backup_round, is tests/app/core/test_backup.py's."""

from __future__ import annotations

import os
import queue
import re
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import tracemalloc
import zipfile
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from app.club import signing
from app.core.backup import KEEP
from app.core.config import Settings
from app.core.datafolder import sqlite_file
from app.main import create_app
from tests.app.club.served import free_port
from tests.app.events.test_event_seats import committed_table
from tests.app.games.conftest import new_game, start_game, units_by_ref
from tests.app.test_cli import run_main
from tests.conftest import (
    _postgresql_base,
    _postgresql_database,
    _sqlite_clone,
    make_client,
    require,
    served_in_thread,
)

TABLES = (("game", "id"), ("event", "game_id"), ("unit", "game_id"))


def rows(database: Path, game_id: int) -> tuple[tuple[tuple[Any, ...], ...], ...]:
    """A game's own row, its events and its units, every column, as the database file holds them."""
    with closing(sqlite3.connect(database)) as conn:
        return tuple(
            tuple(conn.execute(f"SELECT * FROM {table} WHERE {key} = ? ORDER BY id", (game_id,)).fetchall())
            for table, key in TABLES
        )


@pytest.fixture
def folder(sqlite_template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A data folder with a migrated database, the firestep commands run here pointed at it."""
    var = tmp_path / "var"
    var.mkdir()
    _sqlite_clone(sqlite_template, var)
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(var))
    monkeypatch.setenv("FIRESTEP_DATABASE_URL", "")
    yield var


def altered_backup(
    name: str,
    alter: Callable[[dict[str, bytes]], dict[str, bytes]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    compression: int = zipfile.ZIP_STORED,
) -> Path:
    """A backup of the data folder (tmp_path/backup.zip), its files as `alter` makes them of the backup's zipped
    again as `name`: a backup someone has tampered with or a disk has damaged."""
    backup = tmp_path / "backup.zip"
    assert run_main(["backup", str(backup)], monkeypatch, capsys)[0] == 0
    with zipfile.ZipFile(backup) as whole:
        files = {entry: whole.read(entry) for entry in whole.namelist()}
    altered = tmp_path / name
    with zipfile.ZipFile(altered, "w", compression) as archive:
        for entry, data in alter(files).items():
            archive.writestr(entry, data)
    return altered


def traced(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str, int]:
    """A firestep command run in this process as run_main runs it, under tracemalloc: its exit code, its output
    and its errors, and the most bytes Python held at once meanwhile."""
    tracemalloc.start()
    try:
        code, out, err = run_main(args, monkeypatch, capsys)
        return code, out, err, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_backup_taken_while_a_game_is_written_restores_it_whole(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A real server keeps writing one game (a suppression marker at a time, through the API, in a thread)
    while the backup is taken: the restored copy is the database as one moment of it held, every game, its
    events and its units equal to what the server had then, the key that keeps every device's token with it."""
    database = folder / "firestep.db"
    # The data folder's own secret key, as firestep serve keeps it, and the club's result key.
    app = create_app(Settings(database_url=f"sqlite:///{database}", var_dir=folder, secret_key=""))
    signing.result_key(folder)
    stick = tmp_path / "stick"
    stick.mkdir()
    with served_in_thread(app) as port, httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
        finished = new_game(http)  # written before the backup, and not after
        game = new_game(http)
        start_game(http, game)
        platoons = [u for u in units_by_ref(http, game).values() if u["kind"] == "rifle-platoon"]
        # Two markers a platoon (a third kills): the writes the writer has to go on with.
        marks = [p["id"] for p in platoons] * 2
        held = {len(rows(database, game.id)[1]): rows(database, game.id)}  # each state the server held
        written: queue.Queue[int | BaseException] = queue.Queue()
        stop = threading.Event()

        def write() -> None:
            try:
                for count, unit in enumerate(marks, start=1):
                    if stop.is_set():
                        return
                    r = http.post(
                        f"/api/v1/games/{game.id}/units/{unit}/markers",
                        headers=game.referee,
                        json={"delta": 1, "fire": "rifle"},
                    )
                    assert r.status_code == 200, r.text
                    now = rows(database, game.id)  # the only writer: the game as its last write left it
                    held[len(now[1])] = now
                    written.put(count)
                raise AssertionError("the writer ran out of platoons before the backup was taken")
            except BaseException as e:
                written.put(e)

        writer = threading.Thread(target=write, daemon=True)
        writer.start()

        def acknowledged(at_least: int) -> int:
            while True:
                got = written.get(timeout=60)
                if isinstance(got, BaseException):
                    raise got
                if got >= at_least:
                    return got

        before = acknowledged(3)
        code, out, err = run_main(["backup", str(stick)], monkeypatch, capsys)
        acknowledged(before + 3)  # the server went on writing while it was taken, and after
        stop.set()
        writer.join(60)
    app.state.engine.dispose()
    assert code == 0 and err == "", err
    (backup,) = stick.iterdir()
    assert re.fullmatch(r"firestep-backup-\d{4}-\d\d-\d\d-\d{6}\.zip", backup.name), backup.name
    assert out == (
        f"Backup written: {backup} (the database, the secret key and the club's keys; firestep restore {backup} "
        "puts it back).\n"
    )
    assert backup.stat().st_mode & 0o077 == 0  # it holds the keys: its owner's alone

    restored = tmp_path / "restored"
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(restored))
    code, out, err = run_main(["restore", str(backup)], monkeypatch, capsys)
    assert code == 0 and err == "", err
    assert out.splitlines()[-3:] == [  # after the migration's line
        "SQLite's integrity check: ok.",
        f"Restored {backup} into {restored} (the database, the secret key and the club's keys: every device's "
        "token works).",
        "2 games on the start page.",
    ]
    copy = restored / "firestep.db"
    with closing(sqlite3.connect(copy)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert [g for (g,) in conn.execute("SELECT id FROM game ORDER BY id")] == [finished.id, game.id]
    assert rows(copy, finished.id) == rows(database, finished.id)
    got = rows(copy, game.id)
    assert got == held[len(got[1])]  # the game whole as the server held it at one moment: no write torn
    assert min(held) < len(got[1]) < max(held)  # a moment amid the writes, some acknowledged after it
    for kept in ("secret_key", "club/results.key"):
        assert (restored / kept).read_bytes() == (folder / kept).read_bytes(), kept
    # Every device's token works on the restored install; with another key, none does.
    url = f"sqlite:///{copy}"
    with make_client(url, restored, secret_key="") as client:
        assert client.get(f"/api/v1/games/{game.id}/units", headers=game.referee).status_code == 200
    with make_client(url, restored, secret_key="another") as client:
        assert client.get(f"/api/v1/games/{game.id}/units", headers=game.referee).status_code == 401


def test_a_backup_never_overwrites_a_file(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = tmp_path / "kept.zip"
    kept.write_bytes(b"the organiser's own")
    code, out, err = run_main(["backup", str(kept)], monkeypatch, capsys)
    assert code != 0 and out == ""
    assert (
        err == f"{kept} already exists and a backup never overwrites a file: name a new file, or a folder.\n"
    )
    assert kept.read_bytes() == b"the organiser's own"


def test_a_restore_writes_into_an_empty_data_folder_only(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    backup = tmp_path / "backup.zip"
    assert run_main(["backup", str(backup)], monkeypatch, capsys)[0] == 0
    installed = tmp_path / "installed"
    installed.mkdir()
    (installed / "secret_key").write_text("a key of its own")
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(installed))
    code, out, err = run_main(["restore", str(backup)], monkeypatch, capsys)
    assert code != 0 and out == ""
    assert err == (
        f"{installed} is not empty: restore only into a new data folder (set FIRESTEP_VAR_DIR to an empty one).\n"
    )
    assert [p.name for p in installed.iterdir()] == ["secret_key"]
    assert (installed / "secret_key").read_text() == "a key of its own"


def test_a_backup_zips_the_database_a_piece_at_a_time_never_whole_in_memory(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A backup held its database's copy whole in memory, then the zip of it, then the zip's bytes again: a club's
    database of a few hundred MB held twice that and more (the closing note). It zips the copy SQLite's online
    backup made a piece at a time into the new file, what it holds at once not growing with the database; the
    zip's database is the one it copied, every row."""
    database = folder / "firestep.db"
    size, piece = 32 * 2**20, 2**20
    with closing(sqlite3.connect(database)) as conn, conn:  # rows no zip makes smaller: random bytes
        conn.execute("CREATE TABLE ballast (b BLOB)")
        conn.executemany(
            "INSERT INTO ballast VALUES (?)", ((os.urandom(piece),) for _ in range(size // piece))
        )
    backup = tmp_path / "backup.zip"
    code, out, err, held = traced(["backup", str(backup)], monkeypatch, capsys)
    assert code == 0 and err == "" and out.startswith(f"Backup written: {backup} ("), err
    assert held < size // 8, held  # the most held at once: pieces, not the database
    with zipfile.ZipFile(backup) as archive:
        assert archive.getinfo("firestep.db").external_attr >> 16 == 0o600  # unzipped, its owner's alone
        (tmp_path / "zipped.db").write_bytes(archive.read("firestep.db"))
    ballast = "SELECT b FROM ballast ORDER BY rowid"
    with (
        closing(sqlite3.connect(database)) as conn,
        closing(sqlite3.connect(tmp_path / "zipped.db")) as zipped,
    ):
        assert zipped.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert zipped.execute(ballast).fetchall() == conn.execute(ballast).fetchall()


def test_a_data_folder_whose_name_holds_a_url_s_marks_is_restored_into_served_and_backed_up(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The data folder's database URL was its path as written: a `?` in FIRESTEP_VAR_DIR ended the path there (the
    rest read as the URL's query), so a restore wrote one file and migrated another, refused as if its schema
    were; a `%` and two hex digits read as an escaped letter. A folder named with `?`, `#` and `%` is restored
    into, served from and backed up, and nothing is made beside it."""
    backup = tmp_path / "backup.zip"
    assert run_main(["backup", str(backup)], monkeypatch, capsys)[0] == 0
    restored = tmp_path / "club ?night=1 #2 100%41 %"
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(restored))
    code, out, err = run_main(["restore", str(backup)], monkeypatch, capsys)
    assert code == 0 and err == "", err
    said = out.splitlines()
    assert said[-3] == "SQLite's integrity check: ok." and said[-2].startswith(
        f"Restored {backup} into {restored} ("
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["var", "backup.zip", restored.name])
    settings = Settings()  # as firestep serve reads the environment
    assert sqlite_file(settings.database_url) == restored / "firestep.db"
    with TestClient(create_app(settings)) as served:
        assert served.get("/healthz").status_code == 200
        game = new_game(served)
    again = tmp_path / "again.zip"
    assert run_main(["backup", str(again)], monkeypatch, capsys)[0] == 0
    with zipfile.ZipFile(again) as archive:
        (tmp_path / "again.db").write_bytes(archive.read("firestep.db"))
    assert rows(tmp_path / "again.db", game.id) == rows(restored / "firestep.db", game.id) != ((), (), ())


def test_on_postgresql_backup_and_restore_name_the_tools_and_their_commands_run_as_written(
    postgresql_template: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """firestep backs up SQLite only: on PostgreSQL each command says the one to run instead, which runs as it
    is written (pg_dump, then pg_restore into an empty database), and names pg_dump where it is missing."""
    require(shutil.which("pg_dump") is not None and shutil.which("pg_restore") is not None, "pg_dump")
    base = _postgresql_base()
    dump = tmp_path / "firestep.dump"
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(tmp_path / "var"))
    with (
        _postgresql_database(base, template=postgresql_template) as url,
        _postgresql_database(base) as empty,
    ):
        monkeypatch.setenv("FIRESTEP_DATABASE_URL", url)
        code, out, err = run_main(["backup", str(dump)], monkeypatch, capsys)
        assert code != 0 and out == "" and len(err.splitlines()) == 1, err
        said = re.fullmatch(
            r"On PostgreSQL back up with pg_dump \((pg_dump [^)]+)\), not with firestep backup\.\n", err
        )
        assert said is not None, err
        subprocess.run(shlex.split(said[1]), check=True, timeout=120)
        assert dump.stat().st_size > 0
        code, out, err = run_main(["backup", str(dump)], monkeypatch, capsys)  # pg_dump's -f would replace it
        assert code != 0 and out == ""
        assert (
            err
            == f"{dump} already exists and a backup never overwrites a file: name a new file, or a folder.\n"
        )
        monkeypatch.setenv("FIRESTEP_DATABASE_URL", empty)
        code, out, err = run_main(["restore", str(dump)], monkeypatch, capsys)
        assert code != 0 and out == "" and len(err.splitlines()) == 1, err
        said = re.fullmatch(
            r"On PostgreSQL restore with pg_restore into an empty database \((pg_restore [^)]+)\), not with "
            r"firestep restore\.\n",
            err,
        )
        assert said is not None, err
        subprocess.run(shlex.split(said[1]), check=True, timeout=120)
        engine = create_engine(empty)
        with engine.connect() as conn:
            source = create_engine(url)
            with source.connect() as was:
                revision = was.execute(text("SELECT version_num FROM alembic_version")).scalar()
            source.dispose()
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == revision
        engine.dispose()
        # Without pg_dump on the PATH, it is named as what is missing.
        monkeypatch.setenv("FIRESTEP_DATABASE_URL", url)
        monkeypatch.setenv("PATH", str(tmp_path / "no-tools"))
        code, out, err = run_main(["backup", str(tmp_path)], monkeypatch, capsys)
    assert code != 0 and out == "" and len(err.splitlines()) == 1, err
    assert err.startswith(f"On PostgreSQL back up with pg_dump (pg_dump -Fc -f {tmp_path}/firestep-backup-20")
    assert err.endswith(
        "), which is not on this PATH: install PostgreSQL's client tools (postgresql-client).\n"
    )


@pytest.mark.long  # a firestep serve of its own: ~6 s, most of it its start
def test_serve_backs_up_as_it_starts_into_the_folder_it_is_given(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`firestep serve --backup-every N --backup-to DIR` wires the round (tests/app/core/test_backup.py) into a
    thread of the serving process: its first copy as it starts, said on standard error, the server serving."""
    code, out, _ = run_main(["serve", "--help"], monkeypatch, capsys)
    assert code == 0 and f"the newest {KEEP} copies are kept" in " ".join(out.split())
    stick = tmp_path / "stick"
    stick.mkdir()
    port = free_port()
    env = {**os.environ, "FIRESTEP_VAR_DIR": str(folder), "FIRESTEP_DATABASE_URL": ""}
    serve = ["serve", "--no-setup", "--port", str(port), "--backup-every", "60", "--backup-to", str(stick)]
    server = subprocess.Popen(
        [sys.executable, "-m", "app.cli", *serve],
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in server.stderr or ()], daemon=True).start()
    try:
        said = []
        while not any("Application startup complete" in line for line in said) or not any(
            line.startswith("Backup written: ") for line in said
        ):
            said.append(lines.get(timeout=60))
        assert httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=30).status_code == 200
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(30)
    (copy,) = stick.iterdir()
    assert f"Backup written: {copy} (the newest {KEEP} kept).\n" in said
    assert re.fullmatch(r"firestep-auto-backup-\d{4}-\d\d-\d\d-\d{6}\.zip", copy.name), copy.name


def test_a_backup_of_an_older_schema_is_restored_at_this_firestep_s(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A backup taken before an update is restored by the newer firestep and migrated to its head, as serve
    and migrate would (the version it was taken by named)."""
    from app.core.db import current_revision, head_revision, make_engine, migrate, revisions

    older = revisions()[-2]
    var = tmp_path / "var"
    migrate(f"sqlite:///{var / 'firestep.db'}", older)
    (var / "firestep-version").write_text("0.1.5\n")
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(var))
    monkeypatch.setenv("FIRESTEP_DATABASE_URL", "")
    backup = tmp_path / "older.zip"
    assert run_main(["backup", str(backup)], monkeypatch, capsys)[0] == 0
    restored = tmp_path / "restored"
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(restored))
    code, out, err = run_main(["restore", str(backup)], monkeypatch, capsys)
    assert code == 0 and err == "", err
    assert "Updated from firestep 0.1.5 to " in out
    assert out.splitlines()[-3:] == [
        "SQLite's integrity check: ok.",
        f"Restored {backup} into {restored} (the database, no secret key: set the FIRESTEP_SECRET_KEY it was "
        "taken with, or devices join again).",
        "0 games on the start page.",
    ]
    engine = make_engine(f"sqlite:///{restored / 'firestep.db'}")
    try:
        assert current_revision(engine) == head_revision() != older
    finally:
        engine.dispose()


def test_a_damaged_backup_is_refused_and_nothing_is_left(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:

    def page_lost(files: dict[str, bytes]) -> dict[str, bytes]:
        database = bytearray(files["firestep.db"])
        database[len(database) // 2 : len(database) // 2 + 4096] = bytes(4096)  # a page of it lost
        return {**files, "firestep.db": bytes(database)}

    damaged = altered_backup("damaged.zip", page_lost, tmp_path, monkeypatch, capsys)
    restored = tmp_path / "restored"
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(restored))
    code, out, err = run_main(["restore", str(damaged)], monkeypatch, capsys)
    assert code != 0 and out == "" and len(err.splitlines()) == 1, err
    assert err.startswith(f"The database in {damaged} fails SQLite's integrity check (")
    assert err.endswith("): restore another backup.\n")
    assert not restored.exists()


def test_a_backup_this_firestep_cannot_migrate_leaves_the_data_folder_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A zip whose database passes the integrity check and names this firestep's revision but holds none of its
    tables is refused in one sentence once the migration finds so, and what the restore wrote is taken away:
    the folder is left empty, as before, so the next restore (of another backup) is not refused as an install."""
    from app.core.db import head_revision

    database = tmp_path / "alien.db"
    with closing(sqlite3.connect(database)) as conn:
        conn.executescript(
            f"CREATE TABLE alembic_version (version_num TEXT); INSERT INTO alembic_version VALUES ('{head_revision()}');"
        )
    alien = tmp_path / "alien.zip"
    with zipfile.ZipFile(alien, "w") as archive:
        archive.writestr("firestep.db", database.read_bytes())
        archive.writestr("secret_key", "k" * 64)
    restored = tmp_path / "restored"
    restored.mkdir()
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(restored))
    monkeypatch.setenv("FIRESTEP_DATABASE_URL", "")
    code, _, err = run_main(["restore", str(alien)], monkeypatch, capsys)
    assert code != 0 and len(err.splitlines()) == 1, err
    assert err.startswith(f"The database in {alien} cannot be brought to this firestep's schema (")
    assert err.endswith("): nothing is restored, restore another backup.\n")
    assert list(restored.iterdir()) == []


@pytest.mark.parametrize(
    "key", [b"", b" \n", b"short", b"\xff\xfe" * 40], ids=["empty", "blank", "short", "not-text"]
)
def test_a_backup_whose_secret_key_is_no_key_is_refused_before_anything_is_written(
    key: bytes,
    folder: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The secret key keys every token's and join code's hash and the MACs of a tournament's cards: a restored
    empty one would have the server key them with "" (anyone could make a rekey code), one not text would stop
    every start. A zip carrying such a key is refused, nothing written."""
    keyless = altered_backup(
        "keyless.zip", lambda files: {**files, "secret_key": key}, tmp_path, monkeypatch, capsys
    )
    restored = tmp_path / "restored"
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(restored))
    code, out, err = run_main(["restore", str(keyless)], monkeypatch, capsys)
    assert code != 0 and out == "", out
    assert err == (
        f"The secret key in {keyless} is not one firestep keeps (32 or more printable characters): restore "
        "another backup.\n"
    )
    assert not restored.exists()


def test_a_backup_with_a_key_file_larger_than_any_key_is_refused_before_it_is_read(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A zip's file unzips to the size its header says, whatever its zipped size (a few KB of a zip bomb unzip
    to GB, all in memory): a key or a certificate is a few KB, so one said to be larger is refused unread."""
    bomb = altered_backup(
        "bomb.zip",
        lambda files: {**files, "club/result.key": bytes(2**20 + 1)},
        tmp_path,
        monkeypatch,
        capsys,
        zipfile.ZIP_DEFLATED,
    )
    assert (
        bomb.stat().st_size < (tmp_path / "backup.zip").stat().st_size + 8192
    )  # a MB of it zipped to a few KB
    restored = tmp_path / "restored"
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(restored))
    code, out, err = run_main(["restore", str(bomb)], monkeypatch, capsys)
    assert code != 0 and out == "", out
    assert (
        err
        == f"club/result.key in {bomb} unzips to 1048577 bytes, more than any key (1 MiB): restore another backup.\n"
    )
    assert not restored.exists()


def test_a_backup_s_database_is_unzipped_a_piece_at_a_time_never_whole_in_memory(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A database unzips to the size its header says, a zip bomb's to GB: it goes to its place a piece at a
    time (it was read whole into memory: the hostile pass of issue 93), and one that is no database is refused
    by the integrity check, nothing left."""
    size = 64 * 2**20
    bomb = altered_backup(
        "bomb.zip",
        lambda files: {**files, "firestep.db": bytes(size)},
        tmp_path,
        monkeypatch,
        capsys,
        zipfile.ZIP_DEFLATED,
    )
    assert bomb.stat().st_size < size // 100  # 64 MB zipped to well under 1 MB
    restored = tmp_path / "restored"
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(restored))
    code, out, err, held = traced(["restore", str(bomb)], monkeypatch, capsys)
    assert code != 0 and out == "", out
    assert err == (
        f"The database in {bomb} fails SQLite's integrity check (file is not a database): restore another backup.\n"
    )
    assert held < size // 8, held  # the most held at once: pieces, not the database
    assert not restored.exists()


def test_a_backup_whose_triggers_are_not_this_firestep_s_is_refused_and_nothing_is_restored(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The schema's checks name tables, columns and indexes; a database's triggers run at every write too (the
    count of a game's unit writes that a worker's kept units are checked by is one's): a backup whose database
    lacks one of firestep's, or carries one of its own, is refused once migrated, and nothing is restored."""

    def triggers_changed(files: dict[str, bytes]) -> dict[str, bytes]:
        database = tmp_path / "altered.db"
        database.write_bytes(files["firestep.db"])
        with closing(sqlite3.connect(database)) as conn:
            conn.executescript(
                "DROP TRIGGER unit_seq_updated; CREATE TRIGGER joined AFTER INSERT ON game BEGIN "
                "INSERT INTO token (game_id, role, token_hash) VALUES (NEW.id, 'referee', 'x'); END;"
            )
        return {**files, "firestep.db": database.read_bytes()}

    altered = altered_backup("altered.zip", triggers_changed, tmp_path, monkeypatch, capsys)
    restored = tmp_path / "restored"
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(restored))
    code, _, err = run_main(["restore", str(altered)], monkeypatch, capsys)
    assert code != 0 and len(err.splitlines()) == 1, err
    assert err == (
        f"The database in {altered} cannot be brought to this firestep's schema (its triggers and views are not "
        "this firestep's: trigger joined, trigger unit_seq_updated): nothing is restored, restore another backup.\n"
    )
    assert not restored.exists()


def test_a_journal_left_beside_the_database_file_is_refused_as_a_database_is(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A database named by FIRESTEP_DATABASE_URL outside the data folder: a rollback journal left there (a
    server stopped amid a write) is played into whatever database SQLite next opens by that name, the restored
    one too, after its check. The restore refuses it as it refuses the file or its write-ahead log."""
    backup = tmp_path / "backup.zip"
    assert run_main(["backup", str(backup)], monkeypatch, capsys)[0] == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    journal = elsewhere / "games.db-journal"
    journal.write_bytes(b"another database's pages")
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(tmp_path / "restored"))
    monkeypatch.setenv("FIRESTEP_DATABASE_URL", f"sqlite:///{elsewhere / 'games.db'}")
    code, out, err = run_main(["restore", str(backup)], monkeypatch, capsys)
    assert code != 0 and out == "", out
    assert err == (
        f"{journal} is not empty: restore only into a new data folder (set FIRESTEP_VAR_DIR to an empty one).\n"
    )
    assert [p.name for p in elsewhere.iterdir()] == ["games.db-journal"]
    assert not (tmp_path / "restored").exists()


def test_a_restore_says_its_check_first_then_its_games_as_the_pages_list_them(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "Restored" came before the integrity line (and before a refusal that then took the restore away), and its
    count took in an event's games, which the start page does not list (the newcomer pass): the check first, then
    "Restored", the games counted as the pages list them, each count named."""
    with make_client(f"sqlite:///{folder / 'firestep.db'}", folder) as c:
        new_game(c)
        archived = new_game(c)
        assert c.post(f"/api/v1/games/{archived.id}/archive", headers=archived.referee).status_code == 200
        committed_table(c)  # an event's round of one table: its game on the event's page
    backup = tmp_path / "backup.zip"
    assert run_main(["backup", str(backup)], monkeypatch, capsys)[0] == 0
    restored = tmp_path / "restored"
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(restored))
    code, out, err = run_main(["restore", str(backup)], monkeypatch, capsys)
    assert code == 0 and err == "", err
    checked, said, games = out.splitlines()[-3:]  # after the migration's line
    assert checked == "SQLite's integrity check: ok."
    assert said.startswith(f"Restored {backup} into {restored} (")
    # Then its games, as the README's "Keep a backup" tells: they rode on the check's line, before "Restored",
    # and the check went by pragma's name, "integrity_check" (the newcomer pass).
    assert games == "3 games: 1 on the start page, 1 at an event's tables, 1 archived."


def _damaged(entry: zipfile.ZipInfo, raw: bytearray, how: str) -> None:
    """The entry `entry` of the zip `raw` damaged as `how` says, in place: its deflated data (its first block of
    a type Deflate has none of), or the flags and method both its headers give."""
    local = entry.header_offset
    if how == "deflate":
        start = local + 30 + int.from_bytes(raw[local + 26 : local + 28], "little")
        raw[start + int.from_bytes(raw[local + 28 : local + 30], "little")] = 0xFF
        return
    central = raw.find(b"PK\x01\x02")
    while raw[central + 46 : central + 46 + len(entry.filename)] != entry.filename.encode():
        central = raw.find(b"PK\x01\x02", central + 4)
    for flags, method in ((local + 6, local + 8), (central + 8, central + 10)):
        if how == "encrypted":  # flag bit 0
            raw[flags] |= 1
        else:  # Deflate64 (method 9), which Python's zipfile cannot unzip
            raw[method : method + 2] = (9).to_bytes(2, "little")


@pytest.mark.parametrize(
    ("entry", "how", "said"),
    [
        ("firestep.db", "deflate64", "is zipped by Deflate64, which firestep backup never uses"),
        ("firestep.db", "encrypted", "is encrypted, as no backup firestep wrote is"),
        ("secret_key", "encrypted", "is encrypted, as no backup firestep wrote is"),
        (
            "secret_key",
            "deflate",
            "cannot be unzipped (Error -3 while decompressing data: invalid block type)",
        ),
    ],
    ids=["database-deflate64", "database-encrypted", "key-encrypted", "key-damaged"],
)
def test_a_backup_zipped_in_a_way_it_cannot_be_unzipped_is_refused_in_one_sentence(
    entry: str,
    how: str,
    said: str,
    folder: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A zip's entry may be zipped by a method zipfile lacks (Deflate64, which Windows' own zipping uses for large
    files), encrypted, or damaged inside its compressed stream (zlib's error, not zipfile's): each is refused in
    one sentence naming the backup, nothing left (the hostile pass: a traceback for each)."""
    zipped = altered_backup(
        "crafted.zip",
        lambda files: {**files, "secret_key": b"k" * 64},
        tmp_path,
        monkeypatch,
        capsys,
        zipfile.ZIP_DEFLATED,
    )
    raw = bytearray(zipped.read_bytes())
    with zipfile.ZipFile(zipped) as archive:
        _damaged(archive.getinfo(entry), raw, how)
    zipped.write_bytes(bytes(raw))
    restored = tmp_path / "restored"
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(restored))
    code, out, err = run_main(["restore", str(zipped)], monkeypatch, capsys)
    assert code != 0 and out == "", out
    what = "The database" if entry == "firestep.db" else entry
    assert err == f"{what} in {zipped} {said}: restore another backup.\n"
    assert not restored.exists()


@pytest.mark.parametrize("compression", [zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA], ids=["bzip2", "lzma"])
def test_a_database_zipped_by_a_method_unzipped_in_one_piece_is_refused_unread(
    compression: int,
    folder: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Python's zipfile unzips bzip2 and LZMA a compressed read at a time with no bound on what one read unzips to
    (Deflate's alone it bounds): a bomb's database so zipped was held whole in memory however its header's size
    said it was smaller, whatever the restore's pieces (the hostile pass). firestep's backups are deflated: a
    database or key zipped by any other method is refused before anything is read or written."""
    size = 64 * 2**20
    bomb = altered_backup(
        "bomb.zip",
        lambda files: {**files, "firestep.db": bytes(size)},
        tmp_path,
        monkeypatch,
        capsys,
        compression,
    )
    assert bomb.stat().st_size < size // 100
    restored = tmp_path / "restored"
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(restored))
    code, out, err, held = traced(["restore", str(bomb)], monkeypatch, capsys)
    assert held < size // 8, held  # the most held at once
    assert code != 0 and out == "" and len(err.splitlines()) == 1, err
    method = "bzip2" if compression == zipfile.ZIP_BZIP2 else "lzma"
    assert err == (
        f"The database in {bomb} is zipped by {method}, which firestep backup never uses: restore another backup.\n"
    )
    assert not restored.exists()
