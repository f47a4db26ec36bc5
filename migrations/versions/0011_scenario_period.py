"""repair: scenario.period where the first 0010 left it out

Revision ID: 0011
Revises: 0010

Revision 0010 landed once without the `scenario.period` column (9fd2d59) and was then changed to create it: a
database upgraded through the first file is stamped 0010 without the column. This adds it where it is missing,
filled with the period each stored document names; a database made by today's 0010 already has it and is left
as it is. Revision ids are never reused again (tests/app/core/test_migration_history.py).
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    bind = op.get_bind()
    if "period" in {c["name"] for c in sa.inspect(bind).get_columns("scenario")}:
        return
    with op.batch_alter_table("scenario") as batch:
        batch.add_column(
            sa.Column(
                "period", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False, server_default=""
            )
        )
    scenario = sa.table(
        "scenario", sa.column("id", sa.String), sa.column("period", sa.String), sa.column("document", sa.JSON)
    )
    for sid, document in bind.execute(sa.select(scenario.c.id, scenario.c.document)).all():
        period = document.get("period") if isinstance(document, dict) else None
        bind.execute(sa.update(scenario).where(scenario.c.id == sid).values(period=str(period or "")[:32]))
    with op.batch_alter_table("scenario") as batch:
        batch.alter_column("period", server_default=None)


def downgrade() -> None:
    """Nothing: today's 0010 creates the column, and its downgrade drops the table."""
