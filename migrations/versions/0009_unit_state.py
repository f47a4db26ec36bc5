"""unit state as a mapping

Revision ID: 0009
Revises: 0008

A unit's rule-set state moves from one column per Flanders Fields field into one JSON mapping, `unit.state`,
keyed by the names the rule set's game hook declares (rules.core.game.StateField), so that any rule set can be
played. Every unit of a stored game is a Flanders Fields unit (the only rule set played as a game before this
revision): its values move unchanged. The downgrade moves them back.
"""

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The Flanders Fields columns as 0002 and later made them: name, type, default.
COLUMNS: tuple[tuple[str, Any, Any], ...] = (
    ("suppression", sa.Integer(), 0),
    ("stuck_on_wire", sa.Boolean(), False),
    ("deep_shelter", sa.Boolean(), False),
    ("limbered", sa.Boolean(), False),
    ("raw_under_fire", sa.Boolean(), False),
    ("field_promotion", sa.Boolean(), False),
    ("in_gas", sa.Boolean(), False),
    ("mutiny", sa.Boolean(), False),
    ("crew_abandoned", sa.Boolean(), False),
    ("actions_left", sa.Integer(), 0),
    ("morale_stage", sa.Integer(), 0),
    ("morale_due", sa.Boolean(), False),
    ("aiming_point", sa.JSON(), None),
)
BATCH = 500


def _unit(*names: str, state: bool = False) -> sa.Table:
    cols = [sa.column("id", sa.Integer())]
    cols += [sa.column(n, t) for n, t, _ in COLUMNS if n in names]
    if state:
        cols.append(sa.column("state", sa.JSON()))
    return sa.table("unit", *cols)


def _plain(value: Any, default: Any) -> Any:
    # SQLite hands booleans back as 0/1: the state keeps them as the rules read them.
    if isinstance(default, bool) and value is not None:
        return bool(value)
    return value


def upgrade() -> None:
    with op.batch_alter_table("unit") as batch_op:
        batch_op.add_column(sa.Column("state", sa.JSON(), nullable=False, server_default="{}"))
    conn = op.get_bind()
    names = [n for n, _, _ in COLUMNS]
    read = _unit(*names)
    write = _unit(state=True)
    last = 0
    while True:
        rows = (
            conn.execute(sa.select(read).where(read.c.id > last).order_by(read.c.id).limit(BATCH))
            .mappings()
            .all()
        )
        if not rows:
            break
        for row in rows:
            state = {n: _plain(row[n], d) for n, _, d in COLUMNS}
            conn.execute(sa.update(write).where(write.c.id == row["id"]).values(state=state))
        last = rows[-1]["id"]
    with op.batch_alter_table("unit") as batch_op:
        for name in names:
            batch_op.drop_column(name)


def downgrade() -> None:
    with op.batch_alter_table("unit") as batch_op:
        for name, type_, default in COLUMNS:
            # '0' is false to PostgreSQL's booleans and SQLite's alike.
            server_default = None if default is None else "0"
            batch_op.add_column(
                sa.Column(name, type_, nullable=default is None, server_default=server_default)
            )
    conn = op.get_bind()
    names = [n for n, _, _ in COLUMNS]
    read = _unit(state=True)
    write = _unit(*names)
    last = 0
    while True:
        rows = (
            conn.execute(sa.select(read).where(read.c.id > last).order_by(read.c.id).limit(BATCH))
            .mappings()
            .all()
        )
        if not rows:
            break
        for row in rows:
            state = row["state"] or {}
            values = {n: state.get(n, d) for n, _, d in COLUMNS}
            conn.execute(sa.update(write).where(write.c.id == row["id"]).values(**values))
        last = rows[-1]["id"]
    with op.batch_alter_table("unit") as batch_op:
        batch_op.drop_column("state")
