"""Dice that stand (issue 89): a roll of firestep's dice is final for the player, in every rule set, its undo the
referee's; a player's mistaken Apply of dice they entered themselves still undoes while it is the game's latest
event. The session's players' seat undid its order roll and rolled again until a 6 came up (6 rolls, 5 undos)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.core.db import make_engine
from app.data.models import Event, Game
from app.errors import Forbidden
from app.services import acts, game_setup, undo
from app.services.seating import Viewer
from app.services.units import list_units
from app.services.writing import game_write, unit_of_work
from rules.core.acts import AdvanceTurn, Roll
from tests.conftest import _sqlite_clone

ORDER_ROLL = "order-roll"


@pytest.fixture
def engine(sqlite_template: Path, tmp_path: Path) -> Iterator[Engine]:
    made = make_engine(_sqlite_clone(sqlite_template, tmp_path))
    yield made
    made.dispose()


def _ordering(engine: Engine) -> tuple[int, int]:
    """Mons 1914 at the attacker's battalion orders: the game and a company of the attacker's to order."""
    with Session(engine) as s, unit_of_work(s):
        game, _ = game_setup.create_game(s, "test-secret", scenario="mons-1914")
        game_id = game.pk
    for who in ("referee", "attacker"):  # started, and on to the battalion orders
        with Session(engine) as s, game_write(s, game_id) as game:
            acts.play(s, game, Viewer(game_id, who), AdvanceTurn(version=game.version))
    with Session(engine) as s:
        company = next(
            u
            for u in list_units(s, game_id)
            if u.side == "attacker" and u.level == "company" and not u.killed
        )
        return game_id, company.pk


def _rolled(engine: Engine, game_id: int, company: int, dice: list[int] | None) -> int:
    with Session(engine) as s, game_write(s, game_id) as game:
        act = Roll(resolver=ORDER_ROLL, unit_id=company, dice=dice)
        return acts.play(s, game, Viewer(game_id, "attacker"), act).event.pk


def _undone_by(engine: Engine, game_id: int, event_id: int, role: str) -> Exception | None:
    """What `role`'s undo of the event does: None where it is taken back (kept), else its refusal."""
    with Session(engine) as s, game_write(s, game_id) as game:
        try:
            undo.undo(s, game, Viewer(game_id, role), event_id)
        except Forbidden as refused:
            return refused
    return None


def test_a_roll_of_firesteps_dice_is_not_the_players_to_take_back(engine: Engine) -> None:
    game_id, company = _ordering(engine)
    rolled = _rolled(engine, game_id, company, None)  # "Let firestep roll": the server's dice
    refused = _undone_by(engine, game_id, rolled, "attacker")
    assert isinstance(refused, Forbidden), refused
    said = str(refused.message)
    assert said == undo.FIRESTEP_ROLLED and len(said) <= 120 and "referee" in said, said
    # The card's Undo is not offered either: its sentence is the refusal's.
    with Session(engine) as s:
        game = s.get(Game, game_id)
        assert game is not None
        ev = s.get(Event, rolled)
        assert ev is not None
        assert undo.undo_refused(s, game, Viewer(game_id, "attacker"), ev).startswith("Firestep")
    # The referee takes it back.
    assert _undone_by(engine, game_id, rolled, "referee") is None


def test_a_players_mistaken_apply_of_their_own_dice_still_undoes(engine: Engine) -> None:
    game_id, company = _ordering(engine)
    entered = _rolled(engine, game_id, company, [2])  # the dice rolled at the table, a face mistyped
    assert _undone_by(engine, game_id, entered, "attacker") is None


def test_an_arrived_items_fire_stands_where_firestep_rolled_any_of_its_dice() -> None:
    # An arrived item's card: its action die entered at the table, the stands' dice left to firestep.
    def fire(*by_server: bool) -> dict[str, object]:
        return {"rolls": [{"resolution": {"dice": [4], "rolled_by_server": b}} for b in by_server]}

    assert undo.rolled_by_firestep("arrival-fire", fire(False, True))
    assert not undo.rolled_by_firestep("arrival-fire", fire(False, False))
    assert not undo.rolled_by_firestep("move", {"resolution": {"rolled_by_server": True}})
