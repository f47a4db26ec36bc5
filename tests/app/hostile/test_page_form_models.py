"""The page forms read through form models in issue 90 (the start page's NewGameForm, the campaign's ActForm, the
fire plan's PlanForm, a league's ClaimsPosted) posted forged: huge, negative and non-numbers, digits Python's
int() reads and the form's must not, a field repeated or missing. Each is answered as a page (HTML, a 2xx or a
4xx naming the field), never a 500 nor FastAPI's JSON; the fire plan keeps another side's and another game's
items; the largest claims file a league takes is kept within 1 s of CPU."""

from __future__ import annotations

import re
import time
from typing import Any

from fastapi.testclient import TestClient

from app.data.schemas_claims import MAX_CSV_ROWS
from app.guard.auth import COOKIE_NAME
from tests import csrf
from tests.app.games.conftest import new_game

HOSTILE: list[Any] = ["", "x" * 20_000, "-1", "9" * 30, "1e309", "nan", "²", "٣", " 1 ", ["1", "2"]]


def _page(c: TestClient, path: str, data: dict[str, Any], who: dict[str, str] | None = None) -> int:
    c.cookies.pop(COOKIE_NAME, None)
    if who is not None:
        c.cookies.set(COOKIE_NAME, who["Authorization"].removeprefix("Bearer "))
    r = c.post(path, data=csrf.form(c, data), follow_redirects=False)
    c.cookies.pop(COOKIE_NAME, None)
    assert r.status_code < 500, (path, data, r.text[:300])
    assert r.status_code in (302, 303) or r.headers["content-type"].startswith("text/html"), (
        data,
        r.text[:300],
    )
    return r.status_code


def _forged(c: TestClient, path: str, form: dict[str, str], fields: list[str], who: Any = None) -> None:
    _page(c, path, form, who)
    for name in fields:
        _page(c, path, {k: v for k, v in form.items() if k != name}, who)
        for value in HOSTILE:
            _page(c, path, {**form, name: value}, who)


def test_the_start_pages_new_game_form_forged(sqlite_client: TestClient) -> None:
    c = sqlite_client
    by_hand = {"scenario": "", "name": "N", "ruleset": "flanders-fields", "period_flanders-fields": "early",
               "attacker_nation_flanders-fields": "german", "defender_nation_flanders-fields": "british",
               "clock_game": "60", "clock_game_unit": "60", "clock_turn": "5", "clock_turn_unit": "60"}  # fmt: skip
    fields = ["ruleset", "period_flanders-fields", "period", "clock_game", "clock_game_unit", "clock_turn"]
    _forged(c, "/games/new", by_hand, fields)
    tables = {"scenario": "tables", "name": "T", "forces_period": "early", "attacker_force_nation": "german",
              "defender_force_nation": "british", "attacker_table": "x", "defender_table": "y"}  # fmt: skip
    _forged(c, "/games/new", tables, ["attacker_table", "attacker_quality", "forces_period"])


def test_the_campaigns_act_form_forged(sqlite_client: TestClient) -> None:
    c = sqlite_client
    made = c.post("/campaigns/new", data=csrf.form(c, {"name": "Forged"}))
    found = re.search(r'data-campaign-created="(\d+)"', made.text)
    assert found is not None, made.text[:300]
    path = f"/campaigns/{found.group(1)}/act"
    fields = ["version", "type", "dice.0", "dice.999", "move.x", "area.0", "troops", "dice_count", "side"]
    _forged(c, path, {"version": "1", "type": "initiative", "dice_count": "0"}, fields)
    great_war = {
        "version": "1",
        "type": "resolve",
        "great_war": "true",
        "attacker_vp": "3",
        "defender_vp": "2",
    }
    _forged(c, path, great_war, ["attacker_vp", "great_war"])


def test_the_fire_plan_form_forged_and_other_sides_items_kept(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g, h = (new_game(c, {"name": n, "period": "mid", "attacker_nation": "german", "defender_nation": "british"})
            for n in ("P", "Q"))  # fmt: skip
    api = f"/api/v1/games/{g.id}/fireplans"
    aim = {"arrival_turn": 2, "item": {"kind": "aiming-point", "grid": [64, 120], "battery": "SEALED"}}
    theirs = c.post(f"{api}/defender/items", headers=g.defender, json=aim).json()["id"]
    other = c.post(f"/api/v1/games/{h.id}/fireplans/attacker/items", headers=h.attacker, json=aim).json()[
        "id"
    ]
    add = {"action": "add", "kind": "aiming-point", "arrival_turn": "1", "grid_x": "64", "grid_y": "120",
           "battery": "B"}  # fmt: skip
    fields = ["action", "kind", "arrival_turn", "grid_x", "battery"]
    _forged(c, f"/games/{g.id}/fire-plan/attacker", add, fields, g.attacker)
    assert _page(c, f"/games/{g.id}/fire-plan/nobody", add, g.attacker) in (403, 404, 422)
    for side, item in (("attacker", theirs), ("attacker", other), ("defender", theirs)):
        assert _page(c, f"/games/{g.id}/fire-plan/{side}", {"action": f"remove-{item}"}, g.attacker) in (
            403,
            404,
        )
    assert [i["id"] for i in c.get(f"{api}/defender/items", headers=g.defender).json()] == [theirs]


def test_the_largest_claims_file_a_league_takes_is_kept_within_a_second(sqlite_client: TestClient) -> None:
    c = sqlite_client
    league = c.post("/leagues", data=csrf.form(c, {"name": "Big league"}), follow_redirects=False)
    assert league.status_code == 303, league.text[:300]
    rows = ["round,a_name,a_points,b_name,b_points,result"]
    rows += [
        f"{i % 10 + 1},Player {i:05d} Aaaaaaaa,20,Player {i + 1:05d} Bbbbbbbb,{i % 20},W"
        for i in range(MAX_CSV_ROWS)
    ]
    form = {"csv": "\n".join(rows), "event": "Big day", "round": "round", "a_name": "a_name", "a_points": "a_points",
            "b_name": "b_name", "b_points": "b_points", "result": "result"}  # fmt: skip
    for replace in ("", "true"):
        started = time.process_time()
        kept = c.post(f"{league.headers['location']}/claims", data=csrf.form(c, {**form, "replace": replace}),
                      follow_redirects=False)  # fmt: skip
        spent = time.process_time() - started
        assert kept.status_code == 303 and f"kept={MAX_CSV_ROWS}" in kept.headers["location"], kept.text[:300]
        assert spent <= 1.0, spent
