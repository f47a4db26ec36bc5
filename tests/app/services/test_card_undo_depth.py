"""A stand's card offers the Undo the undo takes, however long the game (issue 88): its newest act is read from
the log by stand (app.data.log_index.EventUnit), not from the last 200 events of the game, so a stand whose move
is 450 events back still offers its Undo, and the undo takes it back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.core.db import make_engine
from app.data.models import Game, Unit
from app.services import acts, game_setup, undo
from app.services.events import newest_event_id, record
from app.services.markers import rules_of
from app.services.seating import Viewer
from app.services.units import increment, list_units
from app.services.writing import game_write, unit_of_work
from rules.core.acts import AdvanceTurn, MoveStand
from tests.conftest import _sqlite_clone

DEPTH = 450  # events of other stands logged after the stand's move


@pytest.fixture
def engine(sqlite_template: Path, tmp_path: Path) -> Iterator[Engine]:
    made = make_engine(_sqlite_clone(sqlite_template, tmp_path))
    yield made
    made.dispose()


def _playing(engine: Engine) -> int:
    """A Mons 1914 game, started."""
    with Session(engine) as s, unit_of_work(s):
        game, _ = game_setup.create_game(s, "test-secret", scenario="mons-1914")
        game_id = game.pk
    with Session(engine) as s, game_write(s, game_id) as game:
        acts.play(s, game, Viewer(game_id, "referee"), AdvanceTurn(version=game.version))
    return game_id


def _on_table(units: list[Unit], side: str) -> list[Unit]:
    return [u for u in units if u.side == side and u.x is not None and u.y is not None and not u.off_table]


def test_the_card_offers_the_undo_of_a_move_450_events_back_and_the_undo_takes_it(engine: Engine) -> None:
    game_id = _playing(engine)
    referee = Viewer(game_id, "referee")
    with Session(engine) as s, game_write(s, game_id) as game:
        units = list_units(s, game_id)
        stand, other = _on_table(units, "attacker")[0], _on_table(units, "defender")[0]
        stand_id, other_id = stand.pk, other.pk
        act = MoveStand(
            unit_id=stand_id, x=(stand.x or 0) + 3, y=stand.y or 0, facing_deg=90.0, override=True
        )
        moved = acts.play(s, game, referee, act).event.pk
        # The other stands' markers as the pipeline logs them (one placed, one taken off), written and logged
        # by the services the pipeline writes with, not played through it (a full act each reads every unit).
        field = rules_of(game).book.marker_field
        assert field
        for i in range(DEPTH):
            change = increment(s, other, field, 1 - 2 * (i % 2))
            record(s, game, "marker", "referee", {"unit_id": other_id, "changes": [change]})
    with Session(engine) as s:
        row = s.get(Game, game_id)
        assert row is not None and newest_event_id(s, game_id) - moved == DEPTH
        offered = undo.card_undo(s, row, referee, stand_id)
        assert offered is not None and offered.pk == moved
        assert undo.undo_refusal(s, row, referee, offered) is None
        # The other side's seat: not its act to take back, as the undo answers it.
        assert undo.card_undo(s, row, Viewer(game_id, "defender"), stand_id) is None
    with Session(engine) as s, game_write(s, game_id) as game:
        taken = undo.undo(s, game, referee, moved)
        assert taken.reverses_id == moved
    with Session(engine) as s:
        row = s.get(Game, game_id)
        assert row is not None
        # Taken back, the stand has no act left that stands: the card offers none.
        assert undo.card_undo(s, row, referee, stand_id) is None
        # The other stand's newest, its last marker, is offered.
        newest = undo.card_undo(s, row, referee, other_id)
        assert newest is not None and newest.pk == moved + DEPTH
