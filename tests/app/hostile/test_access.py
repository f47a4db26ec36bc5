"""Access control as a hostile or careless client meets it: who may create games and campaigns, archive and
delete, reissued credentials that revoke every old one, devices the referee can see and revoke, no token in
a query string (a short-lived stream ticket instead), and per-game printables that keep each side's guns to
itself."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import time_machine
from fastapi.testclient import TestClient
from sqlmodel import Session, col, func, select

from app.core.config import Settings
from app.data.models import Event, FirePlanItem, GameSide, Token, Unit
from app.guard.auth import issue_ticket
from app.main import create_app
from tests import csrf
from tests.app.campaigns.conftest import new_campaign
from tests.app.games.conftest import bearer, live_url, new_game  # noqa: F401 (live_url is a fixture)
from tests.playsheets import pdf

ORGANISER_KEY = "club-night-organiser-key"


@pytest.fixture
def keyed_client(migrated_url: str, tmp_path: Path) -> Iterator[TestClient]:
    """The app with creation guarded by an organiser key, once per backend."""
    settings = Settings(database_url=migrated_url, var_dir=tmp_path, organiser_key=ORGANISER_KEY)
    with TestClient(create_app(settings)) as c:
        yield c


@pytest.fixture
def short_ticket_client(migrated_url: str, tmp_path: Path) -> Iterator[TestClient]:
    """Stream tickets that live one second, so their expiry can be seen in a test."""
    settings = Settings(database_url=migrated_url, var_dir=tmp_path, stream_ticket_seconds=1)
    with TestClient(create_app(settings)) as c:
        yield c


def token_of(headers: dict[str, str]) -> str:
    return headers["Authorization"].removeprefix("Bearer ")


def engine_of(client: TestClient) -> Any:
    return client.app.state.engine  # type: ignore[attr-defined]


def ticket(client: TestClient, game_id: int, headers: dict[str, str]) -> str:
    r = client.get(f"/api/v1/games/{game_id}/stream-ticket", headers=headers)
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "no-store"
    return str(r.json()["ticket"])


# -- who may create ------------------------------------------------------------------------------------------
def test_creation_is_open_without_an_organiser_key(client: TestClient) -> None:
    assert client.post("/api/v1/games", json={"scenario": "mons-1914"}).status_code == 201
    assert client.post("/api/v1/campaigns", json={"name": "Open night"}).status_code == 201
    start = client.get("/")
    assert start.status_code == 200 and 'name="organiser_key"' not in start.text
    assert 'name="organiser_key"' not in client.get("/campaigns").text
    assert client.post("/games/new", data=csrf.form(client, {"scenario": "mons-1914"})).status_code == 200
    assert client.post("/campaigns/new", data=csrf.form(client, {"name": "Page night"})).status_code == 200


def test_an_organiser_key_guards_creating_games_and_campaigns(keyed_client: TestClient) -> None:
    c = keyed_client
    for url, body in (("/api/v1/games", {"scenario": "mons-1914"}), ("/api/v1/campaigns", {"name": "X"})):
        missing = c.post(url, json=body)
        assert missing.status_code == 401 and "X-Organiser-Key" in missing.json()["why"]
        wrong = c.post(url, json=body, headers={"X-Organiser-Key": "guess"})
        assert wrong.status_code == 403 and "organiser key" in wrong.json()["why"]
        assert c.post(url, json=body, headers={"X-Organiser-Key": ORGANISER_KEY}).status_code == 201
    # The pages ask for it in plain words, and only when it is required.
    assert 'name="organiser_key"' in c.get("/").text
    assert 'name="organiser_key"' in c.get("/campaigns").text
    page = c.post("/games/new", data=csrf.form(c, {"scenario": "mons-1914"}))
    assert page.status_code == 401 and "organiser key" in page.text and "X-Organiser-Key" not in page.text
    page = c.post("/games/new", data=csrf.form(c, {"scenario": "mons-1914", "organiser_key": "guess"}))
    assert page.status_code == 403 and "not the organiser key" in page.text
    page = c.post("/games/new", data=csrf.form(c, {"scenario": "mons-1914", "organiser_key": ORGANISER_KEY}))
    assert page.status_code == 200 and "join code" in page.text.lower()
    page = c.post("/campaigns/new", data=csrf.form(c, {"name": "Page night"}))
    assert page.status_code == 401 and "organiser key" in page.text
    page = c.post("/campaigns/new", data=csrf.form(c, {"name": "Page night", "organiser_key": "guess"}))
    assert page.status_code == 403
    page = c.post("/campaigns/new", data=csrf.form(c, {"name": "Page night", "organiser_key": ORGANISER_KEY}))
    assert page.status_code == 200
    # Only the accepted attempts made anything.
    assert len(c.get("/api/v1/games").json()) == 2
    assert len(c.get("/api/v1/campaigns").json()) == 2


# -- archive and delete --------------------------------------------------------------------------------------
def test_the_referee_archives_their_game_out_of_the_lobby(client: TestClient) -> None:
    g, other = new_game(client), new_game(client)
    url = f"/api/v1/games/{g.id}/archive"
    assert client.post(url, headers=g.attacker).status_code == 403
    assert client.post(url, headers=other.referee).status_code == 403
    r = client.post(url, headers=g.referee)
    assert r.status_code == 200 and r.json()["archived"] is True and r.json()["archived_at"]
    assert [x["id"] for x in client.get("/api/v1/games").json()] == [other.id]
    assert f"/games/{g.id}/" not in client.get("/").text
    # Still readable by its own tokens.
    assert client.get(f"/api/v1/games/{g.id}/state", headers=g.attacker).status_code == 200
    assert client.get(f"/api/v1/games/{g.id}/events", headers=g.referee).status_code == 200
    back = client.delete(url, headers=g.referee)
    assert back.status_code == 200 and back.json()["archived"] is False
    assert sorted(x["id"] for x in client.get("/api/v1/games").json()) == sorted([g.id, other.id])


def test_the_referee_deletes_their_game_and_everything_under_it(client: TestClient) -> None:
    g, other = new_game(client), new_game(client)
    plan = client.post(
        f"/api/v1/games/{g.id}/fireplans/defender/items",
        headers=g.defender,
        json={"arrival_turn": 1, "item": {"kind": "aiming-point", "grid": [60, 100], "battery": "A"}},
    )
    assert plan.status_code == 201
    version = client.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["version"]
    started = client.post(f"/api/v1/games/{g.id}/turn/advance", headers=g.referee, json={"version": version})
    assert started.status_code == 200, started.text
    roll = client.post(
        f"/api/v1/games/{g.id}/resolve/deviation", headers=g.referee, json={"fields": {}, "apply": False}
    )
    assert roll.status_code == 200, roll.text
    # An undo names the event it reverses: deleting must not trip over that reference.
    undo = client.post(f"/api/v1/games/{g.id}/events/{roll.json()['event_id']}/undo", headers=g.referee)
    assert undo.status_code == 200, undo.text
    assert client.delete(f"/api/v1/games/{g.id}", headers=g.attacker).status_code == 403
    assert client.delete(f"/api/v1/games/{g.id}", headers=other.referee).status_code == 403
    assert client.delete(f"/api/v1/games/{g.id}", headers=g.referee).status_code == 204
    assert client.get(f"/api/v1/games/{g.id}").status_code == 404
    assert client.get(f"/api/v1/games/{g.id}/state", headers=g.referee).status_code == 401
    with Session(engine_of(client)) as s:
        for table in (Unit, Event, FirePlanItem, GameSide, Token):
            n = s.exec(select(func.count()).select_from(table).where(col(table.game_id) == g.id)).one()
            assert n == 0, table.__name__
        assert s.exec(select(func.count()).select_from(Unit).where(col(Unit.game_id) == other.id)).one() > 0
    assert client.get(f"/api/v1/games/{other.id}/state", headers=other.referee).status_code == 200


# -- reissue, join codes, devices ----------------------------------------------------------------------------
def test_reissue_revokes_every_old_credential(client: TestClient) -> None:
    g = new_game(client)
    r = client.post(f"/api/v1/games/{g.id}/credentials", headers=g.referee)
    assert r.status_code == 200, r.text
    fresh = r.json()
    for old in (g.referee, g.attacker, g.defender):
        assert client.get(f"/api/v1/games/{g.id}/me", headers=old).status_code == 401
        assert client.get(f"/api/v1/games/{g.id}/stream", headers=old).status_code == 401
        assert client.get(f"/api/v1/games/{g.id}/stream-ticket", headers=old).status_code == 401
        client.cookies.set("firestep_token", token_of(old))
        assert client.get(f"/games/{g.id}/referee").status_code == 401  # the page asks to join again
        client.cookies.clear()
    for code in g.codes.values():
        assert client.post("/api/v1/join", json={"code": code}).status_code == 422
    assert client.get(f"/api/v1/games/{g.id}/me", headers=bearer(fresh["referee_token"])).json()["role"] == (
        "referee"
    )
    joined = client.post("/api/v1/join", json={"code": fresh["join_codes"]["attacker"]})
    assert joined.status_code == 200 and joined.json()["side"] == "attacker"


def test_a_join_code_is_not_a_bearer_token(client: TestClient) -> None:
    g = new_game(client)
    code = g.codes["attacker"]
    for presented in (code, code.replace("-", "")):
        assert client.get(f"/api/v1/games/{g.id}/me", headers=bearer(presented)).status_code == 401
        client.cookies.set("firestep_token", presented)
        assert client.get(f"/api/v1/games/{g.id}/me").status_code == 401
        assert client.get(f"/api/v1/games/{g.id}/stream-ticket").status_code == 401
        client.cookies.clear()


def test_the_referee_lists_and_revokes_devices(client: TestClient) -> None:
    g = new_game(client)
    url = f"/api/v1/games/{g.id}/devices"
    assert client.get(url, headers=g.attacker).status_code == 403
    devices = client.get(url, headers=g.referee)
    assert devices.status_code == 200, devices.text
    rows = devices.json()
    assert sorted(d["role"] for d in rows) == ["attacker", "defender", "referee"]
    assert all(d["issued_at"] and d["last_seen_at"] and d["revoked"] is False for d in rows)
    assert [d["this_device"] for d in rows if d["role"] == "referee"] == [True]
    attacker = next(d for d in rows if d["role"] == "attacker")
    early_ticket = ticket(client, g.id, g.attacker)
    assert client.post(f"{url}/{attacker['id']}/revoke", headers=g.attacker).status_code == 403
    r = client.post(f"{url}/{attacker['id']}/revoke", headers=g.referee)
    assert r.status_code == 200 and r.json()["revoked"] is True and r.json()["revoked_at"]
    # Refused everywhere at once: API, stream (header and an earlier ticket), pages.
    refused = client.get(f"/api/v1/games/{g.id}/me", headers=g.attacker)
    assert refused.status_code == 401 and "revoked" in refused.json()["why"]
    assert client.get(f"/api/v1/games/{g.id}/stream", headers=g.attacker).status_code == 401
    assert client.get(f"/api/v1/games/{g.id}/stream?ticket={early_ticket}").status_code == 401
    client.cookies.set("firestep_token", token_of(g.attacker))
    assert client.get(f"/games/{g.id}/fire-plan").status_code == 401
    client.cookies.clear()
    # The other devices are untouched; the list keeps the revoked one, marked.
    assert client.get(f"/api/v1/games/{g.id}/me", headers=g.defender).status_code == 200
    after = {d["id"]: d for d in client.get(url, headers=g.referee).json()}
    assert after[attacker["id"]]["revoked"] is True
    assert sum(d["revoked"] for d in after.values()) == 1
    # Another game's device is not this referee's to revoke.
    other = new_game(client)
    theirs = client.get(f"/api/v1/games/{other.id}/devices", headers=other.referee).json()[0]["id"]
    assert client.post(f"{url}/{theirs}/revoke", headers=g.referee).status_code == 404
    assert client.get(f"/api/v1/games/{other.id}/me", headers=other.referee).status_code == 200


def test_campaign_devices_and_reissue(client: TestClient) -> None:
    seats = new_campaign(client)
    base = f"/api/v1/campaigns/{seats.id}"
    assert client.get(f"{base}/devices", headers=seats.german).status_code == 403
    rows = client.get(f"{base}/devices", headers=seats.organiser).json()
    assert sorted(d["role"] for d in rows) == ["bef", "german", "referee"]
    german = next(d for d in rows if d["role"] == "german")
    r = client.post(f"{base}/devices/{german['id']}/revoke", headers=seats.organiser)
    assert r.status_code == 200 and r.json()["revoked"] is True
    refused = client.get(f"{base}/legal-actions", headers=seats.german)
    # A campaign's codes are its organiser's to give, not a referee's (as a game's seat is told).
    assert refused.status_code == 401 and "the campaign's organiser" in refused.json()["why"]
    assert client.get(f"{base}/legal-actions", headers=seats.bef).status_code == 200
    client.cookies.set("firestep_campaigns", f"{seats.id}:{token_of(seats.german)}")
    page = client.get(f"/campaigns/{seats.id}")
    assert page.status_code == 401 and f'action="/campaigns/{seats.id}/act"' not in page.text
    client.cookies.clear()
    # Reissue: new organiser token and codes; every old token and code stops working.
    assert client.post(f"{base}/credentials", headers=seats.bef).status_code == 403
    fresh = client.post(f"{base}/credentials", headers=seats.organiser)
    assert fresh.status_code == 200, fresh.text
    for old in (seats.organiser, seats.bef):
        assert client.get(f"{base}/legal-actions", headers=old).status_code == 401
    for code in seats.codes.values():
        assert client.post("/api/v1/campaigns/join", json={"code": code}).status_code == 422
    organiser = bearer(fresh.json()["organiser_token"])
    assert client.get(f"{base}/legal-actions", headers=organiser).status_code == 200
    code = fresh.json()["join_codes"]["bef"]
    assert client.post("/api/v1/campaigns/join", json={"code": code}).json()["side"] == "bef"


# -- no token in the query string; stream tickets ------------------------------------------------------------
def test_tokens_in_the_query_string_are_refused(client: TestClient) -> None:
    g = new_game(client)
    for path in ("/me", "/state", "/stream", "/stream-ticket"):
        r = client.get(f"/api/v1/games/{g.id}{path}?token={token_of(g.referee)}")
        assert r.status_code == 401 and "query string" in r.json()["why"], path
    seats = new_campaign(client)
    r = client.get(f"/api/v1/campaigns/{seats.id}/legal-actions?token={token_of(seats.organiser)}")
    assert r.status_code == 401 and "query string" in r.json()["why"]


def test_a_ticket_is_for_the_stream_of_its_own_game_only(client: TestClient) -> None:
    g, other = new_game(client), new_game(client)
    t = ticket(client, g.id, g.attacker)
    # Bound to its game.
    assert client.get(f"/api/v1/games/{other.id}/stream?ticket={t}").status_code == 403
    # Not a token anywhere else, neither as a header nor in the query string.
    assert client.get(f"/api/v1/games/{g.id}/me", headers=bearer(t)).status_code == 401
    assert client.get(f"/api/v1/games/{g.id}/events?ticket={t}").status_code == 401
    # Signed for another purpose, or forged: refused.
    secret = client.app.state.settings.secret_key  # type: ignore[attr-defined]
    with Session(engine_of(client)) as s:
        token_id = s.exec(select(Token.id).where(Token.game_id == g.id, Token.role == "attacker")).first()
    assert token_id is not None
    wrong_purpose = issue_ticket(secret, g.id, token_id, purpose="export")
    assert client.get(f"/api/v1/games/{g.id}/stream?ticket={wrong_purpose}").status_code == 401
    forged = issue_ticket("not-the-app-secret", g.id, token_id, purpose="stream")
    assert client.get(f"/api/v1/games/{g.id}/stream?ticket={forged}").status_code == 401
    assert client.get(f"/api/v1/games/{g.id}/stream?ticket=x" + "A" * 300).status_code == 422


def test_a_ticket_expires(short_ticket_client: TestClient) -> None:
    c = short_ticket_client
    g = new_game(c)
    t = ticket(c, g.id, g.referee)
    with time_machine.travel(
        time.time() + 2.2, tick=True
    ):  # the wall clock the ticket is read against, moved on
        r = c.get(f"/api/v1/games/{g.id}/stream?ticket={t}")
    assert r.status_code == 401 and "expired" in r.json()["why"]


def first_frame(url: str) -> tuple[int, str]:
    with httpx.Client(timeout=10) as http, http.stream("GET", url) as r:
        if r.status_code != 200:
            return r.status_code, ""
        return r.status_code, next(r.iter_lines())


def test_a_ticket_opens_the_stream_and_a_revoked_token_closes_it(live_url: str) -> None:  # noqa: F811
    with httpx.Client(base_url=live_url, timeout=30) as http:
        g = new_game(http)
        r = http.get(f"/api/v1/games/{g.id}/stream-ticket", headers=g.attacker)
        assert r.status_code == 200
        status, line = first_frame(f"{live_url}/api/v1/games/{g.id}/stream?ticket={r.json()['ticket']}")
        assert status == 200 and line.startswith("retry:")
        # An open stream ends as soon as its device is revoked.
        opened, ended = threading.Event(), threading.Event()

        def follow() -> None:
            with (
                httpx.Client(timeout=30) as h,
                h.stream("GET", f"{live_url}/api/v1/games/{g.id}/stream", headers=g.attacker) as s,
            ):
                for _ in s.iter_lines():
                    opened.set()  # the server has said the stream is open (its first line)
            ended.set()

        reader = threading.Thread(target=follow, daemon=True)
        reader.start()
        assert opened.wait(30), "the stream did not open"
        assert not ended.is_set()
        devices = http.get(f"/api/v1/games/{g.id}/devices", headers=g.referee).json()
        attacker = next(d for d in devices if d["role"] == "attacker")
        revoked = http.post(f"/api/v1/games/{g.id}/devices/{attacker['id']}/revoke", headers=g.referee)
        assert revoked.status_code == 200
        assert ended.wait(30), "the revoked device's stream stayed open"
        reader.join(1)


# -- printables ----------------------------------------------------------------------------------------------
def _aim_one_battery_per_side(client: TestClient, g: Any) -> dict[str, str]:
    """Give one battery or mortar of each side a distinctive aiming point; returns side -> its text."""
    units = client.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    marks = {"attacker": [11.25, 22.75], "defender": [133.5, 144.25]}
    shown = {}
    for side, point in marks.items():
        gun = next(
            u
            for u in units
            if u["side"] == side
            and not u["killed"]
            and any(w in f"{u['level']} {u['kind']}".lower() for w in ("battery", "artillery", "mortar"))
        )
        r = client.put(
            f"/api/v1/games/{g.id}/units/{gun['id']}",
            headers=g.referee,
            json={"version": gun["version"], "aiming_point": point},
        )
        assert r.status_code == 200, r.text
        shown[side] = f"{point[0]:g} along"
    return shown


def test_aiming_point_printables_follow_the_game_access_rules(client: TestClient) -> None:
    g = new_game(client)
    shown = _aim_one_battery_per_side(client, g)
    url = f"/playsheets/games/{g.id}/aiming-points"
    for path in (url, f"{url}.pdf", f"/playsheets/games/{g.id}", f"/playsheets/games/{g.id}.pdf"):
        assert client.get(path).status_code == 401, path
    referee = client.get(url, headers=g.referee)
    assert (
        referee.status_code == 200 and shown["attacker"] in referee.text and shown["defender"] in referee.text
    )
    attacker = client.get(url, headers=g.attacker)
    assert attacker.status_code == 200
    assert shown["attacker"] in attacker.text and shown["defender"] not in attacker.text
    assert client.get(f"{url}?side=defender", headers=g.attacker).status_code == 403
    defender = client.get(f"{url}.pdf", headers=g.defender)
    assert defender.status_code == 200
    text = pdf.text(defender.content)
    assert shown["defender"] in text and shown["attacker"] not in text
    other = new_game(client)
    assert client.get(url, headers=other.referee).status_code == 403
    assert client.get(f"/playsheets/games/{g.id}", headers=g.defender).status_code == 200


@pytest.fixture
def token_limited(migrated_url: str, tmp_path: Path) -> Iterator[TestClient]:
    """Three unknown tokens a minute from one address, once per backend."""
    settings = Settings(database_url=migrated_url, var_dir=tmp_path, token_failure_limit="3 per 1 minute")
    with TestClient(create_app(settings)) as c:
        yield c


def test_a_revoked_device_is_not_a_guess_in_games_and_campaigns_alike(token_limited: TestClient) -> None:
    """One seat lookup for both: a revoked token answers 401 saying so, and only unknown tokens (guesses)
    count towards the address's limit, in a campaign as in a game."""
    c = token_limited
    g, s = new_game(c), new_campaign(c)
    urls = {"game": f"/api/v1/games/{g.id}/me", "campaign": f"/api/v1/campaigns/{s.id}/legal-actions"}
    devices = {
        "game": (f"/api/v1/games/{g.id}/devices", g.referee, g.attacker),
        "campaign": (f"/api/v1/campaigns/{s.id}/devices", s.organiser, s.german),
    }
    for what, (url, owner, player) in devices.items():
        row = next(d for d in c.get(url, headers=owner).json() if d["role"] != "referee")
        assert c.post(f"{url}/{row['id']}/revoke", headers=owner).status_code == 200
        for _ in range(4):  # over the limit of three, were they counted
            r = c.get(urls[what], headers=player)
            assert r.status_code == 401 and "revoked" in r.json()["why"], (what, r.text)
    r = c.get(urls["campaign"], headers=bearer("a-guess"))
    assert r.status_code == 401 and r.json()["why"] == "unknown token"


