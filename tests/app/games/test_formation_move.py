"""A company moved as one (issue 26): its stands shifted and turned about their centre keep their formation,
in one event that one Undo takes back; the rules of play and the table's edges still hold."""

from __future__ import annotations

import math
from typing import Any

from fastapi.testclient import TestClient

from tests.app.games.conftest import new_game


def units(c: TestClient, gid: int, headers: dict[str, str]) -> dict[int, dict[str, Any]]:
    return {u["id"]: u for u in c.get(f"/api/v1/games/{gid}/units", headers=headers).json()}


def test_a_company_moves_and_turns_keeping_its_formation(client: TestClient) -> None:
    g = new_game(client)
    before = units(client, g.id, g.referee)
    company = next(u for u in before.values() if u["side"] == "attacker" and u["kind"] == "rifle-company")
    stands = [u for u in before.values() if u["parent_id"] == company["id"] and u["x"] is not None]
    assert len(stands) > 1
    cx = sum(u["x"] for u in stands) / len(stands)
    cy = sum(u["y"] for u in stands) / len(stands)
    r = client.post(
        f"/api/v1/games/{g.id}/units/{company['id']}/move-formation",
        headers=g.attacker,
        json={"dx": 5, "dy": 20, "turn_deg": 90},
    )
    assert r.status_code == 200, r.text
    after = units(client, g.id, g.referee)
    for u in stands:
        # A quarter turn anticlockwise about the centre, then the shift: (rx, ry) -> (-ry, rx).
        rx, ry = u["x"] - cx, u["y"] - cy
        assert math.isclose(after[u["id"]]["x"], cx + 5 - ry, abs_tol=0.01)
        assert math.isclose(after[u["id"]]["y"], cy + 20 + rx, abs_tol=0.01)
        assert math.isclose(after[u["id"]]["facing_deg"], (u["facing_deg"] + 90) % 360, abs_tol=0.01)
    # Distances between the stands are kept: the formation is the same shape.
    for a in stands:
        for b in stands:
            d0 = math.dist((a["x"], a["y"]), (b["x"], b["y"]))
            d1 = math.dist(
                (after[a["id"]]["x"], after[a["id"]]["y"]), (after[b["id"]]["x"], after[b["id"]]["y"])
            )
            assert math.isclose(d0, d1, abs_tol=0.03)
    log = client.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json()
    assert log[-1]["kind"] == "move" and log[-1]["id"] == r.json()["event_id"]
    assert {c["unit"] for c in log[-1]["payload"]["changes"]} == {u["id"] for u in stands}
    undo = client.post(
        f"/api/v1/games/{g.id}/events/{r.json()['event_id']}/undo", headers=g.attacker, json={}
    )
    assert undo.status_code == 200, undo.text
    back = units(client, g.id, g.referee)
    assert all((back[u["id"]]["x"], back[u["id"]]["y"]) == (u["x"], u["y"]) for u in stands)


def test_a_formation_move_is_refused_off_the_table_and_for_the_other_side(client: TestClient) -> None:
    g = new_game(client)
    before = units(client, g.id, g.referee)
    company = next(u for u in before.values() if u["side"] == "attacker" and u["kind"] == "rifle-company")
    url = f"/api/v1/games/{g.id}/units/{company['id']}/move-formation"
    off = client.post(url, headers=g.attacker, json={"dx": 0, "dy": -500})
    assert off.status_code == 422 and "dx" in off.text
    assert client.post(url, headers=g.defender, json={"dx": 1, "dy": 1}).status_code == 403
    assert client.post(url, headers=g.attacker, json={"dx": 1, "dy": 1, "turn_deg": 400}).status_code == 422
    assert units(client, g.id, g.referee) == before
