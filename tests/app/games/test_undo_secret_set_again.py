"""An undo of a side's secret set again unchanged, once it is no secret (the hostile pass of this stop): a 2mm Earth
battery's plan saved again as it was is logged as set (its side's secret, so the other side sees an aim, not a
change of nothing); the battery then moves, and its plan is no secret; the save undone has nothing to put back and
answers so, not a 500."""

from __future__ import annotations

from fastapi.testclient import TestClient

from rules.earth2mm.play.fields import is_artillery
from tests.app.games.conftest import new_game


def test_a_secret_set_again_unchanged_is_undone_once_no_secret(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g = new_game(c, {"scenario": "earth2mm-demo-ferme"})
    game = f"/api/v1/games/{g.id}"
    version = c.get(f"{game}/turn", headers=g.referee).json()["version"]
    assert c.post(f"{game}/turn/advance", headers=g.referee, json={"version": version}).is_success
    units = c.get(f"{game}/units", headers=g.referee).json()
    battery = next(
        u for u in units if u["side"] == "attacker" and u["level"] == "company" and is_artillery(u["kind"])
    )
    base = next(u for u in units if u["parent_id"] == battery["id"] and u["x"] is not None)
    again = {"version": battery["version"], "sub_plan": battery["sub_plan"], "override": True}
    saved = c.put(f"{game}/units/{battery['id']}", headers=g.referee, json=again)
    assert saved.status_code == 200, saved.text
    moved = {"x": base["x"] + 1, "y": base["y"], "facing_deg": base["facing_deg"], "override": True}
    assert c.post(f"{game}/units/{base['id']}/move", headers=g.referee, json=moved).is_success
    undone = c.post(f"{game}/events/{saved.json()['event_id']}/undo", headers=g.referee)
    assert undone.status_code == 200, undone.text
    battery_now = next(
        u for u in c.get(f"{game}/units", headers=g.referee).json() if u["id"] == battery["id"]
    )
    assert battery_now["sub_plan"] == battery["sub_plan"]
