"""the log by stand: a row for each unit an event changes or names (issue 88)

Revision ID: 0030_event_unit
Revises: 0029_stored_score

A stand's card offered the Undo of its newest move or marker by reading the log back at most 200 events, so
after 450 moves of other stands it offered none the undo would take. Each event's units are kept beside it
(app.data.log_index.EventUnit, written by app.services.events.record), keyed in the read's order: a stand's
newest act is one step away however long the game. An event taken back is out of it, an undo never in it. The
log already written is read once here, in batches, as `record` would have kept it. And the undos are indexed
by the event each takes back (a partial index: few rows), so whether an event was taken back is one step too.
"""

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0030_event_unit"
down_revision: str | None = "0029_stored_score"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 2000
EVENT = sa.table(
    "event",
    sa.column("id", sa.Integer()),
    sa.column("game_id", sa.Integer()),
    sa.column("kind", sa.String()),
    sa.column("payload", sa.JSON()),
    sa.column("private", sa.JSON()),
    sa.column("reverses_id", sa.Integer()),
)


def upgrade() -> None:
    op.create_table(
        "event_unit",
        sa.Column("game_id", sa.Integer(), nullable=False, autoincrement=False),
        sa.Column("unit_id", sa.Integer(), nullable=False, autoincrement=False),
        sa.Column("event_id", sa.Integer(), nullable=False, autoincrement=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "unit_id", "event_id"),
    )
    table = sa.table(
        "event_unit", sa.column("game_id", sa.Integer()), sa.column("unit_id"), sa.column("event_id")
    )
    op.create_index(
        "ix_event_reverses_id",
        "event",
        ["reverses_id"],
        sqlite_where=sa.text("reverses_id IS NOT NULL"),
        postgresql_where=sa.text("reverses_id IS NOT NULL"),
    )
    conn = op.get_bind()
    undone = {
        r for (r,) in conn.execute(sa.select(EVENT.c.reverses_id).where(EVENT.c.reverses_id.is_not(None)))
    }
    for rows in _batches(conn, undone):
        conn.execute(sa.insert(table), rows)


def _batches(conn: sa.Connection, undone: set[int]) -> Iterator[list[dict[str, int]]]:
    """The index's rows of the log as written, a batch of events at a time (read by id, never all at once)."""
    after = 0
    while True:
        q = sa.select(EVENT).where(EVENT.c.id > after).order_by(EVENT.c.id).limit(BATCH)
        events = conn.execute(q).all()
        if not events:
            return
        rows = [
            {"game_id": e.game_id, "unit_id": u, "event_id": e.id}
            for e in events
            if e.kind != "undo" and e.id not in undone
            for u in sorted(_units_named(e.payload or {}, e.private or {}))
        ]
        if rows:
            yield rows
        after = events[-1].id


def _units_named(payload: Mapping[str, Any], private: Mapping[str, Any]) -> set[int]:
    """app.services.events.units_named as written with this revision (a migration imports no app code)."""
    out: set[int] = set()
    for part in (payload, *private.values()):
        if not isinstance(part, Mapping):
            continue
        out.update(part[key] for key in ("unit_id", "target_id") if isinstance(part.get(key), int))
        changes = part.get("changes")
        for c in changes if isinstance(changes, list) else ():
            if isinstance(c, Mapping) and isinstance(c.get("unit"), int):
                out.add(c["unit"])
    return out


def downgrade() -> None:
    op.drop_index("ix_event_reverses_id", table_name="event")
    op.drop_table("event_unit")
