"""The club's keys on Windows (issue 43). Windows has no file modes (chmod there sets only the read-only flag),
so the club folder's access list is made this user's alone, with icacls, before any key is written in it; if
that fails, no key is written and the refusal names the folder (app.core.platform.private_folder's Windows
branch). Run here with sys.platform patched to win32 and a stand-in icacls on PATH that records what it was
asked (Windows' own does not run on this machine)."""

from __future__ import annotations

import ipaddress
import json
import os
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization

from app.club import authority


def stand_in_icacls(folder: Path, exit_code: int = 0, says: str = "processed 1 file") -> Path:
    """An `icacls` that records its arguments and what the folder it is given holds at that moment."""
    folder.mkdir()
    calls = folder / "calls.jsonl"
    script = folder / "icacls"
    script.write_text(
        f"#!{sys.executable}\n"
        "import json, os, sys\n"
        f"with open({str(calls)!r}, 'a') as log:\n"
        "    log.write(json.dumps({'args': sys.argv[1:], 'held': os.listdir(sys.argv[1])}) + '\\n')\n"
        f"print({says!r})\n"
        f"sys.exit({exit_code})\n"
    )
    script.chmod(0o755)
    return calls


@pytest.fixture
def windows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("USERNAME", "organiser")
    monkeypatch.setenv("USERDOMAIN", "CLUB-LAPTOP")
    monkeypatch.setattr(sys, "platform", "win32")


def on_path(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ.get('PATH', '')}")


def test_the_club_folder_is_this_users_alone_before_a_key_is_written_in_it(
    windows: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = stand_in_icacls(tmp_path / "bin")
    on_path(monkeypatch, tmp_path / "bin")
    files = authority.ensure_authority(tmp_path / "data")
    authority.issue_server_cert(files, [ipaddress.ip_address("127.0.0.1")], ["localhost"])
    recorded = [json.loads(line) for line in calls.read_text().splitlines()]
    # Inheritance removed and one entry left, full control for this user, inherited by every file made there.
    args = [str(files.folder), "/inheritance:r", "/grant:r", "CLUB-LAPTOP\\organiser:(OI)(CI)F"]
    assert recorded == [{"args": args, "held": []}]  # before the first key
    for key in (files.authority_key, files.server_key):
        assert serialization.load_pem_private_key(key.read_bytes(), password=None)
    authority.check_authority(files)
    authority.check_server(files)


@pytest.mark.parametrize("icacls", ["refuses", "missing"])
def test_no_key_is_written_where_the_folder_cannot_be_made_private(
    windows: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, icacls: str
) -> None:
    if icacls == "refuses":
        stand_in_icacls(tmp_path / "bin", exit_code=5, says="data\\club: Access is denied.")
        on_path(monkeypatch, tmp_path / "bin")
    else:
        monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    folder = tmp_path / "data" / "club"
    with pytest.raises(authority.PrivateFolderError) as refused:
        authority.ensure_authority(tmp_path / "data")
    said = str(refused.value)
    assert str(folder) in said and "FIRESTEP_VAR_DIR" in said
    assert ("Access is denied" in said) == (icacls == "refuses")
    assert list(folder.iterdir()) == []
