"""A unit added under another game's formation is refused naming its field in plain words (the hostile pass: its
reason as a player reads it was "Game 2 has no this unit.", the id put into words)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.app.games.conftest import new_game


def test_a_parent_of_another_game_is_refused_naming_the_parent(sqlite_client: TestClient) -> None:
    c = sqlite_client
    first, second = new_game(c), new_game(c)
    units = c.get(f"/api/v1/games/{first.id}/units", headers=first.referee).json()
    formation = next(u["id"] for u in units if u["side"] == "attacker" and u["level"] == "company")
    unit = {
        "side": "attacker",
        "name": "1 Platoon",
        "level": "platoon",
        "kind": "infantry",
        "parent_id": formation,
    }
    r = c.post(f"/api/v1/games/{second.id}/units", headers=second.referee, json=unit)
    assert r.status_code == 422, r.text
    out = r.json()
    assert out["field"] == "parent_id", out
    assert out["detail"] == "Pick the parent among this game's units.", out
    assert out["said_why"] == f"Game {second.id} has no unit with id {formation}.", out
