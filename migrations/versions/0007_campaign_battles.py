"""campaign battles

Revision ID: 0007
Revises: 0006

A Firestorm campaign's battle fought on the table: the link between the campaign's turn and battle and the
Flanders Fields game opened for it, the result the finished game offers and the score the organiser applied
(app/services/campaign_battles.py). At most one link per battle is open at a time.
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OPEN = sa.text("status IN ('open', 'offered')")


def upgrade() -> None:
    op.create_table(
        "campaign_battle",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("battle", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("area", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("period", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("attacker", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("layout_seed", sa.Integer(), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("field_held_by", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=True),
        sa.Column("offer_attacker_vp", sa.Integer(), nullable=True),
        sa.Column("offer_defender_vp", sa.Integer(), nullable=True),
        sa.Column("offer", sa.JSON(), nullable=False),
        sa.Column("applied_attacker_vp", sa.Integer(), nullable=True),
        sa.Column("applied_defender_vp", sa.Integer(), nullable=True),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("updated_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["campaign_id"], ["campaign.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_campaign_battle_campaign_id"), "campaign_battle", ["campaign_id"], unique=False)
    op.create_index(op.f("ix_campaign_battle_game_id"), "campaign_battle", ["game_id"], unique=False)
    op.create_index(
        "uq_campaign_battle_open",
        "campaign_battle",
        ["campaign_id", "turn", "battle"],
        unique=True,
        sqlite_where=OPEN,
        postgresql_where=OPEN,
    )


def downgrade() -> None:
    op.drop_index("uq_campaign_battle_open", table_name="campaign_battle")
    op.drop_index(op.f("ix_campaign_battle_game_id"), table_name="campaign_battle")
    op.drop_index(op.f("ix_campaign_battle_campaign_id"), table_name="campaign_battle")
    op.drop_table("campaign_battle")
