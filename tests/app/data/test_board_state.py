"""The game's board as one typed model (app.data.board_state): a played game's board reads into it and writes
back as the very JSON it was stored as, an old or foreign board loads and keeps what it does not know,
and a board never written stays `{}`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, text
from sqlalchemy.orm.attributes import flag_modified
from sqlmodel import Session

from app.core.db import make_engine
from app.data.board_state import Board, board_json, read_board, write_board
from app.data.models import Game as GameRow
from rules.flanders_fields.play.kit import EventPack
from tests.app.games.conftest import Game, new_game
from tests.app.games.test_table_in_game import advance, mid_game, resolve, turn

pytestmark = pytest.mark.storage  # the board as each backend stores it


@pytest.fixture
def engine(migrated_url: str) -> Iterator[Engine]:
    """The test's database (the one `client` serves), to read the board as stored and write it as the app
    does (its engine's JSON encoder)."""
    e = make_engine(migrated_url)
    yield e
    e.dispose()


def stored_text(engine: Engine, game_id: int) -> str:
    """The board exactly as the database holds it (TEXT on SQLite, `json` keeps its text on PostgreSQL)."""
    with engine.connect() as conn:
        return str(
            conn.execute(text("SELECT CAST(board AS TEXT) FROM game WHERE id = :id"), {"id": game_id}).one()[
                0
            ]
        )


def state_board(c: TestClient, g: Game) -> dict[str, Any]:
    return dict(c.get(f"/api/v1/games/{g.id}/state", headers=g.referee).json()["board"])


def played(c: TestClient) -> Game:
    """A mid-war attack played into the defender's first turn: the German rolling barrage and gas cloud
    arrived from the fire plan, a British bombardment arrived from theirs, the gas-wind rolled, a card
    drawn and a template laid on the table."""
    g, _units = mid_game(c)
    plan = f"/api/v1/games/{g.id}/fireplans/defender"
    item = {"kind": "bombardment", "grid": [40, 120], "battery": "18-pdr A", "turns": 1}
    r = c.post(f"{plan}/items", headers=g.defender, json={"arrival_turn": 1, "item": item})
    assert r.status_code == 201, r.text
    assert c.post(f"{plan}/lock", headers=g.defender).status_code == 200
    advance(c, g)
    resolve(c, g, g.referee, "random-event", dice=[13])  # the referee enters where in the pack
    while turn(c, g)["step"]["id"] != "gas":
        advance(c, g)
    resolve(c, g, g.attacker, "gas-wind", dice=[3, 4])
    while (turn(c, g)["turn"], turn(c, g)["side_to_move"]) != (1, "defender"):
        advance(c, g)
    placed = c.post(  # in the defender's own turn (templates follow the rules of play)
        f"/api/v1/games/{g.id}/templates", headers=g.defender, json={"kind": "artillery", "x": 60, "y": 90}
    )
    assert placed.status_code == 201, placed.text
    return g


def test_a_played_board_reads_typed_and_writes_back_byte_for_byte(client: TestClient, engine: Engine) -> None:
    g = played(client)
    before = stored_text(engine, g.id)
    with Session(engine) as session:
        row = session.get(GameRow, g.id)
        assert row is not None
        board = read_board(row)
        # Every key the game wrote is a typed field: nothing is left over as an unknown key.
        assert set(row.board) == {
            "barrages", "clouds", "wind", "wind_turn", "events", "templates", "templates_placed", "fire"
        }  # fmt: skip
        assert board.model_extra == {}
        assert board.barrages[0]["side"] == "attacker" and board.barrages[0]["covers_y"] == [40, 60]
        assert board.clouds[0]["center"] == [60, 117] and board.clouds[0]["moves"] == 1
        assert board.wind == {"direction_deg": 90.0, "speed_cm": 17, "dispersed": False}
        assert board.wind_turn == 1
        assert [(f["side"], f["kind"], f["battery"]) for f in board.fire] == [
            ("defender", "bombardment", "18-pdr A")
        ]
        assert [(t["id"], t["kind"], t["side"]) for t in board.templates] == [(1, "artillery", "defender")]
        assert board.templates_placed == 1
        assert board.events == EventPack(out=(), cards_left=51)
        # The JSON to store is the stored JSON, key for key and in the same order.
        assert json.dumps(board_json(row, board)) == json.dumps(row.board)
        write_board(row, board)
        flag_modified(row, "board")  # written even though it reads the same
        session.add(row)
        session.commit()
    assert stored_text(engine, g.id) == before
    # The API answers the board as stored.
    assert state_board(client, g) == json.loads(before)


def test_an_old_or_foreign_board_loads_and_keeps_what_it_does_not_know(
    client: TestClient, engine: Engine
) -> None:
    g = new_game(client)
    assert set(json.loads(stored_text(engine, g.id))) <= {"table_objectives", "last_turn"}  # the scenario's
    # A board as an older game or a newer version may hold it: no templates yet, a key this version does
    # not know, and a key it does not know inside the event pack.
    old = {
        "zz_newer_version": [1, {"a": None}],
        "events": {"out": ["2D"], "cards_left": 50, "shuffled": True},
    }
    with engine.begin() as conn:
        conn.execute(text("UPDATE game SET board = :b WHERE id = :id"), {"b": json.dumps(old), "id": g.id})
    assert state_board(client, g) == old
    placed = client.post(
        f"/api/v1/games/{g.id}/templates", headers=g.attacker, json={"kind": "artillery", "x": 60, "y": 90}
    )
    assert placed.status_code == 201, placed.text
    stored = json.loads(stored_text(engine, g.id))
    # The keys it had stay where they were, untouched; the template's keys come after them.
    assert list(stored) == ["zz_newer_version", "events", "templates", "templates_placed"]
    assert {k: stored[k] for k in old} == old
    assert stored["templates"] == [placed.json()["template"]] and stored["templates_placed"] == 1


def test_a_board_never_written_stays_empty_and_assigned_fields_are_written() -> None:
    row = GameRow(ruleset="flanders-fields", name="t", table_width_cm=120, table_length_cm=180)
    board = read_board(row)
    assert board == Board() and board_json(row, board) == {}
    # A field assigned is written even when empty (the turn start writes the barrages it kept, none).
    board.barrages = ()
    assert board_json(row, board) == {"barrages": []}
    # New keys come in the order a write first adds them: the wind before the clouds it disperses.
    row.board = {"clouds": [{"item_id": "g1"}]}
    board = read_board(row)
    board.clouds_gone = ({"item_id": "g1"},)
    board.clouds = ()
    board.wind_turn = 2
    board.wind = {"direction_deg": 0, "speed_cm": 12}
    assert list(board_json(row, board)) == ["clouds", "wind", "wind_turn", "clouds_gone"]
