"""A cap on units per game (issue 24): 40 `POST /forces` made 11,997 units in one game and an 11 MB /units.
Every path that adds units stops at max_units_per_game(), which the rules derive from the organisation tables
(a division a side, the largest game the book describes), with a 422 naming the cap (SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.services import campaign_battles
from rules.core.errors import RulesError
from rules.firestorm.table_battle import table_battle
from rules.flanders_fields.book.organisation import (
    TABLES,
    build_force,
    largest_side_units,
    max_units_per_game,
)
from tests.app.games.conftest import Game, new_game
from tests.rules.firestorm.test_table_battle import turn_one_battles


def test_the_cap_is_above_the_largest_game_the_book_describes() -> None:
    divisions = [build_force(tid) for tid, t in TABLES.items() if t.root.level == "division"]
    largest = max(sum(1 for _ in d.walk()) for d in divisions)
    # Four regiments of four battalions (ORGANISATION: "2-4 (normally 3)") for the normal three of three.
    assert largest_side_units() >= largest * 16 / 9
    assert 2 * largest_side_units() <= max_units_per_game() < 2 * largest_side_units() + 100
    assert max_units_per_game() < 11_997 / 5  # far below what flooded a game


def units(c: TestClient, g: Game) -> list[dict[str, Any]]:
    r = c.get(f"/api/v1/games/{g.id}/units", headers=g.referee)
    assert r.status_code == 200
    return list(r.json())


def assert_cap_refusal(r: Any, field: str) -> None:
    assert r.status_code == 422, r.text
    (detail,) = r.json()["errors"]
    assert detail["loc"][-1] == field and f"at most {max_units_per_game()} units" in detail["msg"], detail


@pytest.mark.long
def test_forces_and_units_stop_at_the_cap(client: TestClient) -> None:
    c, g = client, new_game(client)
    url = f"/api/v1/games/{g.id}/forces"
    force = {"side": "defender", "table_id": "gb-1914"}  # Mons 1914: the BEF's division of the early war
    added = 0
    for _ in range(max_units_per_game()):
        r = c.post(url, headers=g.referee, json=force)
        if r.status_code != 201:
            break
        added += 1
    assert_cap_refusal(r, "forces")
    assert added >= 2 and len(units(c, g)) <= max_units_per_game()
    # A small force (a regiment of 20) fills closer to the cap, then is refused in turn: so fewer single
    # units are posted below (a POST each) to reach it.
    small = {"side": "defender", "table_id": "gb-cavalry-regiment"}
    while (r := c.post(url, headers=g.referee, json=small)).status_code == 201:
        pass
    assert_cap_refusal(r, "forces")
    held = len(units(c, g))
    assert max_units_per_game() - 20 < held <= max_units_per_game()
    # Single units fill the rest, then stop.
    one = {"side": "attacker", "name": "Sappers", "level": "platoon"}
    for _ in range(max_units_per_game() - held):
        assert c.post(f"/api/v1/games/{g.id}/units", headers=g.referee, json=one).status_code == 201
    assert_cap_refusal(c.post(f"/api/v1/games/{g.id}/units", headers=g.referee, json=one), "units")
    assert len(units(c, g)) == max_units_per_game()
    # A campaign's table battle adds the defender's trench HMG nests after its forces: they ask too.
    battle = next(b for b in (table_battle(s, 1) for s in turn_one_battles()) if b.nests)
    engine = c.app.state.engine  # type: ignore[attr-defined]
    with Session(engine) as session, pytest.raises(RulesError) as refused:
        campaign_battles._add_nests(session, g.id, battle)
    assert refused.value.field == "nests" and f"at most {max_units_per_game()} units" in refused.value.message
    assert len(units(c, g)) == max_units_per_game()


def test_game_creation_respects_the_cap(client: TestClient) -> None:
    largest = max(TABLES, key=lambda tid: sum(1 for _ in build_force(tid).walk()))
    per_force = sum(1 for _ in build_force(largest).walk())
    many = max_units_per_game() // per_force + 1
    forces = [{"side": ("attacker", "defender")[i % 2], "table_id": largest} for i in range(many)]
    before = client.get("/api/v1/games").json()
    assert len(forces) <= 6  # within GameCreate's own bound on forces: the cap is what refuses
    r = client.post("/api/v1/games", json={"forces": forces})
    assert r.status_code == 422, r.text
    (detail,) = r.json()["errors"]  # the entry that takes the forces past the cap, counted before building
    assert detail["loc"][:2] == ["body", "forces"] and detail["loc"][2] in range(many), detail
    assert f"at most {max_units_per_game()} units" in detail["msg"], detail
    assert client.get("/api/v1/games").json() == before
    assert client.post("/api/v1/games", json={"forces": forces[:2]}).status_code == 201
