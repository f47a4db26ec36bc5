"""The game clock over the API (issue 55), on each backend: it charges the side to move from the moment the
game starts and stops while the referee pauses it; only the referee pauses it or gives time back, each logged;
and a new app on the same database answers the same clock (it is read from the log, not kept in memory).

The events carry the times they were logged at; the moment the clock is asked at is the app's clock
(`app.state.clock`), set here, so no test waits for time to pass."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests import csrf
from tests.app.games.conftest import Game, new_game, start_game
from tests.conftest import make_client


def logged_at(http: TestClient, g: Game, kind: str) -> datetime:
    """When the game's latest event of `kind` was logged."""
    events = http.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json()
    at = datetime.fromisoformat(next(e for e in reversed(events) if e["kind"] == kind)["created_at"])
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def clock_at(http: TestClient, g: Game, now: datetime, who: dict[str, str]) -> dict[str, Any]:
    http.app.state.clock = lambda: now  # type: ignore[attr-defined]
    r = http.get(f"/api/v1/games/{g.id}/clock", headers=who)
    assert r.status_code == 200, r.text
    return dict(r.json())


def by_side(clock: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["side"]: s for s in clock["sides"]}


@pytest.mark.storage  # the clock read back from what each backend stored
def test_the_clock_charges_the_side_to_move_stops_while_paused_and_survives_a_restart(
    client: TestClient, migrated_url: str, tmp_path: Path
) -> None:
    g = new_game(client, {"scenario": "mons-1914", "clock": {"game_minutes": 120, "turn_minutes": 15}})
    before = clock_at(client, g, datetime.now(UTC) + timedelta(hours=1), g.attacker)
    assert before["running"] == [] and not before["started"]  # set-up takes no one's time
    assert before["limits"]["game_seconds"] == {"attacker": 7200, "defender": 7200}
    assert before["limits"]["turn_seconds"] == {"attacker": 900, "defender": 900}

    start_game(client, g)
    started = logged_at(client, g, "game-started")
    c = clock_at(client, g, started + timedelta(seconds=100), g.defender)
    assert c["running"] == ["attacker"] and not c["paused"]
    attacker, defender = by_side(c)["attacker"], by_side(c)["defender"]
    assert attacker["used_seconds"] == pytest.approx(100, abs=0.01) and defender["used_seconds"] == 0
    assert attacker["remaining_seconds"] == pytest.approx(7200 - 100, abs=0.01)
    assert attacker["turn_remaining_seconds"] == pytest.approx(900 - 100, abs=0.01)

    # Only the referee pauses it; paused, nobody's time runs however long the pause.
    refused = client.post(f"/api/v1/games/{g.id}/clock/pause", headers=g.attacker)
    assert refused.status_code == 403, refused.text
    r = client.post(f"/api/v1/games/{g.id}/clock/pause", headers=g.referee)
    assert r.status_code == 200 and r.json()["paused"], r.text
    paused = logged_at(client, g, "clock-paused")
    charged = (paused - started).total_seconds()
    for later in (timedelta(minutes=5), timedelta(hours=3)):
        c = clock_at(client, g, paused + later, g.attacker)
        assert c["running"] == [] and c["paused"]
        assert by_side(c)["attacker"]["used_seconds"] == pytest.approx(charged, abs=0.01)
    again = client.post(f"/api/v1/games/{g.id}/clock/pause", headers=g.referee)
    assert again.status_code == 409 and "already paused" in again.json()["detail"], again.text

    # Time given back is the referee's, and logged.
    assert (
        client.post(
            f"/api/v1/games/{g.id}/clock/give", headers=g.defender, json={"side": "defender", "seconds": 60}
        ).status_code
        == 403
    )
    r = client.post(
        f"/api/v1/games/{g.id}/clock/give", headers=g.referee, json={"side": "attacker", "seconds": 60}
    )
    assert r.status_code == 200, r.text
    assert by_side(r.json())["attacker"]["given_seconds"] == 60
    given = client.get(f"/api/v1/games/{g.id}/events", headers=g.defender).json()[-1]
    assert (given["kind"], given["actor"], given["payload"]["side"], given["payload"]["seconds"]) == (
        "clock-time-given", "referee", "attacker", 60
    )  # fmt: skip

    r = client.post(f"/api/v1/games/{g.id}/clock/resume", headers=g.referee)
    assert r.status_code == 200 and r.json()["running"] == ["attacker"], r.text
    resumed = logged_at(client, g, "clock-resumed")
    asked = resumed + timedelta(seconds=30)
    c = clock_at(client, g, asked, g.referee)
    assert by_side(c)["attacker"]["used_seconds"] == pytest.approx(charged + 30, abs=0.01)
    assert by_side(c)["attacker"]["remaining_seconds"] == pytest.approx(7200 + 60 - charged - 30, abs=0.01)

    # The story of the turn tells the referee's acts on the clock.
    story = client.get(f"/api/v1/games/{g.id}/report", headers=g.defender).json()["story"]
    said = next(t["sentences"] for t in story["turns"] if t["turn"] == 1)
    assert said[-3:] == [
        "The referee paused the clock.",
        "The referee gave the attacker 1 min back.",
        "The referee restarted the clock.",
    ]

    # A new app on the same database reads the same clock from the log.
    with make_client(migrated_url, tmp_path) as restarted:
        assert clock_at(restarted, g, asked, g.referee) == c


