"""Login CSRF (issue 24): a form on another site that auto-posts a join page with the attacker's code must not
seat the victim's browser in the attacker's game or campaign, and a browser that already holds a seat keeps it
unless its user confirms. Scripts keep joining through the JSON API without a cookie (SQLite and PostgreSQL)."""

from __future__ import annotations

import inspect
import re

import pytest
from fastapi.testclient import TestClient

from app.guard import auth, security
from app.pages import seats
from app.pages.common import REPLACE_FIELD
from tests import csrf
from tests.app.campaigns.conftest import new_campaign
from tests.app.games.conftest import new_game

# What a browser sends with a form another site auto-posts: SameSite=Lax keeps every cookie of this server
# out of a cross-site POST, so the request carries no seat cookie and no CSRF cookie.
CROSS_SITE = {"Origin": "https://attacker.example", "Sec-Fetch-Site": "cross-site"}
SAME_ORIGIN = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
JOIN_PAGES = {"game": "/join", "campaign": "/campaigns/join"}


def codes(client: TestClient, what: str) -> tuple[dict[str, str], int]:
    if what == "game":
        g = new_game(client)
        return g.codes, g.id
    c = new_campaign(client)
    return {"attacker": c.codes["german"], "defender": c.codes["bef"]}, c.id


def seat_cookies(client: TestClient) -> dict[str, str | None]:
    return {
        name: client.cookies.get(name)
        for name in (auth.COOKIE_NAME, seats.GAMES_COOKIE, seats.CAMPAIGNS_COOKIE)
    }


