"""Every printed sheet is kept on disk once rendered, under what it is made of (issue 91): after a restart a
repeat is a file read, charged to no one, and a reading that changes nothing on the sheet finds the kept one.
Renders are counted where they go, the worker (app.core.worker.timed), not timed: the real worker still renders."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core import worker
from app.core.config import Settings
from app.main import create_app
from app.services import sheets
from tests.conftest import _sqlite_clone

EARLY = "/playsheets/early.pdf"  # of the period sheets the quickest to lay out
PRINTED = "raw-order-modifier:main-text"  # a reading the early sheet prints, marked VARIANT
NOT_ON_EARLY = (
    "artillery-line-of-sight-late:main-text"  # the late period's erratum: nothing on the early sheet
)


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    counted: list[str] = []
    real = worker.timed

    def timed(fn: Any, *args: Any) -> Any:
        counted.append(getattr(fn, "__name__", str(fn)))
        return real(fn, *args)

    monkeypatch.setattr(worker, "timed", timed)
    return counted


@pytest.fixture
def one_render(sqlite_template: Path, tmp_path: Path) -> Iterator[TestClient]:
    """The app with a budget any one charged render spends, nothing kept from another test."""
    sheets.forget()
    url = _sqlite_clone(sqlite_template, tmp_path)
    settings = Settings(database_url=url, var_dir=tmp_path, sheet_render_limit="1 per 1 hour")
    with TestClient(create_app(settings)) as c:
        yield c
    sheets.forget()


def test_a_repeat_after_a_restart_is_read_from_the_kept_file_and_not_charged(
    one_render: TestClient, renders: list[str]
) -> None:
    first = one_render.get(EARLY, params={"variant": PRINTED})
    assert first.status_code == 200 and first.content.startswith(b"%PDF") and len(renders) == 1
    sheets.forget()  # another start of the server: nothing in memory
    again = one_render.get(EARLY, params={"variant": PRINTED})
    # Rendered again, it would be refused: the address's budget of one render is spent.
    assert again.status_code == 200, again.text
    assert again.content == first.content and len(renders) == 1


def test_a_reading_that_changes_nothing_finds_the_kept_sheet(
    one_render: TestClient, renders: list[str]
) -> None:
    plain = one_render.get(EARLY)
    assert plain.status_code == 200 and len(renders) == 1
    same = one_render.get(EARLY, params={"variant": NOT_ON_EARLY})
    assert same.status_code == 200 and same.content == plain.content and len(renders) == 1
    printed = one_render.get(EARLY, params={"variant": PRINTED})
    assert printed.status_code == 200 and printed.content != plain.content and len(renders) == 2
