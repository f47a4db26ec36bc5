"""a club event day: tournaments, their players, rounds, tables and log; imported league results

Revision ID: 0015
Revises: 0013

An event (issue 57) of N rounds: its organiser's token (hashed), the players registered, each round's pairing
(drafted, then committed with a game per table), the result each table's game offered, both seats'
confirmations and the result the event counts, and the log of what the organiser changed. Results imported
from other clubs' signed bundles are kept as they came. No stored game changes.
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0015"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

String = sqlmodel.sql.sqltypes.AutoString
When = sqlmodel.sql.sqltypes.UTCDateTime


def _owner() -> sa.Column:
    return sa.Column("tournament_id", sa.Integer(), nullable=False)


def _cascade() -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"], ondelete="CASCADE")


def upgrade() -> None:
    op.create_table(
        "tournament",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", String(length=200), nullable=False),
        sa.Column("ruleset", String(length=64), nullable=False),
        sa.Column("period", String(length=32), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("scoring", sa.JSON(), nullable=False),
        sa.Column("status", String(length=16), nullable=False),
        sa.Column("round_ends_at", When(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", When(), nullable=False),
        sa.Column("updated_at", When(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "tournament_token",
        sa.Column("id", sa.Integer(), nullable=False),
        _owner(),
        sa.Column("role", String(length=16), nullable=False),
        sa.Column("token_hash", String(length=64), nullable=False),
        sa.Column("created_at", When(), nullable=False),
        sa.Column("revoked_at", When(), nullable=True),
        _cascade(),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_index(op.f("ix_tournament_token_tournament_id"), "tournament_token", ["tournament_id"])
    op.create_table(
        "tournament_player",
        sa.Column("id", sa.Integer(), nullable=False),
        _owner(),
        sa.Column("name", String(length=80), nullable=False),
        sa.Column("club", String(length=80), nullable=False),
        sa.Column("force_list", String(length=200), nullable=False),
        sa.Column("dropped", sa.Boolean(), nullable=False),
        _cascade(),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_tournament_player_tournament_id"), "tournament_player", ["tournament_id"])
    op.create_table(
        "tournament_round",
        sa.Column("id", sa.Integer(), nullable=False),
        _owner(),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("scenario", String(length=64), nullable=False),
        sa.Column("status", String(length=16), nullable=False),
        sa.Column("bye_player_id", sa.Integer(), nullable=True),
        sa.Column("minutes", sa.Integer(), nullable=False),
        _cascade(),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("tournament_id", "number"),
    )
    op.create_index(op.f("ix_tournament_round_tournament_id"), "tournament_round", ["tournament_id"])
    op.create_table(
        "tournament_table",
        sa.Column("id", sa.Integer(), nullable=False),
        _owner(),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("table", sa.Integer(), nullable=False),
        sa.Column("a_player_id", sa.Integer(), nullable=False),
        sa.Column("b_player_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("status", String(length=16), nullable=False),
        sa.Column("offered", sa.JSON(), nullable=False),
        sa.Column("a_confirmed", sa.Boolean(), nullable=False),
        sa.Column("b_confirmed", sa.Boolean(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("slip_hash", String(length=64), nullable=False),
        _cascade(),
        sa.ForeignKeyConstraint(["round_id"], ["tournament_round.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["a_player_id"], ["tournament_player.id"]),
        sa.ForeignKeyConstraint(["b_player_id"], ["tournament_player.id"]),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("round_id", "table"),
    )
    op.create_index(op.f("ix_tournament_table_tournament_id"), "tournament_table", ["tournament_id"])
    op.create_index(op.f("ix_tournament_table_game_id"), "tournament_table", ["game_id"])
    op.create_table(
        "tournament_log",
        sa.Column("id", sa.Integer(), nullable=False),
        _owner(),
        sa.Column("kind", String(length=16), nullable=False),
        sa.Column("actor", String(length=16), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=True),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.Column("created_at", When(), nullable=False),
        _cascade(),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_tournament_log_tournament_id"), "tournament_log", ["tournament_id"])
    op.create_table(
        "league_result",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("digest", String(length=64), nullable=False),
        sa.Column("club_key", String(length=64), nullable=False),
        sa.Column("club", String(length=80), nullable=False),
        sa.Column("bundle", sa.JSON(), nullable=False),
        sa.Column("imported_at", When(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("digest"),
    )


def downgrade() -> None:
    op.drop_table("league_result")
    for table in (
        "tournament_log",
        "tournament_table",
        "tournament_round",
        "tournament_player",
        "tournament_token",
    ):
        op.drop_index(op.f(f"ix_{table}_tournament_id"), table_name=table)
        if table == "tournament_table":
            op.drop_index(op.f("ix_tournament_table_game_id"), table_name=table)
        op.drop_table(table)
    op.drop_table("tournament")
