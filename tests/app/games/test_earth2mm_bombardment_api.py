"""A card that leaves its shots to its side (2mm Earth 1418's bombardment, `FireCard.shots`) through the API:
the firing side lays them by roll (`shots`) and the server rolls only the shots laid; more than a roll takes,
a roll the card has not, or none at all is refused naming the field. The landing, the firing with dice given
and its undo are test_earth2mm_plans.py's."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.app.games.conftest import advance_to, new_game, start_game


def test_the_firing_side_lays_the_shots_and_the_server_rolls_those_alone(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g = new_game(c, {"scenario": "earth2mm-demo-ferme"})
    start_game(c, g)
    item = {"kind": "circle-bombardment", "battery": "18-pounder Battery", "grid": [38, 84]}
    r = c.post(
        f"/api/v1/games/{g.id}/fireplans/attacker/items",
        headers=g.attacker,
        json={"arrival_turn": 1, "item": item},
    )
    assert r.status_code == 201, r.text
    advance_to(c, g, "execute-2")
    [card] = c.get(f"/api/v1/games/{g.id}/arrivals", headers=g.attacker).json()["cards"]
    # Two 18-pounder (field gun) bases, Arming 2: 4 shots, "up to half the shots on a single target".
    first, second = (s["key"] for s in card["stands"]["full"])
    assert card["shots"] == 4 and {s["times"] for s in card["stands"]["full"]} == {2}

    api = f"/api/v1/games/{g.id}/arrivals/{card['item_id']}/apply"
    for shots, field in (
        ({first: 3}, f"shots.{first}"),
        ({}, "shots"),
        ({first: 2, second: 2, "1": 1}, "shots.1"),
    ):
        r = c.post(api, headers=g.attacker, json={"shots": shots})
        assert r.status_code == 422 and r.json()["field"] == field, r.text

    r = c.post(api, headers=g.attacker, json={"shots": {first: 2}})
    assert r.status_code == 200, r.text
    [rolled] = r.json()["event"]["payload"]["rolls"]
    assert rolled["unit_id"] == int(first) and len(rolled["resolution"]["dice"]) == 2
    assert rolled["resolution"]["rolled_by_server"] is True
