"""The three other Great War systems over HTTP: their resolvers and datasets, 422s naming the field, and a
Firestorm campaign played from set-up to a result through the stateless campaign API with seeded dice."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rules.firestorm.campaign import CampaignState
from tests.rules.firestorm.test_firestorm import pick

CAMPAIGN = "/api/v1/rulesets/firestorm-villers-bretonneux/campaign"


def test_the_three_rule_sets_are_listed(reading_client: TestClient) -> None:
    ids = {r["id"] for r in reading_client.get("/api/v1/rulesets").json()}
    assert {"2mm-earth-1418", "firestorm-villers-bretonneux", "vimy-ridge"} <= ids
    vimy = reading_client.get("/api/v1/rulesets/vimy-ridge").json()
    assert "artillery-track" in {e["id"] for e in vimy["errata"]}


@pytest.mark.parametrize(
    ("path", "body", "key"),
    [
        (
            "/api/v1/rulesets/vimy-ridge/combat",
            {"terrain": "clear", "attack_strength": 9, "defense_strength": 4, "dice": [3]},
            "Ex",
        ),
        ("/api/v1/rulesets/2mm-earth-1418/recovery", {"resilience": 3, "dice": [3]}, "recovered"),
        (
            "/api/v1/rulesets/firestorm-villers-bretonneux/battle",
            {
                "turn": 2,
                "attacker": "bef",
                "from_area": "B-3",
                "to_area": "C-3",
                "attacker_troops": ["hmg"],
                "dice": [6, 1],
            },
            "attacker wins",
        ),
    ],
)
def test_resolvers_answer_with_exact_odds(
    reading_client: TestClient, path: str, body: dict[str, Any], key: str
) -> None:
    r = reading_client.post(path, json=body)
    assert r.status_code == 200, r.text
    assert r.json()["outcome_key"] == key and r.json()["period"] is None
    assert sum(r.json()["probabilities"].values()) == pytest.approx(1)


@pytest.mark.parametrize(
    ("path", "body", "loc"),
    [
        (
            "/api/v1/rulesets/vimy-ridge/bombardment",
            {"bombarding_side": "german", "gas": True, "turn": 1},
            ["body", "gas"],
        ),
        (
            "/api/v1/rulesets/vimy-ridge/combat",
            {"terrain": "swamp", "attack_strength": 1, "defense_strength": 1},
            ["body", "terrain"],
        ),
        ("/api/v1/rulesets/vimy-ridge/turn", {"turn": 2, "period": "early"}, ["body", "period"]),
        (
            "/api/v1/rulesets/2mm-earth-1418/shoot",
            {"shooter": "melee-cav", "bases": 2, "target": "line-inf"},
            ["body", "shooter"],
        ),
        (
            "/api/v1/rulesets/2mm-earth-1418/bombard",
            {"artillery": "field-guns", "bases_firing": 2, "targets": [{"shots": 3, "resilience": 4}]},
            ["body", "targets", 0, "shots"],
        ),
        (
            "/api/v1/rulesets/firestorm-villers-bretonneux/battle",
            {
                "turn": 1,
                "attacker": "german",
                "from_area": "E-1",
                "to_area": "A-1",
                "attacker_troops": ["stoss"],
            },
            ["body", "to_area"],
        ),
    ],
)
def test_bad_input_is_422_naming_the_field(
    reading_client: TestClient, path: str, body: dict[str, Any], loc: list[Any]
) -> None:
    r = reading_client.post(path, json=body)
    assert r.status_code == 422, r.text
    assert r.json()["errors"][0]["loc"][: len(loc)] == loc


def test_datasets(reading_client: TestClient) -> None:
    assert len(reading_client.get("/api/v1/rulesets/firestorm-villers-bretonneux/map").json()["areas"]) == 20
    assert reading_client.get("/api/v1/rulesets/2mm-earth-1418/cover").json()["open"]["moving"] == -3
    assert reading_client.get("/api/v1/rulesets/vimy-ridge/turn-track").json()["turns"][1][
        "bombardment_markers"
    ] == {"allied": 8, "german": 5}


def test_campaign_played_to_a_result_over_http(reading_client: TestClient) -> None:
    rng = random.Random(1918)
    r = reading_client.post(f"{CAMPAIGN}/new", json={})
    assert r.status_code == 200
    body = r.json()
    steps = 0
    while body["state"]["phase"] != "finished":
        state = CampaignState.model_validate(body["state"])
        act, dice = pick(state, rng)
        r = reading_client.post(
            f"{CAMPAIGN}/apply", json={"state": body["state"], "action": act, "dice": dice}
        )
        assert r.status_code == 200, r.text
        body = r.json()
        steps += 1
        assert steps < 400
    result = body["result"]
    assert result["final"] and result["outcome"]
    assert body["legal_actions"] == []
    again = reading_client.post(f"{CAMPAIGN}/legal-actions", json={"state": body["state"]}).json()
    assert again["result"] == result


def test_campaign_server_rolls_and_refuses_bad_moves(reading_client: TestClient) -> None:
    state = reading_client.post(f"{CAMPAIGN}/new", json={}).json()["state"]
    r = reading_client.post(f"{CAMPAIGN}/apply", json={"state": state, "action": {"type": "initiative"}})
    assert r.status_code == 200 and r.json()["rolled_by_server"] and r.json()["dice"] == []
    state = r.json()["state"]
    bad = reading_client.post(
        f"{CAMPAIGN}/apply",
        json={
            "state": state,
            "action": {"type": "attack", "from_area": "D-2", "to_area": "C-3", "troops": ["257-rir"]},
        },
    )
    assert bad.status_code == 422 and bad.json()["errors"][0]["loc"] == ["body", "action", "troops"]
    worse = reading_client.post(
        f"{CAMPAIGN}/apply", json={"state": {**state, "turn": 9}, "action": {"type": "pass"}}
    )
    assert worse.status_code == 422 and "turn" in worse.json()["errors"][0]["loc"]
    unknown = reading_client.post(f"{CAMPAIGN}/new", json={"variants": {"gas": "nope"}})
    assert unknown.status_code == 422 and unknown.json()["errors"][0]["loc"] == ["body", "variants", "gas"]
