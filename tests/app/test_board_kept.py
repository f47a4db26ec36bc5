"""A board stream's feed keeps the board between events (issue 35: each event re-read every unit and rebuilt
the board, so a board frame cost four times a bare event): an event that changes only the stands it names
re-reads those rows alone, one that may reshape the board (a name, a new unit, the turn) reads it all again,
and either way the frame is the one `/referee/changes` answers from a board read whole."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlmodel import Session

from app.core import live
from app.data.models import Game
from app.guard.auth import Viewer
from app.pages import referee
from app.services import events as events_service
from tests.app.games.conftest import new_game, start_game

ROLES = ["attacker", "defender", "referee"]


def frames(c: TestClient, game_id: int, event_id: int, kept: live.Shared | None) -> tuple[str, list[str]]:
    """The referee's board frame of an event rendered with the feed's kept board (None: a board read whole,
    as /referee/changes reads it), and the SQL it ran."""
    engine = c.app.state.engine  # type: ignore[attr-defined]
    ran: list[str] = []

    def seen(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        ran.append(statement)

    with Session(engine) as session:
        game = session.get(Game, game_id)
        assert game is not None
        (ev,) = events_service.list_events(session, game_id, ROLES, event_id - 1, 1)
        shared = live.Shared(kept) if kept is not None else live.Shared()
        event.listen(engine, "before_cursor_execute", seen)
        try:
            (part,) = referee.board_view(
                session, game, Viewer(game_id, "referee"), [events_service.event_dict(ev, ROLES)], shared
            )
        finally:
            event.remove(engine, "before_cursor_execute", seen)
    return str(part["board"]), ran


def whole_reads(statements: list[str]) -> int:
    """Reads of every unit of the game (a read of some units names them: `IN (...)`)."""
    return sum(1 for s in statements if "FROM unit" in s and "IN (" not in s)


def test_markers_and_undo_reread_only_their_stands_and_a_new_name_the_whole_board(
    sqlite_client: TestClient,
) -> None:
    c, g = sqlite_client, new_game(sqlite_client)
    start_game(c, g)
    units = c.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    platoons = [u for u in units if u["side"] == "defender" and u["kind"] == "rifle-platoon"]
    kept = live.Shared()
    with Session(c.app.state.engine) as session:  # type: ignore[attr-defined]
        game = session.get(Game, g.id)
        assert game is not None
        referee.board_warm(session, game, kept)  # as the first board stream opens
    for platoon in platoons[:3]:
        r = c.post(
            f"/api/v1/games/{g.id}/units/{platoon['id']}/markers",
            headers=g.attacker,
            json={"delta": 1, "fire": "mg"},  # MG fire: the whole company takes it
        )
        assert r.status_code == 200, r.text
        framed, ran = frames(c, g.id, r.json()["event_id"], kept)
        assert whole_reads(ran) == 0, ran
        assert framed == frames(c, g.id, r.json()["event_id"], None)[0]
        assert f'id="unit-{platoon["id"]}"' in framed
    undone = c.post(f"/api/v1/games/{g.id}/events/{r.json()['event_id']}/undo", headers=g.attacker, json={})
    assert undone.status_code == 200, undone.text
    framed, ran = frames(c, g.id, undone.json()["id"], kept)
    assert whole_reads(ran) == 0 and framed == frames(c, g.id, undone.json()["id"], None)[0]
    url = f"/api/v1/games/{g.id}/units/{platoons[0]['id']}"
    version = c.get(url, headers=g.referee).json()["version"]
    renamed = c.put(
        url, headers=g.referee, json={"version": version, "name": "Smith's lot", "override": True}
    )
    assert renamed.status_code == 200, renamed.text
    framed, ran = frames(c, g.id, renamed.json()["event_id"], kept)
    assert whole_reads(ran) == 1
    assert framed == frames(c, g.id, renamed.json()["event_id"], None)[0] and "Smith" in framed
