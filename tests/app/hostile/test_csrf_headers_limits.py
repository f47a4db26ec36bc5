"""A hostile page and a hammering client: cross-site forms riding a victim's cookie (a page on another port
of the same host is the same site, so SameSite does not stop it), the security headers of every answer,
pages without inline script, and per-address limits on join codes and tokens (429 with Retry-After)."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import itertools
import re
import time
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import time_machine
from fastapi.testclient import TestClient

from app.core.config import Settings
from app.guard import auth
from app.guard.security import CSRF_COOKIE, SEAT_COOKIES
from app.main import create_app
from app.pages import seats
from app.pages.scenario_drafts import DRAFT_COOKIE
from app.services.league import LEAGUE_COOKIE
from app.services.tournaments import ORGANISER_COOKIE
from tests import csrf
from tests.app.campaigns.conftest import new_campaign
from tests.app.games.conftest import Game, bearer, new_game

# What the victim's browser sends with a form from http://host:9000 to http://host:8000.
OTHER_PORT = {"Origin": "http://testserver:9000", "Sec-Fetch-Site": "same-site"}
SAME_ORIGIN = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
API_ITEM = {"arrival_turn": 1, "item": {"kind": "aiming-point", "grid": [60, 40], "battery": "1", "turns": 1}}
FIRE_ITEM = {
    "action": "add",
    "kind": "aiming-point",
    "grid_x": "60",
    "grid_y": "40",
    "battery": "1",
    "turns": "1",
}


def plan(client: TestClient, game: Game, side: str = "attacker") -> tuple[bool, list[dict[str, Any]]]:
    """The side's plan as the referee reads it through the API (Bearer, no cookie needed)."""
    summary = client.get(f"/api/v1/games/{game.id}/fireplans", headers=game.referee)
    items = client.get(f"/api/v1/games/{game.id}/fireplans/{side}/items", headers=game.referee)
    assert summary.status_code == 200 and items.status_code == 200, (summary.text, items.text)
    locked = next(p["locked"] for p in summary.json() if p["side"] == side)
    return locked, items.json()


def victim_seated(client: TestClient, code: str) -> None:
    """The victim's device joins with its code through the start page, as a browser does."""
    r = client.post("/join", data=csrf.form(client, {"code": code}), follow_redirects=False)
    assert r.status_code == 303, r.text
    assert client.cookies.get("firestep_token")


# -- CSRF -----------------------------------------------------------------------------------------------------
def test_a_cross_site_form_with_the_victims_cookie_changes_nothing(client: TestClient) -> None:
    game = new_game(client)
    victim_seated(client, game.codes["attacker"])
    url = f"/games/{game.id}/fire-plan/attacker"
    before = plan(client, game)
    assert before == (False, [])

    forged = [
        {},  # no token at all
        {"csrftoken": "forged"},  # a made-up token
        {"csrftoken": csrf.csrf_token(client) + "x"},  # a tampered one
    ]
    # From the other port, and from a browser that names no origin (so the token alone must refuse it); and
    # with a bearer token beside the cookie, which a page never reads (it skipped the check before).
    bearer = {"Authorization": "Bearer not-what-a-page-reads"}
    for extra, headers, action in itertools.product(
        forged, (OTHER_PORT, {}, bearer), (FIRE_ITEM, {"action": "lock"})
    ):
        r = client.post(url, data={**action, **extra}, headers=headers)
        assert r.status_code == 403, r.text
        assert "CSRF token" in r.text and "Reload the page" in r.text
        assert "text/html" in r.headers["content-type"]
        assert plan(client, game) == before

    # The other port's page can plant its own signed cookie (cookies ignore ports) and send the matching
    # field: the browser still says where the form came from.
    planted = TestClient(client.app)
    planted_token = csrf.csrf_token(planted)
    client.cookies.set(CSRF_COOKIE, planted_token)
    r = client.post(url, data={"action": "lock", "csrftoken": planted_token}, headers=OTHER_PORT)
    assert r.status_code == 403 and "CSRF token" in r.text
    r = client.post(url, data={"action": "lock", "csrftoken": planted_token}, headers={"Origin": "null"})
    assert r.status_code == 403
    assert plan(client, game) == before

    # The page's own form carries the token and passes.
    client.cookies.delete(CSRF_COOKIE)
    page = client.get(f"/games/{game.id}/fire-plan")
    assert page.status_code == 200
    token = csrf.csrf_token(client)
    assert f'name="csrftoken" value="{token}"' in page.text
    r = client.post(url, data={"action": "lock", "csrftoken": token}, headers=SAME_ORIGIN)
    assert r.status_code == 200, r.text
    assert plan(client, game)[0] is True


