"""each stored score's points beside its state: the organiser's board reads a row a table, no state decoded

Revision ID: 0033_stored_points
Revises: 0032_unit_seq

The organiser's board of a round's hundreds of tables read each game's stored state (its tally, holdings and
calls), decoded it into a replay and scored it, to show each side's points: about half of the board's CPU at 400
tables (issue 93). Each row now carries the points as its state stands (rules.core.score.points_at), written
with it. Rows stored before have none: their game's points are scored from the state until its next act stores
them (nothing is computed here: a revision never runs the app's rules).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0033_stored_points"
down_revision: str | None = "0032_unit_seq"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("stored_score") as table:
        table.add_column(sa.Column("points", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("stored_score") as table:
        table.drop_column("points")
