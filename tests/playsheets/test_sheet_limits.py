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
VARIANT = "barrage-duration:fire-plan-template"
# A reading the early sheet prints: of the three periods' sheets the quickest to lay out (~0.5 s to late's 2.5 s).
EARLY_VARIANT = "raw-order-modifier:main-text"
NAVIGATES = {"sec-fetch-mode": "navigate", "accept": "text/html"}  # a link tapped in a browser


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
    # Every anonymous PDF of the asker's own inputs (here its readings): one budget.
    playsheet = c.get("/playsheets/late.pdf", params={"paper": "letter", "variant": VARIANT})
    assert playsheet.status_code == 429
    # A sheet's link a browser opened itself: a page in its one sentence, not the refusal's JSON as raw text.
    tapped = c.get("/playsheets/late.pdf", params={"paper": "letter", "variant": VARIANT}, headers=NAVIGATES)
    assert tapped.status_code == 429 and tapped.headers["content-type"].startswith("text/html")
    assert "new sheets" in tapped.text and int(tapped.headers["retry-after"]) > 0
    assert c.get(SHEET, params={"paper": "a4"}).status_code == 200


def test_an_unknown_reading_is_refused_before_any_render(budget_of_one_render: TestClient) -> None:
    c = budget_of_one_render
    bad = c.get(SHEET, params={"variant": "no-such-erratum:x"})
    assert bad.status_code == 422 and bad.json()["field"] == "variants"
    assert c.get(SHEET, params={"paper": "letter"}).status_code == 200  # the budget was not spent on it
    # The budget spent, a period playsheet's unknown reading is still refused for what it is (it was a 429).
    late = c.get("/playsheets/late.pdf", params={"variant": "no-such-erratum:x"})
    assert late.status_code == 422 and late.json()["field"] == "variants", late.text


@pytest.mark.long
def test_the_period_playsheets_are_printed_once_for_everyone_and_charged_to_no_one(
    budget_of_one_render: TestClient, tmp_path: Path
) -> None:
    """Issue 52: an anonymous device printing the six period playsheets (three periods, A4 and Letter) was
    refused the fifth with 429, though they are the same bytes for everyone. They are rendered once, kept in
    the data folder (for every process and start) and never charged: the device's budget of one render is
    still whole for a sheet of its own after them. Two of them show it (a budget of one would refuse the
    second if either were charged): each render takes seconds of the worker's CPU, minutes on a loaded machine
    where the worker yields to everything else (app/core/worker.py)."""
    c = budget_of_one_render
    urls = [("/playsheets/early.pdf", "a4"), ("/playsheets/mid.pdf", "letter")]
    printed = {}
    for url, paper in urls:
        r = c.get(url, params={"paper": paper})
        assert r.status_code == 200 and r.content.startswith(b"%PDF"), (url, paper, r.text[:200])
        printed[url, paper] = r.content
    kept = sorted((tmp_path / "sheets" / sheets.release()).glob("*.pdf"))
    # Each file: the body's digest, then the body (app.services.sheet_store).
    assert len(kept) == len(urls) and {p.read_bytes()[32:] for p in kept} == set(printed.values())
    made = {p: p.stat().st_ino for p in kept}
    # Another start of the server (nothing in memory): served from the folder, not rendered again.
    sheets.forget()
    for (url, paper), body in printed.items():
        assert c.get(url, params={"paper": paper}).content == body
    assert {p: p.stat().st_ino for p in kept} == made
    # The budget is untouched: a sheet of the device's own readings is still rendered, and charged.
    assert c.get("/playsheets/early.pdf", params={"paper": "a4", "variant": EARLY_VARIANT}).status_code == 200
    assert c.get("/playsheets/mid.pdf", params={"paper": "a4", "variant": VARIANT}).status_code == 429
