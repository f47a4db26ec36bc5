"""HTTP: the artillery, barrage, gas, air, heroic-action, visibility, casualty and random-event resolvers
and their datasets are served; bad input is a 422 naming the field."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

BASE = "/api/v1/rulesets/flanders-fields"

GOOD: dict[str, tuple[dict[str, Any], Any]] = {
    # resolver: (body, expected outcome)
    "deep-suppression": ({"period": "late", "dice": [6]}, {"penalty": 1, "battery_destroyed": True}),
    "artillery-action": ({"period": "mid", "line_of_sight": True, "dice": [5]}, {"actions": 2}),
    "rolling-barrage": ({"period": "late", "cover": "open", "dice": [4]}, "killed"),
    "barrage-danger": ({"period": "late", "distance_cm": 5, "dice": [5, 6]}, "killed"),
    "barrage-duration": ({"period": "mid", "dice": [3]}, {"turns": 6}),
    "sos": ({"period": "mid", "deep_suppression": 1, "dice": [3]}, "fire-arrives"),
    "deep-shelter": ({"period": "mid", "quality": "raw", "dice": [4]}, "still-sheltering"),
    "deviation": (
        {"period": "mid", "method": "deviation-die", "direction": 3, "dice": [1, 2]},
        {"deviates": True, "clock": 3, "distance_cm": 3},
    ),
    "gas-wind": (
        {"period": "mid", "wind": {"direction_deg": 0, "speed_cm": 12}, "dice": [3, 2, 1, 1]},
        {"direction_deg": 0.0, "speed_cm": 14, "dispersed": False},
    ),
    "air-attack": ({"period": "late", "target": "infantry", "cover": "open", "dice": [3, 6]}, "draw"),
    "heroic-action": ({"period": "early", "dice": [6]}, "success"),
    "visibility": (
        {"period": "late", "viewer": "vehicle", "target": "cover", "dice": []},
        {"distance_cm": 10},
    ),
    "casualties": (
        {"period": "late", "bases_killed": 2, "dice": []},
        {"men": 30, "killed": 10, "lightly_wounded": 10, "crippled": 5, "badly_wounded": 5},
    ),
}

BAD: dict[str, tuple[dict[str, Any], str]] = {
    # resolver: (body, field the 422 must name)
    "deep-suppression": ({"period": "late", "dice": [7]}, "dice"),
    "artillery-action": ({"period": "mid", "deep_suppression": 3}, "deep_suppression"),
    "rolling-barrage": ({"period": "late", "cover": "bunker"}, "cover"),
    "barrage-danger": ({"period": "late", "distance_cm": 7}, "distance_cm"),
    "barrage-duration": ({"period": "1916"}, "period"),
    "sos": ({"period": "mid", "deep_suppression": -1}, "deep_suppression"),
    "deep-shelter": ({"period": "mid", "quality": "elite"}, "quality"),
    "deviation": ({"period": "mid", "method": "deviation-die"}, "direction"),
    "gas-wind": ({"period": "mid"}, "wind"),
    "air-attack": ({"period": "mid", "step": "mission"}, "period"),
    "heroic-action": ({"period": "early", "bonus": 1}, "bonus"),
    "visibility": ({"period": "late", "viewer": "balloon", "target": "open"}, "viewer"),
    "random-event": ({"period": "late", "deck": ["AH", "AH"]}, "deck"),
    "casualties": ({"period": "late", "bases_killed": -1}, "bases_killed"),
}


def named(detail: list[dict[str, Any]], field: str) -> bool:
    return any(field in [str(p) for p in d["loc"]] or field in ".".join(map(str, d["loc"])) for d in detail)


@pytest.mark.parametrize("resolver_id", sorted(GOOD))
def test_resolver_answers(reading_client: TestClient, resolver_id: str) -> None:
    body, expected = GOOD[resolver_id]
    r = reading_client.post(f"{BASE}/{resolver_id}", json=body)
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["outcome"] == expected
    assert answer["rolled_by_server"] is False
    assert answer["sources"]
    assert answer["outcome_key"] in answer["probabilities_exact"]


def test_random_event_round_trip(reading_client: TestClient) -> None:
    r = reading_client.post(f"{BASE}/random-event", json={"period": "mid", "draw": 2})
    assert r.status_code == 200, r.text
    out = r.json()["outcome"]
    assert len(out["deck"]) == 50 and len(out["drawn"]) == 2
    again = reading_client.post(
        f"{BASE}/random-event",
        json={
            "period": "mid",
            "deck": out["deck"],
            "hand": out["hand"][:3],
            "opponent_hand": out["opponent_hand"],
        },
    )
    assert again.status_code == 200, again.text
    assert len(again.json()["outcome"]["deck"]) == 49


@pytest.mark.parametrize("resolver_id", sorted(BAD))
def test_bad_input_is_422_naming_the_field(reading_client: TestClient, resolver_id: str) -> None:
    body, field = BAD[resolver_id]
    r = reading_client.post(f"{BASE}/{resolver_id}", json=body)
    assert r.status_code == 422, r.text
    assert named(r.json()["errors"], field), r.json()


def test_air_attack_outside_late_names_allowed_period(reading_client: TestClient) -> None:
    r = reading_client.post(f"{BASE}/air-attack", json={"period": "early", "dice": [1, 1]})
    assert r.status_code == 422
    detail = r.json()["errors"][0]
    assert detail["loc"][-1] == "period" and detail["allowed"] == ["late"]


@pytest.mark.parametrize(
    ("dataset", "query"),
    [
        ("artillery-action-table", "?period=mid"),
        ("rolling-barrage-table", ""),
        ("gas-movement-table", ""),
        ("random-events", ""),
        ("visibility-distances", ""),
        ("deviation", ""),
    ],
)
def test_datasets_served(reading_client: TestClient, dataset: str, query: str) -> None:
    r = reading_client.get(f"{BASE}/{dataset}{query}")
    assert r.status_code == 200, r.text
    assert r.json()["source"].startswith("Flanders Fields")


def test_errata_listed(reading_client: TestClient) -> None:
    ids = {e["id"] for e in reading_client.get(BASE).json()["errata"]}
    assert {"artillery-action-mid", "barrage-duration", "air-mission-order", "gas-speed-below-zero"} <= ids
