"""The referee's secret objective form (POST /games/{id}/referee/secret-objectives, its form model `Posted`,
8e165b20) is the referee's alone: a seat that posts it is refused 403 whatever it typed, never answered as the
referee is (a field past its bound named, the referee's form drawn for it), and no token is 401."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from tests import csrf
from tests.app.games.conftest import new_game

HTMX = {"HX-Request": "true", "Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
PLAIN = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
HILL = {"side": "defender", "name": "Hill of the Sealed Orders", "vp": "3", "scored": "first_taken",
        "x_cm": "61.5", "y_cm": "88.5"}  # fmt: skip


def test_a_seat_posting_the_referees_form_within_its_bounds_is_refused(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g = new_game(c)
    for seat in (g.attacker, g.defender):
        c.cookies.set(COOKIE_NAME, seat["Authorization"].removeprefix("Bearer "))
        for headers in (HTMX, PLAIN):
            r = c.post(f"/games/{g.id}/referee/secret-objectives", data=csrf.form(c, HILL), headers=headers)
            assert r.status_code == 403 and 'id="secret-objective"' not in r.text
    c.cookies.clear()
    r = c.post(f"/games/{g.id}/referee/secret-objectives", data=csrf.form(c, HILL), headers=PLAIN)
    assert r.status_code == 401


def test_a_seat_posting_the_referees_form_past_a_bound_is_refused_as_a_seat(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    g = new_game(c)
    c.cookies.set(COOKIE_NAME, g.attacker["Authorization"].removeprefix("Bearer "))
    for field, value in (("name", "x" * 1000), ("side", "y" * 41), ("vp", "9" * 41)):
        for headers in (HTMX, PLAIN):
            r = c.post(
                f"/games/{g.id}/referee/secret-objectives",
                data=csrf.form(c, {**HILL, field: value}),
                headers=headers,
            )
            assert r.status_code == 403, (field, headers, r.status_code)
            assert 'id="secret-objective"' not in r.text, "the referee's form drawn for a seat"
