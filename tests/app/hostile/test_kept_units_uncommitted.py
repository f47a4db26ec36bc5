"""The worker's kept units are one state shared by every request (app.services.kept_units), read by each stand's
card since 829b0d36: a unit write not yet committed by one request is read by no other (its card, its target
list, its act's snapshot), and once rolled back it is never the state later requests read. The interleaving of
two requests is made here by the order of two sessions' statements, as the two requests would run (SQLite and
PostgreSQL: `storage`); no request can be stopped half-way at the API."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event, update
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.core.db import make_engine
from app.data.models import Game, Unit
from app.services.kept_units import KeptUnits, kept_units
from app.services.markers import rules_of
from tests.app.services.test_kept_units import _mons

pytestmark = pytest.mark.storage


@pytest.fixture
def engines(migrated_url: str) -> Iterator[tuple[Engine, Engine]]:
    ours, theirs = (
        make_engine(migrated_url),
        make_engine(migrated_url),
    )  # a writing request's, a reading one's
    yield ours, theirs
    ours.dispose()
    theirs.dispose()


def _kept(s: Session, game_id: int) -> KeptUnits:
    game = s.get(Game, game_id)
    assert game is not None
    return kept_units(s, game, rules_of(game).book.state_fields)


def _suppression(kept: KeptUnits, stand: int) -> Any:
    return kept.by_id[stand].state.get("suppression", 0)


def _writing(engine: Engine, stand: int) -> Session:
    """A request's open transaction: the stand given two markers, then the game's units read in it (as an act
    reads them after its own writes), not committed."""
    writer = Session(engine)
    unit = writer.get(Unit, stand)
    assert unit is not None
    writer.execute(
        update(Unit)
        .where(Unit.id == stand)  # type: ignore[arg-type]
        .values(state={**unit.state, "suppression": 2}, version=Unit.version + 1)
    )
    assert _suppression(_kept(writer, unit.game_id), stand) == 2  # its own write, read by itself
    return writer


def test_an_uncommitted_write_is_read_by_no_other_request(engines: tuple[Engine, Engine]) -> None:
    ours, theirs = engines
    game_id, stand = _mons(ours)
    writer = _writing(ours, stand)
    try:
        with Session(theirs) as reader:
            assert _suppression(_kept(reader, game_id), stand) == 0, (
                "read the other request's uncommitted write"
            )
    finally:
        writer.rollback()
        writer.close()


def test_a_write_rolled_back_during_another_read_is_not_kept(engines: tuple[Engine, Engine]) -> None:
    ours, theirs = engines
    game_id, stand = _mons(ours)
    with Session(theirs) as before:
        _kept(before, game_id)  # the worker keeps the game's units
    writer = _writing(ours, stand)
    reader = Session(theirs)
    game = reader.get(Game, game_id)
    assert game is not None

    def rolled_back_meanwhile(state: Any) -> None:  # the writer's rollback lands while the read is under way
        if writer.is_active and "now_seq" in str(state.statement):
            writer.rollback()
            writer.close()

    event.listen(reader, "do_orm_execute", rolled_back_meanwhile)
    try:
        kept_units(reader, game, rules_of(game).book.state_fields)
    finally:
        event.remove(reader, "do_orm_execute", rolled_back_meanwhile)
        reader.close()
        writer.close()
    with Session(theirs) as later:
        stored = later.get(Unit, stand)
        assert stored is not None and stored.state.get("suppression", 0) == 0  # the database's
        assert _suppression(_kept(later, game_id), stand) == 0, "a later read keeps the rolled-back markers"
