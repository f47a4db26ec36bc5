"""Where firestep keeps its data when nothing says (issue 43): ./var when the working folder has one (a
checkout: make run makes it), else the user's data folder (platformdirs), the SQLite database in it. The
installed package's serving from the user's folder is tests/app/test_install.py's."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from app.core.config import Settings


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