def test_htmx_and_scripts_send_the_token_as_a_header(client: TestClient) -> None:
    game = new_game(client)
    victim_seated(client, game.codes["attacker"])
    # The JSON API with the cookie alone (what api-action.js and table-map.js do) needs the header.
    items = f"/api/v1/games/{game.id}/fireplans/attacker/items"
    r = client.post(items, json=API_ITEM)
    assert r.status_code == 403
    assert "CSRF token" in r.json()["why"] and "x-csrftoken" in r.json()["why"]
    assert plan(client, game) == (False, [])
    r = client.post(items, json=API_ITEM, headers=csrf.header(client))
    assert r.status_code == 201, r.text
    assert len(plan(client, game)[1]) == 1

    # htmx sends it from hx-headers on <body>; a refusal names itself in plain words for net-status.js.
    url = f"/games/{game.id}/fire-plan/attacker"
    htmx = {"HX-Request": "true", **SAME_ORIGIN}
    refused = client.post(url, data={"action": "lock"}, headers=htmx)
    assert refused.status_code == 403
    assert "CSRF token" in refused.headers["X-Firestep-Notice"]
    assert plan(client, game)[0] is False
    r = client.post(url, data={"action": "lock"}, headers={**htmx, **csrf.header(client)})
    assert r.status_code == 200, r.text
    assert plan(client, game)[0] is True


def test_bearer_api_calls_are_not_affected(client: TestClient) -> None:
    game = new_game(client)
    client.cookies.clear()
    r = client.post(
        f"/api/v1/games/{game.id}/fireplans/attacker/items",
        json=API_ITEM,
        headers={**game.attacker, **OTHER_PORT},
    )
    assert r.status_code == 201, r.text
    # Cookies in the jar do not matter when the request names its token.
    victim_seated(client, game.codes["defender"])
    r = client.post(f"/api/v1/games/{game.id}/fireplans/attacker/lock", json={}, headers=game.attacker)
    assert r.status_code == 200, r.text
    locked, items = plan(client, game)
    assert locked is True and len(items) == 1


def test_a_basic_authorization_does_not_hide_the_organisers_cookie(sqlite_client: TestClient) -> None:
    """The hostile pass of session 16: a browser behind a proxy may send its own Authorization: Basic, and the
    event's (and the league's) organiser was refused as if the cookie were absent. Only a Bearer token stands
    for the cookie; a write the cookie authorises still needs the CSRF token."""
    c = sqlite_client
    basic = {"Authorization": "Basic " + base64.b64encode(b"club:proxy").decode()}
    made = c.post("/api/v1/events", json={"name": "Night", "ruleset": "flanders-fields", "period": "early"})
    event_id, token = made.json()["event"]["id"], made.json()["organiser_token"]
    league = c.post("/api/v1/leagues", json={"name": "L"}).json()
    c.cookies.set(ORGANISER_COOKIE, f"{event_id}:{token}")
    c.cookies.set(LEAGUE_COOKIE, f"{league['league']['id']}:{league['organiser_token']}")
    assert c.get(f"/api/v1/events/{event_id}/board", headers=basic).status_code == 200
    assert c.get(f"/api/v1/leagues/{league['league']['id']}/results", headers=basic).status_code == 200
    timer = f"/api/v1/events/{event_id}/timer"
    assert c.put(timer, headers=basic, json={"ends_at": None}).status_code == 403  # no CSRF token
    assert c.put(timer, headers={**basic, **csrf.header(c)}, json={"ends_at": None}).status_code == 200
    # A Bearer token still speaks for itself, whatever the cookie: another event's is refused.
    other = c.post("/api/v1/events", json={"name": "Other", "ruleset": "flanders-fields", "period": "early"})
    assert (
        c.get(f"/api/v1/events/{event_id}/board", headers=bearer(other.json()["organiser_token"])).status_code
        == 403
    )


