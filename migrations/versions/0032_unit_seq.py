"""each game's count of unit writes, kept by the database: a worker's kept units checked in one small read (issue 88)

Revision ID: 0032_unit_seq
Revises: 0031_event_game_kind

A worker keeps each game's units decoded between requests (app.services.kept_units) and checked them against
every unit's (id, version), one row a unit: 1,400 rows read for a marker on the largest game. Here the database
counts a game's unit writes itself, whatever wrote them (an act, the club's editor, a script): `game_units.seq`
moves on at every unit inserted, updated or deleted, each unit row carries the count at its last write
(`unit.seq`), and a deletion is remembered (`game_units.gone`, a deleted row cannot say it changed). A kept
state read at count N is brought up to date by the rows of `unit.seq > N` alone, in one statement, and is
whole where the count is still N. Triggers, not the app, so that no write path can be missed: SQLite's after
each row (its own write of `seq` excepted, so it does not fire again), PostgreSQL's before it (setting the
row's count as it is written).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0032_unit_seq"
down_revision: str | None = "0031_event_game_kind"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SQLITE = [
    """CREATE TRIGGER game_units_made AFTER INSERT ON game BEGIN
        INSERT INTO game_units (game_id, seq, gone) VALUES (NEW.id, 0, 0);
    END""",
    """CREATE TRIGGER unit_seq_inserted AFTER INSERT ON unit BEGIN
        UPDATE game_units SET seq = seq + 1 WHERE game_id = NEW.game_id;
        UPDATE unit SET seq = (SELECT seq FROM game_units WHERE game_id = NEW.game_id) WHERE id = NEW.id;
    END""",
    """CREATE TRIGGER unit_seq_updated AFTER UPDATE ON unit WHEN NEW.seq = OLD.seq BEGIN
        UPDATE game_units SET seq = seq + 1 WHERE game_id = NEW.game_id;
        UPDATE unit SET seq = (SELECT seq FROM game_units WHERE game_id = NEW.game_id) WHERE id = NEW.id;
    END""",
    """CREATE TRIGGER unit_seq_deleted AFTER DELETE ON unit BEGIN
        UPDATE game_units SET seq = seq + 1, gone = seq + 1 WHERE game_id = OLD.game_id;
    END""",
]
SQLITE_DROP = ["game_units_made", "unit_seq_inserted", "unit_seq_updated", "unit_seq_deleted"]

POSTGRESQL = [
    """CREATE FUNCTION game_units_made() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        INSERT INTO game_units (game_id, seq, gone) VALUES (NEW.id, 0, 0);
        RETURN NEW;
    END $$""",
    """CREATE FUNCTION unit_seq_written() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE game_units SET seq = seq + 1 WHERE game_id = NEW.game_id RETURNING seq INTO NEW.seq;
        RETURN NEW;
    END $$""",
    """CREATE FUNCTION unit_seq_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE game_units SET seq = seq + 1, gone = seq + 1 WHERE game_id = OLD.game_id;
        RETURN OLD;
    END $$""",
    "CREATE TRIGGER game_units_made AFTER INSERT ON game FOR EACH ROW EXECUTE FUNCTION game_units_made()",
    "CREATE TRIGGER unit_seq_written BEFORE INSERT OR UPDATE ON unit FOR EACH ROW EXECUTE FUNCTION unit_seq_written()",
    "CREATE TRIGGER unit_seq_deleted AFTER DELETE ON unit FOR EACH ROW EXECUTE FUNCTION unit_seq_deleted()",
]
POSTGRESQL_DROP = [
    "DROP TRIGGER game_units_made ON game",
    "DROP TRIGGER unit_seq_written ON unit",
    "DROP TRIGGER unit_seq_deleted ON unit",
    "DROP FUNCTION game_units_made()",
    "DROP FUNCTION unit_seq_written()",
    "DROP FUNCTION unit_seq_deleted()",
]


def upgrade() -> None:
    op.create_table(
        "game_units",
        sa.Column("game_id", sa.Integer(), nullable=False, autoincrement=False),
        sa.Column("seq", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("gone", sa.Integer(), nullable=False, server_default="0"),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
    )
    with op.batch_alter_table("unit") as batch:
        batch.add_column(sa.Column("seq", sa.Integer(), nullable=False, server_default="0"))
    op.create_index("ix_unit_game_seq", "unit", ["game_id", "seq"])
    op.execute("INSERT INTO game_units (game_id, seq, gone) SELECT id, 0, 0 FROM game")
    for statement in SQLITE if op.get_bind().dialect.name == "sqlite" else POSTGRESQL:
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name in SQLITE_DROP:
            op.execute(f"DROP TRIGGER {name}")
    else:
        for statement in POSTGRESQL_DROP:
            op.execute(statement)
    op.drop_index("ix_unit_game_seq", table_name="unit")
    with op.batch_alter_table("unit") as batch:
        batch.drop_column("seq")
    op.drop_table("game_units")
