"""The CPU of a stand's card on the largest Flanders Fields game an import accepts (bench/largest_tables.py: the
game's cap of units, a battalion a side): its head, acts, target list, the API's acts and targets, a
formation of hundreds of stands moved as one, and the card read again once all of them were written (the worker's
kept units brought up to date from every row), each at most 1 s of the process's CPU (829b0d36's hostile pass)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from rules.flanders_fields.book.organisation import max_units_per_game
from tests.app.games.conftest import Game, bearer, start_game

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
import largest_tables

BUDGET = 1.0  # s of CPU a request


def _largest(c: TestClient) -> Game:
    document = largest_tables.flanders_document(max_units_per_game())
    r = c.post("/api/v1/scenarios", json=document)
    assert r.status_code == 201, r.text[:300]
    made = c.post("/api/v1/games", json={"scenario": r.json()["id"]}).json()
    tokens = {}
    for side in ("attacker", "defender"):
        tokens[side] = bearer(c.post("/api/v1/join", json={"code": made["join_codes"][side]}).json()["token"])
        c.cookies.clear()
    return Game(
        made["game"]["id"],
        bearer(made["referee_token"]),
        tokens["attacker"],
        tokens["defender"],
        made["join_codes"],
        made,
    )


def _cpu(c: TestClient, method: str, path: str, who: dict[str, str], page: bool, **kw: Any) -> float:
    c.cookies.clear()
    if page:
        c.cookies.set(COOKIE_NAME, who["Authorization"].removeprefix("Bearer "))
    started = time.process_time()
    r = c.request(method, path, headers={} if page else who, **kw)
    spent = time.process_time() - started
    c.cookies.clear()
    assert r.status_code == 200, (path, r.text[:300])
    return spent


def test_a_card_on_the_largest_game_takes_under_a_second(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g = _largest(c)
    start_game(c, g)
    units = c.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    assert len(units) == max_units_per_game()
    placed = [u for u in units if u["side"] == "attacker" and u["x"] is not None]
    stand = placed[len(placed) // 2]["id"]
    page, api = f"/games/{g.id}/map/units/{stand}", f"/api/v1/games/{g.id}/units/{stand}"
    spent: dict[str, float] = {}
    for who in (g.referee, g.attacker, g.defender):  # the target list is the stand's side's and the referee's
        paths = (f"{page}/head", f"{page}/acts") + (
            (f"{page}/targets/shooting",) if who != g.defender else ()
        )
        for path in paths:
            spent[path] = max(spent.get(path, 0.0), _cpu(c, "GET", path, who, page=True))
    for path in (f"{api}/acts", f"{api}/targets/shooting"):
        spent[path] = _cpu(c, "GET", path, g.attacker, page=False)
    # The attacker's battalion, every one of its stands, moved as one: then the card read from every row again.
    root = next(u for u in units if u["parent_id"] is None and u["side"] == "attacker")
    moved = f"/api/v1/games/{g.id}/units/{root['id']}/move-formation"
    spent["move-formation"] = _cpu(
        c, "POST", moved, g.referee, page=False, json={"dx": 0.5, "dy": 0, "override": True}
    )
    spent["head after it"] = _cpu(c, "GET", f"{page}/head", g.attacker, page=True)
    worst = max(spent, key=lambda k: spent[k])
    assert spent[worst] <= BUDGET, {k: round(v, 3) for k, v in spent.items()}
