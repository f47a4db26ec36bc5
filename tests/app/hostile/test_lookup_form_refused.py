"""The lookup's own fields are a form model (LookupPost, 71c2fb77); a page's form model refused is its page again
naming the field (app/pages/refused.py, docs/architecture.md "A panel"), as every other page form since issue 90
answers, not FastAPI's JSON. Its game and unit are the lookup's to refuse: another game's unit, the other side's,
no unit, or another game's seat, each a page refusal, never a 500."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from tests import csrf
from tests.app.games.conftest import new_game, start_game

HX = {"HX-Request": "true"}


def test_a_lookups_game_and_unit_are_this_seats_or_refused(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g, h = new_game(c), new_game(c)
    start_game(c, g)
    ours = c.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    theirs = c.get(f"/api/v1/games/{h.id}/units", headers=h.referee).json()
    mine = next(u for u in ours if u["side"] == "attacker" and u["base"])
    enemy = next(u for u in ours if u["side"] == "defender" and u["base"])
    c.cookies.set(COOKIE_NAME, g.attacker["Authorization"].removeprefix("Bearer "))
    url = "/lookup/flanders-fields/shooting"
    for unit, status in ((mine["id"], 200), (enemy["id"], 403), (theirs[5]["id"], 404), (0, 404)):
        r = c.post(url, data=csrf.form(c, {"_game": str(g.id), "_unit": str(unit)}))
        assert r.status_code == status and r.headers["content-type"].startswith("text/html"), (
            unit,
            r.text[:200],
        )
    r = c.post(url, data=csrf.form(c, {"_game": str(h.id), "_unit": str(mine["id"])}))
    assert r.status_code == 401  # another game's: the join form


@pytest.mark.xfail(
    strict=True,
    reason="A lookup's own field refused (_game or _unit no whole number) is answered as FastAPI's JSON 422, "
    "not the lookup page naming the field (test_lookup_readings pins the JSON).",
)
def test_a_lookups_own_field_refused_is_the_page_naming_it(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g = new_game(c)
    c.cookies.set(COOKIE_NAME, g.attacker["Authorization"].removeprefix("Bearer "))
    for field, value in (("_game", "x"), ("_unit", "abc"), ("_unit", "-1")):
        data = {"_game": str(g.id), "_unit": "", field: value}
        r = c.post("/lookup/flanders-fields/shooting", data=csrf.form(c, data), headers=HX)
        assert r.headers["content-type"].startswith("text/html"), (field, r.text[:200])
        assert 'role="alert"' in r.text and field.removeprefix("_") in r.text.lower()
