"""A turn 1 campaign battle opened through the API fields what Firestorm gives (issue 23), on SQLite and
PostgreSQL: the BEF Firestorm Troop halved by the gas, the German 'veteran infantry' as Veteran battalions and
the defender's trench HMG nest as a stand in its front trench; the rule set lists the readings as errata and a
request picks the other reading with `variants`."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from shapely.geometry import Point

from rules.firestorm.table_battle import FRONT_TRENCH
from rules.flanders_fields.book.organisation import build_template
from rules.flanders_fields.play.table_rules import WIRE_BELT_CM
from rules.table.terrain import terrain_from_geojson
from tests.app.campaigns.conftest import Seats, bearer, new_campaign

API = "/api/v1/rulesets/firestorm-villers-bretonneux"
# "D-2 attacks C-3", the first of turn 1's fixed attacks: 48 RIR and 207 RIR ("veteran infantry") against
# 25 Bde (Line Division infantry) in its own trench, under the gas.
TO_RESOLVE: list[tuple[str, dict[str, Any]]] = [
    ("german", {"action": {"type": "initiative"}, "dice": []}),
    (
        "german",
        {"action": {"type": "attack", "from_area": "D-2", "to_area": "C-3", "troops": ["48-rir", "207-rir"]}},
    ),
    ("bef", {"action": {"type": "defend", "troops": ["25-bde"]}}),
]


def open_turn_one_battle(client: TestClient, s: Seats) -> tuple[int, dict[str, str]]:
    for version, (side, body) in enumerate(TO_RESOLVE, start=1):
        r = client.post(
            f"/api/v1/campaigns/{s.id}/actions", headers=s.of(side), json={**body, "version": version}
        )
        assert r.status_code == 200, r.text
    r = client.post(f"/api/v1/campaigns/{s.id}/table-battles", headers=s.organiser, json={"layout_seed": 5})
    assert r.status_code == 201, r.text
    return r.json()["table_battle"]["game_id"], bearer(r.json()["referee_token"])


def test_a_turn_one_battle_fields_the_gassed_bef_the_veteran_germans_and_the_nest(
    client: TestClient, seats: Seats
) -> None:
    game_id, referee = open_turn_one_battle(client, seats)
    units = client.get(f"/api/v1/games/{game_id}/units", headers=referee).json()
    parents = {u["parent_id"] for u in units}
    stands = [u for u in units if u["id"] not in parents]
    defender = [u for u in stands if u["side"] == "defender"]

    # 25 Bde, gassed: its HQ and 2 of its 4 Infantry Companies (3 platoons each); the full battalion is 13 stands.
    full = len(build_template("gb-1917", "battalion", id_prefix="f").stands())
    companies = [u for u in units if u["side"] == "defender" and u["kind"] == "rifle-company"]
    platoons = [u for u in defender if u["kind"] == "rifle-platoon"]
    assert full == 13 and len(companies) == 2 and len(platoons) == 6
    assert len([u for u in defender if u["kind"] == "battalion-command"]) == 1

    # "48 RIR (veteran infantry), 207 RIR (veteran infantry ...)": Veteran battalions, Veteran platoons.
    battalions = {u["name"]: u for u in units if u["side"] == "attacker" and u["level"] == "battalion"}
    assert {battalions[n]["quality"] for n in ("48 RIR (Jägerkompanie)", "207 RIR (Jägerkompanie)")} == {
        "veteran"
    }
    german_platoons = [u for u in stands if u["side"] == "attacker" and u["kind"] == "rifle-platoon"]
    assert german_platoons and {u["quality"] for u in german_platoons} == {"veteran"}

    # The trench HMG nest ("one HMG nest instead of two" under the gas): a Vickers in 25 Bde's front trench.
    (nest,) = [u for u in defender if u["name"].startswith("Trench HMG nest")]
    assert (nest["kind"], nest["base"], nest["quality"], nest["off_table"]) == (
        "mmg",
        "heavy-mg",
        "experienced",
        False,
    )
    assert len(defender) == 1 + 6 + 1
    game = client.get(f"/api/v1/games/{game_id}/state", headers=referee).json()
    assert (
        0 < nest["x"] < game["table_width_cm"]
        and game["table_length_cm"] / 2 < nest["y"] < game["table_length_cm"]
    )
    features = terrain_from_geojson(game["terrain"], wire_belt_cm=WIRE_BELT_CM)
    (front,) = [f for f in features if f.kind == "trench" and f.properties.get("name") == FRONT_TRENCH]
    assert front.geometry.contains(Point(nest["x"], nest["y"]))
    assert "Trench HMG nest 1 (Vickers MMG), in its front trench" in game["notes"]
    assert "each BEF Firestorm Troop fields half of its companies" in game["notes"]


def test_the_rule_set_lists_the_readings_and_a_request_picks_the_other(client: TestClient) -> None:
    r = client.get(API)
    assert r.status_code == 200, r.text
    errata = {e["id"]: e for e in r.json()["errata"]}
    for eid, default, other in (
        ("hmg-nests-enemy-trench", "started-in-enemy-control", "enemy-held-trench"),
        ("gassed-troop-points", "halved", "full"),
        ("gassed-bef-force", "half-the-companies", "half-each-company"),
        ("firestorm-grade", "trained-is-experienced", "trained-is-raw"),
    ):
        e = errata[eid]
        assert e["default"] == default and {x["id"] for x in e["readings"]} == {default, other}
        assert all(x["source"] and x["text"] for x in e["readings"])
    # "2x HMG nests if attacked from an enemy trench": C-3, a BEF trench the Germans hold, attacking C-4.
    body = {"turn": 2, "attacker": "german", "from_area": "C-3", "to_area": "C-4"}
    assert client.post(f"{API}/trench-hmg-nests", json=body).json()["outcome"]["hmg_nests"] == 1
    picked = {**body, "variants": {"hmg-nests-enemy-trench": "enemy-held-trench"}}
    assert client.post(f"{API}/trench-hmg-nests", json=picked).json()["outcome"]["hmg_nests"] == 2
    # "10 POINTS 23rd, 24th, 25th ...": halved on turn 1, or not.
    body = {"force_points": 100, "first_troop": "line", "turn": 1}
    assert client.post(f"{API}/troop-points", json=body).json()["outcome"]["added_points"] == 5
    picked = {**body, "variants": {"gassed-troop-points": "full"}}
    assert client.post(f"{API}/troop-points", json=picked).json()["outcome"]["added_points"] == 10
    refused = client.post(f"{API}/troop-points", json={**body, "turn": 5})
    assert refused.status_code == 422 and "turn" in refused.text


def test_a_campaign_picks_the_other_readings_for_its_table_battles(client: TestClient) -> None:
    s = new_campaign(
        client, {"name": "Other readings", "variants": {"gassed-bef-force": "half-each-company"}}
    )
    game_id, referee = open_turn_one_battle(client, s)
    units = client.get(f"/api/v1/games/{game_id}/units", headers=referee).json()
    by_id = {u["id"]: u for u in units}
    companies = [u for u in units if u["side"] == "defender" and u["kind"] == "rifle-company"]
    platoons = [u for u in units if u["side"] == "defender" and u["kind"] == "rifle-platoon"]
    # Every company keeps 2 of its 3 platoons (half, rounded up) instead of 2 whole companies of 3.
    assert len(companies) == 4 and len(platoons) == 8
    assert {by_id[p["parent_id"]]["kind"] for p in platoons} == {"rifle-company"}
    notes = client.get(f"/api/v1/games/{game_id}/state", headers=referee).json()["notes"]
    assert "each BEF Firestorm Troop fields half of each company's platoons" in notes
