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
            assert next(frames)["round"] == {"round": 1, "ends_at": "2031-01-01T20:30:00Z"}
            assert http.put(
                f"/api/v1/events/{event_id}/timer", headers=organiser, json={"ends_at": None}
            ).is_success
            assert next(frames)["round"] == {"round": None, "ends_at": None}  # stopped
