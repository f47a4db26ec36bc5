"""A 2mm Earth 1418 game through the API: made from the lobby with its forces added by hand, and from a scenario
file written by hand (imported, then a new game of it); its bound's steps in the book's order."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from rules.registry import get_game_rules
from tests.app.games.conftest import Game, new_game, start_game, units_by_ref

EARTH = "2mm-earth-1418"
# The bound's steps as the rule set gives them (tests/rules/earth2mm/test_earth2mm_bound.py holds them to the book).
BOUND = [s.id for s in get_game_rules(EARTH).steps(None)]


def added(c: TestClient, g: Game, **unit: Any) -> dict[str, Any]:
    r = c.post(f"/api/v1/games/{g.id}/units", headers=g.referee, json=unit)
    assert r.status_code == 201, r.text
    return dict(r.json()["unit"])


def test_a_game_from_the_lobby_gets_its_forces_by_hand_and_plays_the_books_bound(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    g = new_game(c, {"ruleset": EARTH, "name": "Ridge by hand"})
    formation = added(
        c, g, side="attacker", name="1st Bn", level="battalion", kind="formation", quality="line"
    )
    company = added(
        c, g, side="attacker", parent_id=formation["id"], name="A Coy", level="company", kind="line-inf"
    )
    base = added(
        c,
        g,
        side="attacker",
        parent_id=company["id"],
        name="1 Pl",
        level="platoon",
        kind="line-inf",
        x=50,
        y=20,
    )
    # Each level starts with the rule set's state: no command, no plan, no injury.
    assert (formation["high_command"], company["sub_plan"], base["base_injury"]) == ("", "", "")
    assert company["dug_in_bounds"] == 0 and company["digging_in"] is False
    refused = c.post(
        f"/api/v1/games/{g.id}/units",
        headers=g.referee,
        json={"side": "attacker", "name": "X", "level": "brigade", "kind": "formation"},
    )
    assert refused.status_code == 422 and refused.json()["field"] == "level", refused.text

    turn = start_game(c, g)
    assert (turn["turn"], turn["step"]["id"]) == (1, "high-commands")
    assert [s["id"] for s in turn["sequence"]] == BOUND


def test_a_game_from_a_scenario_file_written_by_hand(sqlite_client: TestClient) -> None:
    c = sqlite_client
    company = {
        "id": "gb/bn/a",
        "name": "A Coy",
        "level": "company",
        "kind": "line-inf",
        "children": [
            {"id": f"gb/bn/a/{n}", "name": f"{n} Pl", "level": "platoon", "kind": "line-inf"} for n in (1, 2)
        ],
    }
    doc = {
        "format": "firestep-scenario/1",
        "title": "Ridge at dawn",
        "ruleset": EARTH,
        "period": None,
        "source": "written by hand for this test",
        "table": {"width_cm": 120, "length_cm": 180},
        "sides": {
            "attacker": {
                "nationality": "british",
                "forces": [
                    {
                        "id": "gb/bn",
                        "name": "1st Bn",
                        "level": "battalion",
                        "kind": "formation",
                        "quality": "elite",
                        "children": [company],
                    }
                ],
            },
            "defender": {
                "nationality": "german",
                "forces": [{"id": "de/mg", "name": "MG Coy", "level": "company", "kind": "machineguns"}],
            },
        },
    }
    imported = c.post("/api/v1/scenarios", json=doc)
    assert imported.status_code == 201, imported.text
    g = new_game(c, {"scenario": imported.json()["id"]})
    assert (g.body["game"]["ruleset"], g.body["game"]["period"]) == (EARTH, None)
    units = units_by_ref(c, g)
    assert set(units) == {"gb/bn", "gb/bn/a", "gb/bn/a/1", "gb/bn/a/2", "de/mg"}
    assert units["gb/bn/a"]["parent_id"] == units["gb/bn"]["id"] and units["gb/bn"]["quality"] == "elite"
    assert units["de/mg"]["side"] == "defender" and units["de/mg"]["sub_plan"] == ""
