"""secret objectives: an objective only its side sees, sealed like a fire plan (issue 69)

Revision ID: 0023
Revises: 0021

A scenario (or the referee, at set-up) gives a side objectives the other side must not see: each is kept apart
from the game's board, which every device reads (secret_objective), and each side's are sealed as the game
starts under a commitment published to every device (on game_side, as Flanders Fields' one plan's seal: one
a side, whatever it holds).
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0023"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

String = sqlmodel.sql.sqltypes.AutoString


def upgrade() -> None:
    op.create_table(
        "secret_objective",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("side", String(length=16), nullable=False),
        sa.Column("feature", sa.JSON(), nullable=False),
        sa.Column("salt", String(length=64), nullable=False),
        sa.Column("slot", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_secret_objective_game_id"), "secret_objective", ["game_id"])
    with op.batch_alter_table("game_side", schema=None) as batch_op:
        batch_op.add_column(sa.Column("objectives_commitment", String(length=64), nullable=True))
        batch_op.add_column(sa.Column("objectives_leaves", sa.JSON(), nullable=False, server_default="[]"))
        batch_op.add_column(
            sa.Column("objectives_salt", String(length=64), nullable=False, server_default="")
        )


def downgrade() -> None:
    with op.batch_alter_table("game_side", schema=None) as batch_op:
        batch_op.drop_column("objectives_salt")
        batch_op.drop_column("objectives_leaves")
        batch_op.drop_column("objectives_commitment")
    op.drop_index(op.f("ix_secret_objective_game_id"), table_name="secret_objective")
    op.drop_table("secret_objective")
