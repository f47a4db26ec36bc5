"""Issue 37, orders and actions through the API on the Mons game: a stand whose unit has no action left is
refused (409, the referee may override and the log shows it), a unit is ordered once a turn, and a shot
through /resolve and a move each spend an action of the unit the stand is ordered with."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.app.games.conftest import Game, new_game, start_game, units_by_ref

DE_BN1 = "mons-1914/de/infantry-regiment-1/infantry-battalion-1"
GB_CO3 = "mons-1914/gb/infantry-brigade-1/infantry-battalion-1/rifle-company-3"


def _post(c: TestClient, g: Game, path: str, who: dict[str, str], body: dict[str, Any]) -> Any:
    return c.post(f"/api/v1/games/{g.id}{path}", headers=who, json=body)


def _unit(c: TestClient, g: Game, unit_id: int) -> dict[str, Any]:
    return dict(c.get(f"/api/v1/games/{g.id}/units/{unit_id}", headers=g.referee).json())


def test_actions_are_spent_and_a_stand_without_one_refused(client: TestClient) -> None:
    g = new_game(client)
    units = units_by_ref(client, g)
    start_game(client, g)
    start_game(client, g)  # the battalion-orders step
    mg = units[f"{DE_BN1}/mmg-company-1/mmg-1"]
    shot = {"unit_id": mg["id"], "target_id": units[f"{GB_CO3}/rifle-platoon-1"]["id"], "dice": [1]}
    refused = _post(client, g, "/resolve/shooting", g.attacker, shot)
    assert refused.status_code == 409
    assert refused.json()["detail"] == f"{mg['name']} has no action left: roll its order first."
    assert "REMOVE A SUPPRESSION LEVEL, MOVE or FIRE" in refused.json()["why"]
    # The referee may shoot it anyway: the log records the override (nothing to spend).
    over = _post(client, g, "/resolve/shooting", g.referee, {**shot, "override": True})
    assert over.status_code == 200, over.text
    events = client.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json()
    assert events[-1]["payload"]["override"]["by"] == "referee"
    # Ordered once a turn: a failed roll ("1 = No Action") ends the MG's turn, a second roll is refused.
    order = {"unit_id": mg["id"], "dice": [1]}
    assert _post(client, g, "/resolve/order-roll", g.attacker, order).status_code == 200
    again = _post(client, g, "/resolve/order-roll", g.attacker, {**order, "dice": [6]})
    assert again.status_code == 409 and "has had its order roll this turn" in again.json()["detail"]
    failed = _post(client, g, "/resolve/shooting", g.attacker, shot)
    assert failed.json()["detail"] == f"{mg['name']} has no action left this turn: its order is used up."

    # A company ordered ("5-6 = 2 Actions"): a shot through /resolve spends one of its actions, its other
    # platoons firing in that action spend none; a move starts the next.
    company = units[f"{DE_BN1}/rifle-company-1"]
    ordered = _post(client, g, "/resolve/order-roll", g.attacker, {"unit_id": company["id"], "dice": [6]})
    assert ordered.status_code == 200 and _unit(client, g, company["id"])["actions_left"] == 2
    platoons = [units[f"{DE_BN1}/rifle-company-1/rifle-platoon-{n}"] for n in (1, 2)]
    # The British platoon brought within the rifles' 45 cm, in front of them, by the referee.
    near = {"x": platoons[0]["x"], "y": platoons[0]["y"] + 25, "facing_deg": 270}
    assert _post(
        client, g, f"/units/{shot['target_id']}/move", g.referee, {**near, "override": True}
    ).is_success
    for platoon in platoons:
        fired = _post(client, g, "/resolve/shooting", g.attacker, {**shot, "unit_id": platoon["id"]})
        assert fired.status_code == 200, fired.text
    assert _unit(client, g, company["id"])["actions_left"] == 1
    p = platoons[0]
    moved = _post(client, g, f"/units/{p['id']}/move", g.attacker, {"x": p["x"], "y": p["y"] + 5})
    assert moved.status_code == 200, moved.text
    assert {"unit": company["id"], "field": "actions_left", "delta": -1, "after": 0} in moved.json()[
        "changes"
    ]
    # Moving it again would be the company's third action: refused, naming the company so that no other reads
    # alike (each battalion has an "Infantry Company 1": its short name, as the stand's card names it).
    more = _post(client, g, f"/units/{p['id']}/move", g.attacker, {"x": p["x"], "y": p["y"] + 10})
    assert more.status_code == 409
    assert more.json()["detail"] == "1/1/1 Coy has no action left this turn: its order is used up."
    # A company moved as a formation spends one action, not one a stand.
    second = units[f"{DE_BN1}/rifle-company-2"]
    assert (
        _post(
            client, g, "/resolve/order-roll", g.attacker, {"unit_id": second["id"], "dice": [6]}
        ).status_code
        == 200
    )
    shifted = _post(client, g, f"/units/{second['id']}/move-formation", g.attacker, {"dx": 0, "dy": 3})
    assert shifted.status_code == 200, shifted.text
    assert _unit(client, g, second["id"])["actions_left"] == 1
