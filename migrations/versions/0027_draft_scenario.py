"""a draft's scenario: the editor's draft of an existing scenario kept apart from the browser's new one (issue 67)

Revision ID: 0027_draft_scenario
Revises: 0023

A draft was one per browser and rule set, so editing a scenario already saved would have written over the new
scenario being built in the same browser. The key gains the scenario edited ('' for a new one, not NULL: a
unique constraint holds NULLs apart, and two new drafts of one browser and rule set must not both be kept).
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0027_draft_scenario"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

String = sqlmodel.sql.sqltypes.AutoString


def upgrade() -> None:
    with op.batch_alter_table("scenario_draft", schema=None) as batch_op:
        batch_op.add_column(sa.Column("scenario", String(length=64), nullable=False, server_default=""))
        batch_op.drop_constraint("uq_scenario_draft_owner_ruleset", type_="unique")
        batch_op.create_unique_constraint(
            "uq_scenario_draft_owner_ruleset_scenario", ["owner", "ruleset", "scenario"]
        )


def downgrade() -> None:
    # An edit's drafts have no place in the older key: they go, a new scenario's draft stays.
    op.execute(sa.text("DELETE FROM scenario_draft WHERE scenario <> ''"))
    with op.batch_alter_table("scenario_draft", schema=None) as batch_op:
        batch_op.drop_constraint("uq_scenario_draft_owner_ruleset_scenario", type_="unique")
        batch_op.create_unique_constraint("uq_scenario_draft_owner_ruleset", ["owner", "ruleset"])
        batch_op.drop_column("scenario")
