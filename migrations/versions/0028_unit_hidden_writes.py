"""a unit's hidden writes: the bumps of its version the other side is not shown (session 17, brief F1)

Revision ID: 0028_unit_hidden_writes
Revises: 0027_draft_scenario

A battery aimed bumped its version like any edit, so the other side, reading the unit, could tell which
battery was aimed (never where). The bumps of writes of a side's secret alone are counted apart: the other
side reads the version less them (app.services.units.Reader); the side and the referee write over the whole
version as before. Existing units start at none: what they told before is told.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0028_unit_hidden_writes"
down_revision: str | None = "0027_draft_scenario"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("unit", schema=None) as batch_op:
        batch_op.add_column(sa.Column("hidden_writes", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("unit", schema=None) as batch_op:
        batch_op.drop_column("hidden_writes")
