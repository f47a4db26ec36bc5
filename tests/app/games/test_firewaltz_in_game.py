"""A German Firewaltz in a late-war game: planned in the attacker's fire plan, locked, arriving at the start of
the German turn, revealed and checked against the commitment, put on the table and rolled.

Seed, ARTILLERY FIRE PLANS: "Duration and movement of Firewalz attacks i.e. when it will roll over and back
against any particular place. Once planned it is not possible to change the schedule of a Firewaltz";
HURRICANE BOMBARDMENT (FIREWALTZ): "In a late war game when the Germans are attacking ... Each Strong Point
will be attacked once by Super Heavy Artillery, normal trench lines by Heavy."
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.app.games.conftest import Game, new_game

ITEM = {"kind": "firewaltz", "grid": [60, 130], "target": "strong-point"}


def late_game(c: TestClient, attacker: str = "german") -> Game:
    return new_game(
        c,
        {
            "name": "Kaiserschlacht",
            "period": "late",
            "attacker_nation": attacker,
            "defender_nation": "british",
        },
    )


def advance(c: TestClient, g: Game) -> dict[str, Any]:
    v = c.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["version"]
    r = c.post(f"/api/v1/games/{g.id}/turn/advance", headers=g.referee, json={"version": v})
    assert r.status_code == 200, r.text
    return dict(r.json())


def refused_on_kind(r: Any) -> bool:
    return r.status_code == 422 and r.json()["errors"][0]["loc"][-1] == "kind"


def test_a_firewaltz_is_planned_arrives_and_is_rolled(client: TestClient) -> None:
    c = client
    g = late_game(c)
    plan = f"/api/v1/games/{g.id}/fireplans"
    made = c.post(f"{plan}/attacker/items", headers=g.attacker, json={"arrival_turn": 1, "item": ITEM})
    assert made.status_code == 201, made.text
    item_id = made.json()["id"]
    assert made.json()["kind"] == "firewaltz" and made.json()["data"] == {
        "grid": [60, 130],
        "target": "strong-point",
    }
    # "when the Germans are attacking": the British defender's plan holds none.
    assert refused_on_kind(
        c.post(f"{plan}/defender/items", headers=g.defender, json={"arrival_turn": 1, "item": ITEM})
    )
    assert c.post(f"{plan}/attacker/lock", headers=g.attacker).status_code == 200
    assert c.post(f"{plan}/defender/lock", headers=g.defender).status_code == 200
    # "Once planned it is not possible to change the schedule of a Firewaltz".
    assert c.delete(f"{plan}/attacker/items/{item_id}", headers=g.attacker).status_code == 409
    # Secret until it arrives.
    assert c.get(f"{plan}/attacker/items/{item_id}", headers=g.defender).status_code == 404

    started = advance(c, g)  # turn 1, the German attacker's turn: the plan's turn-1 items arrive
    arrivals = [e for e in started["events"] if e["kind"] == "fire-plan-arrival"]
    assert [a["payload"]["item"]["kind"] for a in arrivals] == ["firewaltz"]
    seen = c.get(f"{plan}/attacker/items/{item_id}", headers=g.defender)
    assert seen.status_code == 200 and seen.json()["verified"] is True
    fire = c.get(f"/api/v1/games/{g.id}/state", headers=g.defender).json()["board"]["fire"]
    assert [(f["kind"], f["target"], f["item_id"]) for f in fire] == [("firewaltz", "strong-point", item_id)]

    # Rolled in its step ("4 BARRAGES AND BOMBARDMENTS") against the strong point: super heavy artillery in
    # hard cover, 4 suppresses, 5 kills.
    for _ in range(3):
        advance(c, g)
    r = c.post(
        f"/api/v1/games/{g.id}/resolve/firewaltz",
        headers=g.attacker,
        json={"fields": {"target": "strong-point"}, "dice": [5], "apply": False},
    )
    assert r.status_code == 200, r.text
    resolution = r.json()["resolution"]
    assert resolution["outcome"] == "killed" and resolution["probabilities_exact"] == {
        "killed": "1/3",
        "no-effect": "1/2",
        "suppressed": "1/6",
    }


def test_no_firewaltz_before_the_late_war_or_by_other_attackers(client: TestClient) -> None:
    mid = new_game(client, {"name": "1916", "period": "mid", "attacker_nation": "german"})
    r = client.post(
        f"/api/v1/games/{mid.id}/fireplans/attacker/items",
        headers=mid.attacker,
        json={"arrival_turn": 1, "item": ITEM},
    )
    assert refused_on_kind(r) and "late" in r.json()["errors"][0]["msg"]
    british = late_game(client, attacker="british")
    r = client.post(
        f"/api/v1/games/{british.id}/fireplans/attacker/items",
        headers=british.attacker,
        json={"arrival_turn": 1, "item": ITEM},
    )
    assert refused_on_kind(r) and "german" in r.json()["errors"][0]["msg"]
    # A strong point or a trench line, nothing else.
    bad = client.post(
        f"/api/v1/games/{british.id}/fireplans/attacker/items",
        headers=british.attacker,
        json={"arrival_turn": 1, "item": {**ITEM, "target": "village"}},
    )
    assert bad.status_code == 422 and bad.json()["errors"][0]["loc"][-1] == "target"


def test_rule_set_serves_the_firewaltz_and_the_air_machine_gun_erratum(client: TestClient) -> None:
    described = client.get("/api/v1/rulesets/flanders-fields").json()
    errata = {e["id"]: e for e in described["errata"]}
    mg = errata["air-attack-machine-gun"]
    # AIR SUPPORT: "Target is Artillery or support weapons +2" (aircraft) and "Target is Machine Gun +2"
    # (infantry factors): both readings, each with its source, and the default.
    assert mg["default"] == "both"
    assert [r["id"] for r in mg["readings"]] == ["both", "machine-gun-only"]
    assert all(r["source"].startswith("Flanders Fields rule book: AIR SUPPORT") for r in mg["readings"])
    r = client.post(
        "/api/v1/rulesets/flanders-fields/firewaltz",
        json={"period": "mid", "target": "trench-line", "dice": [3]},
    )
    assert r.status_code == 422 and r.json()["errors"][0]["loc"][-1] == "period"
    data = client.get("/api/v1/rulesets/flanders-fields/firewaltz-rules?period=late")
    assert data.status_code == 200 and data.json()["source"].endswith("HURRICANE BOMBARDMENT (FIREWALTZ)")


def test_the_resolver_refuses_a_british_firewaltz_and_lists_the_strong_point_erratum(
    client: TestClient,
) -> None:
    # "In a late war game when the Germans are attacking": refused as the fire plan refuses it.
    r = client.post(
        "/api/v1/rulesets/flanders-fields/firewaltz",
        json={"period": "late", "target": "trench-line", "attacker_nation": "british", "dice": [3]},
    )
    assert r.status_code == 422, r.text
    detail = r.json()["errors"][0]
    assert detail["loc"][-1] == "attacker_nation" and "german" in detail["msg"] and len(detail["msg"]) <= 120
    errata = {e["id"]: e for e in client.get("/api/v1/rulesets/flanders-fields").json()["errata"]}
    cover = errata["firewaltz-strong-point-cover"]
    assert cover["default"] == "hard" and [x["id"] for x in cover["readings"]] == ["hard", "fortified"]
    fortified = client.post(
        "/api/v1/rulesets/flanders-fields/firewaltz",
        json={
            "period": "late",
            "target": "strong-point",
            "dice": [5],
            "variants": {"firewaltz-strong-point-cover": "fortified"},
        },
    )
    assert (
        fortified.status_code == 200 and fortified.json()["outcome"] == "suppressed"
    )  # no kill when fortified


def test_in_a_game_the_firewaltz_is_refused_to_a_british_attacker(client: TestClient) -> None:
    # The game fills the attacker's nation: a British attacker cannot roll a Firewaltz at the table either.
    def started(attacker: str) -> Game:
        g = late_game(client, attacker=attacker)
        for side, headers in (("attacker", g.attacker), ("defender", g.defender)):
            assert (
                client.post(f"/api/v1/games/{g.id}/fireplans/{side}/lock", headers=headers).status_code == 200
            )
        for _ in range(4):  # started, and on to "4 BARRAGES AND BOMBARDMENTS", where it is rolled
            advance(client, g)
        return g

    british = started("british")
    r = client.post(
        f"/api/v1/games/{british.id}/resolve/firewaltz",
        headers=british.attacker,
        json={"fields": {"target": "trench-line"}, "dice": [3], "apply": False},
    )
    assert r.status_code == 422, r.text
    assert r.json()["errors"][0]["loc"][-1] == "attacker_nation"
    german = started("german")
    ok = client.post(
        f"/api/v1/games/{german.id}/resolve/firewaltz",
        headers=german.attacker,
        json={"fields": {"target": "trench-line"}, "dice": [3], "apply": False},
    )
    assert ok.status_code == 200, ok.text
