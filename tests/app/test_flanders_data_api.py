"""Movement, reference data, organisation tables, artillery tables and scenarios over HTTP."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

BASE = "/api/v1/rulesets/flanders-fields"
DATASETS = [
    "weapon-ranges",
    "arcs-of-fire",
    "target-priority",
    "tank-types",
    "block-houses",
    "template-areas",
    "artillery-allowances",
    "formations",
    "organisation-tables",
    "organisation-gb-1917",
    "artillery-tables",
    "scenarios",
]


@pytest.mark.parametrize("name", DATASETS)
def test_datasets_are_served(reading_client: TestClient, name: str) -> None:
    r = reading_client.get(f"{BASE}/{name}")
    assert r.status_code == 200, r.text
    assert r.json()


def test_movement_table_per_period(reading_client: TestClient) -> None:
    r = reading_client.get(f"{BASE}/movement-table", params={"period": "early"})
    assert r.status_code == 200
    # "Road (Troops must be in marching columns) 25cm 35cm 35cm 20cm 40"
    assert r.json()["terrain"]["road"]["cavalry"]["allowance_cm"] == 35
    bad = reading_client.get(f"{BASE}/movement-table", params={"period": "1914"})
    assert bad.status_code == 422
    assert bad.json()["errors"][0]["allowed"] == ["early", "mid", "late"]


def test_organisation_force_counts_over_http(reading_client: TestClient) -> None:
    listing = reading_client.get(f"{BASE}/organisation-tables").json()
    gb = next(t for t in listing if t["id"] == "gb-1917")
    # four battalions in each of three brigades, companies "reduced to three platoons" when Experienced
    assert gb["counts"]["battalion"]["infantry-battalion"] == 12
    assert gb["counts"]["platoon"]["rifle-platoon"] == 156


def test_movement_resolver(reading_client: TestClient) -> None:
    r = reading_client.post(
        f"{BASE}/movement",
        json={"period": "early", "mover": "infantry", "terrain": "cross-country", "veteran": True},
    )
    assert r.status_code == 200, r.text
    body = r.json()
    # "Cross Country 20cm" + "Veteran infantry add 5cm"
    assert body["outcome"]["allowance_cm"] == 25 and body["total"] == 25
    assert body["modifiers"][0]["value"] == 5
    assert body["probabilities_exact"] == {"move": "1/1"}


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({"period": "mid", "mover": "cavalry", "terrain": "road", "veteran": True}, ["body", "veteran"]),
        ({"period": "mid", "mover": "infantry", "terrain": "road", "storm": True}, ["body", "storm"]),
        (
            {"period": "mid", "mover": "cavalry", "terrain": "road", "light_tank": True},
            ["body", "light_tank"],
        ),
        ({"period": "mid", "mover": "horse", "terrain": "road"}, ["body", "mover"]),
        (
            {
                "period": "mid",
                "mover": "infantry",
                "terrain": "road",
                "variants": {"move-close-infantry": "x"},
            },
            ["body", "variants", "move-close-infantry"],
        ),
    ],
)
def test_movement_refusals_are_422_naming_the_field(
    reading_client: TestClient, body: dict[str, object], loc: list[str]
) -> None:
    r = reading_client.post(f"{BASE}/movement", json=body)
    assert r.status_code == 422
    assert r.json()["errors"][0]["loc"] == loc
