"""A database that lacks what the models need is reported by /healthz (503, the drift listed) and refused at
start with one sentence saying what to do; a downgrade that would destroy data is refused unless asked for."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.util import CommandError
from fastapi.testclient import TestClient
from sqlalchemy import inspect, text

from app.core.db import SchemaError, current_revision, downgrade, head_revision, make_engine, migrate
from tests.conftest import make_client

pytestmark = pytest.mark.storage  # the models against what each backend holds

# What a half-applied upgrade left out (issue 24): a column the lobby reads, an index the models declare.
DROPS = ("ALTER TABLE game DROP COLUMN archived_at", "DROP INDEX ix_event_game_id")
DRIFT = ["column game.archived_at", "index ix_event_game_id"]


def drop(url: str) -> None:
    engine = make_engine(url)
    with engine.begin() as conn:
        for statement in DROPS:
            conn.execute(text(statement))
    engine.dispose()


def test_healthz_reports_drift_as_503_with_the_list(client: TestClient, migrated_url: str) -> None:
    assert client.get("/healthz").json()["drift"] == []
    drop(migrated_url)  # after the start: the schema changed under a running app
    r = client.get("/healthz")
    assert r.status_code == 503
    body = r.json()
    assert body["status"] == "degraded" and body["database"] is True
    assert body["revision"] == body["head"] == head_revision()
    assert body["drift"] == DRIFT


def test_the_app_refuses_to_start_on_a_drifted_database(migrated_url: str, tmp_path: Path) -> None:
    drop(migrated_url)
    with pytest.raises(SchemaError) as refused, make_client(migrated_url, tmp_path):
        pass
    message = str(refused.value)
    assert all(d in message for d in DRIFT) and "\n" not in message
    assert f"stamped {head_revision()}" in message and "firestep migrate" in message


def test_the_app_refuses_to_start_on_a_database_never_migrated(database_url: str, tmp_path: Path) -> None:
    refused = pytest.raises(SchemaError, match="no firestep schema yet: run `firestep migrate`")
    with refused, make_client(database_url, tmp_path):
        pass


def test_the_app_refuses_to_start_on_a_database_behind_head(database_url: str, tmp_path: Path) -> None:
    migrate(database_url, "0006")
    refused = pytest.raises(SchemaError, match=f"at revision 0006 and this firestep needs {head_revision()}")
    with refused, make_client(database_url, tmp_path):
        pass
    migrate(database_url)
    with make_client(database_url, tmp_path) as http:
        assert http.get("/healthz").status_code == 200


def test_a_downgrade_below_0005_is_refused_unless_the_loss_is_asked_for(migrated_url: str) -> None:
    engine = make_engine(migrated_url)
    with pytest.raises(
        CommandError, match=r"undoing 0005 .*card hands.* and 0004 .*revocations.*lose_data=yes"
    ):
        downgrade(migrated_url, "0003")
    # Refused before its first step: nothing was undone, on either backend.
    assert current_revision(engine) == head_revision()
    assert "archived_at" in {c["name"] for c in inspect(engine).get_columns("game")}
    downgrade(migrated_url, "0005")  # above the lossy ones: no question asked
    assert current_revision(engine) == "0005"
    downgrade(migrated_url, "0003", lose_data=True)
    assert current_revision(engine) == "0003"
    assert "archived_at" not in {c["name"] for c in inspect(engine).get_columns("game")}
    engine.dispose()


def test_migrate_does_not_call_a_drifted_head_done(migrated_url: str) -> None:
    """No revision adds what was dropped by hand: `firestep migrate` says so instead of reporting success."""
    drop(migrated_url)
    with pytest.raises(
        SchemaError, match=r"left the database without column game\.archived_at.*restore the backup"
    ):
        migrate(migrated_url)
