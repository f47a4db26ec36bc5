"""The stored score (app.services.score, issue 88): advanced in the unit of work of every act that logs an event,
so a read is a row. After any acts and undos it is the whole log's replay (rules.core.score.score_of, what
every read did before), on each backend; and a read after an act costs the same at 100 events as at 5,000."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import event, func, insert, update
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.data.models import Event, Game, Unit
from app.data.score_state import StoredScore
from app.services import score, score_store
from app.services.markers import rules_of
from rules.core.score import Piece, Score, score_of
from tests.app.games.conftest import Game as Seats
from tests.app.games.conftest import new_game, start_game


def _square(oid: str, name: str, x: float, y: float, **props: Any) -> dict[str, Any]:
    ring = [[x - 3, y - 3], [x + 3, y - 3], [x + 3, y + 3], [x - 3, y + 3], [x - 3, y - 3]]
    return {
        "type": "Feature",
        "id": oid,
        "geometry": {"type": "Polygon", "coordinates": [ring]},
        "properties": {"name": name, "vp": 1, **props},
    }


MONS = Path(__file__).parents[2] / "rules/flanders_fields/data/scenarios/mons-1914.json"

# Every way an objective scores, each a 6 cm square on Mons' table.
OBJECTIVES: dict[str, Any] = {
    "type": "FeatureCollection",
    "features": [
        _square("bridge-1", "Bridge 1", 40, 120, scored="each_turn"),
        _square("bridge-2", "Bridge 2", 80, 120, scored="first_taken", vp=2),
        _square("ford", "The ford", 60, 120, scored="held_turns", turns=2, consecutive=True),
        _square("farm", "The farm", 40, 60, scored="game_end"),
    ],
}
# Where a stand is sent: onto an objective, onto an edge (contested) or away.
PLACES = [
    (40.0, 120.0),
    (80.0, 120.0),
    (60.0, 120.0),
    (40.0, 60.0),
    (40.0, 123.5),
    (80.0, 116.5),
    (10.0, 10.0),
]


def engine_of(client: TestClient) -> Engine:
    engine: Engine = client.app.state.engine  # type: ignore[attr-defined]
    return engine


def whole_log_replayed(session: Session, game: Game) -> Score:
    """The score as every read worked it out before issue 88: the whole log replayed over the stands now, with
    the game's objectives, its secret ones too."""
    frame = score_store.frames(session, [game])[game.pk]
    objectives, conditions = frame.objectives, frame.conditions
    book = rules_of(game).book
    rows = session.execute(
        select(col(Event.id), col(Event.turn), col(Event.kind), col(Event.payload))
        .add_columns(col(Event.private), col(Event.reverses_id))
        .where(col(Event.game_id) == game.pk)
        .order_by(col(Event.id))
    ).all()
    undone = {r.reverses_id for r in rows if r.reverses_id is not None}
    stands = session.execute(
        select(col(Unit.id), col(Unit.side), col(Unit.base), col(Unit.x))
        .add_columns(col(Unit.y), col(Unit.facing_deg), col(Unit.killed), col(Unit.off_table))
        .where(col(Unit.game_id) == game.pk, col(Unit.base).is_not(None))
        .order_by(col(Unit.id))
    ).all()
    now = [Piece(*s) for s in stands if s[2]]
    return score_of(
        objectives, book.kit.bases, now, score_store.logged(rows, undone), conditions, book.broken
    )


def stored_at(session: Session, game_id: int) -> int | None:
    """The event the game's newest stored score is of (None: none stored)."""
    q = select(func.max(col(StoredScore.event_id))).where(col(StoredScore.game_id) == game_id)
    return session.execute(q).scalar_one()


def four_stands(client: TestClient, g: Seats) -> list[int]:
    units = client.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    stands = [u for u in units if u["base"] == "infantry-platoon" and u["x"] is not None]
    return [
        u["id"] for side in ("attacker", "defender") for u in [s for s in stands if s["side"] == side][:2]
    ]


ACTS = st.lists(
    st.one_of(
        st.tuples(st.just("move"), st.integers(0, 3), st.integers(0, len(PLACES) - 1)),
        st.tuples(st.just("undo"), st.integers(0, 3), st.just(0)),
        st.tuples(
            st.just("advance"), st.integers(1, 7), st.just(0)
        ),  # steps on: a turn ends, its objectives score
        st.tuples(st.just("call"), st.integers(0, 3), st.integers(0, 2)),
        # A marker put (1) or recovered (0): it changes nothing the score reads, save the third, which kills.
        st.tuples(st.just("marker"), st.integers(0, 3), st.integers(0, 1)),
    ),
    min_size=3,
    max_size=12,
)


