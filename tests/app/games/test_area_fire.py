"""A shot from the map attacks its beaten zone in the same Apply (issue 38, item 4): the table finds the
stands, each rolls a die of its own, named with its modifier, and the one event carries every result."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.app.games.conftest import advance_to, new_game, unpacked
from tests.app.games.test_stand_acts import events, first, units


def test_an_mg_shot_rolls_two_stands_of_another_company_in_its_beaten_zone(client: TestClient) -> None:
    g = new_game(client)
    us = units(client, g)
    mg = first(us, "attacker", "mmg")
    target = first(us, "defender", "rifle-platoon")
    other = [
        u
        for u in us.values()
        if u["side"] == "defender" and u["kind"] == "rifle-platoon" and u["parent_id"] != target["parent_id"]
    ][:2]
    moved = {mg["id"], target["id"], *(u["id"] for u in other)}
    # A clear lane: no other stand within 10 cm of x = x0 between the gun and the zone's end.
    x0 = next(
        x
        for x in range(10, 120, 5)
        if all(
            u["x"] is None or abs(u["x"] - x) > 10 or not 50 <= u["y"] <= 110
            for u in us.values()
            if u["id"] not in moved
        )
    )
    for u, y, facing in ((mg, 60, 90), (target, 90, 270), (other[0], 95, 270), (other[1], 100, 270)):
        r = client.post(
            f"/api/v1/games/{g.id}/units/{u['id']}/move",
            headers=g.referee,
            json={"x": x0, "y": y, "facing_deg": facing},
        )
        assert r.status_code == 200, r.text
    unpacked(client, g, mg["id"])
    advance_to(client, g, "battalion-orders")  # where the battalion's MG is ordered, and then shoots
    order = {"unit_id": mg["id"], "dice": [6]}
    assert client.post(f"/api/v1/games/{g.id}/resolve/order-roll", headers=g.attacker, json=order).is_success
    body = {"unit_id": mg["id"], "target_id": target["id"], "dice": [1, 6, 6]}
    r = client.post(f"/api/v1/games/{g.id}/resolve/shooting", headers=g.attacker, json=body)
    assert r.status_code == 200, r.text
    also = r.json()["resolution"]["also"]
    assert [(a["unit_id"], a["name"]) for a in also] == [(u["id"], u["name"]) for u in other]
    assert [[m["label"] for m in a["modifiers"]] for a in also] == [
        ["Beaten zone target 1"],
        ["Beaten zone target 2"],
    ]
    # One event: the target's die a 1, the first stand behind it destroyed, the second suppressed.
    assert r.json()["resolution"]["outcome_key"] == "no-effect"
    assert [a["outcome"] for a in also] == ["killed", "suppressed"]
    after = units(client, g)
    assert after[other[0]["id"]]["killed"] and after[other[1]["id"]]["suppression"] == 1
    assert events(client, g)[-1]["payload"]["resolution"]["also"] == also
