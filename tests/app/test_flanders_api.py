"""The Flanders Fields engine over HTTP: the issue's contract, datasets, and every invalid case answering a
422 that names the field (and the allowed values where there is a list)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from rules.registry import get_ruleset

BASE = "/api/v1/rulesets/flanders-fields"
RESOLVERS = ("order-roll", "shooting", "morale", "assault", "wire-crossing", "suppression")
RESPONSE_KEYS = {
    "dice",
    "rolled_by_server",
    "modifiers",
    "total",
    "outcome",
    "probabilities",
    "sources",
    "variants",
}


def test_rulesets_list_flanders_fields_with_its_periods(reading_client: TestClient) -> None:
    body = reading_client.get("/api/v1/rulesets").json()
    ff = next(rs for rs in body if rs["id"] == "flanders-fields")
    assert [p["id"] for p in ff["periods"]] == ["early", "mid", "late"]
    assert set(RESOLVERS) <= {r["id"] for r in ff["resolvers"]}
    described = reading_client.get(BASE).json()
    assert {"raw-order-modifier", "staff-support-bonus", "beaten-zone-penalty"} <= {
        e["id"] for e in described["errata"]
    }


@pytest.mark.parametrize("resolver", RESOLVERS)
def test_every_example_answers_the_contract(reading_client: TestClient, resolver: str) -> None:
    examples = get_ruleset("flanders-fields").resolvers[resolver].examples
    assert examples
    for example in examples:
        r = reading_client.post(f"{BASE}/{resolver}", json=example)
        assert r.status_code == 200, r.text
        body = r.json()
        assert set(body) >= RESPONSE_KEYS
        assert body["rolled_by_server"] is ("dice" not in example and bool(body["dice"]))
        assert sum(body["probabilities"].values()) == pytest.approx(1)
        assert body["outcome_key"] in body["probabilities"]
        assert body["sources"] and all(isinstance(m["value"], int) for m in body["modifiers"])


def test_shooting_answer_has_thresholds_and_notes(reading_client: TestClient) -> None:
    body = reading_client.post(
        f"{BASE}/shooting",
        json={"period": "late", "firer": "infantry", "cover": "hard", "range_cm": 20, "dice": [6]},
    ).json()
    # Late "Infantry & LMG (Max 45) ... Hard Cover 7 Ass"
    assert body["thresholds"] == {"suppress": 7, "kill": None} and body["outcome"] == "no-effect"
    assert any("assault only" in n for n in body["notes"])
    assert body["probabilities"] == {"no-effect": 1.0}


def test_order_roll_outcome_is_actions_and_modifiers_cite(reading_client: TestClient) -> None:
    body = reading_client.post(
        f"{BASE}/order-roll",
        json={"period": "mid", "unit": "rifle-company", "quality": "veteran", "dice": [4]},
    ).json()
    assert body["outcome"] == {"actions": 2} and body["total"] == 5
    assert body["modifiers"] == [
        {
            "label": "Veteran or Storm troops",
            "value": 1,
            "source": "Flanders Fields playsheet, Western Front mid 1915 to mid 1917: "
            "ORDER SEQUENCE NOTES, Modifiers to Order Rolls",
        }
    ]
    assert body["probabilities_exact"] == {
        "actions-0": "1/6",
        "actions-1": "1/3",
        "actions-2": "1/3",
        "actions-3": "1/6",
    }


def test_variant_is_echoed_and_marked(reading_client: TestClient) -> None:
    body = reading_client.post(
        f"{BASE}/order-roll",
        json={
            "period": "early",
            "unit": "rifle-company",
            "staff_support": True,
            "dice": [4],
            "variants": {"staff-support-bonus": "main-text"},
        },
    ).json()
    assert body["total"] == 6 and body["variants"] == {"staff-support-bonus": "main-text"}
    assert body["modifiers"][0]["source"].endswith("[variant]")


@pytest.mark.parametrize(
    ("name", "query"),
    [
        ("order-tables", "?period=early"),
        ("firing-table", "?period=mid"),
        ("morale-table", "?period=late"),
        ("assault-factors", ""),
        ("armour-table", ""),
        ("wire-rules", ""),
        ("special-rules", ""),
    ],
)
def test_datasets_are_served_with_a_source(reading_client: TestClient, name: str, query: str) -> None:
    r = reading_client.get(f"{BASE}/{name}{query}")
    assert r.status_code == 200 and r.json()["source"].startswith("Flanders Fields")


def test_per_period_dataset_needs_a_known_period(reading_client: TestClient) -> None:
    r = reading_client.get(f"{BASE}/firing-table?period=1918")
    assert r.status_code == 422 and r.json()["errors"][0]["allowed"] == ["early", "mid", "late"]


# (resolver, body, loc, allowed values the answer must name)
INVALID: list[tuple[str, dict[str, Any], list[Any], list[Any]]] = [
    # unknown ids
    ("order-roll", {"period": "mid", "unit": "catapult"}, ["body", "unit"], ["rifle-company", "air-support"]),
    ("order-roll", {"period": "1918", "unit": "tank"}, ["body", "period"], ["early", "mid", "late"]),
    (
        "shooting",
        {"period": "mid", "firer": "archer", "range_cm": 10},
        ["body", "firer"],
        ["mg", "flamethrower"],
    ),
    (
        "assault",
        {"period": "mid", "attacker": {"kind": "knight"}, "defender": {"kind": "infantry"}},
        ["body", "attacker", "kind"],
        ["infantry", "cavalry"],
    ),
    (
        "morale",
        {"period": "mid", "starting_platoons": 12, "lost_platoons": 6, "special_rule": "berserk"},
        ["body", "special_rule"],
        ["pals", "mutiny"],
    ),
    (
        "order-roll",
        {"period": "mid", "unit": "tank", "variants": {"no-such-erratum": "x"}},
        ["body", "variants"],
        ["raw-order-modifier"],
    ),
    (
        "order-roll",
        {"period": "mid", "unit": "tank", "variants": {"staff-support-bonus": "x"}},
        ["body", "variants", "staff-support-bonus"],
        ["playsheet", "main-text"],
    ),
    (
        "suppression",
        {"period": "mid", "fire": "catapult", "markers": 1},
        ["body", "fire"],
        ["mg", "artillery"],
    ),
    # values out of range
    ("order-roll", {"period": "mid", "unit": "tank", "dice": [7]}, ["body", "dice", 0], [1, 6]),
    ("order-roll", {"period": "mid", "unit": "tank", "dice": [3, 4]}, ["body", "dice"], []),
    (
        "order-roll",
        {"period": "mid", "unit": "tank", "command_suppression": -1},
        ["body", "command_suppression"],
        [],
    ),
    (
        "order-roll",
        {"period": "mid", "unit": "regimental-artillery", "deep_suppression": 3},
        ["body", "deep_suppression"],
        [],
    ),
    ("shooting", {"period": "mid", "firer": "mg", "range_cm": -1}, ["body", "range_cm"], []),
    (
        "shooting",
        {"period": "mid", "firer": "mg", "range_cm": 10, "beaten_zone_index": 4},
        ["body", "beaten_zone_index"],
        [],
    ),
    ("morale", {"period": "mid", "starting_platoons": 4, "lost_platoons": 5}, ["body", "lost_platoons"], []),
    ("wire-crossing", {"period": "mid", "platoons": 0}, ["body", "platoons"], []),
    ("suppression", {"period": "mid", "fire": "mg", "markers": -1}, ["body", "markers"], []),
    # units and columns the period does not have
    ("order-roll", {"period": "early", "unit": "tank"}, ["body", "unit"], ["rifle-company"]),
    ("order-roll", {"period": "early", "unit": "battalion-mortar"}, ["body", "unit"], ["rifle-company"]),
    ("order-roll", {"period": "mid", "unit": "air-support"}, ["body", "unit"], ["blockhouse"]),
    ("order-roll", {"period": "early", "unit": "air-support"}, ["body", "unit"], ["regimental-mg"]),
    ("shooting", {"period": "early", "firer": "heavy-tank", "range_cm": 10}, ["body", "firer"], ["mg"]),
    (
        "shooting",
        {"period": "early", "firer": "mg", "cover": "fortified", "range_cm": 10},
        ["body", "cover"],
        ["open", "soft", "medium", "hard"],
    ),
    (
        "shooting",
        {"period": "early", "firer": "mg", "target": "armour", "range_cm": 10},
        ["body", "target"],
        ["troops"],
    ),
    (
        "assault",
        {"period": "early", "attacker": {"kind": "heavy-tank"}, "defender": {"kind": "infantry"}},
        ["body", "attacker", "kind"],
        ["infantry"],
    ),
    # cavalry may not assault tanks or troops in medium cover or better
    (
        "assault",
        {"period": "mid", "attacker": {"kind": "cavalry"}, "defender": {"kind": "heavy-tank"}},
        ["body", "defender", "kind"],
        ["infantry"],
    ),
    (
        "assault",
        {
            "period": "mid",
            "attacker": {"kind": "cavalry"},
            "defender": {"kind": "infantry"},
            "defender_cover": "medium",
        },
        ["body", "defender_cover"],
        ["open", "soft"],
    ),
    # special rules outside their period or resolver
    (
        "shooting",
        {"period": "mid", "firer": "infantry", "range_cm": 50, "special_rule": "long-range-marksmanship"},
        ["body", "special_rule"],
        [],
    ),
    (
        "morale",
        {"period": "late", "starting_platoons": 12, "lost_platoons": 6, "special_rule": "mad-minute"},
        ["body", "special_rule"],
        ["stubborn-resistance"],
    ),
]


@pytest.mark.parametrize(("resolver", "body", "loc", "allowed"), INVALID)
def test_invalid_requests_answer_422_naming_the_field(
    reading_client: TestClient, resolver: str, body: dict[str, Any], loc: list[Any], allowed: list[Any]
) -> None:
    r = reading_client.post(f"{BASE}/{resolver}", json=body)
    assert r.status_code == 422, r.text
    errors = r.json()["errors"]
    hit = [e for e in errors if e["loc"] == loc]
    assert hit, errors
    text = " ".join([hit[0]["msg"], *(str(a) for a in hit[0].get("allowed", []))])
    for value in allowed:
        assert str(value) in text, (value, hit[0])
