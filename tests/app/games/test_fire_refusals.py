"""The firer and the target through the API (issue 37): a limbered MG's card offers no Shoot and /resolve
refuses its shot in one sentence with the rule, unless the referee overrides (recorded in the event); the
target list answers each stand the shot may not take with its reason. The checks themselves are proved at the
rules tier (tests/rules/flanders_fields/play/test_game_fire.py)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.app.games.conftest import Game, new_game, start_game, unpacked


def units(c: TestClient, g: Game) -> dict[int, dict[str, Any]]:
    return {u["id"]: u for u in c.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()}


def battalion_orders(c: TestClient, g: Game, mg: dict[str, Any]) -> None:
    """Start the game, move on to the battalion-orders step and give the battalion MG its actions."""
    start_game(c, g)
    version = c.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["version"]
    assert c.post(
        f"/api/v1/games/{g.id}/turn/advance", headers=g.referee, json={"version": version}
    ).is_success
    order = {"unit_id": mg["id"], "dice": [6]}
    r = c.post(f"/api/v1/games/{g.id}/resolve/order-roll", headers=g.attacker, json=order)
    assert r.status_code == 200, r.text


def mg_facing(c: TestClient, g: Game) -> tuple[dict[str, Any], dict[str, Any]]:
    """The German battalion MG put 30 cm in front of a British platoon, facing it (in set-up, by the referee)."""
    us = units(c, g)
    mg = next(u for u in us.values() if u["side"] == "attacker" and u["kind"] == "mmg" and u["x"] is not None)
    target = next(u for u in us.values() if u["side"] == "defender" and u["kind"] == "rifle-platoon")
    move = {"x": target["x"], "y": target["y"] - 30, "facing_deg": 90}
    assert c.post(f"/api/v1/games/{g.id}/units/{mg['id']}/move", headers=g.referee, json=move).is_success
    unpacked(c, g, mg["id"])
    return mg, target


def test_a_limbered_mg_is_offered_no_shot_and_refused_unless_the_referee_overrides(
    client: TestClient,
) -> None:
    g = new_game(client)
    mg, target = mg_facing(client, g)
    battalion_orders(client, g, mg)
    url = f"/api/v1/games/{g.id}"
    card = f"{url}/units/{mg['id']}/acts"
    assert '"Shoot"' in client.get(card, headers=g.attacker).text  # the card's button
    version = units(client, g)[mg["id"]]["version"]
    limber = {"version": version, "limbered": True}
    assert client.put(f"{url}/units/{mg['id']}", headers=g.attacker, json=limber).is_success
    # Limbered, its card greys the shot with the pipeline's sentence and offers the remedy first: Unlimber.
    after = client.get(card, headers=g.attacker).json()
    assert [a["label"] for a in after["acts"]] == [] and after["first"] == "edits"
    assert after["edits"][0]["label"] == "Unlimber" and after["edits"][0]["field"] == "limbered"
    greyed = next(o for o in after["offers"] if o["key"] == "shooting")["refused"]
    assert greyed["detail"] == "Maxim MMG 1 is limbered: unlimber it first (1 order)."
    assert greyed["remedy"] == "limbered" and after["offers"][0]["key"] == "limbered"
    shot = {"unit_id": mg["id"], "target_id": target["id"], "dice": [6]}
    refused = client.post(f"{url}/resolve/shooting", headers=g.attacker, json=shot)
    assert refused.status_code == 409, refused.text
    detail = refused.json()
    assert detail["detail"] == "Maxim MMG 1 is limbered: unlimber it first (1 order)."
    assert detail["why"].startswith("Machineguns, Light Mortars and Artillery require 1 order to limber")
    assert detail["source"] == "Flanders Fields rule book: MOVEMENT, MOVEMENT DISTANCES"
    before = client.get(f"{url}/events", headers=g.referee).json()
    mine = client.post(f"{url}/resolve/shooting", headers=g.attacker, json={**shot, "override": True})
    assert mine.status_code == 403, mine.text  # only the referee overrides
    # The server rolls: the stands of its beaten zone take a die each beside the target's.
    played = client.post(
        f"{url}/resolve/shooting", headers=g.referee, json={**shot, "dice": None, "override": True}
    )
    assert played.status_code == 200, played.text
    logged = client.get(f"{url}/events", headers=g.referee).json()
    assert len(logged) == len(before) + 1
    assert "limber" in logged[-1]["payload"]["override"]["refused"]


def test_the_target_list_gives_each_stand_the_shot_may_not_take_its_reason(client: TestClient) -> None:
    g = new_game(client)
    mg, target = mg_facing(client, g)
    start_game(client, g)
    url = f"/api/v1/games/{g.id}/units/{mg['id']}/targets/shooting"
    marks = {m["unit_id"]: m for m in client.get(url, headers=g.attacker).json()}
    assert target["id"] not in marks  # 28 cm away, straight ahead: the nearest troops
    reasons = {m["mark"] for m in marks.values()}
    assert (
        reasons <= {"out of range", "out of sight", "out of arc", "not the nearest"}
        and "not the nearest" in reasons
    )
    assert all(m["refused"] and m["why"] and m["source"] for m in marks.values())
    # The other side's seat reads nothing of this stand; an unknown resolver is named.
    assert client.get(url, headers=g.defender).json() == []
    bad = client.get(url.replace("shooting", "nonsense"), headers=g.attacker)
    assert bad.status_code == 422 and "resolver" in bad.text