@pytest.mark.long
@pytest.mark.storage
@settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(acts=ACTS)
# An act that changes nothing, after an undo (a stand moved where it stands): the change of hands the undo made is
# told at it, as the whole log's replay tells it (the point the undo stored, gone on from as it was, did not).
@example(acts=[("move", 1, 1), ("move", 0, 0), ("advance", 1, 0), ("undo", 0, 0), ("move", 1, 1)])
def test_the_stored_score_is_the_whole_log_s_replay_after_any_acts_and_undos(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, acts: list[tuple[str, int, int]]
) -> None:
    monkeypatch.setattr(
        score_store, "EVERY", 3
    )  # a point kept every 3 events: an undo goes on from one before it
    g = new_game(client)
    version = client.get(f"/api/v1/games/{g.id}", headers=g.referee).json()["version"]
    edit = {"version": version, "table_objectives": OBJECTIVES}
    assert client.patch(f"/api/v1/games/{g.id}", headers=g.referee, json=edit).status_code == 200
    start_game(client, g)
    stands = four_stands(client, g)
    moves: list[int] = []
    for kind, a, b in acts:
        if kind == "move":
            x, y = PLACES[b]
            body = {"x": x, "y": y, "facing_deg": 90.0, "override": True}
            r = client.post(f"/api/v1/games/{g.id}/units/{stands[a]}/move", headers=g.referee, json=body)
            assert r.status_code in (200, 409), r.text  # 409: the game is over
            moves += [r.json()["event_id"]] if r.status_code == 200 else []
        elif kind == "marker":
            body = {"delta": 1 if b else -1, "override": True}
            r = client.post(f"/api/v1/games/{g.id}/units/{stands[a]}/markers", headers=g.referee, json=body)
            assert r.status_code in (200, 409, 422), r.text  # 422: none to recover; 409: the game is over
            moves += [r.json()["event_id"]] if r.status_code == 200 else []
        elif kind == "undo" and moves:
            undone = moves[-1 - a % len(moves)]
            r = client.post(f"/api/v1/games/{g.id}/events/{undone}/undo", headers=g.referee)
            assert r.status_code in (200, 201, 409), r.text  # a stand moved since: not taken back
        elif kind == "advance":
            for _ in range(a):
                turn = client.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()
                body = {"version": turn["version"]}
                r = client.post(f"/api/v1/games/{g.id}/turn/advance", headers=g.referee, json=body)
                assert r.status_code in (200, 409), r.text
        elif kind == "call":
            call = {
                "objective_id": OBJECTIVES["features"][a]["id"],
                "side": ["attacker", "defender", None][b],
            }
            r = client.post(f"/api/v1/games/{g.id}/score/calls", headers=g.referee, json=call)
            assert r.status_code in (200, 201, 409), r.text
    with Session(engine_of(client)) as session:
        game = session.get(Game, g.id)
        assert game is not None
        newest = session.execute(
            select(func.max(col(Event.id))).where(col(Event.game_id) == g.id)
        ).scalar_one()
        assert stored_at(session, g.id) == newest  # stored with the last act, not worked out by the read
        replayed = whole_log_replayed(session, game)
        assert score.game_score(session, game, "referee") == replayed
        assert score.game_points(session, [game]) == {g.id: dict(replayed.points)}  # stored beside it


@contextmanager
def statements(engine: Engine) -> Iterator[list[str]]:
    """The SQL statements run on `engine` meanwhile."""
    ran: list[str] = []

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        ran.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield ran
    finally:
        event.remove(engine, "before_cursor_execute", count)


def read_after_an_act(client: TestClient, events: int) -> tuple[list[str], list[str]]:
    """A game of `events` events, then an act and a read of its score (app.services.score.game_score, as every
    route and panel reads it): the statements of each."""
    g = new_game(client)
    start_game(client, g)
    stand = four_stands(client, g)[0]
    unit = client.get(f"/api/v1/games/{g.id}/units/{stand}", headers=g.referee).json()
    x, y = unit["x"], unit["y"]
    engine = engine_of(client)
    with Session(engine) as session:
        # The log grown by moves leaving the stand where it is (written in bulk: one by one took minutes).
        change = {"unit": stand, "field": "x", "before": x, "after": x}
        row = {
            "game_id": g.id,
            "turn": 1,
            "kind": "unit-moved",
            "actor": "referee",
            "payload": {"changes": [change]},
        }
        session.execute(insert(Event), [row] * (events - logged(session, g.id) - 2))
        session.commit()
    acts = []
    for to in (x + 1.0, x):  # the first act stores the score (its log replayed once); the second is measured
        body = {"x": to, "y": y, "facing_deg": 90.0, "override": True}
        with statements(engine) as acted:
            r = client.post(f"/api/v1/games/{g.id}/units/{stand}/move", headers=g.referee, json=body)
        assert r.status_code == 200, r.text
        acts.append(acted)
    with Session(engine) as session, statements(engine) as read:
        game = session.get(Game, g.id)
        assert game is not None
        score.game_score(session, game, "referee")
    with Session(engine) as session:
        assert logged(session, g.id) == events
    return acts[1], read


