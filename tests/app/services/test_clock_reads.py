"""The game clock reads its own entries of the log and the undos of those, not every undo (issue 88: a score
read, which carries the clock, grew with the acts taken back: 6 ms after 100 events, 11 ms after 5,000), and,
where the game's clock is stored (issue 93: written with each act that logs a clock event), only the entries
since: two statements however long the game (every act, each act a stand's card judges, and the organiser's
board of every table read the clock)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import delete
from sqlalchemy.engine import Engine
from sqlmodel import Session, col

from app.core.db import make_engine
from app.data.clock_state import StoredClock
from app.data.models import Game
from app.services import acts, clock, game_setup, undo
from app.services.seating import Viewer
from app.services.units import list_units
from app.services.writing import game_write, unit_of_work
from rules.core.acts import AdvanceTurn, MoveStand, SetClockLimits
from tests.conftest import _sqlite_clone
from tests.statements import asked


@pytest.fixture
def engine(sqlite_template: Path, tmp_path: Path) -> Iterator[Engine]:
    made = make_engine(_sqlite_clone(sqlite_template, tmp_path))
    yield made
    made.dispose()


def test_the_clock_reads_no_undo_of_an_act_it_does_not_keep(engine: Engine) -> None:
    with Session(engine) as s, unit_of_work(s):
        game, _ = game_setup.create_game(s, "test-secret", scenario="mons-1914")
        game_id = game.pk
    referee = Viewer(game_id, "referee")
    with Session(engine) as s, game_write(s, game_id) as game:
        acts.play(s, game, referee, AdvanceTurn(version=game.version))
    with Session(engine) as s:
        stand = next(u for u in list_units(s, game_id) if u.level == "stand" and u.x is not None)
        at = (stand.pk, stand.x or 0.0, stand.y or 0.0)
    for i in range(12):  # a stand moved and the move taken back, twelve times
        with Session(engine) as s, game_write(s, game_id) as game:
            move = MoveStand(unit_id=at[0], x=at[1], y=at[2] + 1 + i, facing_deg=90, override=True)
            moved = acts.play(s, game, referee, move).event.pk
        with Session(engine) as s, game_write(s, game_id) as game:
            undo.undo(s, game, referee, moved)

    def rows_read(stored: bool) -> list[dict[str, object]]:
        """The rows the clock's read of the game's log reads (as its columns, not Event objects: a payload only
        where it reads one), its statements asked again; `stored`: with its stored clock, else without one."""
        with Session(engine) as s:
            if not stored:
                s.execute(delete(StoredClock).where(col(StoredClock.game_id) == game_id))
            with asked(engine) as ran:
                held = s.get(Game, game_id)
                assert held is not None and clock.kept(s, held).position is not None  # started, moved on
            conn = s.connection().connection.dbapi_connection
            assert conn is not None
            cursors = [conn.execute(statement, params) for statement, params in ran if "kind" in statement]
            return [
                dict(zip([c[0] for c in cur.description], row, strict=True)) for cur in cursors for row in cur
            ]

    # Since its stored clock: nothing (twelve moves and undos of them since); without one: its own kinds alone.
    assert rows_read(stored=True) == []
    whole = rows_read(stored=False)
    assert whole and {row["kind"] for row in whole} <= clock.KINDS, sorted({row["kind"] for row in whole})
    # A payload only where the clock reads one (the hostile pass of this stop: the read since the stored clock
    # decoded every clock event's, 2.91 s of CPU against 2.35 s for 200 games of 300 steps with no stored clock).
    assert all(row["payload"] is None for row in whole if row["kind"] not in clock.PAYLOADS), whole


def test_the_clock_finds_its_entries_by_their_kind_not_by_walking_the_game_s_log(engine: Engine) -> None:
    """SQLite, asked for the entries in id order, walked the game's whole log down its game_id index to give
    that order (a score read after 5,000 moves: 1.5 ms more than after 100); found by kind, they are few."""
    with Session(engine) as s, unit_of_work(s):
        game, _ = game_setup.create_game(s, "test-secret", scenario="mons-1914")
        game_id = game.pk
    with Session(engine) as s, game_write(s, game_id) as game:
        acts.play(s, game, Viewer(game_id, "referee"), AdvanceTurn(version=game.version))
    with asked(engine) as ran, Session(engine) as s:
        held = s.get(Game, game_id)
        assert held is not None and clock.kept(s, held).position is not None
    with engine.connect() as conn:
        raw = conn.connection.dbapi_connection
        assert raw is not None
        plans = [
            " / ".join(row[3] for row in raw.execute(f"EXPLAIN QUERY PLAN {statement}", params).fetchall())
            for statement, params in ran
        ]
    assert plans and not any("ix_event_game_id (" in plan for plan in plans), plans


def test_the_clock_reads_its_stored_clock_and_the_entries_since_in_two_statements(engine: Engine) -> None:
    """Its entries and the undos of them were two statements, a read of the clock's, then one; now its stored
    clock and the entries since, two, an undone entry left out as before (the referee's limits set, then taken
    back: the clock stored as the undo leaves it)."""
    with Session(engine) as s, unit_of_work(s):
        game, _ = game_setup.create_game(s, "test-secret", scenario="mons-1914")
        game_id = game.pk
    referee = Viewer(game_id, "referee")
    with Session(engine) as s, game_write(s, game_id) as game:
        acts.play(s, game, referee, AdvanceTurn(version=game.version))
    with Session(engine) as s, game_write(s, game_id) as game:
        limits = acts.play(s, game, referee, SetClockLimits(game_seconds={"attacker": 600})).event.pk
    with Session(engine) as s, game_write(s, game_id) as game:
        undo.undo(s, game, referee, limits)
    with Session(engine) as s:
        held = s.get(
            Game, game_id
        )  # the game's own row read first: the clock's read of its log alone counted
        assert held is not None
        with asked(engine) as ran:
            kept = clock.kept_of(s, [held])[game_id]
    assert kept.position is not None and not kept.limits.limited, kept
    assert len(ran) == 2, ran
