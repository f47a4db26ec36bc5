"""A Firestorm battle fought on the table offers its campaign the points it scored (issue 55): under the
campaign's reading table-score (erratum table-result-to-campaign-vp) the table's objectives (erratum
campaign-table-objectives: the defender's three positions) score the battle's Victory Points, which then
decide the battle and the Roll to Destroy."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.app.campaigns.conftest import bearer, new_campaign
from tests.app.campaigns.test_table_battles import finish, open_battle, to_resolve


def test_the_points_a_table_battle_scored_reach_its_campaign(client: TestClient) -> None:
    s = new_campaign(client, {"name": "Scored", "variants": {"table-result-to-campaign-vp": "table-score"}})
    to_resolve(client, s)
    opened = open_battle(client, s)
    game_id, referee = opened["table_battle"]["game_id"], bearer(opened["referee_token"])
    score = client.get(f"/api/v1/games/{game_id}/score", headers=referee).json()
    positions = {o["id"]: o for o in score["objectives"]}
    assert sorted(positions) == ["position-1", "position-2", "position-3"]
    assert {s["side"]: s["points"] for s in score["sides"]} == {"attacker": 0, "defender": 9}
    # Two attacking stands take the first two positions, emptied of the defender's.
    units = client.get(f"/api/v1/games/{game_id}/units", headers=referee).json()
    stands = [
        u for u in units if u["side"] == "attacker" and u["base"] == "infantry-platoon" and u["x"] is not None
    ]
    for stand, oid in zip(stands, ("position-1", "position-2"), strict=False):
        [[x0, y0], _, [x1, y1], *_] = positions[oid]["geometry"]["coordinates"][0]
        body = {"x": (x0 + x1) / 2, "y": (y0 + y1) / 2, "facing_deg": 90.0, "override": True}
        r = client.post(f"/api/v1/games/{game_id}/units/{stand['id']}/move", headers=referee, json=body)
        assert r.status_code == 200, r.text
    score = client.get(f"/api/v1/games/{game_id}/score", headers=referee).json()
    assert {s["side"]: s["points"] for s in score["sides"]} == {"attacker": 6, "defender": 3}
    finish(client, game_id, referee)
    r = client.post(
        f"/api/v1/games/{game_id}/campaign-battle/offer", headers=referee, json={"field_held_by": "attacker"}
    )
    assert r.status_code == 200, r.text
    offer = r.json()["offer"]
    assert (offer["attacker_vp"], offer["defender_vp"]) == (6, 3)
    assert offer["winner"] == "german"  # the attacker scored at least three and more than the defender
    assert "The Germans (attacker) scored 6 victory points on the table (its objectives)." in offer["reasons"]
    assert "Firestorm Troops of the BEF (defender) are destroyed on a 6." in offer["reasons"]
    version = client.get(f"/api/v1/campaigns/{s.id}", headers=s.organiser).json()["version"]
    tb = opened["table_battle"]["id"]
    r = client.post(
        f"/api/v1/campaigns/{s.id}/table-battles/{tb}/confirm", headers=s.organiser, json={"version": version}
    )
    assert r.status_code == 200, r.text
    assert r.json()["table_battle"]["applied"] == {"attacker_vp": 6, "defender_vp": 3}
