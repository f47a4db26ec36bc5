"""An undo sent again once the first was taken (a replay, the second after the first succeeded) is refused naming
what happened, the act already taken back: a rule's 409 (RuleRefused), said in its own sentence, not a stale
write's "Someone changed this on another device" (the last session's hostile pass)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.core.db import make_engine
from app.errors import SHOWN_BY_STATUS, RuleRefused, refusal_body
from app.sentences import MAX_DETAIL
from app.services import acts, game_setup, undo
from app.services.events import newest_event_id
from app.services.seating import Viewer
from app.services.units import list_units
from app.services.writing import game_write, unit_of_work
from rules.core.acts import AdvanceTurn, MoveStand
from tests.conftest import _sqlite_clone


@pytest.fixture
def engine(sqlite_template: Path, tmp_path: Path) -> Iterator[Engine]:
    made = make_engine(_sqlite_clone(sqlite_template, tmp_path))
    yield made
    made.dispose()


def test_an_undo_replayed_after_it_was_taken_says_the_act_is_already_taken_back(engine: Engine) -> None:
    with Session(engine) as s, unit_of_work(s):
        game, _ = game_setup.create_game(s, "test-secret", scenario="mons-1914")
        game_id = game.pk
    referee = Viewer(game_id, "referee")
    with Session(engine) as s, game_write(s, game_id) as game:
        acts.play(s, game, referee, AdvanceTurn(version=game.version))
        stand = next(u for u in list_units(s, game_id) if u.side == "attacker" and u.x is not None)
        act = MoveStand(
            unit_id=stand.pk, x=(stand.x or 0) + 3, y=stand.y or 0, facing_deg=90.0, override=True
        )
        moved = acts.play(s, game, referee, act).event.pk
    with Session(engine) as s, game_write(s, game_id) as game:
        undo.undo(s, game, referee, moved)
    with Session(engine) as s, game_write(s, game_id) as game:
        logged = newest_event_id(s, game_id)
        with pytest.raises(RuleRefused) as replayed:
            undo.undo(s, game, referee, moved)
        assert newest_event_id(s, game_id) == logged  # nothing logged by the replay
    said = refusal_body(replayed.value)["said"]
    assert said == replayed.value.message and said != SHOWN_BY_STATUS[409], said
    assert "already taken back" in said and len(said) <= MAX_DETAIL, said
