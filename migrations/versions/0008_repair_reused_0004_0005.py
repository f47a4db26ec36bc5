"""repair reused 0004 and 0005

Revision ID: 0008
Revises: 0007

Revision ids 0004 and 0005 first landed as empty placeholders and were later reused with the access and
secrets schema. A database upgraded while they were placeholders is stamped past them without that
schema: this revision adds whatever of it is missing (columns, the fire_plan_edit table, indexes, the unique
public id) and moves the data as 0005 does. On a database that ran the real 0004 and 0005 it does nothing.
The steps are copies of 0004 and 0005, guarded: a landed revision never changes (migrations/manifest.json).
"""

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _columns(table: str) -> set[str]:
    return {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}


def _add_missing(table: str, *columns: sa.Column) -> list[str]:
    """Add the columns the table lacks; the names of those added."""
    missing = [c for c in columns if c.name not in _columns(table)]
    if missing:
        with op.batch_alter_table(table) as batch_op:
            for column in missing:
                batch_op.add_column(column)
    return [c.name for c in missing]


def upgrade() -> None:
    # 0004: devices (last use, revocation) and archived games.
    for table in ("token", "campaign_token"):
        _add_missing(
            table,
            sa.Column("last_seen_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
            sa.Column("revoked_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        )
    _add_missing("game", sa.Column("archived_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
    # 0005: side-private event parts, fire-plan public ids and slots, per-side plan edits.
    conn = op.get_bind()
    if _add_missing("event", sa.Column("private", sa.JSON(), nullable=False, server_default="{}")):
        _hide_logged_hands(conn)
    if "public_id" in _add_missing(
        "fire_plan_item",
        sa.Column("public_id", sa.Integer(), nullable=True),
        sa.Column("slot", sa.Integer(), nullable=True),
    ):
        items = sa.table(
            "fire_plan_item", sa.column("id", sa.Integer()), sa.column("public_id", sa.Integer())
        )
        for (row_id,) in conn.execute(sa.select(items.c.id)).all():
            public = secrets.randbelow(2**31 - 1) + 1
            conn.execute(sa.update(items).where(items.c.id == row_id).values(public_id=public))
        with op.batch_alter_table("fire_plan_item") as batch_op:
            batch_op.alter_column("public_id", existing_type=sa.Integer(), nullable=False)
    live = sa.inspect(conn)
    uniques = {frozenset(u["column_names"]) for u in live.get_unique_constraints("fire_plan_item")}
    if frozenset({"game_id", "side", "public_id"}) not in uniques:
        with op.batch_alter_table("fire_plan_item") as batch_op:
            batch_op.create_unique_constraint("uq_fire_plan_item_public_id", ["game_id", "side", "public_id"])
    if not live.has_table("fire_plan_edit"):
        op.create_table(
            "fire_plan_edit",
            sa.Column("id", sa.Integer(), nullable=False),
            sa.Column("game_id", sa.Integer(), nullable=False),
            sa.Column("side", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
            sa.Column("action", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
            sa.Column("item", sa.JSON(), nullable=False),
            sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
            sa.ForeignKeyConstraint(["game_id"], ["game.id"], ondelete="CASCADE"),
            sa.PrimaryKeyConstraint("id"),
        )
    if "ix_fire_plan_edit_game_id" not in {i["name"] for i in sa.inspect(conn).get_indexes("fire_plan_edit")}:
        op.create_index(op.f("ix_fire_plan_edit_game_id"), "fire_plan_edit", ["game_id"], unique=False)


def _hide_logged_hands(conn: sa.Connection) -> None:
    """As 0005: card hands written into public payloads move to the private part of their side (the referee
    keeps the whole list)."""
    events = sa.table(
        "event",
        sa.column("id", sa.Integer()),
        sa.column("payload", sa.JSON()),
        sa.column("private", sa.JSON()),
    )
    for row_id, payload in conn.execute(sa.select(events.c.id, events.c.payload)).all():
        changes = (payload or {}).get("changes") or []
        if not any(isinstance(c, dict) and "side" in c for c in changes):
            continue
        private: dict[str, dict[str, list[object]]] = {"referee": {"changes": list(changes)}}
        for side in {c["side"] for c in changes if isinstance(c, dict) and "side" in c}:
            private[side] = {
                "changes": [c for c in changes if not isinstance(c, dict) or c.get("side", side) == side]
            }
        public = {**payload, "changes": [c for c in changes if not (isinstance(c, dict) and "side" in c)]}
        conn.execute(sa.update(events).where(events.c.id == row_id).values(payload=public, private=private))


def downgrade() -> None:
    # Nothing to undo: what this revision adds belongs to 0004 and 0005, whose downgrades remove it.
    pass
