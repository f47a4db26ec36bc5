"""a game's events by kind, in id order: the clock's events since its stored clock a range (issue 93's hostile pass)

Revision ID: 0035_event_game_kind_id
Revises: 0034_stored_clock

The clock reads each game's clock events after its stored clock (app.services.clock). The index of a game's events
by kind (0031) found all of them, and PostgreSQL filtered out those before the stored clock one by one: 60,000 rows
for a board of 200 games of 300 steps. With the id as the index's last column, the events after it are a range.
SQLite's indexes end with the row's id already; the index is the same on both backends.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0035_event_game_kind_id"
down_revision: str | None = "0034_stored_clock"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_event_game_id_kind_id", "event", ["game_id", "kind", "id"])
    op.drop_index("ix_event_game_id_kind", table_name="event")


def downgrade() -> None:
    op.create_index("ix_event_game_id_kind", "event", ["game_id", "kind"])
    op.drop_index("ix_event_game_id_kind_id", table_name="event")
