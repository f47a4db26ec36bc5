"""league claims: results a league's organiser imported from another tool's CSV (issue 70)

Revision ID: 0018
Revises: 0017

A club that ran its event in Best Coast Pairings or Longshanks has a CSV of pairings and results, not signed
bundles: each row its organiser imports is kept as the organiser's claim (league_claim), apart from the signed
games (league_game), so that nothing ever counts one as a verified result.
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

String = sqlmodel.sql.sqltypes.AutoString
When = sqlmodel.sql.sqltypes.UTCDateTime


def upgrade() -> None:
    op.create_table(
        "league_claim",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("identity", String(length=64), nullable=False),
        sa.Column("result_hash", String(length=64), nullable=False),
        sa.Column("event", String(length=80), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("a_name", String(length=80), nullable=False),
        sa.Column("a_club", String(length=80), nullable=False),
        sa.Column("b_name", String(length=80), nullable=False),
        sa.Column("b_club", String(length=80), nullable=False),
        sa.Column("winner", String(length=1), nullable=True),
        sa.Column("a_points", sa.Integer(), nullable=False),
        sa.Column("b_points", sa.Integer(), nullable=False),
        sa.Column("imported_at", When(), nullable=False),
        sa.ForeignKeyConstraint(["league_id"], ["league.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("league_id", "identity"),
    )
    op.create_index(op.f("ix_league_claim_league_id"), "league_claim", ["league_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_league_claim_league_id"), table_name="league_claim")
    op.drop_table("league_claim")
