"""Alembic is the only source of schema: it goes up, down and up again, and matches the models."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import MetaData, Table, insert, inspect, text
from sqlmodel import SQLModel

import app.data.models  # noqa: F401
from app.core.db import alembic_config, current_revision, downgrade, head_revision, make_engine, migrate

pytestmark = pytest.mark.storage  # migrations on each backend


def test_upgrade_downgrade_upgrade(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(database_url)
    assert current_revision(engine) == head_revision()
    assert "game" in inspect(engine).get_table_names()
    downgrade(database_url, "base", lose_data=True)
    assert current_revision(engine) is None
    assert "game" not in inspect(engine).get_table_names()
    migrate(database_url)
    assert current_revision(engine) == head_revision()
    engine.dispose()


def test_models_match_migrations(database_url: str) -> None:
    migrate(database_url)
    engine = make_engine(database_url)
    with engine.connect() as conn:
        diff = compare_metadata(
            MigrationContext.configure(conn, opts={"compare_type": True}), SQLModel.metadata
        )
    engine.dispose()
    assert diff == [], f"models and migrations have drifted apart; write a migration: {diff}"


def test_sqlite_runs_with_wal_and_foreign_keys(tmp_path) -> None:  # type: ignore[no-untyped-def]
    engine = make_engine(f"sqlite:///{tmp_path / 'x.db'}")
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    engine.dispose()


def _filled(table: Table, **given: Any) -> dict[str, Any]:
    """A row for `table` with a plain value in each column that must be filled and is not given."""
    plain = {"INT": 1, "CHAR": "x", "BOOL": False, "FLOAT": 0.0, "DOUBLE": 0.0, "JSON": {}}
    values = dict(given)
    for c in table.columns:
        if c.name in values or c.nullable or c.server_default is not None or c.primary_key:
            continue
        sql = str(c.type).upper()
        stamp = "DATE" in sql or "TIME" in sql
        values[c.name] = datetime.now(UTC) if stamp else next(v for k, v in plain.items() if k in sql)
    return values


def test_unit_state_moves_into_the_mapping_and_back(database_url: str) -> None:
    """0009: each Flanders Fields column of a stored unit becomes a key of `unit.state` with its value, and
    the downgrade puts them back."""
    migrate(database_url)
    downgrade(database_url, "0008")
    engine = make_engine(database_url)
    meta = MetaData()
    meta.reflect(engine, only=["game", "unit"])
    stored = {
        "suppression": 2,
        "stuck_on_wire": True,
        "deep_shelter": False,
        "limbered": True,
        "raw_under_fire": False,
        "field_promotion": False,
        "in_gas": True,
        "mutiny": False,
        "crew_abandoned": False,
        "actions_left": 3,
        "morale_stage": 1,
        "morale_due": True,
        "aiming_point": [40.0, 75.5],
    }
    with engine.begin() as conn:
        game = conn.execute(
            insert(meta.tables["game"]).values(_filled(meta.tables["game"]))
        ).inserted_primary_key
        assert game is not None
        unit = _filled(meta.tables["unit"], game_id=game[0], side="attacker", level="battery", **stored)
        unit_id = conn.execute(insert(meta.tables["unit"]).values(unit)).inserted_primary_key[0]
    command.upgrade(alembic_config(database_url), "0009")
    with engine.connect() as conn:
        state = conn.execute(text("SELECT state FROM unit WHERE id = :u"), {"u": unit_id}).scalar()
    assert (state if isinstance(state, dict) else json.loads(state)) == stored
    downgrade(database_url, "0008")
    names = ", ".join(stored)
    with engine.begin() as conn:
        row = conn.execute(text(f"SELECT {names} FROM unit WHERE id = :u"), {"u": unit_id}).one()
        conn.execute(text("DELETE FROM game WHERE id = :g"), {"g": game[0]})
    back = dict(zip(stored, row, strict=True))
    back["aiming_point"] = (
        back["aiming_point"] if isinstance(back["aiming_point"], list) else json.loads(back["aiming_point"])
    )
    assert {k: (bool(v) if isinstance(stored[k], bool) else v) for k, v in back.items()} == stored
    migrate(database_url)
    engine.dispose()


def test_scenarios_table_comes_and_goes_with_0010(database_url: str) -> None:
    """0010 adds the imported scenarios' table; its downgrade drops it and leaves the games alone."""
    migrate(database_url)
    engine = make_engine(database_url)
    document = {"format": "firestep-scenario/1", "id": "raid", "title": "Raid", "sides": {}}
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO scenario (id, ruleset, title, period, document, created_at, updated_at) "
                "VALUES ('raid', 'flanders-fields', 'Raid', 'mid', :d, :t, :t)"
            ),
            {"d": json.dumps(document), "t": datetime.now(UTC)},
        )
        stored = conn.execute(text("SELECT document FROM scenario WHERE id = 'raid'")).scalar()
    assert (stored if isinstance(stored, dict) else json.loads(stored)) == document
    downgrade(database_url, "0009")
    assert "scenario" not in inspect(engine).get_table_names()
    assert "game" in inspect(engine).get_table_names()
    migrate(database_url)
    assert "scenario" in inspect(engine).get_table_names()
    engine.dispose()


