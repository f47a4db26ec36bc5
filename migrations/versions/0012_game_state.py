"""game state as a mapping

Revision ID: 0012
Revises: 0011

A game's rule-set values (the game-wide numbers its rules set, declared in the rule set's table kit:
rules.core.kit.BoardKey with `value`) move from Flanders Fields' one column, `game.deep_suppression`, into one
JSON mapping, `game.state`, keyed by their names, so that the app names no rule set's value. Every stored game
that set one is a Flanders Fields game: its penalty moves unchanged (0, the value's default, is left out). The
downgrade moves it back.

Columns are dropped in place (SQLite 3.35 and later drop a column; batch mode would copy the table, and
dropping the old copy would cascade to every game's rows).
"""

from collections.abc import Callable, Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMN = "deep_suppression"
BATCH = 500


def _game(*columns: sa.ColumnClause[object]) -> sa.TableClause:
    return sa.table("game", sa.column("id", sa.Integer()), *columns)


def _each_game(
    conn: sa.Connection,
    read: sa.TableClause,
    write: sa.TableClause,
    values: Callable[[sa.RowMapping], dict[str, object]],
) -> None:
    """Rewrite every game in batches: `values(row)` is the new column values of a row."""
    last = 0
    while True:
        rows = (
            conn.execute(sa.select(read).where(read.c.id > last).order_by(read.c.id).limit(BATCH))
            .mappings()
            .all()
        )
        if not rows:
            return
        for row in rows:
            conn.execute(sa.update(write).where(write.c.id == row["id"]).values(**values(row)))
        last = rows[-1]["id"]


def upgrade() -> None:
    with op.batch_alter_table("game") as batch_op:
        batch_op.add_column(sa.Column("state", sa.JSON(), nullable=False, server_default="{}"))
    read = _game(sa.column(COLUMN, sa.Integer()))
    write = _game(sa.column("state", sa.JSON()))
    _each_game(
        op.get_bind(), read, write, lambda row: {"state": {COLUMN: row[COLUMN]} if row[COLUMN] else {}}
    )
    op.drop_column("game", COLUMN)


def downgrade() -> None:
    with op.batch_alter_table("game") as batch_op:
        batch_op.add_column(sa.Column(COLUMN, sa.Integer(), nullable=False, server_default="0"))
    read = _game(sa.column("state", sa.JSON()))
    write = _game(sa.column(COLUMN, sa.Integer()))
    _each_game(op.get_bind(), read, write, lambda row: {COLUMN: int((row["state"] or {}).get(COLUMN, 0))})
    op.drop_column("game", "state")
