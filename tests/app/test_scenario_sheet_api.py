"""GET /api/v1/scenarios/{id}/sheet.pdf (issue 27): the printable sheet of a shipped or a stored scenario, by
the readings asked for; a bad reading is a 422 naming it, an unknown scenario a 404."""

from __future__ import annotations

import html
import re

from fastapi.testclient import TestClient

from tests import csrf
from tests.app.games.conftest import new_game
from tests.playsheets import pdf
from tests.rules.core.test_scenario import hand_written

API = "/api/v1/scenarios"


def _sheet_text(client: TestClient, url: str) -> str:
    r = client.get(url)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/pdf"
    assert pdf.page_count(r.content) <= 2
    return re.sub(r"\s+", " ", pdf.text(r.content, layout=False))


def test_a_stored_scenario_prints_its_sheet(client: TestClient) -> None:
    doc = {**hand_written(), "id": "trench-raid"}
    assert client.post(API, json=doc).status_code == 201
    text = _sheet_text(client, f"{API}/trench-raid/sheet.pdf?paper=letter")
    assert doc["title"] in text and "Scale 1:" in text
    assert doc["objectives"] in text and doc["victory"] in text
    for side in ("attacker", "defender"):
        for unit in doc["sides"][side]["forces"]:
            if "name" in unit:
                assert unit["name"] in text, unit["name"]


def test_mons_prints_by_the_reading_asked_for_and_bad_requests_are_refused(
    reading_client: TestClient,
) -> None:
    text = _sheet_text(reading_client, f"{API}/mons-1914/sheet.pdf?variant=mons-german-quality:veteran")
    assert "mons-german-quality: veteran" in text and "Scale 1:10" in text
    bad = reading_client.get(f"{API}/mons-1914/sheet.pdf?variant=mons-german-quality:heroic")
    assert bad.status_code == 422, bad.text
    (err,) = bad.json()["errors"]
    assert err["loc"][-2:] == ["variants", "mons-german-quality"] and "veteran" in err["allowed"]
    assert reading_client.get(f"{API}/mons-1914/sheet.pdf?variant=no-such-erratum:x").status_code == 422
    assert reading_client.get(f"{API}/mons-1914/sheet.pdf?variant=nocolon").status_code == 422
    assert reading_client.get(f"{API}/mons-1914/sheet.pdf?paper=a3").status_code == 422
    assert reading_client.get(f"{API}/no-such-scenario/sheet.pdf").status_code == 404


def test_a_game_from_a_scenario_offers_its_sheet_by_the_games_readings(sqlite_client: TestClient) -> None:
    c = sqlite_client
    game = new_game(c)
    version = c.get(f"/api/v1/games/{game.id}", headers=game.referee).json()["version"]
    r = c.patch(
        f"/api/v1/games/{game.id}",
        headers=game.referee,
        json={"version": version, "variants": {"mons-german-quality": "veteran"}},
    )
    assert r.status_code == 200, r.text
    token = game.referee["Authorization"].removeprefix("Bearer ")
    assert c.post("/join", data=csrf.form(c, {"code": token}), follow_redirects=False).status_code == 303
    menu = c.get(f"/games/{game.id}/map").text
    link = re.search(r'<a href="([^"]+)">Scenario sheet</a>', menu)
    assert link is not None
    href = html.unescape(link.group(1))
    assert href == f"{API}/mons-1914/sheet.pdf?variant=mons-german-quality%3Aveteran"
    assert "mons-german-quality: veteran" in _sheet_text(c, href)
    # A game made by hand has no scenario, so no sheet is offered.
    by_hand = new_game(c, {"name": "By hand", "period": "mid"})
    token = by_hand.referee["Authorization"].removeprefix("Bearer ")
    c.cookies.clear()
    assert c.post("/join", data=csrf.form(c, {"code": token}), follow_redirects=False).status_code == 303
    assert "Scenario sheet" not in c.get(f"/games/{by_hand.id}/map").text
