"""A game's club Save (POST /games/{id}/club/save, its form model ClubForm, d7354e76) is the referee's: a device
with no token is told to open the game with its referee token (401), a seat or another game's referee is refused
(401/403), whatever the form holds; a field past its bound is the referee's to be told of."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from tests import csrf
from tests.app.games.conftest import new_game

VIMY = "vimy-ridge"


def _post(c: TestClient, gid: int, who: dict[str, str] | None, data: dict[str, str]) -> int:
    c.cookies.clear()
    if who is not None:
        c.cookies.set(COOKIE_NAME, who["Authorization"].removeprefix("Bearer "))
    r = c.post(f"/games/{gid}/club/save", data=csrf.form(c, data))
    c.cookies.clear()
    assert r.headers["content-type"].startswith("text/html"), r.text[:200]
    return r.status_code


def test_a_club_save_within_its_bounds_is_the_referees_alone(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g, h = new_game(c, {"name": "Vimy", "ruleset": VIMY}), new_game(c, {"name": "Other", "ruleset": VIMY})
    fine = {"title": "Our Vimy", "version": "1"}
    assert _post(c, g.id, None, fine) == 401
    assert _post(c, g.id, h.referee, fine) == 401
    assert _post(c, g.id, g.attacker, fine) == 403


def test_a_club_save_past_a_bound_is_refused_as_its_caller_first(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g, h = new_game(c, {"name": "Vimy", "ruleset": VIMY}), new_game(c, {"name": "Other", "ruleset": VIMY})
    long = {"title": "x" * 1000, "version": "1"}
    assert _post(c, g.id, None, long) == 401
    assert _post(c, g.id, h.referee, long) == 401
    assert _post(c, g.id, g.attacker, long) == 403
