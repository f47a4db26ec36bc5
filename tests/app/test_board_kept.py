"""A board stream's feed keeps the board between events (issue 35: each event re-read every unit and rebuilt
the board, so a board frame cost four times a bare event): an event that changes only the stands it names
re-reads those rows alone, one that may reshape the board (a name, a new unit, the turn) reads it all again,
and either way the frame is the one `/referee/changes` answers from a board read whole. A feed's read brings the
kept board and game up to date with the events it read, not the log read again."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlmodel import Session

from app.core import live
from app.data.models import Game
from app.pages import referee
from app.pages.templates import templates
from app.routes import events as events_route
from app.services import events as events_service
from app.services.seating import Viewer
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


def test_a_board_streams_warm_compiles_every_template_its_frames_render(sqlite_client: TestClient) -> None:
    """The first frame compiles nothing: Jinja compiles an imported template (the board's parts) only as the
    template importing it first renders, which put ~25 ms of compiling in the first frame of every server."""
    c, g = sqlite_client, new_game(sqlite_client)
    start_game(c, g)
    last = c.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json()[-1]["id"]
    templates.env.cache.clear()  # type: ignore[union-attr]  # as a server starts
    kept = live.Shared()
    with Session(c.app.state.engine) as session:  # type: ignore[attr-defined]
        game = session.get(Game, g.id)
        assert game is not None
        referee.board_warm(session, game, kept)

    def compiled() -> set[str]:
        return {name for _, name in templates.env.cache}  # type: ignore[union-attr]

    warmed = compiled()
    framed, _ = frames(c, g.id, last, kept)
    assert "data-board-changes" in framed
    assert compiled() == warmed >= {"_referee_changes.html", "_referee_parts.html"}


def feed_frames(
    c: TestClient, game_id: int, after: int, kept: live.Shared
) -> tuple[dict[str, Any], list[str]]:
    """The referee's map and board frames of the events after `after` as a feed's read renders them (one
    Shared carrying the read's events, over the feed's kept values: a new `live.Shared()` reads them whole, as
    a stream's own backlog does), and the SQL the renderings ran."""
    engine = c.app.state.engine  # type: ignore[attr-defined]
    ran: list[str] = []

    def seen(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        ran.append(statement)

    with Session(engine) as session:
        events = events_service.list_events(session, game_id, ROLES, after)
        shared = live.Shared(kept, events, after)
        dicts = [events_service.event_dict(e, ROLES) for e in events]
        event.listen(engine, "before_cursor_execute", seen)
        try:
            got = {
                view: events_route._with_view(
                    session, game_id, Viewer(game_id, "referee"), view, dicts, shared
                )
                for view in ("map", "board")
            }
        finally:
            event.remove(engine, "before_cursor_execute", seen)
    return got, ran


def test_a_feed_read_brings_the_kept_board_and_game_up_to_date_with_its_own_events(
    sqlite_client: TestClient,
) -> None:
    """A marker's (and its undo's) map and board frames read neither the log nor the game again, and the units
    it touched once for both views; the turn's advance reads the game again; each frame is the one a whole read
    renders."""
    c, g = sqlite_client, new_game(sqlite_client)
    start_game(c, g)
    units = c.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    platoon = next(u for u in units if u["side"] == "defender" and u["kind"] == "rifle-platoon")
    kept = live.Shared()
    last = c.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json()[-1]["id"]
    with Session(c.app.state.engine) as session:  # type: ignore[attr-defined]
        game = session.get(Game, g.id)
        assert game is not None
        referee.board_warm(session, game, kept)  # as the first board stream opens
    feed_frames(c, g.id, last - 1, kept)  # the turn's advance: the game read

    def frames_from_the_read(after: int) -> None:
        framed, ran = feed_frames(c, g.id, after, kept)
        # The log read only for the entry an undo changed (`again`), by its id, and for the newest id a view may
        # read once its parts are read (a frame's `as_of_event`, app.routes.events._with_view); the game not at all.
        assert not [
            s
            for s in ran
            if "FROM game " in s
            or ("FROM event" in s and "event.id = ?" not in s and "max(event.id)" not in s)
        ], ran
        assert [s for s in ran if "FROM unit" in s] == [next(s for s in ran if "IN (" in s)]
        assert framed == feed_frames(c, g.id, after, live.Shared())[0]

    url = f"/api/v1/games/{g.id}"
    marked = c.post(
        f"{url}/units/{platoon['id']}/markers", headers=g.attacker, json={"delta": 1, "fire": "mg"}
    )
    assert marked.status_code == 200, marked.text
    frames_from_the_read(last)
    undone = c.post(f"{url}/events/{marked.json()['event_id']}/undo", headers=g.attacker, json={})
    assert undone.status_code == 200, undone.text
    frames_from_the_read(marked.json()["event_id"])
    before = c.get(f"{url}/state", headers=g.referee).json()["step"]
    version = c.get(f"{url}/turn", headers=g.referee).json()["version"]
    advanced = c.post(f"{url}/turn/advance", headers=g.referee, json={"version": version})
    assert advanced.status_code == 200, advanced.text
    framed, ran = feed_frames(c, g.id, undone.json()["id"], kept)
    assert any("FROM game " in s for s in ran)
    assert framed == feed_frames(c, g.id, undone.json()["id"], live.Shared())[0]
    state = c.get(f"{url}/state", headers=g.referee).json()
    assert json.loads(framed["map"][-1])["state"]["step"] == state["step"] != before
