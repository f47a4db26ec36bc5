"""scenario drafts: the scenario editor's work kept on the server, one per browser and rule set (issue 67)

Revision ID: 0019_scenario_drafts
Revises: 0018

The editor kept the scenario being built in the browser's memory: a reload lost it. A draft is kept here as it
is entered, its owner the hash of the browser's own random key, so no other browser can read or change it.
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0019_scenario_drafts"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

String = sqlmodel.sql.sqltypes.AutoString
When = sqlmodel.sql.sqltypes.UTCDateTime


def upgrade() -> None:
    op.create_table(
        "scenario_draft",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner", String(length=64), nullable=False),
        sa.Column("ruleset", String(length=64), nullable=False),
        sa.Column("document", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("updated_at", When(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("owner", "ruleset", name="uq_scenario_draft_owner_ruleset"),
    )
    op.create_index(op.f("ix_scenario_draft_updated_at"), "scenario_draft", ["updated_at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_scenario_draft_updated_at"), table_name="scenario_draft")
    op.drop_table("scenario_draft")
