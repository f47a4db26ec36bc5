"""A scenario game is built with the readings the game was created with (SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.app.games.conftest import new_game, units_by_ref


def _attacker_infantry_qualities(units: dict[str, dict[str, Any]]) -> set[str]:
    return {
        u["quality"]
        for u in units.values()
        if u["side"] == "attacker" and u["kind"] in {"rifle-platoon", "infantry-battalion"}
    }


def test_mons_german_quality_reading_reaches_the_stored_forces(client: TestClient) -> None:
    veteran = new_game(client, {"scenario": "mons-1914", "variants": {"mons-german-quality": "veteran"}})
    assert veteran.body["game"]["variants"] == {"mons-german-quality": "veteran"}
    assert _attacker_infantry_qualities(units_by_ref(client, veteran)) == {"veteran"}
    # The default reading still rates them Experienced.
    default = new_game(client, {"scenario": "mons-1914"})
    assert _attacker_infantry_qualities(units_by_ref(client, default)) == {"experienced"}


def test_mons_howitzer_reading_reaches_the_stored_forces(client: TestClient) -> None:
    def howitzer_sources(payload: dict[str, Any]) -> list[str]:
        units = units_by_ref(client, new_game(client, payload))
        return [
            u["source"] for u in units.values() if u["side"] == "defender" and u["kind"] == "howitzer-battery"
        ]

    # The British howitzer battery cites the line of the reading chosen for it.
    specimen = {"scenario": "mons-1914", "variants": {"mons-howitzer-calibre": "specimen-game"}}
    (chosen,) = howitzer_sources(specimen)
    assert "SPECIMEN GAMES" in chosen
    (default,) = howitzer_sources({"scenario": "mons-1914"})
    assert "TABLES OF ORGANISATION" in default


def test_unknown_reading_for_a_scenario_is_a_422_naming_the_erratum(client: TestClient) -> None:
    r = client.post(
        "/api/v1/games", json={"scenario": "mons-1914", "variants": {"mons-german-quality": "elite"}}
    )
    assert r.status_code == 422, r.text
    assert "mons-german-quality" in r.text and "veteran" in r.text
