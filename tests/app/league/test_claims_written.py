"""A file's claims as the league writes them (1bd07903's hostile pass): each given back with the number of the row
that holds it, on SQLite and on PostgreSQL; on PostgreSQL in one INSERT a thousand rows, as its commit says. Each
failed before its fix."""

from __future__ import annotations

import pytest
from sqlalchemy import event
from sqlmodel import Session, col, select

from app.data.models import League, LeagueClaim
from app.data.schemas_claims import ClaimColumns
from app.services import league_claims

HEAD = "Round,Player 1,Score 1,Player 2,Score 2\n"
COLUMNS = ClaimColumns(
    round="Round", a_name="Player 1", a_points="Score 1", b_name="Player 2", b_points="Score 2"
)


@pytest.mark.service
@pytest.mark.storage
def test_a_files_claims_are_written_in_one_insert_each_given_its_rows_number(session: Session) -> None:
    """The hostile pass: on PostgreSQL a draw (no winner) began a new INSERT, the ORM leaving its None out of the
    row's columns: a file of draws and wins was a statement every few rows (107 for 1,333 rows), not one."""
    league = League(name="Written", token_hash="w")
    session.add(league)
    session.flush()
    kept_first = HEAD + "".join(f"1,A{i},{i % 3},B{i},1\n" for i in range(0, 60, 4))
    league_claims.import_claims(session, league.pk, "GT", kept_first, COLUMNS)
    # New rows between ones kept already, draws (1-1) every third row.
    text = HEAD + "".join(f"1,A{i},{i % 3},B{i},1\n" for i in range(60))
    inserts: list[str] = []
    record = lambda *a: inserts.append(a[2]) if a[2].lstrip().startswith("INSERT") else None  # noqa: E731
    engine = session.get_bind()
    event.listen(engine, "before_cursor_execute", record)
    try:
        kept, already = league_claims.import_claims(session, league.pk, "GT", text, COLUMNS)
    finally:
        event.remove(engine, "before_cursor_execute", record)
    assert already == 15 and len(kept) == 60
    # SQLite gives RETURNING's rows in no promised order: SQLAlchemy sends it a row at a time to number them.
    assert len(inserts) == (45 if engine.dialect.name == "sqlite" else 1), len(inserts)
    rows = session.exec(select(LeagueClaim).where(col(LeagueClaim.league_id) == league.pk))
    held = {r.pk: (r.a_name, r.b_name, r.a_points, r.winner) for r in rows}
    assert len(held) == 60
    assert {k.pk: (k.a_name, k.b_name, k.a_points, k.winner) for k in kept} == held


@pytest.mark.service
def test_an_event_named_as_its_import_names_it_is_found_to_remove_and_to_replace(session: Session) -> None:
    """The hostile pass: an import keeps its event as a name is kept (NFKC, its spaces run together), but removing
    an event's claims (DELETE /api/v1/leagues/{id}/claims) and the count the columns page offers to replace read
    the name as typed: "ＧＴ  Open", the import's "GT Open", removed nothing, and the page offered no replace."""
    league = League(name="Named", token_hash="n")
    session.add(league)
    session.flush()
    league_claims.import_claims(session, league.pk, "GT Open", HEAD + "1,Ann,3,Bob,1\n", COLUMNS)
    typed = "ＧＴ\u3000 Open"  # full-width letters and an ideographic space: the import keeps it "GT Open"
    assert league_claims.import_claims(session, league.pk, typed, HEAD + "1,Ann,3,Bob,1\n", COLUMNS)[1] == 1
    assert league_claims.kept_of(session, league.pk, typed) == 1
    assert league_claims.remove_event(session, league.pk, typed).games == 1