def test_a_games_rule_set_value_moves_into_the_mapping_and_back(database_url: str) -> None:
    """0012: a stored game's deep suppression (Flanders Fields' one game column) becomes a key of `game.state`,
    left out at its default 0, and the downgrade puts it back."""
    migrate(database_url)
    downgrade(database_url, "0011")
    engine = make_engine(database_url)
    meta = MetaData()
    meta.reflect(engine, only=["game"])
    with engine.begin() as conn:
        ids = [
            conn.execute(
                insert(meta.tables["game"]).values(_filled(meta.tables["game"], deep_suppression=penalty))
            ).inserted_primary_key[0]
            for penalty in (2, 0)
        ]
    command.upgrade(alembic_config(database_url), "0012")
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT state FROM game WHERE id IN (:a, :b) ORDER BY id"), {"a": ids[0], "b": ids[1]}
        )
        states = [s if isinstance(s, dict) else json.loads(s) for (s,) in rows]
    assert states == [{"deep_suppression": 2}, {}]
    downgrade(database_url, "0011")
    with engine.begin() as conn:
        back = conn.execute(
            text("SELECT deep_suppression FROM game WHERE id IN (:a, :b) ORDER BY id"),
            {"a": ids[0], "b": ids[1]},
        )
        assert [p for (p,) in back] == [2, 0]
        conn.execute(text("DELETE FROM game"))
    migrate(database_url)
    engine.dispose()


def test_plan_seals_table_comes_and_goes_with_0013(database_url: str) -> None:
    """0013 adds the table of plans sealed each turn, one seal per (game, side, turn); its downgrade drops it
    and leaves the games alone."""
    migrate(database_url)
    engine = make_engine(database_url)
    meta = MetaData()
    meta.reflect(engine, only=["game", "fire_plan_seal"])
    seal = {"side": "attacker", "turn": 2, "commitment": "c" * 64, "leaves": ["l" * 64], "salt": "s" * 32}
    with engine.begin() as conn:
        game = conn.execute(insert(meta.tables["game"]).values(_filled(meta.tables["game"])))
        game_id = game.inserted_primary_key[0]
        table = meta.tables["fire_plan_seal"]
        conn.execute(insert(table).values(_filled(table, game_id=game_id, **seal)))
        stored = conn.execute(
            text("SELECT turn, leaves FROM fire_plan_seal WHERE game_id = :g"), {"g": game_id}
        )
        turn, leaves = stored.one()
    assert (turn, leaves if isinstance(leaves, list) else json.loads(leaves)) == (2, seal["leaves"])
    downgrade(database_url, "0012")
    assert "fire_plan_seal" not in inspect(engine).get_table_names()
    with engine.begin() as conn:
        assert conn.execute(text("SELECT count(*) FROM game WHERE id = :g"), {"g": game_id}).scalar() == 1
        conn.execute(text("DELETE FROM game"))
    migrate(database_url)
    assert "fire_plan_seal" in inspect(engine).get_table_names()
    engine.dispose()
