"""The organiser's board stays live all day (the hostile pass of session 16): a stream opened in round 1 followed
round 1's games alone, so once round 2 was committed it sent nothing more (the JSON stream and the page's cells
alike). The round committed wakes it on the event's own channel, and it follows the new round's games from then
on (app.core.watch); on PostgreSQL the event's wake-up comes through LISTEN/NOTIFY as the games' do."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from tests.app.events.test_event_day import SCENARIO, bearer, new_event, register
from tests.app.games.conftest import live_url  # noqa: F401 (a fixture)


def boards(lines: Iterator[str]) -> Iterator[dict[str, Any]]:
    """The board frames of an SSE stream's lines, in order."""
    kind = ""
    for line in lines:
        if line.startswith("event:"):
            kind = line[6:].strip()
        elif line.startswith("data:") and kind == "board":
            yield json.loads(line[5:])


def until(frames: Iterator[dict[str, Any]], holds: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first frame of which `holds` is true (the stream's read timeout ends a wait for one that never comes)."""
    return next(f for f in frames if holds(f))


@pytest.mark.storage  # each backend wakes the streams its own way (PostgreSQL: LISTEN/NOTIFY)
def test_a_board_opened_in_round_one_follows_round_two(live_url: str) -> None:  # noqa: F811
    with httpx.Client(base_url=live_url, timeout=30) as http:
        event_id, organiser = new_event(http, rounds=2)  # type: ignore[arg-type]
        register(http, event_id, organiser, n=2)  # type: ignore[arg-type]
        rounds = f"/api/v1/events/{event_id}/rounds"
        assert http.post(rounds, headers=organiser, json={"scenario": SCENARIO}).is_success
        first = http.post(f"{rounds}/1/commit", headers=organiser).json()["seats"][0]
        url = f"{live_url}/api/v1/events/{event_id}/stream"
        with httpx.stream("GET", url, headers=organiser, timeout=httpx.Timeout(30, read=10)) as r:
            frames = boards(r.iter_lines())
            assert until(frames, lambda f: True)["round"] == 1
            result = {"winner": "a", "a_points": 3, "b_points": 1, "why": ""}
            table = f"/api/v1/events/{event_id}/tables/{first['table_id']}/result"
            assert http.put(table, headers=organiser, json=result).status_code == 200
            # Round 1's wake-up read before round 2 is made: what follows is round 2's own.
            assert until(frames, lambda f: f["tables"][0]["status"] == "altered")["round"] == 1

            assert http.post(rounds, headers=organiser, json={"scenario": SCENARIO}).is_success
            second = http.post(f"{rounds}/2/commit", headers=organiser).json()["seats"][0]
            assert until(frames, lambda f: f["round"] == 2)["tables"][0]["game_status"] == "setup"
            game, referee = f"/api/v1/games/{second['game_id']}", bearer(second["referee_token"])
            version = http.get(f"{game}/turn", headers=referee).json()["version"]
            assert http.post(f"{game}/turn/advance", headers=referee, json={"version": version}).is_success
            moved = until(frames, lambda f: f["tables"][0]["game_status"] == "playing")
            assert moved["round"] == 2 and moved["tables"][0]["game_id"] == second["game_id"]
