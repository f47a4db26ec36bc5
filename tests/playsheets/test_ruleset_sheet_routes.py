"""A rule set's own playsheet over HTTP: served by the rule set's id as a PDF and as print-ready HTML, refused
for a rule set printing none (404) or an unknown reading (422 naming it); a game of that rule set prints it with
its readings, and the print menus link it."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tests.app.games.conftest import new_game
from tests.playsheets import pdf

pytestmark = pytest.mark.api

EARTH = "2mm-earth-1418"


def test_the_rule_sets_playsheet_pdf(sqlite_client: TestClient) -> None:
    r = sqlite_client.get(f"/playsheets/rulesets/{EARTH}.pdf", params={"paper": "letter"})
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    assert r.content.startswith(b"%PDF") and pdf.page_count(r.content) <= 2


def test_unknown_rule_set_reading_and_paper_are_refused(sqlite_client: TestClient) -> None:
    for ruleset in ("no-such-rules", "flanders-fields"):  # Flanders Fields prints its periods' sheets
        r = sqlite_client.get(f"/playsheets/rulesets/{ruleset}.pdf")
        assert r.status_code == 404 and EARTH in r.text, ruleset
    r = sqlite_client.get(f"/playsheets/rulesets/{EARTH}.pdf", params={"variant": "assault-column:nine"})
    assert r.status_code == 422 and r.json()["errors"][0]["allowed"] == ["by-example", "text-order"]
    r = sqlite_client.get(f"/playsheets/rulesets/{EARTH}", params={"variant": "assault-column"})
    assert r.status_code == 422 and r.json()["errors"][0]["loc"] == ["body", "variant", 0]
    assert sqlite_client.get(f"/playsheets/rulesets/{EARTH}", params={"paper": "a5"}).status_code == 422


def test_a_game_prints_its_rule_sets_sheet_with_its_readings(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g = new_game(c, {"ruleset": EARTH, "name": "Ridge"})
    game = c.get(f"/api/v1/games/{g.id}", headers=g.referee).json()
    r = c.patch(
        f"/api/v1/games/{g.id}",
        headers=g.referee,
        json={"version": game["version"], "variants": {"assault-column": "text-order"}},
    )
    assert r.status_code == 200, r.text
    r = c.get(f"/playsheets/games/{g.id}", headers=g.attacker)
    assert r.status_code == 200 and "Characteristics chart" in r.text and "VARIANT" in r.text
    # The game's pages offer it in their Print menu.
    c.cookies.set("firestep_token", g.attacker["Authorization"].removeprefix("Bearer "))
    page = c.get(f"/lookup?game={g.id}")
    assert page.status_code == 200 and f'href="/playsheets/games/{g.id}.pdf"' in page.text


def test_the_rule_sets_lookup_links_its_own_playsheet(sqlite_client: TestClient) -> None:
    page = sqlite_client.get("/lookup", params={"ruleset": EARTH})
    assert page.status_code == 200
    menu = re.search(r"data-print-links.*?</ul>", page.text, re.S)
    assert menu and f'href="/playsheets/rulesets/{EARTH}.pdf"' in menu.group(0)
    assert "/playsheets/mid.pdf" not in menu.group(0)  # its own sheet, not Flanders Fields' periods'
