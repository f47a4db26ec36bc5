"""fire-plan seals per turn

Revision ID: 0013
Revises: 0012

A rule set whose fire plan is sealed each turn (rules.core.game.FirePlan.sealed_each_turn: 2mm Earth 1418's
artillery plans, one per bound) keeps each side's commitment for each turn: a row per (game, side, turn) with
the published commitment, the tree's leaves and the padding salt. Flanders Fields' one plan keeps its seal on
`game_side` as before, so no stored game changes.
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "fire_plan_seal",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("side", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("commitment", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("leaves", sa.JSON(), nullable=False),
        sa.Column("salt", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "side", "turn", name="uq_fire_plan_seal_turn"),
    )
    op.create_index(op.f("ix_fire_plan_seal_game_id"), "fire_plan_seal", ["game_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_fire_plan_seal_game_id"), table_name="fire_plan_seal")
    op.drop_table("fire_plan_seal")
