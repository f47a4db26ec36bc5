"""The worker's kept units (app.services.kept_units, issue 88): an act reads the game's units decoded once per
version, yet never acts on a state another worker or a rolled-back write has left behind. A second engine on
the same database stands for another worker: what it writes, this one's next read sees; what this one read of
its own uncommitted write does not outlive a rollback. Both backends (`storage`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import delete, update
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.core.db import make_engine, migrate
from app.data.models import Game, Unit
from app.services import acts, game_setup
from app.services import kept_units as kept_module
from app.services.kept_units import kept_units
from app.services.markers import rules_of
from app.services.seating import Viewer
from app.services.units import get_unit, list_units
from app.services.writing import game_write, unit_of_work
from rules.core.acts import AdvanceTurn, PlaceMarker

pytestmark = pytest.mark.storage


@pytest.fixture
def engines(migrated_url: str) -> Iterator[tuple[Engine, Engine]]:
    ours, theirs = make_engine(migrated_url), make_engine(migrated_url)  # two workers' pools
    yield ours, theirs
    ours.dispose()
    theirs.dispose()


def _mons(engine: Engine) -> tuple[int, int]:
    """Mons 1914 begun (its first step), and a placed stand of the attacker's."""
    with Session(engine) as s, unit_of_work(s):
        game, _ = game_setup.create_game(s, "test-secret", scenario="mons-1914")
        game_id = game.pk
    with Session(engine) as s, game_write(s, game_id) as game:
        acts.play(s, game, Viewer(game_id, "referee"), AdvanceTurn(version=game.version))
    with Session(engine) as s:
        stand = next(u for u in list_units(s, game_id) if u.level == "stand" and u.x is not None)
        return game_id, stand.pk


def _kept(engine: Engine, game_id: int) -> dict[int, object]:
    with Session(engine) as s:
        game = s.get(Game, game_id)
        assert game is not None
        return dict(kept_units(s, game, rules_of(game).book.state_fields).by_id)


def _write_state(engine: Engine, unit_id: int, field: str, value: int, commit: bool) -> None:
    """A write of one unit's state as every writer makes it (its version bumped), committed or rolled back."""
    with Session(engine) as s:
        unit = get_unit(s, s.get(Unit, unit_id).game_id, unit_id)  # type: ignore[union-attr]
        s.execute(
            update(Unit)
            .where(Unit.id == unit_id)  # type: ignore[arg-type]
            .values(state={**unit.state, field: value}, version=Unit.version + 1)
        )
        if commit:
            s.commit()


def test_another_workers_write_is_read_and_only_its_unit_again(engines: tuple[Engine, Engine]) -> None:
    ours, theirs = engines
    game_id, stand = _mons(ours)
    before = _kept(ours, game_id)
    _write_state(theirs, stand, "suppression", 2, commit=True)
    after = _kept(ours, game_id)
    assert after[stand].suppression == 2  # type: ignore[attr-defined]
    assert all(after[uid] is unit for uid, unit in before.items() if uid != stand)  # the others kept as read


def test_a_marker_lands_on_the_state_another_worker_left(engines: tuple[Engine, Engine]) -> None:
    ours, theirs = engines
    game_id, stand = _mons(ours)
    _kept(ours, game_id)  # this worker keeps the stand with no marker
    _write_state(theirs, stand, "suppression", 1, commit=True)
    with Session(ours) as s, game_write(s, game_id) as game:
        played = acts.play(s, game, Viewer(game_id, "referee"), PlaceMarker(unit_id=stand, override=True))
        assert played.answer.state["suppression"] == 2


def test_what_a_rolled_back_write_read_is_not_kept(engines: tuple[Engine, Engine]) -> None:
    """A transaction reads its own write of a stand (version n + 1, 3 markers), then rolls back; another
    worker writes the same stand to version n + 1 with 1 marker: the next read is the other worker's."""
    ours, theirs = engines
    game_id, stand = _mons(ours)
    with Session(ours) as s:
        s.execute(
            update(Unit).where(Unit.id == stand).values(version=Unit.version + 1)  # type: ignore[arg-type]
        )
        unit = s.get(Unit, stand)
        assert unit is not None
        s.execute(update(Unit).where(Unit.id == stand).values(state={**unit.state, "suppression": 3}))  # type: ignore[arg-type]
        game = s.get(Game, game_id)
        assert game is not None
        assert kept_units(s, game, rules_of(game).book.state_fields).by_id[stand].suppression == 3  # type: ignore[attr-defined]
        s.rollback()
    _write_state(theirs, stand, "suppression", 1, commit=True)
    assert _kept(ours, game_id)[stand].suppression == 1  # type: ignore[attr-defined]


def test_a_worker_keeps_units_up_to_its_budget_whatever_the_games(
    engines: tuple[Engine, Engine], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Anyone may make games: what a worker keeps is bounded by units, not by games (the hostile pass's 1.2 GB)."""
    ours, _ = engines
    games = [_mons(ours)[0] for _ in range(3)]
    monkeypatch.setattr(kept_module, "KEPT_UNITS", len(_kept(ours, games[0])) + 1)  # one game's and no more
    for game_id in games:
        _kept(ours, game_id)
    kept = [k for k in kept_module._KEPT.values() if k.game_id in games]
    assert [k.game_id for k in kept] == [games[-1]]
    assert sum(len(k.units) for k in kept_module._KEPT.values()) <= kept_module.KEPT_UNITS


def test_a_write_by_any_path_is_seen_even_one_that_leaves_the_version(engines: tuple[Engine, Engine]) -> None:
    # The database counts every unit write itself (migration 0032's triggers): a script's UPDATE that bumps no
    # version, a unit deleted, a unit added, each shows in the next read of another worker.
    ours, theirs = engines
    game_id, stand = _mons(ours)
    _kept(ours, game_id)
    with Session(theirs) as s:
        s.execute(update(Unit).where(Unit.id == stand).values(x=1.5))  # type: ignore[arg-type]
        s.commit()
    assert _kept(ours, game_id)[stand].x == 1.5  # type: ignore[attr-defined]
    with Session(theirs) as s:
        s.execute(delete(Unit).where(Unit.id == stand))  # type: ignore[arg-type]
        s.commit()
    assert stand not in _kept(ours, game_id)
    with Session(theirs) as s, unit_of_work(s):
        added = Unit(game_id=game_id, side="attacker", level="stand", name="Added", x=3.0, y=4.0)
        s.add(added)
        s.flush()
        added_id = added.pk
    assert _kept(ours, game_id)[added_id].name == "Added"  # type: ignore[attr-defined]


def test_the_read_of_the_rows_written_since_searches_the_counts_index(tmp_path: Path) -> None:
    # Not the game's every unit walked by id (SQLite's planner chose that for an ORDER BY id, before ANALYZE).
    url = f"sqlite:///{tmp_path}/plan.db"
    migrate(url)
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            sql = str(kept_module._WRITTEN_SINCE.compile(engine))
            plan = " ".join(str(row) for row in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}", (0, 1)))
    finally:
        engine.dispose()
    assert "ix_unit_game_seq (game_id=? AND seq>?)" in plan
