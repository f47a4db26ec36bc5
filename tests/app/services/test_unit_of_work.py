"""Every write is committed in one place: `app.services.writing.unit_of_work` (game_write goes through it), besides
`app.core.db.commit_bookkeeping` (what records nobody's act). No page, route, service, store or guard commits
by hand, the store's writes are lost unless a unit of work commits them, and a page and a route doing the same
act hold to the same rule (the service's)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session, select

from app.data.models import Campaign, Game
from app.services import campaign_store, games
from app.services.game_setup import create_game
from app.services.writing import game_write, unit_of_work
from tests import csrf
from tests.app.games.conftest import new_game

pytestmark = pytest.mark.storage  # commits and rollbacks on each backend

APP = Path(__file__).resolve().parents[3] / "app"

# (module, function) where a commit may be written.
ALLOWED = {("services/writing.py", "unit_of_work"), ("core/db.py", "commit_bookkeeping")}


def commits_in(source: str) -> list[tuple[str, int]]:
    """(enclosing function, line) of every `.commit(...)` call in a module's source."""
    found: list[tuple[str, int]] = []

    def walk(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            inside = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else function
            if (
                isinstance(child, ast.Call)
                and isinstance(child.func, ast.Attribute)
                and child.func.attr == "commit"
            ):
                found.append((function, child.lineno))
            walk(child, inside)

    walk(ast.parse(source), "<module>")
    return found


def test_the_scan_finds_a_commit_and_its_function() -> None:
    source = (
        "def f(s):\n    with x:\n        s.commit()\n\nasync def g(session):\n    await session.commit()\n"
    )
    assert commits_in(source) == [("f", 3), ("g", 6)]
    assert commits_in("def f(s):\n    s.flush()\n") == []


def test_no_commit_outside_the_unit_of_work() -> None:
    stray = []
    for path in sorted(APP.rglob("*.py")):
        module = path.relative_to(APP).as_posix()
        stray += [
            f"app/{module}:{line} in {function}"
            for function, line in commits_in(path.read_text(encoding="utf-8"))
            if (module, function) not in ALLOWED
        ]
    assert stray == [], "commit through app.services.writing.unit_of_work (or game_write) instead"
    # Both allowed places still commit (else the scan would pass over a renamed function).
    found = {
        (module, function)
        for module in ("services/writing.py", "core/db.py")
        for function, _ in commits_in((APP / module).read_text(encoding="utf-8"))
    }
    assert found == ALLOWED


def test_a_store_write_outside_a_unit_of_work_is_lost(client: TestClient) -> None:
    engine = client.app.state.engine  # type: ignore[attr-defined]
    with Session(engine) as session:
        campaign_store.create(session, "secret", "Never committed")
    with Session(engine) as session, unit_of_work(session):
        campaign_store.create(session, "secret", "Committed")
    with Session(engine) as session:
        names = session.exec(select(Campaign.name)).all()
    assert names == ["Committed"]


def test_game_write_commits_the_block_or_nothing(client: TestClient) -> None:
    engine = client.app.state.engine  # type: ignore[attr-defined]
    with Session(engine) as session, unit_of_work(session):
        game, _ = create_game(session, "secret", name="Before")
        game_id, created = game.id or 0, game.version
    with Session(engine) as session, pytest.raises(RuntimeError), game_write(session, game_id) as locked:
        games.bump_game(session, locked, None, name="Refused")
        raise RuntimeError("refused inside the block")
    with Session(engine) as session, game_write(session, game_id) as locked:
        games.bump_game(session, locked, None, name="After")
    with Session(engine) as session:
        stored = session.get(Game, game_id)
        assert stored is not None
        assert (stored.name, stored.version) == ("After", created + 1)


def test_a_plan_locks_only_in_set_up_through_the_api_and_the_page_alike(client: TestClient) -> None:
    """fireplans.lock_plan holds the rule for both. A game in play with a plan still open cannot be reached
    through the API (starting locks every plan), so the game is put in play in the database."""
    game = new_game(client)
    engine = client.app.state.engine  # type: ignore[attr-defined]
    with Session(engine) as session, game_write(session, game.id) as locked:
        games.bump_game(session, locked, None, status="playing", turn=1, side_to_move="attacker", step=0)
    api = client.post(f"/api/v1/games/{game.id}/fireplans/attacker/lock", headers=game.attacker)
    assert api.status_code == 409 and "before the game starts" in api.json()["why"], api.text
    seated = client.post(
        "/join", data=csrf.form(client, {"code": game.codes["attacker"]}), follow_redirects=False
    )
    assert seated.status_code == 303, seated.text
    page = client.post(
        f"/games/{game.id}/fire-plan/attacker",
        data=csrf.form(client, {"action": "lock"}),
        headers={"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"},
    )
    assert "before the game starts" in page.text, page.text
    summary = client.get(f"/api/v1/games/{game.id}/fireplans", headers=game.referee).json()
    assert [p["locked"] for p in summary] == [False, False]


def test_a_row_as_its_lock_reads_it_is_the_row_as_read(client: TestClient) -> None:
    # The lock reads the row in its own statement (SQLite: UPDATE .. RETURNING, issue 88), which answered a whole
    # REAL as an integer (a game's table 1000 wide, not 1000.0: the score's inputs then read as other objectives).
    engine = client.app.state.engine  # type: ignore[attr-defined]
    with Session(engine) as session, unit_of_work(session):
        game, _ = create_game(session, "secret", name="Read alike", table_width_cm=1000.0)
        campaign, _ = campaign_store.create(session, "secret", "Read alike")
        ids = (game.pk, campaign.pk)
    with Session(engine) as session:
        plain = [session.get(Game, ids[0]), session.get(Campaign, ids[1])]
        read = [{k: getattr(r, k) for k in type(r).model_fields if k != "terrain"} for r in plain]
    with Session(engine) as session, unit_of_work(session):
        locked = [games.lock_game(session, ids[0]), campaign_store.lock(session, ids[1])]
        as_locked = [{k: getattr(r, k) for k in type(r).model_fields if k != "terrain"} for r in locked]
        assert locked[0].terrain == plain[0].terrain  # left unread by the lock, read when asked
    assert [{k: (v, type(v)) for k, v in r.items()} for r in as_locked] == [
        {k: (v, type(v)) for k, v in r.items()} for r in read
    ]
