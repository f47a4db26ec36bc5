"""whose dice a side's rolls are

Revision ID: 0021
Revises: 0019_scenario_drafts

A side chooses to roll its own dice at the table and enter them, or to let firestep roll each of its rolls
(issue 69): the seat's choice, kept with the game. The sides already made keep rolling their own dice, as they
did: the server default fills their rows.
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0021"
down_revision: str | None = "0019_scenario_drafts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_side", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "dice", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False, server_default="players"
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("game_side", schema=None) as batch_op:
        batch_op.drop_column("dice")