def test_the_limits_are_the_referees_and_bounded(sqlite_client: TestClient) -> None:
    client = sqlite_client
    g = new_game(client)
    url = f"/api/v1/games/{g.id}/clock/limits"
    assert client.put(url, headers=g.attacker, json={"game_minutes": 90}).status_code == 403
    r = client.put(url, headers=g.referee, json={"game_minutes": 90, "turn_minutes": 10})
    assert r.status_code == 200, r.text
    assert r.json()["limits"]["game_seconds"] == {"attacker": 5400, "defender": 5400}
    bad_ones: list[dict[str, Any]] = [
        {"turn_minutes": 0},
        {"game_minutes": 100_000},
        {"turn_minutes": 241},
        {"turn_seconds": {"attacker": 0}},
        {"game_seconds": {"umpire": 60}},
        {"end_under_seconds": 0},
    ]
    for bad in bad_ones:
        refused = client.put(url, headers=g.referee, json=bad)
        assert refused.status_code == 422 and next(iter(bad)) in refused.text, refused.text
    r = client.post(
        f"/api/v1/games/{g.id}/clock/give", headers=g.referee, json={"side": "umpire", "seconds": 5}
    )
    assert r.status_code == 422 and "side" in r.text
    r = client.post("/api/v1/games", json={"scenario": "mons-1914", "clock": {"turn_minutes": 0}})
    assert r.status_code == 422 and "turn_minutes" in r.text


def test_the_lobby_sets_the_clocks_limits_as_it_creates_the_game(sqlite_client: TestClient) -> None:
    form = {"scenario": "mons-1914", "clock_game": "150", "clock_game_unit": "60", "clock_turn": "45"}
    form["clock_turn_unit"] = "1"  # seconds: less than the whole minute the lobby once allowed at least
    made = sqlite_client.post("/games/new", data=csrf.form(sqlite_client, form), follow_redirects=False)
    assert made.status_code == 303, made.text
    game_id = int(made.headers["location"].split("/")[2])
    clock = sqlite_client.get(f"/api/v1/games/{game_id}/clock").json()  # the creator's referee cookie
    assert clock["limits"]["game_seconds"] == {"attacker": 9000, "defender": 9000}
    assert clock["limits"]["turn_seconds"] == {"attacker": 45, "defender": 45}
    # "²" passed str.isdigit and was a 500 in int(), and so were 5000 digits, past int()'s 4300 (issue 64's
    # hostile passes)
    for bad in ("0", "²", "9" * 5000):
        refused = sqlite_client.post("/games/new", data=csrf.form(sqlite_client, {**form, "clock_turn": bad}))
        assert refused.status_code == 422 and "turn" in refused.text.lower(), bad


def test_the_score_carries_each_sides_clock(sqlite_client: TestClient) -> None:
    """GET /score's `clocks` are GET /clock's sides at the same moment (wt55score's GameScore)."""
    client = sqlite_client
    g = new_game(client)
    start_game(client, g)
    now = logged_at(client, g, "game-started") + timedelta(seconds=42)
    clock = clock_at(client, g, now, g.attacker)
    score = client.get(f"/api/v1/games/{g.id}/score", headers=g.attacker).json()
    assert score["clocks"] == clock["sides"]
    assert by_side(score | {"sides": score["clocks"]})["attacker"]["used_seconds"] == pytest.approx(
        42, abs=0.01
    )
