"""Fixtures for games: a Mons 1914 game with its credentials, and the app served by a real uvicorn on
127.0.0.1 for the tests that need real concurrent requests and streaming."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete
from sqlmodel import Session, col, select

from app.core.config import Settings
from app.data.clock_state import StoredClock
from app.data.models import Event
from app.guard.auth import COOKIE_NAME
from app.main import create_app
from tests.conftest import TEST_SECRET_KEY, served_in_thread


@dataclass
class Game:
    id: int
    referee: dict[str, str]
    attacker: dict[str, str]
    defender: dict[str, str]
    codes: dict[str, str]
    body: dict[str, Any]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_game(http: Any, payload: dict[str, Any] | None = None) -> Game:
    """Create a game (Mons 1914 by default) and join both sides with their codes."""
    r = http.post("/api/v1/games", json=payload or {"scenario": "mons-1914"})
    assert r.status_code == 201, r.text
    body = r.json()
    tokens = {}
    for side in ("attacker", "defender"):
        j = http.post("/api/v1/join", json={"code": body["join_codes"][side]})
        assert j.status_code == 200, j.text
        assert j.json()["side"] == side and j.json()["game_id"] == body["game"]["id"]
        tokens[side] = bearer(j.json()["token"])
    if hasattr(http, "cookies"):
        http.cookies.clear()  # joining sets the cookie; tests name their token explicitly
    return Game(
        body["game"]["id"],
        bearer(body["referee_token"]),
        tokens["attacker"],
        tokens["defender"],
        body["join_codes"],
        body,
    )


def result_line(http: Any, game: Game, page: str, headers: dict[str, str]) -> str:
    """The words of the result line (frontend/templates/_result_line.html) on one of the game's pages
    ("counters", "map", "referee"), as the seat of `headers` reads it."""
    http.cookies.set(COOKIE_NAME, headers["Authorization"].removeprefix("Bearer "))
    try:
        answer = http.get(f"/games/{game.id}/{page}")
    finally:
        http.cookies.clear()
    assert answer.status_code == 200, answer.text
    found = re.search(r"<p[^>]*data-result-line[^>]*>(.*?)</p>", answer.text, re.S)
    assert found is not None, f"no result line on /{page}"
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1)))


def start_game(http: Any, game: Game) -> dict[str, Any]:
    """The referee starts the game: turn 1, the attacker's first step (markers are not placed in set-up)."""
    version = http.get(f"/api/v1/games/{game.id}/turn", headers=game.referee).json()["version"]
    r = http.post(f"/api/v1/games/{game.id}/turn/advance", headers=game.referee, json={"version": version})
    assert r.status_code == 200, r.text
    return dict(r.json()["turn"])


def advance_to(http: Any, game: Game, step: str) -> dict[str, Any]:
    """The referee moves the game on to the next `step` (by its id): the turn as it then stands."""
    for _ in range(40):
        version = http.get(f"/api/v1/games/{game.id}/turn", headers=game.referee).json()["version"]
        r = http.post(
            f"/api/v1/games/{game.id}/turn/advance", headers=game.referee, json={"version": version}
        )
        assert r.status_code == 200, r.text
        if r.json()["turn"]["step"]["id"] == step:
            return dict(r.json()["turn"])
    raise AssertionError(f"no step {step} within 40 advances")


@pytest.fixture
def mons(client: TestClient) -> Game:
    return new_game(client)


def played_ago(client: TestClient, game: Game, seconds: int) -> None:
    """Every event of the game logged `seconds` earlier: as if what was played had been played that long ago. The
    log rewritten behind the app's back, its stored clock (derived from the log) goes with it: counted anew."""
    with Session(client.app.state.engine) as s:  # type: ignore[attr-defined]
        for ev in s.exec(select(Event).where(Event.game_id == game.id)):
            ev.created_at = ev.created_at - timedelta(seconds=seconds)
            s.add(ev)
        s.execute(delete(StoredClock).where(col(StoredClock.game_id) == game.id))
        s.commit()


def units_by_ref(http: Any, game: Game) -> dict[str, dict[str, Any]]:
    r = http.get(f"/api/v1/games/{game.id}/units", headers=game.referee)
    assert r.status_code == 200
    return {u["ref"]: u for u in r.json()}


@pytest.fixture
def live_url(migrated_url: str, tmp_path: Path) -> Iterator[str]:
    """The app on a real server (both backends), for concurrent requests and Server-Sent Events."""
    # The test clients' key: a token a test client issued is found by this server too.
    app = create_app(Settings(database_url=migrated_url, var_dir=tmp_path, secret_key=TEST_SECRET_KEY))
    # Idle kept-alive connections stay open (as the browser tests' servers): a client reusing one the server
    # closed after its 5 s default, as it sent on it, would read a reset on a busy machine.
    with served_in_thread(app, timeout_graceful_shutdown=1, timeout_keep_alive=3600) as port:
        yield f"http://127.0.0.1:{port}"
    app.state.engine.dispose()


def unpacked(http: Any, game: Game, unit_id: int) -> None:
    """Mons starts its MGs on their pack animals: the referee has one unpacked (to shoot from the table)."""
    url = f"/api/v1/games/{game.id}/units/{unit_id}"
    version = http.get(url, headers=game.referee).json()["version"]
    r = http.put(url, headers=game.referee, json={"version": version, "packed": False, "override": True})
    assert r.status_code == 200, r.text
