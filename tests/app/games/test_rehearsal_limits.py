"""Rehearsals are bounded per device and overall: past a limit the answer is 429 with Retry-After and a
message naming the limit, on the API and on the fire-plan page; other devices are still answered."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack

import httpx
from fastapi.testclient import TestClient
from sqlmodel import Session, select

from app.data.models import Token
from app.services import rehearsal
from tests.app.games.conftest import Game, new_game
from tests.app.games.test_rehearsal_api import BRITISH, url, write


def device(c: TestClient, g: Game, role: str) -> int:
    with Session(c.app.state.engine) as s:  # type: ignore[attr-defined]
        token = s.exec(select(Token).where(Token.game_id == g.id, Token.role == role)).one()
        assert token.id is not None
        return token.id


def refused(r: httpx.Response, limit: str) -> None:
    assert r.status_code == 429, r.text
    assert int(r.headers["Retry-After"]) >= 1
    assert limit in r.json()["why"], r.json()


def test_a_device_past_its_limit_is_refused_and_others_are_answered(client: TestClient, mons: Game) -> None:
    c, g = client, mons
    write(c, g, "defender", BRITISH)
    defender = device(c, g, "defender")
    with ExitStack() as running:  # this many rehearsals of the defender's device are already under way
        for _ in range(rehearsal.PER_DEVICE):
            running.enter_context(rehearsal.GATE.admit(defender))
        r = c.post(url(g, "defender"), headers=g.defender, json={"turns": 1})
        refused(r, f"already has {rehearsal.PER_DEVICE} fire-plan rehearsals running, the limit per device")
        # The fire-plan page is shown, without its rehearsal, saying why.
        c.cookies.set("firestep_token", g.defender["Authorization"].removeprefix("Bearer "))
        page = c.get(f"/games/{g.id}/fire-plan")
        c.cookies.clear()
        assert page.status_code == 200 and "the limit per device" in page.text, page.text[-2000:]
        # The referee's device is another device.
        assert c.post(url(g, "defender"), headers=g.referee, json={"turns": 1}).status_code == 200
    assert c.post(url(g, "defender"), headers=g.defender, json={"turns": 1}).status_code == 200


def test_past_the_overall_limit_every_device_is_refused(client: TestClient, mons: Game) -> None:
    c, g = client, mons
    write(c, g, "defender", BRITISH)
    with ExitStack() as running:  # other games' devices fill the server's rehearsals
        for other in range(rehearsal.OVERALL):
            running.enter_context(rehearsal.GATE.admit(-1 - other))
        r = c.post(url(g, "defender"), headers=g.defender, json={"turns": 1})
        refused(r, f"already running {rehearsal.OVERALL} fire-plan rehearsals, its limit")
    assert c.post(url(g, "defender"), headers=g.defender, json={"turns": 1}).status_code == 200


def test_concurrent_rehearsals_from_one_device_past_its_limit_are_refused(live_url: str) -> None:
    """Real concurrent requests on a real server: the worker process runs one rehearsal at a time, so of
    many sent at once by one device at most PER_DEVICE are answered while the rest are refused."""
    with httpx.Client(base_url=live_url, timeout=60) as http:
        g = new_game(http)
        write(http, g, "defender", BRITISH)  # type: ignore[arg-type]
        http.post(url(g, "defender"), headers=g.defender, json={"turns": 1})  # the worker process is up
        body = {"turns": 8}

        def one(_: int) -> httpx.Response:
            return http.post(url(g, "defender"), headers=g.defender, json=body)

        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(one, range(8)))
    statuses = sorted(r.status_code for r in answers)
    assert set(statuses) == {200, 429}, statuses
    assert rehearsal.PER_DEVICE <= statuses.count(200) < 8
    for r in answers:
        if r.status_code == 429:
            refused(r, "the limit per device")
