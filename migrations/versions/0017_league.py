"""the league: leagues with an organiser's token, the clubs' keys each trusts, one row per game imported

Revision ID: 0017
Revises: 0016

A league (issue 63) is made by an organiser (its token kept as an HMAC, like an event's); it trusts clubs'
result-signing keys; each game it imported is one row (its identity: the key, the event, the round, the table)
with the fields its table reads in typed columns. The results imported before leagues (league_result, one
server-wide list) move into one league of their own, with no organiser, each waiting (no key trusted there);
a row whose bundle lacks a field the table reads (the defect issue 63 names) cannot be counted and is not
moved. Downgrading moves every game back into league_result.
"""

import hashlib
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

String = sqlmodel.sql.sqltypes.AutoString
When = sqlmodel.sql.sqltypes.UTCDateTime
LEGACY = "Results imported before leagues"


def _owner() -> sa.Column:
    return sa.Column("league_id", sa.Integer(), nullable=False)


def _cascade() -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["league_id"], ["league.id"], ondelete="CASCADE")


def _sha(obj: Any) -> str:
    return hashlib.sha256(
        json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    ).hexdigest()


def _text(v: Any, n: int) -> str:
    if not isinstance(v, str):
        raise ValueError
    return v[:n]


def _points(v: Any) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise ValueError
    return v


def _moved(row: Any, league_id: int) -> dict[str, Any] | None:
    """An old row as a game of the legacy league, or None when a field the table reads is not as it should be."""
    b = row.bundle if isinstance(row.bundle, dict) else json.loads(row.bundle)
    try:
        (a_name, a_club), (b_name, b_club) = b["players"]["attacker"], b["players"]["defender"]
        winner = b["result"]["winner"]
        if winner not in (None, "attacker", "defender"):
            raise ValueError
        points = b["result"]["points"]
        return {
            "league_id": league_id,
            "identity": _sha([row.club_key, "before leagues", row.id]),  # no round in a /2 bundle: one each
            "body_hash": row.digest,
            "club_key": _text(row.club_key, 64).lower(),
            "club": _text(row.club, 80),
            "event": _text(b.get("event", ""), 200),
            "round": 0,
            "table": _points(b.get("table", 0)),
            "a_name": _text(a_name, 80),
            "a_club": _text(a_club, 80),
            "b_name": _text(b_name, 80),
            "b_club": _text(b_club, 80),
            "winner": winner,
            "a_points": _points(points["attacker"]),
            "b_points": _points(points["defender"]),
            "settled": _text(b.get("settled", "confirmed"), 16),
            "bundle": b,
            "imported_at": row.imported_at,
        }
    except (KeyError, TypeError, ValueError):
        return None


def upgrade() -> None:
    op.create_table(
        "league",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", String(length=200), nullable=False),
        sa.Column("token_hash", String(length=64), nullable=True),
        sa.Column("created_at", When(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_table(
        "league_key",
        sa.Column("id", sa.Integer(), nullable=False),
        _owner(),
        sa.Column("public_key", String(length=64), nullable=False),
        sa.Column("club", String(length=80), nullable=False),
        sa.Column("added_at", When(), nullable=False),
        _cascade(),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("league_id", "public_key"),
    )
    op.create_index(op.f("ix_league_key_league_id"), "league_key", ["league_id"])
    game = op.create_table(
        "league_game",
        sa.Column("id", sa.Integer(), nullable=False),
        _owner(),
        sa.Column("identity", String(length=64), nullable=False),
        sa.Column("body_hash", String(length=64), nullable=False),
        sa.Column("club_key", String(length=64), nullable=False),
        sa.Column("club", String(length=80), nullable=False),
        sa.Column("event", String(length=200), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table", sa.Integer(), nullable=False),
        sa.Column("a_name", String(length=80), nullable=False),
        sa.Column("a_club", String(length=80), nullable=False),
        sa.Column("b_name", String(length=80), nullable=False),
        sa.Column("b_club", String(length=80), nullable=False),
        sa.Column("winner", String(length=16), nullable=True),
        sa.Column("a_points", sa.Integer(), nullable=False),
        sa.Column("b_points", sa.Integer(), nullable=False),
        sa.Column("settled", String(length=16), nullable=False),
        sa.Column("bundle", sa.JSON(), nullable=False),
        sa.Column("imported_at", When(), nullable=False),
        _cascade(),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("league_id", "identity"),
    )
    op.create_index(op.f("ix_league_game_league_id"), "league_game", ["league_id"])
    op.create_index(op.f("ix_league_game_club_key"), "league_game", ["club_key"])
    conn = op.get_bind()
    old = sa.table(
        "league_result",
        sa.column("id", sa.Integer()),
        sa.column("digest", String()),
        sa.column("club_key", String()),
        sa.column("club", String()),
        sa.column("bundle", sa.JSON()),
        sa.column("imported_at", When()),
    )
    rows = list(conn.execute(sa.select(old).order_by(old.c.id)))
    if rows:
        leagues = sa.table(
            "league",
            sa.column("id", sa.Integer()),
            sa.column("name", String()),
            sa.column("created_at", When()),
        )
        conn.execute(sa.insert(leagues).values(name=LEGACY, created_at=datetime.now(UTC)))
        league_id = conn.execute(sa.select(sa.func.max(leagues.c.id))).scalar_one()
        moved = [m for r in rows if (m := _moved(r, league_id)) is not None]
        if moved:
            op.bulk_insert(game, moved)
    op.drop_table("league_result")


def downgrade() -> None:
    result = op.create_table(
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
    conn = op.get_bind()
    game = sa.table(
        "league_game",
        sa.column("body_hash", String()),
        sa.column("club_key", String()),
        sa.column("club", String()),
        sa.column("bundle", sa.JSON()),
        sa.column("imported_at", When()),
    )
    back = {r.body_hash: r for r in conn.execute(sa.select(game))}  # one per signed body
    rows = [
        {
            "digest": h,
            "club_key": r.club_key,
            "club": r.club,
            "bundle": r.bundle,
            "imported_at": r.imported_at,
        }
        for h, r in back.items()
    ]
    if rows:
        op.bulk_insert(result, rows)
    op.drop_index(op.f("ix_league_game_club_key"), table_name="league_game")
    op.drop_index(op.f("ix_league_game_league_id"), table_name="league_game")
    op.drop_table("league_game")
    op.drop_index(op.f("ix_league_key_league_id"), table_name="league_key")
    op.drop_table("league_key")
    op.drop_table("league")
