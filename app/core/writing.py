"""The one place a request's write is committed (its unit of work). Routes and pages act through the
services inside `unit_of_work` (or `game_write`, which first takes the game's row lock) and commit nowhere
else; services and the campaign store never commit. The only other commit is `app.core.db.commit_bookkeeping`
(what records nobody's act). The commit also wakes the game's open streams (`app.core.live` publishes after
commit every game the transaction marked). tests/app/core/test_unit_of_work.py keeps it so."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlmodel import Session

from app.data.models import Game
from app.services.games import lock_game


@contextmanager
def unit_of_work(session: Session) -> Iterator[Session]:
    """`with unit_of_work(session):` everything the block writes is committed together when it ends without
    an error; an error commits nothing (the caller rolls back, or the request's session closes)."""
    yield session
    session.commit()


@contextmanager
def game_write(session: Session, game_id: int) -> Iterator[Game]:
    """`with game_write(session, game_id) as game:` the locked game, in one unit of work. A service that
    checks the client's expected version (`bump_game`, `advance`) raises 409 inside the block, and nothing
    is committed."""
    with unit_of_work(session):
        yield lock_game(session, game_id)
