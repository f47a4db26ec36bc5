"""access

Revision ID: 0004
Revises: 0003

Devices and access: a token is a device with its last use and its revocation (game and campaign tokens
alike), and a game can be archived out of the lobby by its referee.
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TOKEN_TABLES = ("token", "campaign_token")


def upgrade() -> None:
    for table in TOKEN_TABLES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column("last_seen_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
            batch_op.add_column(sa.Column("revoked_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("archived_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_column("archived_at")
    for table in reversed(TOKEN_TABLES):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column("revoked_at")
            batch_op.drop_column("last_seen_at")
