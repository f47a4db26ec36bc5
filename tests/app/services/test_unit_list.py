"""The list of a game's units (app.services.unit_list, issue 88): answered from the worker's kept units, each
unit encoded once for its version, the game's and the seat's view, so a read after an act on one stand encodes
that stand alone, and says what a list worked out whole from the rows says."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.core.db import make_engine
from app.services import acts, game_setup, unit_list, unit_names
from app.services.games import get_game
from app.services.seating import Viewer
from app.services.units import list_units, reader
from app.services.writing import game_write, unit_of_work
from rules.core.acts import AdvanceTurn, PlaceMarker
from tests.conftest import _sqlite_clone


@pytest.fixture
def engine(sqlite_template: Path, tmp_path: Path) -> Iterator[Engine]:
    made = make_engine(_sqlite_clone(sqlite_template, tmp_path))
    yield made
    made.dispose()


def _worked_out_whole(engine: Engine, game_id: int, role: str) -> list[dict[str, Any]]:
    """The list as GET /units worked it out before issue 88: every row read, named and answered."""
    with Session(engine) as s:
        read = reader(get_game(s, game_id), Viewer(game_id, role))
        units = list_units(s, game_id)
        named, plain = unit_names.names(units), unit_names.plain_names(units)
        return [
            unit_list.unit_out(u, read)
            .model_copy(
                update={"full_name": named[u.pk][0], "short_name": named[u.pk][1], "plain_name": plain[u.pk]}
            )
            .model_dump(mode="json")
            for u in units
        ]


def _listed(engine: Engine, game_id: int, role: str) -> list[dict[str, Any]]:
    with Session(engine) as s:
        return json.loads(unit_list.listed(s, get_game(s, game_id), Viewer(game_id, role)))


def test_a_list_after_a_marker_encodes_the_stand_alone(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Session(engine) as s, unit_of_work(s):
        game, _ = game_setup.create_game(s, "test-secret", scenario="mons-1914")
        game_id = game.pk
    with Session(engine) as s, game_write(s, game_id) as game:
        acts.play(s, game, Viewer(game_id, "referee"), AdvanceTurn(version=game.version))
    for role in ("referee", "attacker", "defender"):
        assert _listed(engine, game_id, role) == _worked_out_whole(engine, game_id, role)
    stand = next(
        u for u in _listed(engine, game_id, "referee") if u["level"] == "stand" and u["x"] is not None
    )
    with Session(engine) as s, game_write(s, game_id) as game:
        acts.play(s, game, Viewer(game_id, "referee"), PlaceMarker(unit_id=stand["id"], override=True))
    encoded: list[int] = []
    real = unit_list.unit_out

    def counted(u: Any, read: Any) -> Any:
        encoded.append(u.id)
        return real(u, read)

    monkeypatch.setattr(unit_list, "unit_out", counted)
    after = _listed(engine, game_id, "attacker")
    assert encoded == [stand["id"]]
    assert after == _worked_out_whole(engine, game_id, "attacker")
    assert next(u for u in after if u["id"] == stand["id"])["suppression"] == 1
