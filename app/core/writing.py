"""The one write path of the route handlers and pages: take the game's row lock, act through the services,
commit. Services never commit; the commit here also wakes the game's open streams (`app.core.live` publishes
after commit every game the transaction marked)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlmodel import Session

from app.data.models import Game
from app.services.games import lock_game


@contextmanager
def game_write(session: Session, game_id: int) -> Iterator[Game]:
    """`with game_write(session, game_id) as game:` the locked game; committed when the block ends without
    an error. A service that checks the client's expected version (`bump_game`, `advance`) raises 409
    inside the block, and nothing is committed."""
    game = lock_game(session, game_id)
    yield game
    session.commit()