def logged(session: Session, game_id: int) -> int:
    return session.execute(
        select(func.count(col(Event.id))).where(col(Event.game_id) == game_id)
    ).scalar_one()


def test_a_score_read_after_an_act_costs_the_same_at_100_events_as_at_5000(sqlite_client: TestClient) -> None:
    act_100, read_100 = read_after_an_act(sqlite_client, 100)
    act_5000, read_5000 = read_after_an_act(sqlite_client, 5000)
    assert len(act_5000) == len(act_100) and len(read_5000) == len(read_100)
    # The read replays nothing: of the log it reads only the newest event's id (is the stored score its?).
    of_the_log = [s for s in read_5000 if re.search(r"\b(from|join)\s+\"?event\b(?!_)", s, re.I)]
    assert all("max(event.id)" in s.lower().replace('"', "") for s in of_the_log), of_the_log


def test_each_side_s_points_are_read_as_the_act_stored_them_no_state_decoded(
    sqlite_client: TestClient,
) -> None:
    """The organiser's board reads each table's points (app.services.score.game_points): a row a game, its
    state neither read nor scored; a row stored before points were (none beside it) is scored from its state."""
    http = sqlite_client
    g = new_game(http)
    version = http.get(f"/api/v1/games/{g.id}", headers=g.referee).json()["version"]
    edit = {"version": version, "table_objectives": OBJECTIVES}
    assert http.patch(f"/api/v1/games/{g.id}", headers=g.referee, json=edit).status_code == 200
    start_game(http, g)
    body = {"x": PLACES[3][0], "y": PLACES[3][1], "facing_deg": 90.0, "override": True}  # onto the farm
    r = http.post(f"/api/v1/games/{g.id}/units/{four_stands(http, g)[0]}/move", headers=g.referee, json=body)
    assert r.status_code == 200, r.text
    engine = engine_of(http)
    with Session(engine) as session, statements(engine) as ran:
        game = session.get(Game, g.id)
        assert game is not None
        points = score.game_points(session, [game])
    assert points == {
        g.id: {"attacker": 1, "defender": 0}
    }  # the farm scores at the game's end: as it would now
    read = [s for s in ran if "stored_score" in s]
    assert read and not [s for s in read if re.search(r"stored_score\.state\b", s)], read
    with Session(engine) as session:
        session.execute(update(StoredScore).where(col(StoredScore.game_id) == g.id).values(points=None))
        game = session.get(Game, g.id)
        assert game is not None
        assert score.game_points(session, [game]) == points


def test_a_force_built_after_the_score_was_stored_counts_in_its_side_s_stands(
    sqlite_client: TestClient,
) -> None:
    """A force built names none of its units in its event: the stored score is replayed whole, so a side broken
    counts them as the whole log's replay does (4 of Mons' 77 British stands lost are 5%, of 92 not)."""
    http = sqlite_client
    doc = json.loads(MONS.read_text())
    broken = {"kind": "side_broken", "side": "defender", "stands_lost": 5}
    made = http.post("/api/v1/scenarios", json={**doc, "id": "stored-broken", "victory_conditions": [broken]})
    assert made.status_code == 201, made.text
    g = new_game(http, {"scenario": "stored-broken"})
    stands = four_stands(http, g)
    body = {"x": 40.0, "y": 120.0, "facing_deg": 90.0, "override": True}
    moved = http.post(f"/api/v1/games/{g.id}/units/{stands[0]}/move", headers=g.referee, json=body)
    assert moved.status_code == 200, moved.text  # the score stored, the British 77 stands
    force = {"side": "defender", "table_id": "gb-cavalry-regiment"}  # 15 more
    assert http.post(f"/api/v1/games/{g.id}/forces", headers=g.referee, json=force).status_code == 201
    start_game(http, g)
    units = http.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    british = [
        u["id"] for u in units if u["side"] == "defender" and u["base"] == "infantry-platoon" and u["x"]
    ]
    for platoon in british[:4]:
        for _ in range(3):  # three suppressions kill a stand (Flanders Fields)
            url = f"/api/v1/games/{g.id}/units/{platoon}/markers"
            r = http.post(url, headers=g.referee, json={"delta": 1, "override": True})
            assert r.status_code == 200, r.text
    with Session(engine_of(http)) as session:
        game = session.get(Game, g.id)
        assert game is not None
        stored = score.game_score(session, game, "referee")
        assert stored.losses["defender"] == 4 and stored.met == ()
        assert stored == whole_log_replayed(session, game)


