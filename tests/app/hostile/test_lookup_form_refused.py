"""The lookup's own fields are a form model (LookupPost, 71c2fb77). Its game and unit are the lookup's to
refuse: another game's unit, the other side's, no unit, or another game's seat, each a page refusal, never a 500.
(Its hidden fields malformed, which no person types, answer the API's 422 naming the field, as
tests/app/test_lookup_readings.py pins: the hostile pass asked for the page; the lead kept the JSON.)"""

from __future__ import annotations

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
