"""A battery's plan in a 2mm Earth 1418 game is made "Anon" (PLANNING (1)-(2): "All normal Artillery plans
shooting (Anon)"; the other sub-units' are "(Mark)"ed), through the API: the other side reads neither its plan
nor its planned target, from its unit, the record or the board, until it fires; its own side and the referee
read both. (The map's live frames carry units as /units answers them: tests/app/test_stream_frames.py.)"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from tests.app.games.conftest import Game, advance_to, new_game, start_game, units_by_ref
from tests.app.hostile.test_secrets import token_of


def put(c: TestClient, g: Game, who: dict[str, str], unit: dict[str, Any], **values: Any) -> None:
    version = c.get(f"/api/v1/games/{g.id}/units/{unit['id']}", headers=who).json()["version"]
    r = c.put(f"/api/v1/games/{g.id}/units/{unit['id']}", headers=who, json={"version": version, **values})
    assert r.status_code == 200, r.text


def plan_of(c: TestClient, g: Game, who: dict[str, str], unit: dict[str, Any]) -> tuple[Any, Any]:
    read = c.get(f"/api/v1/games/{g.id}/units/{unit['id']}", headers=who).json()
    listed = next(
        u for u in c.get(f"/api/v1/games/{g.id}/units", headers=who).json() if u["id"] == unit["id"]
    )
    assert (listed["sub_plan"], listed["plan_target"]) == (read["sub_plan"], read["plan_target"])
    return read["sub_plan"], read["plan_target"]


def recorded(c: TestClient, g: Game, who: dict[str, str], unit: dict[str, Any]) -> list[Any]:
    """The plan's changes to the battery as `who` reads them in the game's record."""
    return [
        ch["after"]
        for e in c.get(f"/api/v1/games/{g.id}/events", headers=who).json()
        for ch in e["payload"].get("changes", ())
        if ch.get("unit") == unit["id"] and ch.get("field") in ("sub_plan", "plan_target")
    ]


def board(c: TestClient, g: Game, who: dict[str, str]) -> str:
    r = c.get(f"/games/{g.id}/referee", headers={"Cookie": f"{COOKIE_NAME}={token_of(who)}"})
    assert r.status_code == 200, r.text
    return r.text


def test_a_batterys_plan_is_hidden_from_the_other_side_until_it_fires(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g = new_game(c, {"scenario": "earth2mm-demo-ferme"})
    start_game(c, g)
    units = units_by_ref(c, g)
    battery, target, company = units["gb/ra/battery"], units["de/i-bn/1-kp"], units["gb/2-bn/b-coy"]
    put(c, g, g.attacker, units["gb/ra"], high_command="hold")
    put(c, g, g.attacker, units["gb/2-bn"], high_command="advance")
    advance_to(c, g, "plan-artillery")
    put(c, g, g.attacker, battery, sub_plan="stay put", plan_target=target["id"])
    advance_to(c, g, "plan-reserve")
    put(c, g, g.attacker, company, sub_plan="move")

    # Its own side and the referee read the plan; the other side reads none, its battery's row on the board
    # says "anon", and the record keeps the change in the attacker's part.
    for who in (g.attacker, g.referee):
        assert plan_of(c, g, who, battery) == ("stay put", target["id"])
        assert recorded(c, g, who, battery) == ["stay put", target["id"]]
    assert plan_of(c, g, g.defender, battery) == ("", None)
    assert recorded(c, g, g.defender, battery) == []
    seen = board(c, g, g.defender)
    assert "plan: anon" in seen and "plan: stay put" not in seen
    # A company's plan is marked on the table: both sides read it.
    assert plan_of(c, g, g.defender, company) == ("move", None)
    assert "plan: move" in seen

    # It fires at its planned target in executing step (2): the shot lands, and the plan is on the table.
    advance_to(c, g, "execute-2")
    shot = c.post(
        f"/api/v1/games/{g.id}/resolve/shoot",
        headers=g.attacker,
        json={
            "unit_id": units["gb/ra/battery/1"]["id"],
            "target_id": units["de/i-bn/1-kp/1"]["id"],
            "dice": [1, 1],
        },
    )
    assert shot.status_code == 200, shot.text
    assert plan_of(c, g, g.defender, battery) == ("stay put", target["id"])
    assert "plan: stay put" in board(c, g, g.defender)
