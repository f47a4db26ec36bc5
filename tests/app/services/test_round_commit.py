"""Committing a club event's round (app.services.round_commit.commit_round) makes a game per table in a number of
SQL statements that does not grow with the tables' units: the first game's forces written in a batch, the
database copying them into every other game, the sides, devices and first events of all the games in one
statement each (issue 63: a statement per unit, about 15,700 and 6 s of CPU for 64 tables). Each copy is its
game's own tree, numbered as the first game's."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import delete, event
from sqlmodel import Session, col, func, select

from app.core.db import make_engine
from app.data.models import Event, Game, Tournament, Unit
from app.errors import Conflict
from app.services import game_setup, round_commit, score, tournaments, units
from app.services.units import list_units
from app.services.writing import step_by_step, unit_of_work
from rules.event.standings import EventScoring
from tests.app.test_score_stored import stored_at, whole_log_replayed

TABLES = 24
SECRET = "round-commit-" + "k" * 40


def drafted(session: Session, name: str, tables: int, clubs: int) -> Tournament:
    """An event of 2 x `tables` players from `clubs` clubs, its first round drafted (mons-1914)."""
    with unit_of_work(session):
        row, _ = tournaments.create(
            session,
            SECRET,
            name=name,
            ruleset="flanders-fields",
            period="early",
            rounds=1,
            scoring=EventScoring(),
        )
        entries = [tournaments.PlayerEntry(f"Player {i}", f"Club {i % clubs}") for i in range(2 * tables)]
        tournaments.register(session, row.pk, entries)
    with unit_of_work(session):
        tournaments.draft(session, row.pk, "mons-1914", 120)
    return row


@pytest.mark.storage
def test_a_round_of_many_tables_commits_in_a_bounded_number_of_statements(session: Session) -> None:
    row = drafted(session, "Big night", TABLES, clubs=5)
    statements: list[str] = []
    engine = session.get_bind()
    listen = (engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    event.listen(*listen)
    try:
        with unit_of_work(session):
            made = round_commit.commit_round(session, SECRET, row.pk, 1)
    finally:
        event.remove(*listen)
    assert len(made) == TABLES
    # About twenty for the round, none per unit, and on SQLite (where SQLAlchemy must write the rows whose ids it
    # reads back one statement each) one per table for its game's row: 44 for 24 tables here; before, about
    # 5,900, a statement per unit. On PostgreSQL, one more: the event's own wake-up (its organiser's board follows
    # the new round, app.core.watch.event_channel).
    assert len(statements) <= 41 + TABLES, len(statements)

    first = tree(session, made[0].game.pk)
    assert len(first) > 200 and sum(parent is None for _, parent in first) < len(first)
    for m in made[1:]:
        assert tree(session, m.game.pk) == first
        assert all(u.game_id == m.game.pk for u in list_units(session, m.game.pk))


@pytest.mark.storage
def test_units_copied_from_a_game_whose_rows_are_numbered_with_gaps_keep_their_tree(session: Session) -> None:
    # The copies' parents are set by their ids' offset when every game's rows are numbered without a gap; a
    # gap (a unit deleted from the source, or on PostgreSQL another game's units numbered in the middle of the
    # copy) takes the places' match instead, and each copy is the source's tree all the same.
    with unit_of_work(session):
        games = [game_setup.create_game(session, SECRET, scenario="mons-1914")[0] for _ in range(3)]
        source = games[0].pk
        for game in games[1:]:  # the copies' games hold no units of their own
            session.execute(delete(Unit).where(col(Unit.game_id) == game.pk))
        rows = list_units(session, source)
        parents = {u.parent_id for u in rows}
        leaves = [u for u in rows if u.pk not in parents]
        session.delete(leaves[len(leaves) // 2])
        session.flush()
        units.copy_units(session, source, [g.pk for g in games[1:]])

    first = tree(session, source)
    assert sum(parent is not None for _, parent in first) > 100
    for game in games[1:]:
        assert tree(session, game.pk) == first


@pytest.mark.storage
def test_the_first_games_force_is_written_in_pieces_and_a_commit_resumed_midway_finishes_it(
    session: Session,
) -> None:
    # Issue 63: the first step wrote a whole force (the largest Flanders Fields table's 2,000 units held
    # SQLite's write lock 90 ms, another game's write waited 201 ms). Now no step writes more of it than its
    # budget fits (at least FORCE_PIECE units: a budget of none here), the game hidden meanwhile; a commit
    # gone midway through the force is finished by the next, which writes only the units missing.
    tables = 3
    row = drafted(session, "Pieces", tables, clubs=3)
    with unit_of_work(session):
        alone, _ = game_setup.create_game(session, SECRET, scenario="mons-1914")
    whole = tree(session, alone.pk)
    assert len(whole) > 2 * round_commit.FORCE_PIECE
    before = session.exec(select(func.count(col(Game.id)))).one()

    def first_units() -> int:
        made = round_commit.games_made(session, row.pk, 1)
        first = next(iter(made.values()), None)
        return len(list_units(session, first)) if first is not None else 0

    gone = round_commit.RoundCommit(SECRET, row.pk, 1, budget=0.0)
    with unit_of_work(session):
        gone.begin(session)
    for _ in range(2):
        with unit_of_work(session):
            assert gone.make_some(session)
    assert first_units() == 2 * round_commit.FORCE_PIECE  # two pieces, then the process gone
    assert session.exec(select(func.count(col(Game.id)))).one() == before + 1

    job = round_commit.RoundCommit(SECRET, row.pk, 1, budget=0.0)
    pieces: list[int] = []

    def step() -> bool:
        had = first_units()
        more = job.make_some(session)
        pieces.append(first_units() - had)
        return more

    made = step_by_step(session, lambda: job.begin(session), step, lambda: job.finish(session))
    assert (
        max(pieces) <= round_commit.FORCE_PIECE and sum(pieces) == len(whole) - 2 * round_commit.FORCE_PIECE
    )
    assert session.exec(select(func.count(col(Game.id)))).one() == before + tables
    assert len({m.game.pk for m in made}) == tables
    for m in made:
        assert tree(session, m.game.pk) == whole


@pytest.mark.storage
def test_a_round_s_games_are_scored_as_they_are_shown_and_the_board_reads_a_row_each(
    session: Session,
) -> None:
    """A round's games' first events are written in bulk, not by `record`, so no act stored their scores: every
    read of the board replayed each table's log from its start (issue 93: 1 s of CPU for 100 tables). Each game's
    score is now stored as its round's steps show it (the routes' and pages' commit), the whole log's replay, at
    its newest event; read after, it is that row. (commit_round, the steps in one unit of work, stores none: no
    route or page commits so, and its statements stay a few a table.)"""
    row = drafted(session, "Scored", 3, clubs=3)
    stepped = round_commit.RoundCommit(SECRET, row.pk, 1, budget=0.0)
    made = step_by_step(session, lambda: stepped.begin(session), lambda: stepped.make_some(session),
                        lambda: stepped.finish(session))  # fmt: skip
    for m in made:
        game = session.get(Game, m.game.pk)
        assert game is not None
        newest = session.exec(select(func.max(col(Event.id))).where(col(Event.game_id) == game.pk)).one()
        assert stored_at(session, game.pk) == newest
        assert score.game_score(session, game, "referee") == whole_log_replayed(session, game)


def tree(session: Session, game_id: int) -> list[tuple[str, str | None]]:
    """A game's units as (ref, its parent's ref), in their order."""
    rows = list_units(session, game_id)
    refs = {u.pk: u.ref for u in rows}
    return [(u.ref, refs.get(u.parent_id) if u.parent_id is not None else None) for u in rows]


@pytest.mark.storage
def test_two_commits_of_a_round_at_once_make_one_game_per_table_and_one_wins(
    session: Session, migrated_url: str
) -> None:
    # Two organisers' taps at once, each committing step by step (a table a step: a budget of none) on its
    # own connection: the steps interleave under the event's lock, each table's game is made once, and one
    # commit finishes while the other is refused.
    tables = 6
    row = drafted(session, "Two taps", tables, clubs=3)
    event_id, before = row.pk, session.exec(select(func.count(col(Game.id)))).one()
    session.rollback()
    engine = make_engine(migrated_url)
    start = threading.Barrier(2)
    answers: list[object] = []

    def tap() -> None:
        with Session(engine) as s:
            job = round_commit.RoundCommit(SECRET, event_id, 1, budget=0.0)
            start.wait(timeout=60)
            try:
                answers.append(len(step_by_step(s, lambda: job.begin(s), lambda: job.make_some(s),
                                                lambda: job.finish(s))))  # fmt: skip
            except Conflict as e:
                answers.append(e)

    taps = [threading.Thread(target=tap) for _ in range(2)]
    for t in taps:
        t.start()
    for t in taps:
        t.join()
    engine.dispose()
    assert sorted(answers, key=lambda a: isinstance(a, Conflict))[0] == tables, answers
    assert sum(isinstance(a, Conflict) for a in answers) == 1, answers
    assert session.exec(select(func.count(col(Game.id)))).one() == before + tables
    rnd = tournaments.get_round(session, event_id, 1)
    assert rnd.status == "committed"
    games = [t.game_id for t in tournaments.tables_of(session, rnd.pk)]
    assert None not in games and len(set(games)) == tables
    assert not session.exec(
        select(Game).where(col(Game.id).in_(games), col(Game.archived_at).is_not(None))
    ).all()
