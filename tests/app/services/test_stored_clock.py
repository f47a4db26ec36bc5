"""The stored clock (issue 93): a game's clock kept with its last clock event, written in the unit of work of the
act that logs it, is the clock its whole log counts, after every act of the turn and of the referee's clock, an
undo of the limits set among them; and a read of it is its row and the entries since. Both backends (`storage`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, event, update
from sqlalchemy.engine import Engine
from sqlmodel import Session, col

from app.core.db import make_engine
from app.data.clock_state import StoredClock
from app.data.models import Game
from app.services import acts, clock, events, game_setup, undo
from app.services.seating import Viewer
from app.services.tournament_results import Following
from app.services.writing import game_write, unit_of_work
from rules.core.acts import Act, AdvanceTurn, GiveTime, PauseClock, ResumeClock, SetClockLimits
from rules.core.clock import Counted
from tests.app.events.test_event_seats import committed_table
from tests.app.games.conftest import bearer
from tests.statements import asked

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


def test_a_game_kept_with_no_stored_clock_has_the_clock_its_whole_log_counts_stored_once(
    engine: Engine,
) -> None:
    """Games made before migration 0034 have no stored clock: each read counted its whole log. `store_missing`
    (run by firestep migrate: tests/app/test_cli.py) stores each one's, the clock its whole log counts, a batch
    at a time, and once: a second run finds none. A game of a rule set this firestep does not play (one a
    migrated database may keep: the migration history's seeded game is of rule set "x") has none to count."""
    made = []
    for advances in (3, 0, 5, 0):
        with Session(engine) as s, unit_of_work(s):
            game, _ = game_setup.create_game(s, "test-secret", scenario="mons-1914")
            made.append(game.pk)
        for _ in range(advances):
            with Session(engine) as s, game_write(s, made[-1]) as game:
                acts.play(s, game, Viewer(game.pk, "referee"), AdvanceTurn(version=game.version))
    *made, unplayable = made
    # The games as a database migrated from before 0034 keeps them: no stored clock, one of an unplayable rule set.
    with Session(engine) as s, unit_of_work(s):
        s.execute(delete(StoredClock).where(col(StoredClock.game_id).in_([*made, unplayable])))
        s.execute(update(Game).where(col(Game.id) == unplayable).values(ruleset="x"))
    with Session(engine) as s:
        whole = {pk: clock.kept(s, game) for pk in made if (game := s.get(Game, pk)) is not None}
        logged = {pk: events.newest_event_id(s, pk) for pk in made}
    assert clock.store_missing(engine, batch=1) == len(made)  # the test's own database: its games alone
    assert clock.store_missing(engine) == 0
    for pk in made:
        event_id, stored, counted = stored_and_whole(engine, pk)
        assert stored == counted == whole[pk] and 0 < event_id <= logged[pk], pk
    with Session(engine) as s:
        assert s.get(StoredClock, unplayable) is None


def test_the_organisers_live_view_counts_time_given_as_its_first_read_was_under_way_once(
    client: TestClient,
) -> None:
    """The organiser's view (tournament_results.Following) asks each game's newest event, then reads its clock:
    time given between the two was in the clock it read and, read again as a new event on its next read, counted
    twice, for as long as the stream was open (the hostile pass of issue 93). A read on passes over what it read."""
    c = client
    _, _, seat = committed_table(c)
    game, referee = f"/api/v1/games/{seat['game_id']}", bearer(seat["referee_token"])
    version = c.get(f"{game}/turn", headers=referee).json()["version"]
    assert c.post(f"{game}/turn/advance", headers=referee, json={"version": version}).is_success
    engine: Engine = c.app.state.engine  # type: ignore[attr-defined]
    given: list[int] = []

    def give_as_the_clock_is_read(conn: object, cursor: object, statement: str, *_: object) -> None:
        if "FROM stored_clock" in statement and not given:  # another device, as the board reads the clock
            given.append(0)  # once: the give's own reads of the clock come here too
            answer = c.post(f"{game}/clock/give", headers=referee, json={"side": "attacker", "seconds": 600})
            given[0] = answer.status_code

    following = Following()
    event.listen(engine, "before_cursor_execute", give_as_the_clock_is_read)
    try:
        with Session(engine) as s:
            row = s.get(Game, seat["game_id"])
            assert row is not None
            following.read(s, [row])
    finally:
        event.remove(engine, "before_cursor_execute", give_as_the_clock_is_read)
    assert given == [200]
    assert c.post(f"{game}/clock/pause", headers=referee).is_success  # the game moves on: read again
    with Session(engine) as s:
        row = s.get(Game, seat["game_id"])
        assert row is not None
        state = following.read(s, [row])[row.pk]
        assert state.clock.given == {"attacker": 600} == clock.kept(s, row).given


def test_a_clock_read_after_the_stored_clock_asks_a_range_of_the_games_log(engine: Engine) -> None:
    """The events after a game's stored clock are found as a range of its index of events by kind and id, not
    all its clock events filtered one by one (issue 93's hostile pass: PostgreSQL read 60,000 rows for a board of
    200 games). What the statement lets the database do, asked of its plan (PostgreSQL with sequential scans
    off, as a few rows in a test database would make any plan a scan)."""
    with Session(engine) as s, unit_of_work(s):
        game, _ = game_setup.create_game(s, "test-secret", scenario="mons-1914")
        game_id = game.pk
    with Session(engine) as s, game_write(s, game_id) as game:
        acts.play(s, game, Viewer(game_id, "referee"), AdvanceTurn(version=game.version))
    with Session(engine) as s:
        held = s.get(Game, game_id)
        assert held is not None and s.get(StoredClock, game_id) is not None
        with asked(engine) as ran:
            clock.kept(s, held)
        (statement, params), *_ = [(st, p) for st, p in ran if "kind" in st]
        sqlite = engine.dialect.name == "sqlite"
        dbapi = s.connection().connection.dbapi_connection
        assert dbapi is not None
        cursor = dbapi.cursor()
        if not sqlite:
            cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(("EXPLAIN QUERY PLAN " if sqlite else "EXPLAIN ") + statement, params)
        plan = "\n".join(str(row[-1] if sqlite else row[0]) for row in cursor.fetchall())
    if sqlite:
        assert "ix_event_game_id_kind_id (game_id=? AND kind=? AND id>?)" in plan, plan
    else:
        bounds = [line for line in plan.splitlines() if "Index Cond" in line and "game_id" in line]
        assert any("(id > COALESCE(stored_clock.event_id, 0))" in line for line in bounds), plan
