"""The league's pages (issue 63): a newcomer starts a league from /leagues and is its organiser on that device
(the cookie, as an event's organiser), imports a bundle file, sees a game from an unknown key waiting with its
key's fingerprint, says yes, and the table counts it; a bundle file whose players are not [name, club] pairs is
refused naming the field and the table still reads; anyone else's import is refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi.testclient import TestClient
from sqlalchemy import event

from app.club import signing
from app.core.config import Settings
from app.main import create_app
from app.services import league
from app.services.league import LEAGUE_COOKIE, fingerprint
from tests.app.league.test_league import signed
from tests.conftest import _sqlite_clone
from tests.csrf import form


def upload(c: TestClient, league_id: int, bundle: object) -> str:
    files = {"bundle": ("result.json", json.dumps(bundle).encode(), "application/json")}
    return c.post(f"/leagues/{league_id}/import", data=form(c), files=files).text


def test_a_newcomer_runs_a_league_from_its_pages(sqlite_client: TestClient) -> None:
    c = sqlite_client
    assert 'href="/leagues"' in c.get("/events").text
    made = c.post("/leagues", data=form(c, {"name": "Flanders league"}), follow_redirects=False)
    assert made.status_code == 303 and LEAGUE_COOKIE in made.cookies
    league_id = int(made.headers["location"].rsplit("/", 1)[1])
    page = c.get(f"/leagues/{league_id}").text
    assert "Import a result" in page and "No game counted yet" in page
    key = Ed25519PrivateKey.generate()
    broken = upload(c, league_id, signed(key, players={"attacker": 1, "defender": 2}))
    assert "bundle.players.attacker" in broken
    assert c.get(f"/leagues/{league_id}").status_code == 200
    said = upload(c, league_id, signed(key))
    assert "waiting for your yes below" in said and fingerprint(signing.public_hex(key)) in said
    assert "No game counted yet" in said
    game_id = c.get(f"/api/v1/leagues/{league_id}/results").json()[0]["id"]
    yes = c.post(f"/leagues/{league_id}/games/{game_id}/yes", data=form(c), follow_redirects=True)
    assert "Stop trusting Ypres" in yes.text and "Ann" in yes.text.split('id="table-h"')[1]
    # The league's cookie authorises: a form with a file and no token (or the file before it) is refused (CSRF).
    files = {"bundle": ("result.json", json.dumps(signed(key, table=3)).encode(), "application/json")}
    assert c.post(f"/leagues/{league_id}/import", files=files).status_code == 403
    token_last = {"bundle": files["bundle"], "csrftoken": (None, form(c)["csrftoken"])}
    assert c.post(f"/leagues/{league_id}/import", files=token_last).status_code == 403
    bad_key = c.post(f"/leagues/{league_id}/keys", data=form(c, {"club": "X", "public_key": "zz"}))
    assert "64 hex digits" in bad_key.text
    c.cookies.delete(LEAGUE_COOKIE)  # another device: not the league's organiser
    assert "Sign in as the organiser" in c.get(f"/leagues/{league_id}").text
    assert "Only the league&#39;s organiser" in upload(c, league_id, signed(key, table=2))
    assert c.get(f"/api/v1/leagues/{league_id}").json()["lines"][0]["played"] == 1


def test_a_server_with_an_organiser_key_asks_for_it_to_start_a_league(
    sqlite_template: Path, tmp_path: Path
) -> None:
    settings = Settings(
        database_url=_sqlite_clone(sqlite_template, tmp_path), var_dir=tmp_path, organiser_key="k" * 16
    )
    with TestClient(create_app(settings)) as c:
        assert 'name="organiser_key"' in c.get("/leagues").text
        refused = c.post("/leagues", data=form(c, {"name": "L"}), follow_redirects=False)
        assert refused.status_code == 401 and "enter the organiser key" in refused.text
        made = c.post(
            "/leagues", data=form(c, {"name": "L", "organiser_key": "k" * 16}), follow_redirects=False
        )
        assert made.status_code == 303
        c.cookies.clear()  # a script with no cookie: the API asks for the key too
        assert c.post("/api/v1/leagues", json={"name": "L"}).status_code == 401


def test_an_event_days_bundles_import_in_one_pick(sqlite_client: TestClient) -> None:
    """Several files in one pick and a file of an event's every table (its bundles page's one file) import
    together; one refused, none is kept (issue 63)."""
    c = sqlite_client
    made = c.post("/leagues", data=form(c, {"name": "Flanders league"}), follow_redirects=False)
    league_id = int(made.headers["location"].rsplit("/", 1)[1])
    key = Ed25519PrivateKey.generate()

    def files(*contents: object) -> list[tuple[str, tuple[str, bytes, str]]]:
        return [
            ("bundle", (f"{i}.json", json.dumps(b).encode(), "application/json"))
            for i, b in enumerate(contents)
        ]

    bad = c.post(
        f"/leagues/{league_id}/import",
        data=form(c),
        files=files(signed(key, table=1), [signed(key, table=2), signed(key, players={"attacker": 1})]),
    ).text
    assert "bundle.players.attacker" in bad and c.get(f"/api/v1/leagues/{league_id}/results").json() == []
    # A refusal only the keeping finds (the same table twice with another result): still none kept. On SQLite
    # the first bundle's savepoint, with no transaction around it, committed it (issue 63's hostile pass).
    other = {
        "winner": "defender",
        "points": {"attacker": 1, "defender": 9},
        "losses": {"attacker": 4, "defender": 1},
    }
    twice = c.post(
        f"/leagues/{league_id}/import",
        data=form(c),
        files=files(
            signed(key, table=1), signed(key, table=1, result={**other, "reason": "set by the organiser"})
        ),
    ).text
    assert "with another result" in twice and c.get(f"/api/v1/leagues/{league_id}/results").json() == []
    said = c.post(
        f"/leagues/{league_id}/import",
        data=form(c),
        files=files(signed(key, table=1), [signed(key, table=2), signed(key, table=3)]),
    ).text
    assert "Imported 3 games: 0 counted, 3 waiting for your yes below" in said
    assert len(c.get(f"/api/v1/leagues/{league_id}/results").json()) == 3


def test_a_second_league_keeps_this_browser_the_organiser_of_the_first(sqlite_client: TestClient) -> None:
    """Issue 63: the league cookie held one token, so a second league signed its organiser out of the first."""
    c = sqlite_client
    ids = []
    for name in ("Flanders league", "Artois league"):
        made = c.post("/leagues", data=form(c, {"name": name}), follow_redirects=False)
        assert made.status_code == 303
        ids.append(int(made.headers["location"].rsplit("/", 1)[1]))
    tokens = []
    for league_id in ids:
        page = c.get(f"/leagues/{league_id}").text
        assert "Import a result" in page
        tokens += re.findall(r"data-organiser-token>([^<]+)<", page)
    assert len(set(tokens)) == 2
    c.cookies.clear()
    assert "data-organiser-token" not in c.get(f"/leagues/{ids[0]}").text
    signed = c.post(f"/leagues/{ids[0]}/sign-in", data=form(c, {"token": tokens[0]}), follow_redirects=False)
    assert signed.status_code == 303 and "Import a result" in c.get(f"/leagues/{ids[0]}").text


def test_a_waiting_game_names_its_winner_when_the_points_do_not(sqlite_client: TestClient) -> None:
    """A result typed from paper is often a winner and no points: the game waiting for the league organiser's
    yes says who won, not a bare '0–0' (issue 63 newcomer pass: 'Dan v Fay: 0–0' was Fay's win)."""
    c = sqlite_client
    made = c.post("/leagues", data=form(c, {"name": "Flanders league"}), follow_redirects=False)
    league_id = int(made.headers["location"].rsplit("/", 1)[1])
    paper = {
        "winner": "defender",
        "points": {"attacker": 0, "defender": 0},
        "losses": {"attacker": 0, "defender": 0},
    }
    said = upload(
        c, league_id, signed(Ed25519PrivateKey.generate(), result={**paper, "reason": "set by the organiser"})
    )
    pending = said.split('id="pending-h"')[1]
    assert "0–0, Bob won" in pending


def test_a_bundle_imported_again_is_said_to_be_here_already(sqlite_client: TestClient) -> None:
    """The same file picked twice keeps each game once, and the second import says so rather than 'Imported 15
    games' again (issue 63 newcomer pass)."""
    c = sqlite_client
    made = c.post("/leagues", data=form(c, {"name": "Flanders league"}), follow_redirects=False)
    league_id = int(made.headers["location"].rsplit("/", 1)[1])
    key = Ed25519PrivateKey.generate()
    day = [signed(key, table=n) for n in (1, 2)]
    assert "Imported 2 games: 0 counted, 2 waiting" in upload(c, league_id, day)
    assert "Imported 2 games (2 here already, kept once): 0 counted, 2 waiting" in upload(c, league_id, day)
    assert "Ann v Bob (Club night, round 1, table 1) is here already, kept once" in upload(
        c, league_id, day[0]
    )
    assert len(c.get(f"/api/v1/leagues/{league_id}/results").json()) == 2


def test_a_bundle_file_with_a_lone_surrogate_is_refused_naming_the_field(sqlite_client: TestClient) -> None:
    """A file's JSON may escape a lone surrogate (\\ud800), which no encoding writes: the door refuses one in a
    JSON body, but an uploaded file passed it, and hashing the game's record was a 500."""
    c = sqlite_client
    made = c.post("/leagues", data=form(c, {"name": "Flanders league"}), follow_redirects=False)
    league_id = int(made.headers["location"].rsplit("/", 1)[1])
    key = Ed25519PrivateKey.generate()
    for record in ({"log": [], "ended": None, "x": 1}, {"log": [], "ended": None, "note": "x"}):
        text = json.dumps(signed(key) | {"record": record}).replace('"x"', '"\\ud800"', 1)
        files = {"bundle": ("result.json", text.encode(), "application/json")}
        page = c.post(f"/leagues/{league_id}/import", data=form(c), files=files)
        assert page.status_code == 422 and "bundle.record holds a lone surrogate" in page.text, page.text[
            -600:
        ]
    assert c.get(f"/api/v1/leagues/{league_id}").json()["pending"] == 0


def test_a_file_of_too_many_tables_is_refused_saying_so(sqlite_client: TestClient) -> None:
    """An event's every-table file of more than 100 tables (a 34-table day of three rounds) was refused as
    'that file is not a result bundle', which it is."""
    c = sqlite_client
    made = c.post("/leagues", data=form(c, {"name": "Flanders league"}), follow_redirects=False)
    league_id = int(made.headers["location"].rsplit("/", 1)[1])
    key = Ed25519PrivateKey.generate()
    page = upload(c, league_id, [signed(key, table=n) for n in range(1, 103)])
    assert "file holds 102 tables&#39; bundles: import at most 100 at a time" in page, page[-800:]
    assert c.get(f"/api/v1/leagues/{league_id}").json()["pending"] == 0


def test_a_file_of_many_tables_counts_the_league_games_once(sqlite_client: TestClient) -> None:
    """The bound on a league's games was counted before each bundle: a 100-table file into a league of 10,000
    games read its every row 100 times (bench/league_import.py). One import counts them once."""
    c = sqlite_client
    made = c.post("/leagues", data=form(c, {"name": "Flanders league"}), follow_redirects=False)
    league_id = int(made.headers["location"].rsplit("/", 1)[1])
    key = Ed25519PrivateKey.generate()
    engine = c.app.state.engine  # type: ignore[attr-defined]
    asked: list[str] = []
    record = lambda *a: asked.append(a[2])  # noqa: E731
    event.listen(engine, "before_cursor_execute", record)
    try:
        page = upload(c, league_id, [signed(key, table=n) for n in range(1, 6)])
    finally:
        event.remove(engine, "before_cursor_execute", record)
    assert "Imported 5 games: 0 counted, 5 waiting" in page
    counts = [q for q in asked if re.search(r"count\(\*\).*FROM league_game", q, re.S) and " IN " not in q]
    assert len(counts) == 1, counts  # kept_already's count of these bundles' games aside


def test_the_bound_on_a_league_games_counts_the_file_own_games_too(
    sqlite_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counted once a file, the league's games are counted on as its bundles are kept: a file that would take
    the league past its bound is refused whole."""
    monkeypatch.setattr(league, "MAX_LEAGUE_GAMES", 3)
    c = sqlite_client
    made = c.post("/leagues", data=form(c, {"name": "Flanders league"}), follow_redirects=False)
    league_id = int(made.headers["location"].rsplit("/", 1)[1])
    key = Ed25519PrivateKey.generate()
    assert "Imported 2 games" in upload(c, league_id, [signed(key, table=n) for n in range(1, 3)])
    page = upload(c, league_id, [signed(key, table=n) for n in range(3, 5)])
    assert "A league keeps at most 3 games: start a new league." in page, page[-600:]
    assert len(c.get(f"/leagues/{league_id}").text.split('/yes">')) - 1 == 2


def test_the_page_lists_the_first_games_waiting_and_counts_the_rest(sqlite_client: TestClient) -> None:
    """A league keeps up to 5,000 games and its page listed every one waiting (4.6 MB, a quarter second of CPU
    on every import's answer): it lists the first 50, the rest counted beside them."""
    c = sqlite_client
    made = c.post("/leagues", data=form(c, {"name": "Flanders league"}), follow_redirects=False)
    league_id = int(made.headers["location"].rsplit("/", 1)[1])
    key = Ed25519PrivateKey.generate()
    page = upload(c, league_id, [signed(key, table=n) for n in range(1, 54)])
    assert "Imported 53 games: 0 counted, 53 waiting" in page
    shown = c.get(f"/leagues/{league_id}").text
    assert shown.count('/yes">') == 50 and "3 more wait: say yes or no to these first." in shown


def test_a_league_named_with_a_direction_override_is_refused_on_its_page(sqlite_client: TestClient) -> None:
    c = sqlite_client
    page = c.post("/leagues", data=form(c, {"name": "Flanders\u202e league"}), follow_redirects=False)
    assert page.status_code == 422 and "direction-formatting" in page.text
    assert c.get("/api/v1/leagues").json() == []
