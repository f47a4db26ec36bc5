"""The organiser's board stays live all day (the hostile pass of session 16): a stream opened in round 1 followed
round 1's games alone, so once round 2 was committed it sent nothing more (the JSON stream and the page's cells
alike). The round committed wakes it on the event's own channel, and it follows the new round's games from then
on (app.core.watch); on PostgreSQL the event's wake-up comes through LISTEN/NOTIFY as the games' do."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from tests.app.events.test_event_day import SCENARIO, bearer, new_event, register
from tests.app.events.test_event_seats import committed_table
from tests.app.games.conftest import live_url  # noqa: F401 (a fixture)


def boards(lines: Iterator[str]) -> Iterator[Any]:
    """The board frames of an SSE stream's lines, in order (a JSON view's object, the page's cells' HTML)."""
    kind = ""
    for line in lines:
        if line.startswith("event:"):
            kind = line[6:].strip()
        elif line.startswith("data:") and kind == "board":
            yield json.loads(line[5:])


def until(frames: Iterator[Any], holds: Callable[[Any], bool]) -> Any:
    """The first frame of which `holds` is true (the stream's read timeout ends a wait for one that never comes)."""
    return next(f for f in frames if holds(f))


@pytest.mark.storage  # each backend wakes the streams its own way (PostgreSQL: LISTEN/NOTIFY)
def test_a_board_opened_in_round_one_follows_round_two(live_url: str) -> None:  # noqa: F811
    with httpx.Client(base_url=live_url, timeout=30) as http:
        event_id, organiser, first = committed_table(http, rounds=2)
        rounds = f"/api/v1/events/{event_id}/rounds"
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


def test_a_page_open_in_round_one_is_sent_round_two_whole(live_url: str) -> None:  # noqa: F811
    """The page's cells stream (`?view=html`, the round the page shows): once another round is committed its frame
    carries that round's piece whole (the heading and every table, as the page draws them), not cells of tables
    the page does not show (session 17's newcomer pass: round 1's rows stayed on screen)."""
    with httpx.Client(base_url=live_url, timeout=30) as http:
        event_id, organiser, first = committed_table(http, rounds=2)
        rounds = f"/api/v1/events/{event_id}/rounds"
        url = f"{live_url}/api/v1/events/{event_id}/stream?view=html&round=1"
        with httpx.stream("GET", url, headers=organiser, timeout=httpx.Timeout(30, read=5)) as r:
            frames = boards(r.iter_lines())
            assert 'id="ev-round-tables"' not in until(
                frames, lambda f: True
            )  # the page shows round 1 already
            result = {"winner": "a", "a_points": 3, "b_points": 1, "why": ""}
            table = f"/api/v1/events/{event_id}/tables/{first['table_id']}/result"
            assert http.put(table, headers=organiser, json=result).status_code == 200
            assert http.post(rounds, headers=organiser, json={"scenario": SCENARIO}).is_success
            second = http.post(f"{rounds}/2/commit", headers=organiser).json()["seats"][0]
            piece = until(frames, lambda f: 'id="ev-round-tables"' in f)
        assert "Round 2: every table" in piece and 'id="ev-round-no" hx-swap-oob="true">Round 2<' in piece
        assert f'data-table-id="{second["table_id"]}"' in piece
        assert f'data-table-id="{first["table_id"]}"' not in piece


def test_the_pages_of_tables_and_standings_shown_are_sent_alone(live_url: str) -> None:  # noqa: F811
    """The organiser's page tells its stream the page of tables it shows (`page`, `q`, as its links and find box
    ask): the first frame carries the cells of those tables alone (it carried every table's: 400 rows a device,
    none of them on the page but a page's), the round at a glance of all of them. So with the standings' page
    (`standings`): that page's rows, sent again with the results counted once a result settles (issue 93: the
    page drew the first 25 alone, and a result of a player below them never showed on any device)."""
    with httpx.Client(base_url=live_url, timeout=30) as http:
        event_id, organiser = new_event(http, rounds=1)
        register(http, event_id, organiser, n=54)  # 27 tables: two pages of the board
        assert http.post(f"/api/v1/events/{event_id}/rounds", headers=organiser, json={"scenario": SCENARIO})
        while (
            done := http.post(f"/api/v1/events/{event_id}/rounds/1/commit", headers=organiser)
        ).status_code == 202:
            pass
        assert done.is_success, done.text
        ids = {
            t["table"]: t["id"]
            for t in http.get(f"/api/v1/events/{event_id}/board", headers=organiser).json()["tables"]
        }
        url = f"{live_url}/api/v1/events/{event_id}/stream?view=html&round=1"
        for asked, shown in (("&page=2", {ids[26], ids[27]}), ("&q=3", {ids[3]})):
            with httpx.stream("GET", url + asked, headers=organiser, timeout=httpx.Timeout(30, read=10)) as r:
                first = until(boards(r.iter_lines()), lambda f: "ev-summary" in f)
            assert set(map(int, re.findall(r'id="ev-turn-(\d+)"', first))) == shown, asked
            assert "<strong>27</strong> tables:" in first
        with httpx.stream(
            "GET", url + "&standings=2", headers=organiser, timeout=httpx.Timeout(30, read=10)
        ) as r:
            frames = boards(r.iter_lines())
            first = until(frames, lambda f: "ev-standings" in f)
            assert (
                first.count("<tr>") == 4
                and "places 51–54 of 54" in first
                and "<strong>0</strong> results" in first
            )
            paper = {"winner": "a", "a_points": 3, "b_points": 1, "why": ""}
            table = f"/api/v1/events/{event_id}/tables/{ids[27]}/result"
            assert http.put(table, headers=organiser, json=paper).status_code == 200
            counted = until(frames, lambda f: "ev-counted" in f)
            assert "<strong>1</strong> result counted" in counted and counted.count("<tr>") == 4
