"""idempotency

Revision ID: 0006
Revises: 0005

Writes that a device may repeat safely: the answer to the first request with an `Idempotency-Key` is kept
per (device, key) for a day (app/idempotency.py), so a tap queued offline and sent twice acts once.
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "idempotent_response",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("device_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("key", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("request_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("status_code", sa.Integer(), nullable=True),
        sa.Column("content_type", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("device_hash", "key", name="uq_idempotent_response_device_key"),
    )
    op.create_index(
        op.f("ix_idempotent_response_created_at"), "idempotent_response", ["created_at"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_idempotent_response_created_at"), table_name="idempotent_response")
    op.drop_table("idempotent_response")
