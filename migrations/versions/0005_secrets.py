"""secrets

Revision ID: 0005
Revises: 0004

Hidden information: side-private records of fire plans and card hands (the secrets work of issue 12).
Events get a private part per role; fire-plan items a random public id and a slot in the commitment tree;
plan edits move to a per-side table. Side changes already logged in public payloads (card hands) are moved
into the private part of their side.
"""

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("event") as batch_op:
        batch_op.add_column(sa.Column("private", sa.JSON(), nullable=False, server_default="{}"))
    with op.batch_alter_table("fire_plan_item") as batch_op:
        batch_op.add_column(sa.Column("public_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("slot", sa.Integer(), nullable=True))
    conn = op.get_bind()
    items = sa.table("fire_plan_item", sa.column("id", sa.Integer()), sa.column("public_id", sa.Integer()))
    for (row_id,) in conn.execute(sa.select(items.c.id)).all():
        public = secrets.randbelow(2**31 - 1) + 1
        conn.execute(sa.update(items).where(items.c.id == row_id).values(public_id=public))
    with op.batch_alter_table("fire_plan_item") as batch_op:
        batch_op.alter_column("public_id", existing_type=sa.Integer(), nullable=False)
        batch_op.create_unique_constraint("uq_fire_plan_item_public_id", ["game_id", "side", "public_id"])
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
    op.create_index(op.f("ix_fire_plan_edit_game_id"), "fire_plan_edit", ["game_id"], unique=False)
    _hide_logged_hands(conn)


def _hide_logged_hands(conn: sa.Connection) -> None:
    """Card hands written into public payloads before this revision: each side's changes to its own row
    move to that side's private part (the referee keeps the whole list), as app.hidden.split does now."""
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
    op.drop_index(op.f("ix_fire_plan_edit_game_id"), table_name="fire_plan_edit")
    op.drop_table("fire_plan_edit")
    with op.batch_alter_table("fire_plan_item") as batch_op:
        batch_op.drop_constraint("uq_fire_plan_item_public_id", type_="unique")
        batch_op.drop_column("slot")
        batch_op.drop_column("public_id")
    with op.batch_alter_table("event") as batch_op:
        batch_op.drop_column("private")
