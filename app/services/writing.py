"""The one place a request's write is committed (its unit of work). Routes and pages act through the
services inside `unit_of_work` (or `game_write`, which first takes the game's row lock through
`app.services.games.lock_game`; or `step_by_step`, a long write as a sequence of them) and commit nowhere else;
no other service (the campaign store included) commits. The only other commit is
`app.core.db.commit_bookkeeping` (what records nobody's act). The commit also wakes the game's open streams
(`app.core.live` publishes after commit every game the transaction marked).
tests/app/services/test_unit_of_work.py keeps it so."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from sqlmodel import Session

from app.data.models import Game
from app.services.games import lock_game

T = TypeVar("T")


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


def step_by_step(
    session: Session,
    begin: Callable[[], object],
    step: Callable[[], bool],
    end: Callable[[], T],
    cpu: float | None = None,
) -> T | None:
    """A long write as short units of work, so that no other write waits long behind it (issue 63: a round's
    games, app.services.round_commit.RoundCommit): `begin()` in one, `step()` in one each until it answers
    False (nothing left), `end()` in one, whose answer is returned. An error stops there and commits nothing
    of its own unit; the units before it stay committed, so the steps are written to be resumed (a retry
    begins again and steps through what is left) and to show nothing until `end`. With `cpu` seconds, the
    request stops between units once its thread has spent them (after at least one step that did something)
    and answers None: the caller says the work goes on, and its next call resumes it (no request costs much
    more CPU than `cpu`, whatever the work's size)."""
    spent_from = time.thread_time()
    with unit_of_work(session):
        begin()
    # SQLite's waiting writers poll for its lock (its busy handler sleeps 1 to 100 ms between tries): the next
    # step would take it again before any of them looked. Each step is followed by as long a pause (up to
    # 100 ms), so another game's write waits about one step; PostgreSQL's writers queue on their own rows.
    give_way = session.get_bind().dialect.name == "sqlite"
    more, moved = True, False

    def spent() -> bool:  # the request's CPU spent, once it has moved the work on
        return moved and cpu is not None and time.thread_time() - spent_from >= cpu

    while more:
        if spent():
            return None
        started = time.perf_counter()
        with unit_of_work(session):
            more = step()
        moved = moved or more
        if more and give_way:
            time.sleep(min(time.perf_counter() - started, 0.1))
    if spent():
        return None
    with unit_of_work(session):
        return end()
