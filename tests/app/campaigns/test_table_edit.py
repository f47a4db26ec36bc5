"""A campaign battle's generated table edited in the scenario editor before it starts (issue 27), on SQLite and
PostgreSQL: the page is the referee's only and carries the game's own terrain and stands; saving goes through
the game's API (the terrain or the objectives over the game's version, a stand through the move endpoint), one
event each, the score reading the objectives saved; once the game has started the page and the objectives are
refused with a 409 in one sentence."""

from __future__ import annotations

import json
import re
from typing import Any

from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from tests.app.campaigns.conftest import Seats, bearer
from tests.app.campaigns.test_table_battles import open_battle, to_resolve
from tests.app.games.conftest import Game, start_game


def game_doc(html: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="scn-game-doc">(.*?)</script>', html, re.S)
    assert found, "the page carries no game document"
    doc: dict[str, Any] = json.loads(found.group(1))
    return doc


def stands_of(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}

    def walk(u: dict[str, Any]) -> None:
        if u["base"]:
            out[u["id"]] = u
        for c in u["children"]:
            walk(c)

    for side in ("attacker", "defender"):
        for f in doc["sides"][side]["forces"]:
            walk(f)
    return out


def opened_game(client: TestClient, seats: Seats) -> tuple[int, dict[str, str], dict[str, str]]:
    """The campaign battle's game in set-up: its id, the referee's and the attacker's bearer headers."""
    to_resolve(client, seats)
    opened = open_battle(client, seats)
    j = client.post("/api/v1/join", json={"code": opened["join_codes"]["attacker"]})
    assert j.status_code == 200, j.text
    client.cookies.clear()
    return opened["table_battle"]["game_id"], bearer(opened["referee_token"]), bearer(j.json()["token"])


def page_as(
    client: TestClient, game_id: int, headers: dict[str, str] | None, path: str = "table/edit"
) -> Any:
    client.cookies.clear()
    if headers:
        client.cookies.set(COOKIE_NAME, headers["Authorization"].removeprefix("Bearer "))
    r = client.get(f"/games/{game_id}/{path}")
    client.cookies.clear()
    return r


def test_the_referee_edits_the_generated_table_before_it_starts(client: TestClient, seats: Seats) -> None:
    game_id, referee, attacker = opened_game(client, seats)
    api = f"/api/v1/games/{game_id}"
    game = client.get(f"{api}/state", headers=referee).json()
    assert game["status"] == "setup"

    # Only the referee: a side gets a 403 page in words, a device with no seat the join form.
    side_page = page_as(client, game_id, attacker)
    assert side_page.status_code == 403 and "text/html" in side_page.headers["content-type"]
    assert "only the referee may edit the table" in side_page.text
    assert page_as(client, game_id, None).status_code == 401
    # The referee's game pages link to it in set-up (the campaign battle's banner), a side's do not.
    link = f'href="/games/{game_id}/table/edit"'
    assert link in page_as(client, game_id, referee, "map").text
    assert link not in page_as(client, game_id, attacker, "map").text

    page = page_as(client, game_id, referee)
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert f'data-game-version="{game["version"]}"' in page.text
    assert 'data-scn-tab="forces"' not in page.text  # forces are the campaign's, not rebuilt here
    doc = game_doc(page.text)
    assert doc["terrain"] == game["terrain"] and doc["terrain"]["features"]  # the generated terrain
    units = client.get(f"{api}/units", headers=referee).json()
    on_table = {str(u["id"]): u for u in units if u["base"] and not u["off_table"] and u["x"] is not None}
    stands = stands_of(doc)
    placed = {i: s for i, s in stands.items() if "placement" in s}
    assert set(placed) == set(on_table) and placed
    for i, s in placed.items():
        u = on_table[i]
        assert s["placement"]["center"] == [u["x"], u["y"]] and s["version"] == u["version"]

    # Save as the page does: the terrain with a new wood over the game's version, then one stand moved.
    before = len(client.get(f"{api}/events", headers=referee).json())
    wood = {
        "type": "Feature",
        "properties": {"kind": "woods", "name": "Bois de Test"},
        "geometry": {"type": "Polygon", "coordinates": [[[40, 60], [60, 60], [60, 80], [40, 80], [40, 60]]]},
    }
    terrain = {"type": "FeatureCollection", "features": [*doc["terrain"]["features"], wood]}
    r = client.patch(api, headers=referee, json={"version": game["version"], "terrain": terrain})
    assert r.status_code == 200, r.text
    assert wood in client.get(f"{api}/state", headers=referee).json()["terrain"]["features"]
    stand_id, stand = next(iter(placed.items()))
    x, y = stand["placement"]["center"]
    to = {"x": round(x + 3.5, 1), "y": round(y + 2.0, 1), "facing_deg": stand["placement"]["facing_deg"]}
    r = client.post(f"{api}/units/{stand_id}/move", headers=referee, json={**to, "version": stand["version"]})
    assert r.status_code == 200, r.text
    moved = client.get(f"{api}/units/{stand_id}", headers=referee).json()
    assert (moved["x"], moved["y"]) == (to["x"], to["y"])
    events = client.get(f"{api}/events", headers=referee).json()[before:]
    assert [e["kind"] for e in events] == ["game-updated", "move"]

    # The objectives, saved as the page saves them (the game's PATCH, one event): checked on the game's table
    # (a 422 naming the field), then the score reads them at once.
    farm = {
        "type": "Feature",
        "id": "the-farm",
        "properties": {"name": "The farm", "vp": 2, "scored": "game_end"},
        "geometry": {"type": "Point", "coordinates": [30, 40]},
    }
    off = {**farm, "geometry": {"type": "Point", "coordinates": [-5, 40]}}
    version = client.get(f"{api}/state", headers=referee).json()["version"]
    objectives = {"type": "FeatureCollection", "features": [off]}
    r = client.patch(api, headers=referee, json={"version": version, "table_objectives": objectives})
    assert r.status_code == 422 and "table_objectives.features.0.geometry" in r.text, r.text
    objectives = {"type": "FeatureCollection", "features": [farm]}
    r = client.patch(api, headers=referee, json={"version": version, "table_objectives": objectives})
    assert r.status_code == 200, r.text
    score = client.get(f"{api}/score", headers=attacker).json()
    assert [(o["id"], o["name"], o["vp"]) for o in score["objectives"]] == [("the-farm", "The farm", 2)]
    logged = client.get(f"{api}/events", headers=referee).json()[-1]
    assert (logged["kind"], logged["payload"]["fields"]) == ("game-updated", ["table_objectives"])

    # The page reads the saved table back; once the game has started it refuses in one sentence.
    read_back = game_doc(page_as(client, game_id, referee).text)
    assert stands_of(read_back)[stand_id]["placement"]["center"] == [to["x"], to["y"]]
    assert read_back["table_objectives"] == objectives
    start_game(client, Game(game_id, referee, attacker, attacker, {}, {}))
    # Once it has started, its objectives are refused as its table is.
    version = client.get(f"{api}/state", headers=referee).json()["version"]
    r = client.patch(api, headers=referee, json={"version": version, "table_objectives": objectives})
    assert r.status_code == 409 and "can be edited only before it starts" in r.json()["detail"], r.text
    assert link not in page_as(client, game_id, referee, "map").text
    late = page_as(client, game_id, referee)
    assert late.status_code == 409 and "text/html" in late.headers["content-type"]
    assert "the game has started, and its table can be edited only before it starts" in late.text.lower()
