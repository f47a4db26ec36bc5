"""The demo game: loaded into an empty database by `firestep demo` and `firestep serve`. A caller of the
services (like a route), so it writes in its own unit of work."""

from __future__ import annotations

from sqlmodel import Session

from app.core.config import get_settings
from app.data.models import Game
from app.services.game_setup import create_game
from app.services.games import count_games
from app.services.writing import unit_of_work

DEMO_NAME = "Demo: German attack on the BEF near Mons, autumn 1914"


def ensure_demo(session: Session, secret_key: str | None = None) -> Game | None:
    """Load the Mons 1914 specimen game into an empty database; do nothing otherwise. Returns the new game.
    Its referee token and join codes are not kept: get them with `reissue_credentials`."""
    if count_games(session):
        return None
    with unit_of_work(session):
        game, _creds = create_game(
            session, secret_key or get_settings().secret_key, scenario="mons-1914", name=DEMO_NAME
        )
    return game
