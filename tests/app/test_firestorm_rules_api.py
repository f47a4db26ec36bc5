"""The Firestorm Great War rules over HTTP: each resolver answers at /api/v1/rulesets/firestorm-villers-bretonneux/
<id> with exact odds, refuses what the rules do not allow with a 422 naming the field, appears in the lookup UI,
and the rule set's errata list the lost Out of Supply dice with their source."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

RULESET = "firestorm-villers-bretonneux"
API = f"/api/v1/rulesets/{RULESET}"
HX = {"HX-Request": "true"}

ANSWERS: list[tuple[str, dict[str, Any], str]] = [
    # "D-2 attacks C-3 ... All these missions are played as The Big Push"
    (
        "mission",
        {"turn": 1, "battle": 1, "attacker": "german", "from_area": "D-2", "to_area": "C-3"},
        "the-big-push",
    ),
    # "If your trenches are attacked from trenches that started in enemy control you get two HMG nests."
    (
        "trench-hmg-nests",
        {"turn": 2, "attacker": "german", "from_area": "D-2", "to_area": "C-3"},
        "2 HMG nests",
    ),
    # "Fight the last battle in turn 2 using the rules for Dusk."
    ("battle-light", {"turn": 2, "battle": 5}, "dusk"),
    # "At the start of the Defender's third turn, roll a die: On a score of 5+, night has fallen."
    ("dusk", {"turn": 2, "player": "defender", "game_turn": 3, "dice": [5]}, "night falls"),
    # "Group III Steinhardt (1x A7V tank) • You may add up to 5x A7V tanks for 19 points each."
    ("historical-tanks", {"turn": 1, "troop": "group-iii", "extra_tanks": 5}, "allowed"),
    # "So instead of the Unit listed you may add points to your Force."
    ("troop-points", {"force_points": 100, "first_troop": "stoss"}, "points"),
    # "Roll a D6 and consult the Out of Supply table."
    ("out-of-supply", {"force_points": 1250, "dice": [3]}, "strength reduced"),
]


@pytest.mark.parametrize(("resolver", "body", "key"), ANSWERS)
def test_each_resolver_answers_with_exact_odds(
    reading_client: TestClient, resolver: str, body: dict[str, Any], key: str
) -> None:
    r = reading_client.post(f"{API}/{resolver}", json=body)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["outcome_key"] == key
    assert sum(out["probabilities"].values()) == pytest.approx(1)
    assert out["sources"] and all(s.startswith("Firestorm: Villers-Bretonneux: ") for s in out["sources"])


def test_dusk_odds_over_http(reading_client: TestClient) -> None:
    # "at the start of the Attacker's turn four, they roll two dice with night falling on any roll of 5+"
    r = reading_client.post(
        f"{API}/dusk", json={"turn": 4, "player": "attacker", "game_turn": 4, "dice": [4, 4]}
    )
    assert r.status_code == 200, r.text
    assert r.json()["probabilities_exact"] == {"night falls": "5/9", "still light": "4/9"}


@pytest.mark.parametrize(
    ("resolver", "body", "field"),
    [
        # "Group I Skopnik (1x A7V tank) • You may add up to 2x A7V tanks"
        ("historical-tanks", {"turn": 1, "troop": "group-i", "extra_tanks": 3}, "extra_tanks"),
        # "This would mean that in turns 3 and 4 there are no tanks available."
        ("historical-tanks", {"turn": 3, "troop": "group-i"}, "turn"),
        # "Turn 1 is all in daylight."
        ("dusk", {"turn": 1, "player": "defender", "game_turn": 3}, "turn"),
        ("dusk", {"turn": 3, "battle": 1, "player": "defender", "game_turn": 3}, "battle"),
        ("dusk", {"turn": 2, "player": "attacker", "game_turn": 3}, "game_turn"),
        # "The German player is automatically the attacker in all four battles"
        ("mission", {"turn": 1, "attacker": "bef", "from_area": "C-3", "to_area": "D-2"}, "attacker"),
        ("trench-hmg-nests", {"turn": 2, "attacker": "bef", "from_area": "A-1", "to_area": "E-3"}, "to_area"),
        ("battle-light", {"turn": 4, "battle": 4}, "battle"),
        (
            "troop-points",
            {"force_points": 100, "first_troop": "aif", "second_troop": "stoss"},
            "second_troop",
        ),
        ("out-of-supply", {"force_points": 0}, "force_points"),
    ],
)
def test_what_the_rules_do_not_allow_is_422_naming_the_field(
    reading_client: TestClient, resolver: str, body: dict[str, Any], field: str
) -> None:
    r = reading_client.post(f"{API}/{resolver}", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["errors"][0]["loc"] == ["body", field]


def test_errata_list_the_new_readings_with_sources(reading_client: TestClient) -> None:
    errata = {e["id"]: e for e in reading_client.get(API).json()["errata"]}
    oos = errata["out-of-supply-table"]
    assert oos["default"] == "penalty-likely"
    assert {r["id"] for r in oos["readings"]} == {"penalty-likely", "no-effect-likely"}
    assert all("5. Check for Supply: Out of Supply Table" in r["source"] for r in oos["readings"])
    for eid in ("whippet-extras", "out-of-supply-strength-rounding"):
        assert errata[eid]["readings"] and all(r["source"] for r in errata[eid]["readings"])


def test_the_dataset(reading_client: TestClient) -> None:
    data = reading_client.get(f"{API}/great-war").json()
    assert data["light_with_dusk_and_dawn"]["3"] == ["night", "night", "dawn", "daylight", "dusk"]
    assert data["historical_tanks"]["x-coy-price"]["max_extra"] == 5


@pytest.mark.parametrize("resolver", [a[0] for a in ANSWERS])
def test_each_resolver_has_a_lookup_form(reading_client: TestClient, resolver: str) -> None:
    page = reading_client.get(f"/lookup/{RULESET}/{resolver}")
    assert page.status_code == 200
    assert 'id="lookup-form"' in page.text
    index = reading_client.get(f"/lookup?ruleset={RULESET}").text
    assert f"/lookup/{RULESET}/{resolver}" in index
