"""an event's own time zone

Revision ID: 0016
Revises: 0015

An event (issue 63) prints its round's end in its own time zone (an IANA name, the organiser's), not in UTC.
The events already made keep printing UTC, the zone they printed in: the server default fills their rows.
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournament", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "time_zone", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False, server_default="UTC"
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("tournament", schema=None) as batch_op:
        batch_op.drop_column("time_zone")
