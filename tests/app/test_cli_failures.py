"""Every way the command line meets a database or data folder it cannot use ends in one sentence and a non-zero
exit, as `firestep doctor` says it (issue 91): a database a newer firestep migrated (a laptop rolled back:
`serve` ended in a 281-line traceback, `migrate` said "There is no revision 'head'"), a data folder the system
will not make, a database URL of a kind firestep does not keep its data in. Run in this process, as
tests/app/test_cli.py runs the command line's mistakes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import uvicorn
from sqlalchemy import text

from app.core.db import current_revision, head_revision, make_engine
from app.doctor import database_line
from tests.app.test_cli import run_main

NEWER = "0999_from_a_newer_firestep"  # a revision this build lacks
COMMANDS = {"serve": ["serve"], "migrate": ["migrate"]}
# Each command that writes into or reads the database (the newcomer pass: demo loaded its game and credentials
# issued tokens in a database a newer firestep migrated, without a word).
ON_THE_DATABASE = {
    **COMMANDS,
    "demo": ["demo"],
    "credentials": ["credentials", "1"],
    "publish": ["league", "publish", "--league", "1", "OUT"],
}


@pytest.fixture(autouse=True)
def _served_no_further(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each command here stops before it serves: one that reached uvicorn would serve on, so it fails instead."""

    def served(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("served")

    monkeypatch.setattr(uvicorn, "run", served)


def said_once(args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> str:
    """What the command said on standard error, checked to be one sentence after a non-zero exit."""
    code, out, err = run_main(args, monkeypatch, capsys)
    assert code != 0 and out == "" and "Traceback" not in err, (code, out, err)
    assert len(err.splitlines()) == 1 and err.endswith(".\n"), err
    return err.rstrip("\n")


@pytest.mark.storage
@pytest.mark.parametrize("command", ON_THE_DATABASE)
def test_a_database_a_newer_firestep_migrated_is_said_in_one_sentence(
    command: str,
    migrated_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    engine = make_engine(migrated_url)
    try:
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = :newer"), {"newer": NEWER})
        monkeypatch.setenv("FIRESTEP_DATABASE_URL", migrated_url)
        monkeypatch.setenv("FIRESTEP_VAR_DIR", str(tmp_path / "var"))
        args = [str(tmp_path / "out") if a == "OUT" else a for a in ON_THE_DATABASE[command]]
        said = said_once(args, monkeypatch, capsys)
        assert said == (
            f"The database is at revision {NEWER}, which this firestep (head {head_revision()}) does not know: "
            "run the newer firestep that migrated it, or restore a backup taken before that."
        )
        assert said == database_line(migrated_url).said  # as doctor says it
        assert current_revision(engine) == NEWER  # left as the newer firestep left it
    finally:
        engine.dispose()


@pytest.mark.skipif(sys.platform != "linux", reason="/proc, where no folder can be made, is Linux's")
@pytest.mark.parametrize("command", COMMANDS)
def test_a_data_folder_the_system_will_not_make_is_said_in_one_sentence(
    command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The newcomer pass's FIRESTEP_VAR_DIR in /proc: a 145-line traceback (FileNotFoundError) from serve."""
    monkeypatch.setenv("FIRESTEP_VAR_DIR", "/proc/firestep/var")
    monkeypatch.setenv("FIRESTEP_DATABASE_URL", "")
    assert said_once(COMMANDS[command], monkeypatch, capsys) == (
        "The data folder /proc/firestep/var cannot be made (No such file or directory at /proc/firestep): set "
        "FIRESTEP_VAR_DIR to a folder of your own and start again."
    )


@pytest.mark.parametrize(
    "url", ["mysql://club@db.example/firestep", "postgresql+asyncpg://club@localhost/fs"]
)
@pytest.mark.parametrize("command", COMMANDS)
def test_a_database_of_a_kind_firestep_does_not_use_is_said_in_one_sentence(
    command: str,
    url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A MySQL URL, or PostgreSQL through another driver: a traceback ending in ModuleNotFoundError."""
    monkeypatch.setenv("FIRESTEP_DATABASE_URL", url)
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(tmp_path / "var"))
    kind = url.split(":", 1)[0]
    sentence = (
        f"FIRESTEP_DATABASE_URL names a {kind} database, which firestep cannot keep its data in: give "
        "postgresql+psycopg://user@host/db, or leave it empty for SQLite in the data folder."
    )
    assert said_once(COMMANDS[command], monkeypatch, capsys) == sentence
    assert database_line(url).status == "FAIL" and database_line(url).said == sentence  # doctor's line


# The hostile pass of the paging and command-line commits: URLs firestep cannot keep a game in, each a traceback
# (a port not a number: ValueError; an option psycopg does not know: ProgrammingError, 469 lines from migrate),
# or worse (in memory: migrate "left the database without" 30 tables in 733 characters, doctor said "run
# firestep migrate"; a relative path or SQLite's URI form: a database made under the working folder).
UNKEPT = {
    "a port that is not a number": "postgresql+psycopg://club:s3cret@127.0.0.1:notaport/x",
    "an IPv6 address left open": "postgresql+psycopg://club:s3cret@[::1/x",
    "an option PostgreSQL does not take": "postgresql+psycopg://club:s3cret@127.0.0.1:1/db?foo=bar",
    "in memory": "sqlite://",
    "a relative path": "sqlite:///rel/f.db",
    "SQLite's URI form": "sqlite:///file:{tmp}/b.db?mode=rwc&uri=true",
}


@pytest.mark.parametrize("url", UNKEPT)
@pytest.mark.parametrize("command", COMMANDS)
def test_a_database_url_firestep_cannot_keep_a_game_in_is_one_sentence_naming_it(
    command: str,
    url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    given = UNKEPT[url].replace("{tmp}", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FIRESTEP_DATABASE_URL", given)
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(tmp_path / "var"))
    said = said_once(COMMANDS[command], monkeypatch, capsys)
    assert said.startswith("FIRESTEP_DATABASE_URL ") and "s3cret" not in said, said
    assert said == database_line(given).said and database_line(given).status == "FAIL"  # as doctor says it
    assert list(tmp_path.iterdir()) == []  # nothing made, in the data folder or where the command was typed


def test_doctor_foresees_a_data_folder_or_database_serve_cannot_make_in_the_sentence_serve_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder under a regular file: doctor said "does not exist yet: firestep serve makes it" (the data
    folder) and "none yet ... serve (or migrate) makes it" (a database), where serve then refused."""
    from app.doctor import data_folder_line

    (tmp_path / "afile").write_text("")
    var = tmp_path / "afile" / "sub"
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(var))
    monkeypatch.setenv("FIRESTEP_DATABASE_URL", "")
    line = data_folder_line(var)
    assert line.status == "FAIL" and line.said == said_once(["serve"], monkeypatch, capsys)
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(tmp_path / "var"))
    for database in ("afile/f.db", "afile/folder/f.db"):
        url = f"sqlite:///{tmp_path / database}"
        monkeypatch.setenv("FIRESTEP_DATABASE_URL", url)
        line = database_line(url, tmp_path / "var")
        assert line.status == "FAIL" and line.said == said_once(["serve"], monkeypatch, capsys), database
        assert "FIRESTEP_DATABASE_URL" in line.said
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "var"]  # serve's data folder, no more


def test_a_database_url_naming_a_folder_names_that_setting_not_the_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The data folder inside the folder the URL names: "The data folder ... cannot be made" named
    FIRESTEP_VAR_DIR, the setting not at fault."""
    monkeypatch.setenv("FIRESTEP_DATABASE_URL", f"sqlite:///{tmp_path}")
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(tmp_path / "x1"))
    said = said_once(["migrate"], monkeypatch, capsys)
    assert said == (
        f"The database {tmp_path} cannot be opened (Is a directory): set FIRESTEP_DATABASE_URL to a file in a "
        "folder of your own and start again."
    )


@pytest.mark.parametrize("revision", ["head+1", "0031_event_game_kind+5", "+1", "head-1", "0030+1", "heads"])
def test_migrate_takes_a_revision_id_or_head_and_nothing_else(
    revision: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Alembic's own forms: head+1 a 178-line AssertionError; +1, head-1 or 0030+1 on a new database migrated
    it, then said "past +1: firestep migrate only upgrades" (a success said as a refusal)."""
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(tmp_path / "var"))
    monkeypatch.setenv("FIRESTEP_DATABASE_URL", "")
    assert said_once(["migrate", "--revision", revision], monkeypatch, capsys) == (
        f"There is no revision {revision!r}: give --revision head, or one of 0001 to {head_revision()}."
    )
    assert not (tmp_path / "var" / "firestep.db").exists()  # nothing migrated
