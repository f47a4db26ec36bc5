"""Where firestep keeps its data when nothing says (issue 43): ./var when the working folder has one (a
checkout: make run makes it), else the user's data folder (platformdirs), the SQLite database in it. The
installed package's serving from the user's folder is tests/app/test_install.py's."""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.config import Settings, sqlite_url
from app.core.db import migrate
from tests.app.club.test_authority_windows import stand_in_icacls
from tests.conftest import make_client


@pytest.fixture
def nothing_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("FIRESTEP_VAR_DIR", "FIRESTEP_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home"))
    folder = tmp_path / "folder"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


@pytest.mark.skipif(sys.platform != "linux", reason="XDG_DATA_HOME is where platformdirs looks on Linux")
def test_without_a_var_folder_the_data_is_in_the_users_data_folder(nothing_set: Path, tmp_path: Path) -> None:
    settings = Settings(secret_key="-")
    assert settings.var_dir == tmp_path / "home" / "firestep"
    assert settings.database_url == f"sqlite:///{tmp_path / 'home' / 'firestep' / 'firestep.db'}"


def test_a_var_folder_where_firestep_starts_holds_its_data(nothing_set: Path) -> None:
    (nothing_set / "var").mkdir()
    settings = Settings(secret_key="-")
    assert settings.var_dir == nothing_set / "var"
    assert settings.database_url == f"sqlite:///{nothing_set / 'var' / 'firestep.db'}"


@pytest.fixture
def umask_022() -> Iterator[None]:
    """A login's usual umask, under which a folder is made 0755 and a file 0644 unless the code says."""
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.storage
@pytest.mark.skipif(
    sys.platform == "win32", reason="Windows has no modes: tests/app/club/test_authority_windows.py"
)
def test_the_data_folder_and_the_database_files_are_the_owners_alone(
    umask_022: None, backend: str, migrated_url: str, tmp_path: Path
) -> None:
    """Issue 52: under umask 022 the data folder was 0755 and firestep.db 0644, readable by any other login."""
    var = tmp_path / "var"
    url = sqlite_url(var) if backend == "sqlite" else migrated_url
    if backend == "sqlite":
        migrate(url)
    with make_client(url, var, secret_key="") as c:
        assert c.post("/api/v1/games", json={"scenario": "mons-1914"}).status_code == 201
        made = sorted(p.name for p in var.iterdir())
        assert mode(var) == 0o700
        assert {p.name: mode(p) for p in var.iterdir()} == dict.fromkeys(made, 0o600)
    if backend == "sqlite":
        assert {"firestep.db", "firestep.db-wal", "firestep.db-shm", "secret_key"} <= set(made)

    # An older install's folder and files are made so as the app starts.
    var.chmod(0o755)
    for p in var.iterdir():
        p.chmod(0o644)
    with make_client(url, var, secret_key="") as c:
        assert c.get("/healthz").status_code == 200
        assert mode(var) == 0o700 and {mode(p) for p in var.iterdir()} == {0o600}


def test_on_windows_the_data_folder_is_this_users_alone_before_the_secret_key_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Windows has no modes: the data folder's access list is made this user's alone (icacls, as the club
    folder's is) before the secret key is written in it. A stand-in icacls records what it is asked
    (tests/app/club/test_authority_windows.py)."""
    calls = stand_in_icacls(tmp_path / "bin")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setenv("USERNAME", "organiser")
    monkeypatch.setenv("USERDOMAIN", "CLUB-LAPTOP")
    monkeypatch.setattr(sys, "platform", "win32")
    var = tmp_path / "data"
    Settings(var_dir=var, database_url="sqlite://")
    recorded = [json.loads(line) for line in calls.read_text().splitlines()]
    args = [str(var), "/inheritance:r", "/grant:r", "CLUB-LAPTOP\\organiser:(OI)(CI)F"]
    assert recorded == [{"args": args, "held": []}] and (var / "secret_key").exists()


@pytest.mark.parametrize("kind", ["bytes", "loop", "link", "fifo", "escapes", "huge"])
def test_a_version_file_that_is_no_version_is_read_as_none(kind: str, tmp_path: Path) -> None:
    """The hostile pass: a data folder's `firestep-version` of undecodable bytes or a link looping to itself
    stopped the start with a traceback, a pipe hung it, a link read another file and printed it, and escape
    codes or 50 MB were echoed whole to the terminal. Only a plain file's version characters are a version; the
    folder is marked anew."""
    from app.core.datafolder import VERSION_FILE, record_version

    path = tmp_path / VERSION_FILE
    if kind == "bytes":
        path.write_bytes(b"\xff\xfe")
    elif kind == "loop":
        path.symlink_to(VERSION_FILE)
    elif kind == "link":
        (tmp_path / "secret").write_text("secret-content")
        path.symlink_to(tmp_path / "secret")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "escapes":
        path.write_text("\x1b[2J\x1b]0;owned\x07")
    else:
        path.write_text("a" * 1_000_000)
    assert record_version(tmp_path, "0.1.7") is None
    assert path.read_text() == "0.1.7\n" and not path.is_symlink()
    if kind == "link":
        assert (tmp_path / "secret").read_text() == "secret-content"


def test_the_served_address_read_back_is_one_a_server_could_print(tmp_path: Path) -> None:
    """`firestep credentials` prints the address the data folder's server recorded: only one a server could
    have printed (the hostile pass of session 18 wrote a port of 99999, a host "-", an IPv6 of colons)."""
    from app.core.datafolder import record_address, served_address

    for kept in ("http://127.0.0.1:8798/", "https://club-laptop.local:8443/", "http://[::1]:8000/"):
        record_address(tmp_path, kept)
        assert served_address(tmp_path) == kept
    for forged in (
        "http://host:99999/",
        "http://host:0/",
        "http://-:1/",
        "http://...:1/",
        "http://[::::::]:1/",
    ):
        record_address(tmp_path, forged)
        assert served_address(tmp_path) is None, forged
