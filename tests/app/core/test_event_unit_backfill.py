"""0030 (issue 88): the log already written is indexed by stand as `app.services.events.record` indexes an
event as it is logged: each unit an event that stands names or changes, in any part of it, and no undo nor any
event an undo took back."""

from __future__ import annotations

from typing import Any

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import MetaData, insert, text

from app.core.db import alembic_config, downgrade, make_engine, migrate
from app.services.events import units_named
from tests.app.test_migrations import _filled

pytestmark = pytest.mark.storage  # a migration's backfill, on each backend

REVISION = "0030_event_unit"


def _change(unit: int, field: str = "x", **more: Any) -> dict[str, Any]:
    return {"unit": unit, "field": field, "before": 0, "after": 1, **more}


def test_the_log_written_before_0030_is_indexed_by_stand_as_record_indexes_it(database_url: str) -> None:
    migrate(database_url)
    below = ScriptDirectory.from_config(alembic_config(database_url)).get_revision(REVISION).down_revision
    assert isinstance(below, str)
    downgrade(database_url, below)
    engine = make_engine(database_url)
    meta = MetaData()
    meta.reflect(engine, only=["game", "event"])
    logged: dict[int, tuple[str, dict[str, Any], dict[str, Any]]] = {}
    with engine.begin() as conn:
        game = conn.execute(
            insert(meta.tables["game"]).values(_filled(meta.tables["game"]))
        ).inserted_primary_key
        assert game is not None

        def log(
            kind: str, payload: dict[str, Any], private: dict[str, Any] | None = None, undoes: int = 0
        ) -> int:
            row = _filled(
                meta.tables["event"],
                game_id=game[0],
                kind=kind,
                actor="referee",
                payload=payload,
                private=private or {},
                reverses_id=undoes or None,
            )
            made = conn.execute(insert(meta.tables["event"]).values(row)).inserted_primary_key
            assert made is not None
            logged[made[0]] = (kind, payload, private or {})
            return int(made[0])

        moved = log("move", {"unit_id": 5, "changes": [_change(5)]})
        spread = log("marker", {"unit_id": 6, "changes": [_change(6, delta=1), _change(7, delta=1)]})
        log("undo", {"undoes": spread, "kind": "marker", "changes": [_change(7, delta=-1)]}, undoes=spread)
        secret = {"unit_id": 8, "changes": [_change(8, "aiming_point", side="attacker")]}
        aimed = log("unit-update", {}, {"attacker": secret, "referee": secret})
        rolled = log("roll", {"unit_id": 5, "target_id": 9, "changes": []})
        log("game-updated", {"fields": ["notes"], "changes": [{"game": game[0], "field": "notes"}]})
    command.upgrade(alembic_config(database_url), REVISION)
    with engine.connect() as conn:
        rows = set(conn.execute(text("SELECT game_id, unit_id, event_id FROM event_unit")).all())
    engine.dispose()
    standing = (moved, aimed, rolled)
    assert rows == {(game[0], 5, moved), (game[0], 8, aimed), (game[0], 5, rolled), (game[0], 9, rolled)}
    # What record would have written for each event that stands.
    assert rows == {(game[0], u, e) for e in standing for u in units_named(logged[e][1], logged[e][2])}
    migrate(database_url)
