"""A round's commit in short units of work (issue 63: app.services.round_commit.RoundCommit), on SQLite and
PostgreSQL: interrupted midway, the round is committing and shows nothing (its tables no game, the board no
table, the lobby none of its games, no new draft), and the organiser's retry finishes it with exactly one game
per table, every game's referee token and join codes answered. How long another table's write waits behind a
commit is bench/event_day.py's (no timing here)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session, col, func, select

from app.core.db import make_engine
from app.core.writing import unit_of_work
from app.data.models import Game
from app.services import round_commit
from tests.app.events.test_event_day import bearer, new_event, register
from tests.conftest import TEST_SECRET_KEY

SCENARIO = "mons-1914"
TABLES = 5


def game_count(url: str) -> int:
    engine = make_engine(url)
    try:
        with Session(engine) as s:
            return int(s.exec(select(func.count(col(Game.id)))).one())
    finally:
        engine.dispose()


@pytest.mark.storage
def test_a_commit_interrupted_midway_shows_nothing_and_its_retry_makes_one_game_per_table(
    client: TestClient, migrated_url: str
) -> None:
    event_id, organiser = new_event(client, rounds=2)
    register(client, event_id, organiser, n=2 * TABLES)
    drafted = client.post(f"/api/v1/events/{event_id}/rounds", headers=organiser, json={"scenario": SCENARIO})
    assert drafted.status_code == 201, drafted.text
    before = game_count(migrated_url)

    # The commit's first steps, each its own unit of work, then the process gone (no `finish`): one table at
    # a time (a budget of none; the first game's force in pieces), two of the five tables' games made.
    engine = make_engine(migrated_url)
    try:
        with Session(engine) as s:
            job = round_commit.RoundCommit(TEST_SECRET_KEY, event_id, 1, budget=0.0)
            with unit_of_work(s):
                job.begin(s)
            while len(job.credentials) < 2:
                with unit_of_work(s):
                    assert job.make_some(s)
    finally:
        engine.dispose()
    assert game_count(migrated_url) == before + 2

    rnd = client.get(f"/api/v1/events/{event_id}/rounds/1").json()
    assert rnd["status"] == "committing"
    assert [t["game_id"] for t in rnd["tables"]] == [None] * TABLES
    assert {t["status"] for t in rnd["tables"]} == {"drafted"}
    board = client.get(f"/api/v1/events/{event_id}/board", headers=organiser).json()
    assert board["round"] is None and board["tables"] == []
    assert len(client.get("/api/v1/games").json()) == before  # the lobby: none of the round's games
    again = client.post(f"/api/v1/events/{event_id}/rounds", headers=organiser, json={"scenario": SCENARIO})
    assert again.status_code == 409 and "commit it again" in again.json()["detail"], again.text
    swap = client.post(f"/api/v1/events/{event_id}/rounds/1/swap", headers=organiser,
                       json={"version": 1, "swap": "tables", "first": 1, "second": 2})  # fmt: skip
    assert swap.status_code == 409, swap.text
    client.cookies.set("firestep_organiser", organiser["Authorization"].removeprefix("Bearer "))
    desk = client.get(f"/events/{event_id}").text  # the organiser's page: one button, the one that finishes
    assert "games are being made" in desk and desk.count("/rounds/1/commit") == 1, desk
    assert "Finish committing round 1" in desk and "data-draft-swap" not in desk and "Draft again" not in desk
    client.cookies.clear()

    committed = client.post(f"/api/v1/events/{event_id}/rounds/1/commit", headers=organiser)
    assert committed.status_code == 200, committed.text
    seats = committed.json()["seats"]
    assert committed.json()["status"] == "committed"
    assert game_count(migrated_url) == before + TABLES  # the two made before kept, three more, none twice
    games = [s["game_id"] for s in seats]
    assert len(set(games)) == TABLES
    assert sorted(t["game_id"] for t in committed.json()["tables"]) == sorted(games)
    assert len(client.get("/api/v1/games").json()) == before + TABLES
    board = client.get(f"/api/v1/events/{event_id}/board", headers=organiser).json()
    assert board["round"] == 1 and sorted(t["game_id"] for t in board["tables"]) == sorted(games)
    for seat in seats:  # the interrupted commit's games too: a referee token and cards that seat a side
        turn = client.get(f"/api/v1/games/{seat['game_id']}/turn", headers=bearer(seat["referee_token"]))
        assert turn.status_code == 200, turn.text
        joined = client.post("/api/v1/join", json={"code": seat["join_codes"]["attacker"]})
        assert joined.status_code == 200 and joined.json()["game_id"] == seat["game_id"], joined.text
    twice = client.post(f"/api/v1/events/{event_id}/rounds/1/commit", headers=organiser)
    assert twice.status_code == 409, twice.text
    assert game_count(migrated_url) == before + TABLES
