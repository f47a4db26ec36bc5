"""The stored clock (issue 93): a game's clock kept with its last clock event, written in the unit of work of the
act that logs it, is the clock its whole log counts, after every act of the turn and of the referee's clock, an
undo of the limits set among them; and a read of it is its row and the entries since. Both backends (`storage`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import delete
from sqlalchemy.engine import Engine
from sqlmodel import Session, col

from app.core.db import make_engine
from app.data.clock_state import StoredClock
from app.data.models import Game
from app.services import acts, clock, events, game_setup, undo
from app.services.seating import Viewer
from app.services.writing import game_write, unit_of_work
from rules.core.acts import Act, AdvanceTurn, GiveTime, PauseClock, ResumeClock, SetClockLimits
from rules.core.clock import Counted

pytestmark = pytest.mark.storage


@pytest.fixture
def engine(migrated_url: str) -> Iterator[Engine]:
    made = make_engine(migrated_url)
    yield made
    made.dispose()


def stored_and_whole(engine: Engine, game_id: int) -> tuple[int, Counted, Counted]:
    """The game's stored clock (its event, its state) and the clock its whole log counts (the row put aside in a
    transaction rolled back)."""
    with Session(engine) as s:
        row = s.get(StoredClock, game_id)
        assert row is not None
        event_id, stored = row.event_id, row.state
        game = s.get(Game, game_id)
        assert game is not None
        s.execute(delete(StoredClock).where(col(StoredClock.game_id) == game_id))
        whole = clock.kept(s, game)
        s.rollback()
    return event_id, stored, whole


def test_the_stored_clock_is_the_clock_the_whole_log_counts_after_every_act(engine: Engine) -> None:
    with Session(engine) as s, unit_of_work(s):
        game, _ = game_setup.create_game(s, "test-secret", scenario="mons-1914")
        game_id = game.pk
    referee = Viewer(game_id, "referee")
    limits = {"attacker": 900, "defender": 1200}
    script: list[Act | str] = [
        "advance",
        SetClockLimits(game_seconds=limits, turn_seconds={"attacker": 300}),
        "advance",
        PauseClock(),
        GiveTime(side="defender", seconds=60),
        ResumeClock(),
        "advance",
        "undo limits",  # the limits set taken back: the clock counted anew, stored as the undo leaves it
        "advance",
        SetClockLimits(game_seconds=limits, finish_act=True),
        "advance",
    ]
    set_at: list[int] = []
    for number, step in enumerate(script):
        with Session(engine) as s, game_write(s, game_id) as game:
            if step == "advance":
                act: Act = AdvanceTurn(version=game.version)
                acts.play(s, game, referee, act)
            elif step == "undo limits":
                undo.undo(s, game, referee, set_at[0])
            else:
                assert isinstance(step, Act)
                played = acts.play(s, game, referee, step).event
                if isinstance(step, SetClockLimits):
                    set_at.append(played.pk)
            logged = events.newest_event_id(s, game_id)
        event_id, stored, whole = stored_and_whole(engine, game_id)
        assert stored == whole and event_id <= logged, (number, step)
    assert stored.limits.finish_act and stored.position is not None and stored.used