@pytest.mark.parametrize("what", ["game", "campaign"])
def test_a_foreign_form_with_the_attackers_code_seats_nobody(client: TestClient, what: str) -> None:
    attacker_codes, _ = codes(client, what)
    victim = TestClient(client.app)
    for headers in (CROSS_SITE, {}):  # a browser that names no origin: the missing token alone refuses it
        r = victim.post(JOIN_PAGES[what], data={"code": attacker_codes["attacker"]}, headers=headers)
        assert r.status_code == 403, r.text
        assert "CSRF token" in r.text
        assert not any(seat_cookies(victim).values())
        assert not any(
            c in r.headers.get("set-cookie", "")
            for c in ("firestep_token", "firestep_games", "firestep_campaigns")
        )
    # The page's own form, with its token, seats the browser.
    r = victim.post(
        JOIN_PAGES[what],
        data=csrf.form(victim, {"code": attacker_codes["attacker"]}),
        headers=SAME_ORIGIN,
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text
    assert any(seat_cookies(victim).values())


@pytest.mark.parametrize("what", ["game", "campaign"])
def test_a_held_seat_is_kept_unless_the_user_confirms(client: TestClient, what: str) -> None:
    side_codes, owner = codes(client, what)
    page = JOIN_PAGES[what]
    r = client.post(page, data=csrf.form(client, {"code": side_codes["attacker"]}), follow_redirects=False)
    assert r.status_code == 303, r.text
    held = seat_cookies(client)
    # Another seat of the same game or campaign: the page asks first and changes nothing.
    r = client.post(
        page,
        data=csrf.form(client, {"code": side_codes["defender"]}),
        headers=SAME_ORIGIN,
        follow_redirects=False,
    )
    assert r.status_code == 409, r.text
    assert "set-cookie" not in r.headers and seat_cookies(client) == held
    assert r.headers["cache-control"] == "no-store"
    assert "already plays" in r.text and "Keep" in r.text and "Switch to" in r.text
    # Its form carries the token, the code and the confirmation; the keep link goes back to the held seat.
    form = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', r.text))
    assert form == {
        "csrftoken": csrf.csrf_token(client),
        "code": side_codes["defender"],
        REPLACE_FIELD: "yes",
    }
    assert re.search(rf'href="[^"]*{owner}[^"]*">Keep', r.text), r.text
    # A forged confirmation is refused like any other forged form.
    forged = client.post(
        page,
        data={"code": side_codes["defender"], REPLACE_FIELD: "yes"},
        headers=CROSS_SITE,
        follow_redirects=False,
    )
    assert forged.status_code == 403 and seat_cookies(client) == held
    # Entering the seat's own code again changes no seat: no question.
    again = client.post(
        page, data=csrf.form(client, {"code": side_codes["attacker"]}), follow_redirects=False
    )
    assert again.status_code == 303, again.text
    # The user confirms: the device switches.
    held = seat_cookies(client)
    r = client.post(page, data=form, headers=SAME_ORIGIN, follow_redirects=False)
    assert r.status_code == 303, r.text
    assert seat_cookies(client) != held


def test_a_seat_in_another_game_needs_no_confirmation_and_is_kept(client: TestClient) -> None:
    first, second = new_game(client), new_game(client)
    assert (
        client.post(
            "/join", data=csrf.form(client, {"code": first.codes["attacker"]}), follow_redirects=False
        ).status_code
        == 303
    )
    assert (
        client.post(
            "/join", data=csrf.form(client, {"code": second.codes["defender"]}), follow_redirects=False
        ).status_code
        == 303
    )
    kept = seats.device_seats(type("R", (), {"cookies": dict(client.cookies)})(), seats.GAMES_COOKIE)  # type: ignore[arg-type]
    assert set(kept) == {first.id, second.id}
    assert client.get(f"/games/{first.id}/fire-plan").status_code == 200


def test_scripts_join_through_the_api_without_a_cookie_and_browsers_only_from_this_origin(
    client: TestClient,
) -> None:
    g = new_game(client)
    script = TestClient(client.app)
    r = script.post("/api/v1/join", json={"code": g.codes["attacker"]})
    assert r.status_code == 200 and r.json()["side"] == "attacker"
    c = new_campaign(client)
    assert script.post("/api/v1/campaigns/join", json={"code": c.codes["bef"]}).status_code == 200
    # A browser's request from another site to them (they set the seat cookie too) is refused.
    for url, code in (("/api/v1/join", g.codes["defender"]), ("/api/v1/campaigns/join", c.codes["german"])):
        browser = TestClient(client.app)
        r = browser.post(url, json={"code": code}, headers=CROSS_SITE)
        assert r.status_code == 403, r.text
        assert not any(seat_cookies(browser).values())
        assert browser.post(url, json={"code": code}, headers=SAME_ORIGIN).status_code == 200


def test_a_foreign_form_to_a_join_link_seats_nobody_and_the_card_joins_in_one_tap(
    sqlite_client: TestClient,
) -> None:
    g = new_game(sqlite_client)
    link = f"/games/{g.id}/join/attacker"
    victim = TestClient(sqlite_client.app)
    for headers in (CROSS_SITE, {}):
        r = victim.post(link, data={"code": g.codes["attacker"]}, headers=headers, follow_redirects=False)
        assert r.status_code == 403, r.text
        assert not any(seat_cookies(victim).values())
    # The card's own page: one tap on its form (the code from the card's fragment, the page's token) seats.
    assert victim.get(link).status_code == 200
    r = victim.post(
        link,
        data=csrf.form(victim, {"code": g.codes["attacker"]}),
        headers=SAME_ORIGIN,
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text
    assert victim.cookies.get(auth.COOKIE_NAME)


def test_every_page_that_seats_a_device_is_checked_as_a_sign_in_or_needs_a_seat(
    sqlite_client: TestClient,
) -> None:
    """Each form post that sets a seat cookie either is checked for CSRF whatever the browser holds, or acts
    only for a device that already holds a campaign seat (whose cookie a cross-site post never carries)."""
    seating = re.compile(r"(?<![\w.])remember_(game|campaign|seat)\(")  # app.pages.seats' seat cookies
    found = []
    routes = list(sqlite_client.app.routes)  # type: ignore[attr-defined]
    while routes:
        route = routes.pop()
        routes += getattr(getattr(route, "original_router", None), "routes", [])  # each module's router
        endpoint = getattr(route, "endpoint", None)
        if endpoint is None or "POST" not in getattr(route, "methods", ()) or route.path.startswith("/api/"):
            continue
        source = inspect.getsource(endpoint)
        if not seating.search(source):
            continue
        sample = re.sub(r"\{[^}]+\}", "1", route.path)
        checked = security.signs_in({"method": "POST", "path": sample})
        found.append(route.path)
        assert checked or "campaign_seat(" in source, f"{route.path} seats a device unchecked"
    assert "/games/{game_id}/join/{seat}" in found and "/join" in found


def test_a_foreign_form_to_the_scenario_editor_keys_no_draft_and_seats_nobody(client: TestClient) -> None:
    """The hostile pass of session 19: another site's auto-posted form to the editor's Start made a game and
    seated the visitor's browser in it (its own seats gone), and its import and draft writes gave the browser
    the attacker's draft key. Each editor write is checked as a sign-in form: no token, no act."""
    victim = TestClient(client.app)
    writes = {
        "/scenarios/mons-1914/edit/start": {},
        "/scenarios/new/flanders-fields/particulars": {"title": "Planted"},
        "/scenarios/mons-1914/edit/terrain": {"terrain": "[]"},
        "/scenarios/new/flanders-fields/save": {},
    }
    for path, data in writes.items():
        for headers in (CROSS_SITE, {}):
            r = victim.post(path, data=data, headers=headers, follow_redirects=False)
            assert r.status_code == 403 and "CSRF token" in r.text, (path, r.status_code)
            assert not any(
                c in r.headers.get("set-cookie", "")
                for c in ("firestep_token", "firestep_games", "firestep_editor")
            )
    planted = victim.post(
        "/scenarios/import", files={"file": ("s.json", b"{}", "application/json")}, headers=CROSS_SITE
    )
    assert planted.status_code == 403 and "firestep_editor" not in planted.headers.get("set-cookie", "")
    assert not any(seat_cookies(victim).values())
