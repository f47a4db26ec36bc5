"""the stored score: a game's score kept as its log stands, advanced with each act (issue 88)

Revision ID: 0029_stored_score
Revises: 0028_unit_hidden_writes

The score was a fold over the log on every read, kept fast by a per-worker replay cache. It is now advanced in
the act's own unit of work and stored (app.services.score): the newest row of a game is its score, one row every
so many events stays for an undo to go on from. Games made before have none: each is replayed from its log on
read until its next act stores it (nothing is computed here: a revision never runs the app's rules).
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0029_stored_score"
down_revision: str | None = "0028_unit_hidden_writes"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

String = sqlmodel.sql.sqltypes.AutoString


def upgrade() -> None:
    op.create_table(
        "stored_score",
        sa.Column("game_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("event_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("periodic", sa.Boolean(), nullable=False),
        sa.Column("inputs", String(length=64), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "event_id"),
    )


def downgrade() -> None:
    op.drop_table("stored_score")