def test_a_second_authorization_header_does_not_carry_a_cookies_write_past_the_csrf_check(
    sqlite_client: TestClient,
) -> None:
    """The hostile pass of session 17: a Basic Authorization then a Bearer one (no browser sends two) let the
    organiser cookie's write through without its CSRF token: the check read the last header, the route the first.
    Two are refused, naming the header."""
    c = sqlite_client
    made = c.post("/api/v1/events", json={"name": "Night", "ruleset": "flanders-fields", "period": "early"})
    event_id, token = made.json()["event"]["id"], made.json()["organiser_token"]
    c.cookies.set(ORGANISER_COOKIE, f"{event_id}:{token}")
    two = [
        ("Authorization", "Basic " + base64.b64encode(b"club:proxy").decode()),
        ("Authorization", "Bearer junk"),
    ]
    r = c.put(f"/api/v1/events/{event_id}/timer", headers=two, json={"ends_at": None})
    assert r.status_code == 422 and r.json()["field"] == "authorization", r.text


def test_a_device_without_a_seat_cookie_posts_without_a_token(client: TestClient) -> None:
    """A request no seat cookie authorises acts for nobody, so it needs no token (the API lobby); a page that
    seats the browser (joining, creating) needs it all the same (login CSRF), and the page sends it."""
    assert {
        auth.COOKIE_NAME,
        seats.GAMES_COOKIE,
        seats.CAMPAIGNS_COOKIE,
        ORGANISER_COOKIE,
        LEAGUE_COOKIE,
        DRAFT_COOKIE,
    } == SEAT_COOKIES
    fresh = TestClient(client.app)
    assert fresh.get("/").status_code == 200 and CSRF_COOKIE in fresh.cookies
    assert fresh.post("/api/v1/games", json={"scenario": "mons-1914"}).status_code == 201
    for url, form in (("/games/new", {"scenario": "mons-1914"}), ("/campaigns/new", {"name": "Night"})):
        assert fresh.post(url, data=form).status_code == 403
        assert not any(name in fresh.cookies for name in SEAT_COOKIES)
    assert fresh.post("/games/new", data=csrf.form(fresh, {"scenario": "mons-1914"})).status_code == 200
    # Now seated as a referee: the same request needs the token.
    assert fresh.post("/games/new", data={"scenario": "mons-1914"}).status_code == 403
    assert fresh.post("/games/new", data=csrf.form(fresh, {"scenario": "mons-1914"})).status_code == 200
    # API writes that a code or nothing authorises never read the cookie: a script's jar may hold one.
    created = fresh.post("/api/v1/games", json={"scenario": "mons-1914"})
    assert created.status_code == 201
    assert (
        fresh.post("/api/v1/join", json={"code": created.json()["join_codes"]["attacker"]}).status_code == 200
    )
    assert (
        fresh.post("/api/v1/join", json={"code": created.json()["join_codes"]["defender"]}).status_code == 200
    )


