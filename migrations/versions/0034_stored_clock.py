"""the stored clock: a game's clock kept as its log stands after its last clock event (issue 93)

Revision ID: 0034_stored_clock
Revises: 0033_stored_points

The clock was counted over the game's clock events on every read: the organiser's board of 400 tables counted
every game's, over a second of CPU mid-round. It is now written in the unit of work of each act that logs a
clock event (app.services.clock), and a read goes on from it over the clock events since. Games made before have
none: each is counted from its log until its next clock event stores it (nothing is computed here: a revision
never runs the app's rules).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0034_stored_clock"
down_revision: str | None = "0033_stored_points"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "stored_clock",
        sa.Column("game_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
    )


def downgrade() -> None:
    op.drop_table("stored_clock")
