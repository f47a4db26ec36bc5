"""Alembic is the only source of schema: it goes up, down and up again, and matches the models."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect
from sqlmodel import SQLModel

import app.data.models  # noqa: F401
from app.core.db import current_revision, downgrade, head_revision, make_engine, migrate


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