# -- headers and pages without inline script ------------------------------------------------------------------
class ScriptFinder(HTMLParser):
    """Everything in a page that would run script the CSP forbids, and every posting form's token."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self.form_tokens: list[str | None] = []
        self._in_script = False
        self._script_is_code = False
        self._in_form = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=...>")
            if value and value.strip().lower().startswith("javascript:"):
                self.problems.append(f"<{tag} {name}={value!r}>")
        if tag == "script":
            self._in_script = True
            # JSON data blocks (type="application/json") are never run.
            self._script_is_code = "src" not in a and (a.get("type") or "text/javascript") in (
                "text/javascript",
                "module",
                "application/javascript",
            )
        if tag == "form" and (a.get("method") or "get").lower() == "post":
            self.form_tokens.append(None)
            self._in_form = True
        if tag == "input" and self._in_form and a.get("name") == "csrftoken":
            self.form_tokens[-1] = a.get("value")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False
        if tag == "form":
            self._in_form = False

    def handle_data(self, data: str) -> None:
        if self._in_script and self._script_is_code and data.strip():
            self.problems.append(f"inline script: {data.strip()[:60]!r}")


def assert_security_headers(r: Any) -> None:
    csp = r.headers.get("content-security-policy", "")
    directives = {d.split()[0]: d.split()[1:] for d in csp.split(";") if d.strip()}
    assert directives.get("frame-ancestors") == ["'none'"], (r.url, csp)
    assert "'unsafe-inline'" not in directives.get("script-src", ["'unsafe-inline'"]), (r.url, csp)
    assert "'unsafe-eval'" not in directives["script-src"]
    assert r.headers.get("x-content-type-options") == "nosniff", r.url
    assert r.headers.get("referrer-policy") == "same-origin", r.url
    assert r.headers.get("x-frame-options") == "DENY", r.url


def test_every_answer_has_the_headers_and_no_page_runs_inline_script(client: TestClient) -> None:
    game = new_game(client)
    cmp = new_campaign(client)
    victim_seated(client, game.codes["attacker"])
    r = client.post(
        "/campaigns/join", data=csrf.form(client, {"code": cmp.codes["bef"]}), follow_redirects=False
    )
    assert r.status_code == 303, r.text
    token = csrf.csrf_token(client)
    pages = [
        "/",
        "/lookup",
        f"/lookup?game={game.id}",
        "/lookup/flanders-fields/order-roll",
        "/campaigns",
        f"/campaigns/{cmp.id}",
        f"/games/{game.id}/referee",
        f"/games/{game.id}/fire-plan",
        f"/games/{game.id}/map",
        "/games/999999/referee",  # 404 page
    ]
    seen_forms = 0
    for url in pages:
        r = client.get(url)
        assert r.status_code in (200, 404), (url, r.status_code)
        assert_security_headers(r)
        finder = ScriptFinder()
        finder.feed(r.text)
        assert finder.problems == [], (url, finder.problems)
        assert finder.form_tokens == [token] * len(finder.form_tokens), (url, finder.form_tokens)
        seen_forms += len(finder.form_tokens)
        assert f'<meta name="csrf-token" content="{token}">' in r.text, url
    assert seen_forms >= 5
    # A page this device has no seat in (the join form), and the campaign's.
    stranger = TestClient(client.app)
    for url in (f"/games/{game.id}/fire-plan", f"/campaigns/{cmp.id}"):
        r = stranger.get(url)
        assert r.status_code == 401
        assert_security_headers(r)
        finder = ScriptFinder()
        finder.feed(r.text)
        assert finder.problems == [] and finder.form_tokens and None not in finder.form_tokens, url

    answers = [
        client.get("/api/v1/rulesets"),
        client.get(f"/api/v1/games/{game.id}/state", headers=game.referee),
        client.get(f"/api/v1/games/{game.id}/state"),  # seated by cookie
        client.get("/api/v1/games/999999/state", headers=game.referee),
        client.post(f"/api/v1/games/{game.id}/fireplans/attacker/lock", json={}),  # 403: cookie, no token
        TestClient(client.app).post("/api/v1/games", json={"scenario": "nowhere"}),  # 422
        client.get("/openapi.json"),
        client.get("/static/js/api-action.js"),
        client.get("/static/css/app.css"),
        client.get("/manifest.webmanifest"),
        client.get("/sw.js"),
        client.get("/healthz"),
    ]
    for r in answers:
        assert r.status_code < 500, (r.url, r.status_code)
        assert_security_headers(r)


def test_the_api_docs_page_is_allowed_exactly_its_own_script(client: TestClient) -> None:
    for url in ("/docs", "/redoc"):
        r = client.get(url)
        assert r.status_code == 200
        assert_security_headers(r)
        csp = r.headers["content-security-policy"]
        scripts = re.findall(r"<script>(.*?)</script>", r.text, re.DOTALL)
        for body in scripts:
            digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
            assert f"'sha256-{digest}'" in csp
        assert len(scripts) == (1 if url == "/docs" else 0)
        assert "https://cdn.jsdelivr.net" in csp
    # The app's own pages allow no CDN at all.
    assert "cdn.jsdelivr.net" not in client.get("/").headers["content-security-policy"]


# -- rate limits -----------------------------------------------------------------------------------------------
# Three failures a minute: no run is too slow to make its four requests inside it, and a test that needs the window
# passed moves the clock past it (waited_out).
WINDOW = "3 per 1 minute"


@pytest.fixture
def limited(migrated_url: str, tmp_path: Path) -> Iterator[TestClient]:
    """Limits of three failures a minute, so a test sees the refusal (and, moving the clock, the window passing)."""
    settings = Settings(
        database_url=migrated_url, var_dir=tmp_path, join_attempt_limit=WINDOW, token_failure_limit=WINDOW
    )
    with TestClient(create_app(settings)) as c:
        yield c


@contextlib.contextmanager
def waited_out(r: Any) -> Iterator[None]:
    """The wall clock the limiter reads moved on as long as Retry-After says (and a little more for its
    rounding), as a device that waits it out finds it, without the test waiting."""
    with time_machine.travel(time.time() + int(r.headers["Retry-After"]) + 0.05, tick=True):
        yield


def assert_429(r: Any, window_seconds: int = 60) -> None:
    assert r.status_code == 429, r.text
    assert 1 <= int(r.headers["Retry-After"]) <= window_seconds
    assert_security_headers(r)


@pytest.mark.parametrize("what", ["game", "campaign"])
def test_join_code_attempts_over_the_limit_answer_429(limited: TestClient, what: str) -> None:
    c = limited
    if what == "game":
        url, right = "/api/v1/join", new_game(c).codes["attacker"]
    else:
        url, right = "/api/v1/campaigns/join", new_campaign(c).codes["bef"]
    c.cookies.clear()
    for _ in range(3):
        assert c.post(url, json={"code": "ZZZZZ-ZZZZZ"}).status_code == 422
    r = c.post(url, json={"code": "ZZZZZ-ZZZZZ"})
    assert_429(r)
    assert "join codes" in r.json()["why"]
    # While over the limit even the right code is refused: guessing stops.
    r = c.post(url, json={"code": right})
    assert_429(r)
    # Games' and campaigns' join codes are one count (app.guard.security.JOIN_CODES): its window is waited out
    # once, on the game's join (the campaign's read the same count).
    if what == "game":
        with waited_out(r):
            assert c.post(url, json={"code": right}).status_code == 200


@pytest.mark.parametrize(("url", "what"), [("/join", "game"), ("/campaigns/join", "campaign")])
def test_join_pages_over_the_limit_answer_429_in_words(limited: TestClient, url: str, what: str) -> None:
    c = limited
    right = new_game(c).codes["attacker"] if what == "game" else new_campaign(c).codes["bef"]
    c.cookies.clear()
    for _ in range(3):
        r = c.post(url, data=csrf.form(c, {"code": "ZZZZZ-ZZZZZ"}))
        assert r.status_code == 422 and "not known here" in r.text
    r = c.post(url, data=csrf.form(c, {"code": right}), follow_redirects=False)
    assert_429(r)
    assert "Too many wrong join codes from this device" in r.text
    waited = re.search(r"Wait ([0-9]+) seconds? and try again", r.text)
    assert waited and 1 <= int(waited[1]) <= 60, r.text
    # One count for both (app.guard.security.JOIN_CODES): its window is waited out once, on the game's page.
    if what == "game":
        with waited_out(r):
            assert c.post(url, data=csrf.form(c, {"code": right}), follow_redirects=False).status_code == 303


def test_unknown_tokens_over_the_limit_answer_429(limited: TestClient) -> None:
    c = limited
    game = new_game(c)
    seats = new_campaign(c)
    urls = [f"/api/v1/games/{game.id}/state", f"/api/v1/campaigns/{seats.id}/log"]
    for i in range(3):
        r = c.get(urls[i % 2], headers=bearer(f"guess-{i}"))
        assert r.status_code == 401, r.text
    for url in urls:  # games and campaigns count together: one address, one limit
        r = c.get(url, headers=bearer("guess-more"))
        assert_429(r)
        assert "unknown tokens" in r.json()["why"]
    # A known token is never refused by the limit: tokens cannot be guessed, the limit stops hammering.
    assert c.get(urls[0], headers=game.referee).status_code == 200
    assert c.get(urls[1], headers=seats.organiser).status_code == 200
    with waited_out(r):
        assert c.get(urls[0], headers=bearer("guess-after")).status_code == 401


def test_a_page_with_a_stale_cookie_over_the_limit_says_so_in_words(limited: TestClient) -> None:
    c = limited
    game = new_game(c)
    c.cookies.set("firestep_token", "revoked-or-made-up")
    for _ in range(3):
        assert c.get(f"/games/{game.id}/referee").status_code == 401  # the join form
    r = c.get(f"/games/{game.id}/referee")
    assert_429(r, 60)
    assert "Too many unknown tokens from this device" in r.text


def test_wrong_organiser_keys_over_the_limit_answer_429(migrated_url: str, tmp_path: Path) -> None:
    """Organiser-key guesses are counted like join codes (same limit, their own count): over it, the API and
    the pages answer 429 with Retry-After, even for the right key, until the window has passed."""
    key = "club-night-organiser-key"
    settings = Settings(
        database_url=migrated_url, var_dir=tmp_path, organiser_key=key, join_attempt_limit=WINDOW
    )
    with TestClient(create_app(settings)) as c:
        guess = {"X-Organiser-Key": "guess"}
        assert c.post("/api/v1/campaigns", json={}, headers=guess).status_code == 403
        assert c.post("/api/v1/games", json={"scenario": "mons-1914"}, headers=guess).status_code == 403
        page = c.post("/campaigns/new", data=csrf.form(c, {"organiser_key": "guess"}))
        assert page.status_code == 403
        # Join codes keep their own count: wrong keys did not use it up.
        assert c.post("/api/v1/join", json={"code": "ZZZZZ-ZZZZZ"}).status_code == 422
        r = c.post("/api/v1/games", json={"scenario": "mons-1914"}, headers={"X-Organiser-Key": key})
        assert_429(r)
        assert "wrong organiser keys" in r.json()["why"]
        page = c.post("/games/new", data=csrf.form(c, {"scenario": "mons-1914", "organiser_key": key}))
        assert_429(page)
        assert "Too many wrong organiser keys from this device" in page.text
        # Creating without the key is not a guess, and is refused as before.
        assert c.post("/api/v1/games", json={"scenario": "mons-1914"}).status_code == 401
        with waited_out(r):
            assert c.post("/api/v1/campaigns", json={}, headers={"X-Organiser-Key": key}).status_code == 201
        assert len(c.get("/api/v1/games").json()) == 0


def test_a_cookie_authorised_multipart_form_with_a_wrong_token_or_no_boundary_is_refused_not_a_500(
    sqlite_client: TestClient,
) -> None:
    """A form with a file riding the league organiser's cookie: a wrong token, or a body with no boundary,
    was handed to asgi-csrf's own multipart reader (or to python-multipart without a boundary): a 500."""
    c = sqlite_client
    made = c.post("/api/v1/leagues", json={"name": "L"}).json()
    c.cookies.set(LEAGUE_COOKIE, made["organiser_token"])
    url = f"/leagues/{made['league']['id']}/import"
    wrong = b'--x\r\nContent-Disposition: form-data; name="csrftoken"\r\n\r\nzzz\r\n--x--\r\n'
    for content_type, body in (
        ("multipart/form-data; boundary=x", wrong),
        ("multipart/form-data", b"abc"),
    ):
        for path in (url, f"/api/v1/leagues/{made['league']['id']}/keys"):
            r = c.post(path, headers={"content-type": content_type}, content=body)
            assert r.status_code == 403, (path, content_type, r.status_code)
    right = {"bundle": ("b.json", b"{}", "application/json")}
    kept = c.post(url, data=csrf.form(c), files=right)
    assert (
        kept.status_code == 422 and "not a result bundle" not in kept.text
    )  # read as a form: the file's fields