@pytest.mark.storage
def test_an_act_goes_on_from_the_stored_point_when_this_worker_kept_an_older_one(client: TestClient) -> None:
    """A worker keeps the replay it stored (app.services.score_store's kept heads): when another worker has acted
    since, this one's kept replay is of an older point and the next act here goes on from the stored one."""
    g = new_game(client)
    version = client.get(f"/api/v1/games/{g.id}", headers=g.referee).json()["version"]
    edit = {"version": version, "table_objectives": OBJECTIVES}
    assert client.patch(f"/api/v1/games/{g.id}", headers=g.referee, json=edit).status_code == 200
    start_game(client, g)
    first, second = four_stands(client, g)[:2]

    def move(stand: int, place: tuple[float, float]) -> None:
        body = {"x": place[0], "y": place[1], "facing_deg": 90.0, "override": True}
        r = client.post(f"/api/v1/games/{g.id}/units/{stand}/move", headers=g.referee, json=body)
        assert r.status_code == 200, r.text

    move(first, PLACES[6])
    kept_before = dict(score_store._HEADS)  # this worker's kept replay, of that move
    move(second, PLACES[0])  # onto Bridge 1: served, say, by another worker
    score_store._HEADS.clear()
    score_store._HEADS.update(kept_before)  # this worker never saw it
    move(first, PLACES[3])  # onto the farm, here
    with Session(engine_of(client)) as session:
        game = session.get(Game, g.id)
        assert game is not None
        stored = score.game_score(session, game, "referee")
        assert stored == whole_log_replayed(session, game)
        assert {o.id: o.holder for o in stored.objectives}["bridge-1"] == "attacker"


def test_a_worker_keeps_replays_up_to_its_budget_whatever_the_games(
    sqlite_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Anyone may make games: the replays a worker keeps are bounded by their standings and units, not only by
    games (the largest table's replay is 13 MB: 64 of them were 0.85 GB); the newest is always kept."""
    monkeypatch.setattr(score_store, "KEPT_SCORE_ENTRIES", 1)
    games = [new_game(sqlite_client) for _ in range(2)]
    for g in games:
        start_game(sqlite_client, g)
        stand = four_stands(sqlite_client, g)[0]
        body = {"x": 40.0, "y": 120.0, "facing_deg": 90.0, "override": True}
        r = sqlite_client.post(f"/api/v1/games/{g.id}/units/{stand}/move", headers=g.referee, json=body)
        assert r.status_code == 200, r.text
    assert [key[1] for key in score_store._HEADS] == [games[-1].id]


def test_an_acts_score_is_moved_on_in_one_statement_where_the_worker_keeps_its_point(
    sqlite_client: TestClient,
) -> None:
    # The worker kept the replay of the point the act goes on from: the UPDATE checks that point is the newest
    # and the event just before the act's, and moves it on; no point is read first (issue 88).
    act, _ = read_after_an_act(sqlite_client, 100)
    of_the_score = [s for s in act if "stored_score" in s]
    assert len(of_the_score) == 1 and of_the_score[0].lstrip().upper().startswith("UPDATE"), of_the_score


@pytest.mark.storage
def test_an_undo_of_the_newest_act_reads_that_act_s_events_alone(client: TestClient) -> None:
    """The worker keeps the replay an act went on from: undoing that act goes on from it over the act's events
    and the undo's (its score the whole log's replay), where it read and replayed the whole log (or every event
    since the last point of every EVERY)."""
    g = new_game(client)
    version = client.get(f"/api/v1/games/{g.id}", headers=g.referee).json()["version"]
    edit = {"version": version, "table_objectives": OBJECTIVES}
    assert client.patch(f"/api/v1/games/{g.id}", headers=g.referee, json=edit).status_code == 200
    start_game(client, g)
    stand = four_stands(client, g)[0]
    engine = engine_of(client)
    moved = []
    for x, y in (
        PLACES[6],
        PLACES[0],
    ):  # away, then onto Bridge 1 (the second goes on from the first's point)
        body = {"x": x, "y": y, "facing_deg": 90.0, "override": True}
        r = client.post(f"/api/v1/games/{g.id}/units/{stand}/move", headers=g.referee, json=body)
        assert r.status_code == 200, r.text
        moved.append(r.json()["event_id"])
    with statements(engine) as ran:
        r = client.post(f"/api/v1/games/{g.id}/events/{moved[-1]}/undo", headers=g.referee)
    assert r.status_code in (200, 201), r.text
    # Of the log (the game's events, their payloads) it reads those after a point, none from the first.
    log_read = [s for s in ran if re.search(r"\bpayload\b.*\bevent\.game_id\s*=", s, re.S)]
    assert log_read and all(re.search(r"event\.id\s*[>=]", s) for s in log_read), log_read
    with Session(engine) as session:
        game = session.get(Game, g.id)
        assert game is not None
        assert score.game_score(session, game, "referee") == whole_log_replayed(session, game)
