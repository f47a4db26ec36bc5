"""One round of `firestep serve --backup-every` (app.core.backup.backup_round), called directly with its clock:
a dated copy into the folder, the newest KEEP of its own kept and nothing else there touched; a folder it
cannot write (the USB stick pulled out) said in one sentence, the round answering None so the serving goes on,
and the next round writing again once the folder is back. That serve runs it in a thread is
tests/app/test_cli_backup.py's."""

from __future__ import annotations

import logging
import zipfile
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from app.core.backup import KEEP, backup_round
from tests.conftest import _sqlite_clone

START = datetime(2026, 11, 28, 19, 0, 0)


@pytest.fixture
def folder(sqlite_template: Path, tmp_path: Path) -> Path:
    var = tmp_path / "var"
    var.mkdir()
    _sqlite_clone(sqlite_template, var)
    (var / "secret_key").write_text("the laptop's key")
    return var


def test_a_round_writes_a_dated_copy_and_keeps_the_newest_of_its_own(folder: Path, tmp_path: Path) -> None:
    stick = tmp_path / "stick"
    stick.mkdir()
    theirs = ["firestep-backup-2026-11-28-180000.zip", "notes.txt"]  # a backup taken by hand, the club's file
    for name in theirs:
        (stick / name).write_text("kept")
    url = f"sqlite:///{folder / 'firestep.db'}"
    written = [backup_round(url, folder, stick, START + timedelta(minutes=10 * i)) for i in range(KEEP + 2)]
    assert KEEP == 5  # the help and the README say five
    times = ["190000", "191000", "192000", "193000", "194000", "195000", "200000"]
    names = [f"firestep-auto-backup-2026-11-28-{hhmmss}.zip" for hhmmss in times]
    assert written == [stick / name for name in names]
    assert sorted(p.name for p in stick.iterdir()) == sorted(theirs + names[-KEEP:])
    with zipfile.ZipFile(stick / names[-1]) as newest:
        assert set(newest.namelist()) == {"firestep.db", "secret_key"}
        assert newest.read("secret_key") == b"the laptop's key"


def test_the_newest_copies_kept_are_the_last_written_when_the_clock_goes_back(
    folder: Path, tmp_path: Path
) -> None:
    """The night the clocks go back an hour, a copy's name (its local time) is earlier than the last one's:
    the copies kept are the newest written, not the latest named (the hostile pass of issue 93)."""
    stick = tmp_path / "stick"
    stick.mkdir()
    url = f"sqlite:///{folder / 'firestep.db'}"
    back = [START - timedelta(minutes=10 * i) for i in range(KEEP + 2)]  # each named before the one before it
    written = [backup_round(url, folder, stick, now) for now in back]
    assert sorted(p.name for p in stick.iterdir()) == sorted(p.name for p in written[-KEEP:] if p is not None)


def test_a_folder_it_cannot_write_is_said_in_one_sentence_and_the_next_round_writes(
    folder: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    stick = tmp_path / "stick"  # pulled out: not there
    url = f"sqlite:///{folder / 'firestep.db'}"
    with caplog.at_level(logging.WARNING, logger="firestep.backup"):
        assert backup_round(url, folder, stick, START) is None
    (record,) = caplog.records
    said = record.getMessage()
    assert said == (
        f"The backup into {stick} could not be written (No such file or directory): serving goes on, and the "
        "next backup tries again."
    )
    stick.mkdir()  # put back
    assert backup_round(url, folder, stick, START + timedelta(minutes=10)) == (
        stick / "firestep-auto-backup-2026-11-28-191000.zip"
    )


def test_a_database_it_cannot_read_is_said_in_one_sentence_and_the_round_answers_none(
    folder: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A database file SQLite cannot read (a disk's fault) stops no serving: the round says why in one
    sentence and answers None, as for a folder it cannot write (its thread, which runs every round, goes on)."""
    stick = tmp_path / "stick"
    stick.mkdir()
    (folder / "firestep.db").write_bytes(b"not a database " * 512)
    url = f"sqlite:///{folder / 'firestep.db'}"
    with caplog.at_level(logging.WARNING, logger="firestep.backup"):
        assert backup_round(url, folder, stick, START) is None
    (record,) = caplog.records
    assert record.getMessage() == (
        f"The backup into {stick} could not be written (SQLite cannot copy the database {folder / 'firestep.db'}: "
        "file is not a database): serving goes on, and the next backup tries again."
    )
    assert list(stick.iterdir()) == []
