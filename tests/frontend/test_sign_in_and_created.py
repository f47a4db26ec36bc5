"""Signing in as the referee on any device (the join form takes the referee token), and POST/redirect/GET
for creating a game: the new game's codes are shown once, to the device that created it, never in a URL."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from tests import csrf
from tests.app.games.conftest import bearer, new_game
from tests.conftest import make_client


def game_count(client: TestClient) -> int:
    return len(client.get("/api/v1/games").json())


def test_reloading_the_created_page_creates_no_other_game(client: TestClient) -> None:
    before = game_count(client)
    posted = client.post(
        "/games/new", data=csrf.form(client, {"scenario": "mons-1914"}), follow_redirects=False
    )
    assert posted.status_code == 303
    location = posted.headers["location"]
    match = re.fullmatch(r"/games/(\d+)/created", location)
    assert match, location  # no code or token in the URL
    game_id = int(match.group(1))
    assert game_count(client) == before + 1

    shown = client.get(location)
    assert shown.status_code == 200
    codes = dict(re.findall(r'data-join-code="(\w+)">([A-Z0-9-]+)<', shown.text))
    assert set(codes) == {"attacker", "defender"}
    # The referee token is there to read on opening "Referee on another device too" (a details element).
    referee_token = re.search(
        r"<details[^>]*>\s*<summary>Referee on another device too</summary>.*?data-referee-token>([\w-]+)<",
        shown.text,
        re.S,
    )
    assert referee_token
    # The codes work, and the token is this device's own referee token.
    assert client.get(f"/api/v1/games/{game_id}/me", headers=bearer(referee_token.group(1))).json()[
        "role"
    ] == ("referee")

    for _ in range(2):  # reload: no new game, and the codes are not shown again
        again = client.get(location)
        assert again.status_code == 200 and "data-join-code" not in again.text
        assert codes["attacker"] not in again.text and referee_token.group(1) not in again.text
        assert f"firestep credentials {game_id}" in again.text and "shown once" in again.text
    assert game_count(client) == before + 1
    joined = client.post("/api/v1/join", json={"code": codes["attacker"]})
    assert joined.status_code == 200 and joined.json()["game_id"] == game_id


def test_the_created_page_shows_nothing_to_another_device(client: TestClient, tmp_path: Path) -> None:
    posted = client.post(
        "/games/new", data=csrf.form(client, {"scenario": "mons-1914"}), follow_redirects=False
    )
    location = posted.headers["location"]
    # The credentials travel in a cookie sent to that one page only, signed with the server's key.
    cookie = next(c for c in client.cookies.jar if c.name == "firestep_created")
    assert cookie.path == location
    other = client.get("/api/v1/games")  # keep the server busy with the same app
    assert other.status_code == 200
    with make_client(str(client.app.state.settings.database_url), tmp_path) as stranger:  # type: ignore[attr-defined]
        page = stranger.get(location)
        assert page.status_code == 401 and "data-join-code" not in page.text
        # A forged or copied cookie from another game is not shown either.
        stranger.cookies.set("firestep_created", cookie.value or "", path=location)
        assert "data-join-code" not in stranger.get(location).text


def test_the_referee_token_signs_in_another_device(client: TestClient, tmp_path: Path) -> None:
    g = new_game(client)
    token = g.body["referee_token"]
    with make_client(str(client.app.state.settings.database_url), tmp_path) as tablet:  # type: ignore[attr-defined]
        signed_in = tablet.post(
            "/join", data=csrf.form(tablet, {"code": f"  {token} "}), follow_redirects=False
        )
        assert signed_in.status_code == 303 and signed_in.headers["location"] == f"/games/{g.id}/referee"
        assert token not in signed_in.headers["location"]
        board = tablet.get(signed_in.headers["location"])
        assert board.status_code == 200 and "Start the game" in board.text
        # A device of its own: its own token, which the referee sees and may revoke alone.
        own = tablet.cookies["firestep_token"]
        assert own != token
        devices = client.get(f"/api/v1/games/{g.id}/devices", headers=g.referee).json()
        referees = [d for d in devices if d["role"] == "referee"]
        assert len(referees) == 2
        first = next(d for d in referees if d["this_device"])
        assert (
            client.post(f"/api/v1/games/{g.id}/devices/{first['id']}/revoke", headers=g.referee).status_code
            == 200
        )
        assert tablet.get(f"/api/v1/games/{g.id}/me").json()["role"] == "referee"
        # A withdrawn token signs in nobody, and says so in plain words.
        tablet.cookies.clear()
        refused = tablet.post("/join", data=csrf.form(tablet, {"code": token}))
        assert (
            refused.status_code == 422
            and "withdrawn" in refused.text
            and "firestep_token" not in refused.cookies
        )


def test_wrong_tokens_count_against_the_join_limit(sqlite_client: TestClient) -> None:
    wrong = "x" * 43
    for _ in range(10):
        r = sqlite_client.post("/join", data=csrf.form(sqlite_client, {"code": wrong}))
        assert r.status_code == 422 and "That join code or token is not known here" in r.text
    limited = sqlite_client.post("/join", data=csrf.form(sqlite_client, {"code": wrong}))
    assert limited.status_code == 429 and "Wait" in limited.text


def test_the_join_forms_ask_for_the_referee_token(sqlite_client: TestClient) -> None:
    g = new_game(sqlite_client)
    # The start page's join form posts what is entered under its label as the code /join takes (a join code or
    # the referee token: test_the_referee_token_signs_in_another_device posts the token there).
    form = re.search(
        r'<form method="post" action="/join"[^>]*>(.*?)</form>', sqlite_client.get("/").text, re.S
    )
    assert form
    label = re.search(
        r"<label for=\"([\w-]+)\">Join code from your card or referee, or a referee's or organiser's token</label>",
        form[1],
    )
    assert label and re.search(rf'<input id="{label[1]}" name="code"', form[1])
    page = sqlite_client.get(f"/games/{g.id}/referee")
    assert page.status_code == 401 and "referee token" in page.text
