"""Reads and writes of the tables, kept out of the routes."""

from __future__ import annotations

from sqlmodel import Session, col, func, select

from app.models import Game
from rules.core.errors import NotFoundError


def list_games(session: Session) -> list[Game]:
    return list(session.exec(select(Game).order_by(col(Game.id))))


def get_game(session: Session, game_id: int) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise NotFoundError("game", str(game_id))
    return game


def count_games(session: Session) -> int:
    return session.exec(select(func.count()).select_from(Game)).one()


DEMO_NAME = "Demo: German attack on the BEF near Mons, autumn 1914"


def ensure_demo(session: Session) -> Game | None:
    """Load the demo game into an empty database; do nothing otherwise. Returns the new game."""
    if count_games(session):
        return None
    game = Game(
        name=DEMO_NAME,
        ruleset="flanders-fields",
        period="early",
        attacker_nation="german",
        defender_nation="british",
        scenario="mons-1914",
    )
    session.add(game)
    session.commit()
    session.refresh(game)
    return game
