"""Anonymous sheets are bounded in work (issue 35): twenty scenario sheets of readings not asked before cost
11.6 s of the server's CPU from one address. A sheet is rendered once per document, paper and readings and
kept; a new one asked for without a token is charged to the address's CPU budget, past which it is refused
with 429 and Retry-After; a sheet already kept is served whatever the budget."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.core.config import Settings
from app.main import create_app
from app.services import sheets
from tests.conftest import _sqlite_clone

SHEET = "/api/v1/scenarios/mons-1914/sheet.pdf"


@pytest.fixture
def budget_of_one_render(sqlite_template: Path, tmp_path: Path) -> Iterator[TestClient]:
    """The app with a budget any one render spends (a render is charged a tenth of a second at least)."""
    sheets.forget()
    url = _sqlite_clone(sqlite_template, tmp_path)
    settings = Settings(database_url=url, var_dir=tmp_path, sheet_render_limit="1 per 1 hour")
    with TestClient(create_app(settings)) as c:
        yield c


def test_a_new_sheet_past_the_budget_is_refused_and_a_kept_one_served(
    budget_of_one_render: TestClient,
) -> None:
    c = budget_of_one_render
    first = c.get(SHEET, params={"paper": "a4"})
    assert first.status_code == 200 and first.content.startswith(b"%PDF")
    again = c.get(SHEET, params={"paper": "a4"})
    assert again.status_code == 200 and again.content == first.content  # kept: not rendered, not charged
    other = c.get(SHEET, params={"paper": "letter"})
    assert other.status_code == 429, other.text
    assert int(other.headers["retry-after"]) > 0 and "new sheets" in other.json()["why"]
    playsheet = c.get("/playsheets/late.pdf", params={"paper": "letter"})  # every anonymous PDF: one budget
    assert playsheet.status_code == 429
    assert c.get(SHEET, params={"paper": "a4"}).status_code == 200


def test_an_unknown_reading_is_refused_before_any_render(budget_of_one_render: TestClient) -> None:
    c = budget_of_one_render
    bad = c.get(SHEET, params={"variant": "no-such-erratum:x"})
    assert bad.status_code == 422 and bad.json()["field"] == "variants"
    assert c.get(SHEET, params={"paper": "letter"}).status_code == 200  # the budget was not spent on it
