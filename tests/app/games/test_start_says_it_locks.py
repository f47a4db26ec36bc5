"""The board's Start says what else it does (the newcomer pass of issue 67): starting the game locks every fire plan
not locked yet (app.services.turns.advance), and the turn panel listed "lock the attacker's fire plan" under Next,
read as a step to do first. One sentence by the button names the plans it locks."""

from __future__ import annotations

import html
import re

from fastapi.testclient import TestClient

from tests.app.games.conftest import new_game


def said(text: str) -> str | None:
    found = re.search(r"<p[^>]*data-start-locks[^>]*>(.*?)</p>", text, re.S)
    return html.unescape(found.group(1)) if found else None


def test_start_says_which_fire_plans_it_locks(client: TestClient) -> None:
    g = new_game(client)
    board = f"/games/{g.id}/referee"
    client.cookies.set("firestep_token", g.referee["Authorization"].removeprefix("Bearer "))
    try:
        assert said(client.get(board).text) == (
            "Starting the game also locks the Attacker's and the Defender's fire plans as they stand."
        )
        locked = client.post(f"/api/v1/games/{g.id}/fireplans/attacker/lock", headers=g.attacker, json={})
        assert locked.status_code == 200, locked.text
        assert (
            said(client.get(board).text)
            == "Starting the game also locks the Defender's fire plan as it stands."
        )
    finally:
        client.cookies.clear()
    # A player's board offers no Start away from an event's table: nothing to say.
    client.cookies.set("firestep_token", g.attacker["Authorization"].removeprefix("Bearer "))
    try:
        assert said(client.get(board).text) is None
    finally:
        client.cookies.clear()
