"""A moved round end reaches every open page live (issue 57): a table game's stream, the one live connection
of its map, referee board and table page, carries the event round's timer beside the events (an `aside`
frame, no id), at once and again when the organiser moves or stops it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx

from tests.app.events.test_event_day import SCENARIO, bearer, new_event, register
from tests.app.games.conftest import live_url  # noqa: F401 (a fixture)


def asides(lines: Iterator[str]) -> Iterator[dict[str, Any]]:
    """The aside frames of an SSE stream's lines, in order (the events' frames passed over)."""
    kind, data = "", ""
    for line in lines:
        if line == "":
            if kind == "aside":
                yield json.loads(data)
            kind, data = "", ""
        elif line.startswith("event:"):
            kind = line[6:].strip()
        elif line.startswith("data:"):
            data = line[5:].strip()


def test_a_moved_round_end_reaches_the_tables_game_stream(live_url: str) -> None:  # noqa: F811
    with httpx.Client(base_url=live_url, timeout=30) as http:
        event_id, organiser = new_event(http, rounds=1)  # type: ignore[arg-type]
        register(http, event_id, organiser, n=2)  # type: ignore[arg-type]
        assert http.post(
            f"/api/v1/events/{event_id}/rounds", headers=organiser, json={"scenario": SCENARIO}
        ).is_success
        seat = http.post(f"/api/v1/events/{event_id}/rounds/1/commit", headers=organiser).json()["seats"][0]
        ends = http.get(f"/api/v1/events/{event_id}").json()["round_ends_at"]
        player = bearer(
            http.post("/api/v1/join", json={"code": seat["join_codes"]["attacker"]}).json()["token"]
        )
        url = f"{live_url}/api/v1/games/{seat['game_id']}/stream"
        with httpx.stream("GET", url, headers=player, timeout=httpx.Timeout(30, read=10)) as r:
            frames = asides(r.iter_lines())
            first = next(frames)["round"]
            assert first["round"] == 1 and first["ends_at"][:19] == ends[:19]
            moved = http.put(f"/api/v1/events/{event_id}/timer", headers=organiser,
                             json={"ends_at": "2031-01-01T20:30:00+00:00"})  # fmt: skip
            assert moved.is_success, moved.text
            assert next(frames)["round"] == {**first, "ends_at": "2031-01-01T20:30:00Z"}
            assert http.put(
                f"/api/v1/events/{event_id}/timer", headers=organiser, json={"ends_at": None}
            ).is_success
            assert next(frames)["round"] == {**first, "round": None, "ends_at": None}  # stopped


def test_the_other_players_confirmation_reaches_a_seats_stream(live_url: str) -> None:  # noqa: F811
    """The table's page follows its result (event-table.js reads itself anew on a change of the aside's
    `result` and `confirmed`): one player's confirmation reaches the other's stream."""
    with httpx.Client(base_url=live_url, timeout=30) as http:
        event_id, organiser = new_event(http, rounds=1)  # type: ignore[arg-type]
        register(http, event_id, organiser, n=2)  # type: ignore[arg-type]
        assert http.post(
            f"/api/v1/events/{event_id}/rounds", headers=organiser, json={"scenario": SCENARIO}
        ).is_success
        seat = http.post(f"/api/v1/events/{event_id}/rounds/1/commit", headers=organiser).json()["seats"][0]
        a, b = (
            bearer(http.post("/api/v1/join", json={"code": seat["join_codes"][s]}).json()["token"])
            for s in ("attacker", "defender")
        )
        game, referee = f"/api/v1/games/{seat['game_id']}", bearer(seat["referee_token"])
        version = http.get(f"{game}/turn", headers=referee).json()["version"]
        assert http.post(f"{game}/finish", headers=referee, json={"version": version}).is_success
        with httpx.stream(
            "GET", f"{live_url}{game}/stream", headers=b, timeout=httpx.Timeout(30, read=10)
        ) as r:
            frames = asides(r.iter_lines())
            assert next(frames)["round"]["confirmed"] == 0
            table = f"/api/v1/events/{event_id}/tables/{seat['table_id']}"
            assert http.post(f"{table}/confirm", headers=a).is_success
            assert {k: v for k, v in next(frames)["round"].items() if k in ("result", "confirmed")} == {
                "result": "offered",
                "confirmed": 1,
            }
