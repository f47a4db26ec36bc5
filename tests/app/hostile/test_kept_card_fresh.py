"""A stand's card, its head and its target list read the game's units as the worker keeps them (markers.TableRead,
app.services.kept_units), kept between requests and shared by every viewer: each write another request makes
(a marker, a move, a formation's move, a unit's edit, its undo, a unit added) is on the next card read, on both
backends, never the kept state from before it (the hostile pass of 829b0d36)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from tests.app.games.conftest import Game, new_game, start_game


def ok(r: Any, status: int = 200) -> Any:
    assert r.status_code == status, r.text
    return r.json()


def page(c: TestClient, path: str, who: dict[str, str]) -> str:
    """A panel as the seat of `who` reads it (its cookie), as plain words."""
    c.cookies.set(COOKIE_NAME, who["Authorization"].removeprefix("Bearer "))
    try:
        r = c.get(path)
    finally:
        c.cookies.clear()
    assert r.status_code == 200, r.text
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.text)))


def head(c: TestClient, g: Game, uid: int, who: dict[str, str] | None = None) -> str:
    return page(c, f"/games/{g.id}/map/units/{uid}/head", who or g.referee)


def units(c: TestClient, g: Game) -> dict[int, dict[str, Any]]:
    return {u["id"]: u for u in ok(c.get(f"/api/v1/games/{g.id}/units", headers=g.referee))}


def placed(c: TestClient, g: Game, side: str) -> list[dict[str, Any]]:
    return [u for u in units(c, g).values() if u["side"] == side and u["x"] is not None and u["base"]]


@pytest.mark.storage
def test_each_write_is_on_the_next_card_read(client: TestClient) -> None:
    c = client
    g = new_game(c)
    start_game(c, g)
    stand = placed(c, g, "attacker")[0]
    base = f"/api/v1/games/{g.id}/units"
    assert "No suppression markers" in head(c, g, stand["id"]), "the card read first (and kept)"
    # A marker placed by another request: the next head counts it, for every seat that reads the stand.
    ok(c.post(f"{base}/{stand['id']}/markers", headers=g.referee, json={"delta": 1, "override": True}))
    for who in (g.referee, g.attacker, g.defender):
        assert "1 suppression marker" in head(c, g, stand["id"], who)
    # Renamed (the force tree's names worked out again, not carried over).
    now = units(c, g)[stand["id"]]
    ok(
        c.put(
            f"{base}/{stand['id']}",
            headers=g.referee,
            json={"version": now["version"], "name": "Zulu Nine", "override": True},
        )
    )
    assert "Zulu Nine" in head(c, g, stand["id"])
    # A stand's state set by hand (a flag the card's head lists).
    now = units(c, g)[stand["id"]]
    body = {"version": now["version"], "off_table": True, "override": True}
    ok(c.put(f"{base}/{stand['id']}", headers=g.referee, json=body))
    card = ok(c.get(f"{base}/{stand['id']}/acts", headers=g.referee))
    assert not any(o["kind"] == "move" for o in card["offers"]), "a stand off the table is offered a move"


@pytest.mark.storage
def test_a_move_and_a_formations_move_are_on_the_next_target_list(client: TestClient) -> None:
    c = client
    g = new_game(c)
    start_game(c, g)
    shooter = placed(c, g, "attacker")[0]
    enemy = placed(c, g, "defender")[0]
    pick = f"/games/{g.id}/map/units/{shooter['id']}/targets/shooting"

    def away() -> str:
        names = {u["id"]: u["short_name"] for u in units(c, g).values()}
        found = re.search(re.escape(names[enemy["id"]]) + r" · (\d+) cm", page(c, pick, g.attacker))
        assert found is not None, "the enemy stand is not on the target list"
        return found.group(1)

    before = away()
    base = f"/api/v1/games/{g.id}/units"
    # The enemy stand moved 40 cm towards the shooter's side: the next list reads it.
    move = {"x": enemy["x"], "y": enemy["y"] - 40, "facing_deg": enemy["facing_deg"], "override": True}
    ok(c.post(f"{base}/{enemy['id']}/move", headers=g.referee, json=move))
    moved = away()
    assert moved != before, "the target list read the stand where it stood before its move"
    # Its formation moved as one (its rows written past the ORM, over their versions).
    parent = enemy["parent_id"]
    ok(
        c.post(
            f"{base}/{parent}/move-formation", headers=g.referee, json={"dx": 0, "dy": -20, "override": True}
        )
    )
    assert away() != moved, "the target list read the stand where it stood before its formation's move"
    # Each seat's target list and the API's marks read the game as it now stands, one after the other.
    marks = ok(c.get(f"{base}/{shooter['id']}/targets/shooting", headers=g.attacker))
    assert all(m["unit_id"] in units(c, g) for m in marks)


@pytest.mark.storage
def test_an_undone_marker_and_a_unit_added_in_set_up_are_on_the_next_card(client: TestClient) -> None:
    c = client
    g = new_game(c)
    stand = placed(c, g, "defender")[0]
    base = f"/api/v1/games/{g.id}/units"
    head(c, g, stand["id"])  # kept
    added = ok(
        c.post(
            base,
            headers=g.referee,
            json={
                "side": "defender",
                "name": "Late Platoon",
                "level": "platoon",
                "kind": "infantry",
                "base": "infantry-platoon",
                "x": 60,
                "y": 120,
                "facing_deg": 270,
            },
        ),
        201,
    )
    new = added["unit"]["id"]
    assert "Late Platoon" in head(c, g, new), "a unit added is not on the kept units"
    ok(c.post(f"/api/v1/games/{g.id}/events/{added['event_id']}/undo", headers=g.referee))
    gone = c.get(f"/api/v1/games/{g.id}/units/{new}", headers=g.referee)
    c.cookies.set(COOKIE_NAME, g.referee["Authorization"].removeprefix("Bearer "))
    after = c.get(f"/games/{g.id}/map/units/{new}/head")
    c.cookies.clear()
    # The card answers as the units API does: the unit read as it now stands (or refused as gone).
    if gone.status_code == 200:
        assert after.status_code == 200
    else:
        assert after.status_code in (404, 422)
    start_game(c, g)
    ok(c.post(f"{base}/{stand['id']}/markers", headers=g.referee, json={"delta": 1, "override": True}))
    marked = c.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json()[-1]
    assert "1 suppression marker" in head(c, g, stand["id"])
    ok(c.post(f"/api/v1/games/{g.id}/events/{marked['id']}/undo", headers=g.referee))
    assert "No suppression markers" in head(c, g, stand["id"]), "the card read the marker undone"