def test_no_page_takes_an_id_past_what_a_row_may_have(reading_client: TestClient) -> None:
    """The hostile pass of issue 69: an id past 2^63 on a league's or an event's page reached the database (SQLite:
    OverflowError, a 500 without signing in). A page's row id is at most ten digits (app.core.routing): past that
    no page is there. Every `{...:int}` of a page is an `{...:id}`."""
    from fastapi.routing import iter_route_contexts

    from app.main import app

    pages = [r.path for r in iter_route_contexts(app.router.routes) if not r.path.startswith("/api/")]
    assert sum(":id}" in p for p in pages) > 30 and not [p for p in pages if ":int}" in p]
    huge = "9223372036854775808"
    for url in (
        f"/leagues/{huge}",
        f"/leagues/{huge}/claims",
        f"/events/{huge}/standings",
        f"/campaigns/{huge}",
    ):
        assert reading_client.get(url).status_code == 404, url
    assert reading_client.post(f"/leagues/{huge}/claims/columns").status_code in (403, 404)


@pytest.mark.storage
def test_a_page_id_past_postgresqls_integer_is_no_page(client: TestClient) -> None:
    """A hostile pass of stop 17: a page's id of ten digits past 2,147,483,647 reached PostgreSQL's integer column
    ("integer out of range", a 500 on an event's page without signing in). The largest a row may have is a page's
    id (none stored here: 404); the next is no page's."""
    for n in (2_147_483_647, 2_147_483_648, 9_999_999_999):
        for url in (f"/events/{n}", f"/events/{n}/tables/{n}", f"/leagues/{n}", f"/campaigns/{n}"):
            assert client.get(url).status_code == 404, url
