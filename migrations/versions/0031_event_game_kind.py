"""the log by game and kind: what reads a game's events of some kinds alone reads those (issue 88)

Revision ID: 0031_event_game_kind
Revises: 0030_event_unit

The game clock reads a game's clock acts and its steps moved on (app.services.clock.entries), a few dozen
events: through the index by game alone it read every event of the game to find them, so a score read, which
carries the clock, grew with the log (SQLite: 3 ms of CPU after 100 events, 9 ms after 5,000).
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0031_event_game_kind"
down_revision: str | None = "0030_event_unit"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_event_game_id_kind", "event", ["game_id", "kind"])


def downgrade() -> None:
    op.drop_index("ix_event_game_id_kind", table_name="event")
