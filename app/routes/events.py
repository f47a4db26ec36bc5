"""The event log: read it, undo an entry (by appending its reverse), and follow it live over Server-Sent
Events with Last-Event-ID resume."""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Mapping
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import Header, Path, Query, Request, Response
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field
from sqlmodel import Session

from app import errors
from app import openapi as api_schema
from app.core import live
from app.core.routing import Router
from app.core.touched import touched_units, touches_game
from app.data.bounded import INT32_MAX
from app.data.models import Event, Game
from app.data.schemas_answers import EventOut, LoggedEvent
from app.data.schemas_clock import GameClock
from app.data.schemas_events import RoundLine
from app.data.schemas_stream import AsideFrame, EventFrame
from app.deps import DIGITS, EngineDep, GameId, SessionDep, SettingsDep, cursor
from app.guard import auth
from app.guard.auth import StreamViewerDep, ViewerDep
from app.pages import claim_notice, clock_panel, score_panel
from app.pages.templates import templates
from app.services import clock as clock_service
from app.services import events as events_service
from app.services import games, tournaments
from app.services import result as result_service
from app.services import score as score_service
from app.services import templates as table_templates
from app.services import undo as undo_service
from app.services import units as units_service
from app.services.board import shared_units
from app.services.seating import Viewer
from app.services.writing import game_write
from rules.core.vocabulary import SIDES

router = Router(prefix="/api/v1/games/{game_id}", tags=["game log"])

EventId = Annotated[int, Path(ge=1, le=2_147_483_647, description="Event id")]


def _roles(viewer: Any) -> list[str]:
    """The roles whose private parts of an event a viewer reads (app.events_service.view)."""
    return [*SIDES, "referee"] if viewer.is_referee else [viewer.role]


@router.get(
    "/events",
    response_model=list[EventOut],
    summary="The log: every roll and change of state, in order (a side does not see the other's secret plan)",
    responses=errors.responses(401, 403, 404, 422),
)
def list_game_events(
    game_id: GameId,
    viewer: ViewerDep,
    session: SessionDep,
    after: Annotated[int, DIGITS, cursor("Only events with a larger id")] = 0,
    turn: Annotated[int | None, Query(ge=0, le=10_000)] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 1000,
) -> list[EventOut]:
    roles = _roles(viewer)
    events = events_service.list_events(session, game_id, roles, after, limit, turn)
    return [EventOut(**events_service.event_dict(e, roles)) for e in events]


@router.post(
    "/events/{event_id}/undo",
    response_model=EventOut,
    summary="Undo an event by appending its reverse: players undo their own moves and markers back to the "
    "last die roll; undoing a roll is the referee's call",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def undo_event(game_id: GameId, event_id: EventId, viewer: ViewerDep, session: SessionDep) -> EventOut:
    with game_write(session, game_id) as game:
        ev = undo_service.undo(session, game, viewer, event_id)
        # Answered from the event as written, before the commit expires it (after, a read of it again).
        return EventOut(**events_service.event_dict(ev, _roles(viewer)))


class TicketOut(BaseModel):
    ticket: str = Field(description="Pass as ?ticket= to /stream; for this game and this device only.")
    expires_in: int = Field(description="Seconds it stays usable: fetch a new one for every (re)connect.")


@router.get(
    "/stream-ticket",
    response_model=TicketOut,
    summary="A short-lived ticket to open the event stream where no header can be sent (EventSource)",
    responses=errors.responses(401, 403, 404, 422),
)
def stream_ticket(game_id: GameId, viewer: ViewerDep, response: Response, settings: SettingsDep) -> TicketOut:
    # Issued from a token in the header or cookie, so the token itself never has to appear in a URL.
    assert viewer.token_id is not None
    response.headers["Cache-Control"] = "no-store"
    return TicketOut(
        ticket=auth.issue_ticket(settings.secret_key, game_id, viewer.token_id),
        expires_in=settings.stream_ticket_seconds,
    )


GAME_FRAMES = api_schema.sse(
    "A game's log live, each event as this viewer may read it, from `after` (or Last-Event-ID) on.",
    [
        api_schema.Frame("<the event's kind>", EventFrame, "an event of the log (`id:` its id)"),
        api_schema.Frame(live.ASIDE, AsideFrame, "an event table's round timer (no `id:`)"),
    ],
)


@router.get(
    "/stream",
    response_class=StreamingResponse,
    summary="Live events (Server-Sent Events); resume with Last-Event-ID. Token by header or cookie, or a "
    "?ticket= from /stream-ticket; it ends when the device is revoked",
    responses={**GAME_FRAMES, **errors.responses(401, 403, 404, 422)},
)
async def stream_game(
    game_id: GameId,
    request: Request,
    viewer: StreamViewerDep,
    engine: EngineDep,
    last_event_id: Annotated[int | None, Header(ge=0, le=INT32_MAX)] = None,
    after: Annotated[int | None, DIGITS, cursor("Like Last-Event-ID")] = None,
    view: Annotated[
        Literal["map", "board", "counters"] | None,
        Query(
            description="What each frame carries besides the event, to apply it without a request: `map` the "
            "units it touched (as /units answers them) and, when the game itself changed, its state (as "
            "/state, without the terrain); `board` the referee board's pieces it changed (HTML); `map` and `board` "
            "the score's panels for this seat (HTML) where the event changed them; `counters` that "
            "the page of counters reads its panels anew (and a finished game's result line); any with "
            "`as_of_event`, the newest event its parts may hold (read when the frame is rendered, which may be "
            "after newer events: apply them as of that event). A frame too big for that carries `refetch: true` "
            "instead."
        ),
    ] = None,
) -> StreamingResponse:
    # No request session (StreamViewerDep closes its own): the stream reads with its own short sessions.
    roles = _roles(viewer)
    shown = frozenset(["all", *roles])  # the visibilities list_events lets these roles read
    start = last_event_id if last_event_id is not None else (after or 0)

    def render(session: Session | None, events: list[Event], shared: live.Shared) -> list[str]:
        dicts = [events_service.event_dict(e, roles) for e in events]
        if (
            view is None or not dicts
        ):  # the event alone, and what every seat is told of it (a lookup page hears it)
            return [_json({**d, **_told(d)}) for d in dicts]
        if session is None:
            with Session(engine) as own:
                return _with_view(own, game_id, viewer, view, dicts, shared)
        return _with_view(session, game_id, viewer, view, dicts, shared)

    def backlog(after_id: int, limit: int) -> list[live.Frame] | None:
        # A revoked device (or one deleted with its game) gets nothing more, and its stream ends.
        with Session(engine) as check:
            if not auth.device_is_active(check, viewer.token_id):
                return None
            events = events_service.list_events(check, game_id, roles, after_id, limit)
            frames = render(check, events, live.Shared())
            return [(e.pk, e.kind, data) for e, data in zip(events, frames, strict=True)]

    def warm(kept: live.Shared) -> None:
        if view in live.WARMS:
            with Session(engine) as session:
                game = session.get(Game, game_id)
                if game is not None:
                    live.WARMS[view](session, game, kept)

    return StreamingResponse(
        live.stream(
            request.app.state.broker,
            game_id,
            start,
            live.Viewing(
                read=functools.partial(events_service.feed_read, engine),
                backlog=backlog,
                shows=lambda item: item.visibility in shown,
                key=(tuple(roles), view),  # rendered once per kind of viewer, whichever stream asks first
                render=functools.partial(render, None),
                token_id=viewer.token_id,
                warm=warm if view is not None else None,
                aside=functools.partial(_round_aside, engine),
            ),
            request.is_disconnected,
        ),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def _json(obj: Mapping[str, Any]) -> str:
    return json.dumps(obj, separators=(",", ":"))


def _with_view(
    session: Session,
    game_id: int,
    viewer: Viewer,
    view: str,
    events: list[LoggedEvent],
    shared: live.Shared,
) -> list[str]:
    """Each event with its view's parts and `as_of_event`, the newest event (of those this viewer reads) the
    parts may hold, at least its own, or with `refetch` where they would make the frame too big (or the
    game is gone); an event the game clock reads (app.services.clock.reads) carries the clock, and a score its
    clocks: as of the newest event read (the same for every viewer, and for a render of the same events
    again), from which a device runs it on."""
    # The game for every render key of a wake-up, kept by the feed between them (the row is only read, never
    # written or refreshed there).
    kept: _KeptGame = shared.kept.get("game", _KeptGame)
    game = shared.get("game", lambda: kept.get(session, game_id, shared))
    parts = live.VIEWS[view](session, game, viewer, events, shared) if game else [{} for _ in events]
    timed = [clock_service.reads(e) or "score" in p for e, p in zip(events, parts, strict=True)]
    if game is not None and any(timed):
        at = clock_service.logged_at(events)
        read: GameClock = shared.get(
            ("clock", at), lambda: GameClock.of(score_panel.frame_clock(session, game, shared, at))
        )
        clock = shared.get(("clock-json", at), lambda: read.model_dump(mode="json"))
        # The seat's clock panel only where an event the clock reads carries it (a score's frame does not).
        reads = any(clock_service.reads(e) for e in events)
        clock_part = clock_panel.frame_clock_panel(game, read, viewer.is_referee, shared) if reads else ""
        parts = [
            _timed(e, p, clock, clock_part) if t else p for e, p, t in zip(events, parts, timed, strict=True)
        ]
    # Read after the parts, which may have been read after newer events were written (a stream behind on a busy
    # machine, a backlog): the newest event they may hold, so no frame shows more than it says it holds.
    as_of = table_templates.last_event_id(session, game_id, _roles(viewer))
    out = []
    for event, part in zip(events, parts, strict=True):
        # The score's panels have a budget of their own: they are the bytes the page would read otherwise.
        rest = {k: v for k, v in part.items() if k != "score_panel"} | _told(event)
        data = _json({**event, **rest, "as_of_event": as_of})
        if not part or len(data) > live.FRAME_BYTES:
            # A roll's claim is a sentence: told however big the rest.
            claim = {"claim": part["claim"]} if "claim" in part else {}
            out.append(_json({**event, **_told(event), **claim, "refetch": True}))
            continue
        if "score_panel" in part:  # null where they are too big: the page reads them
            panel = part["score_panel"] if len(part["score_panel"]) <= live.FRAME_BYTES else None
            data = _json({**event, **rest, "score_panel": panel, "as_of_event": as_of})
        out.append(data)
    return out


def _told(event: LoggedEvent) -> dict[str, str]:
    """What every seat is told of an event in a sentence, as the frame's `notice`: the referee's change of the
    readings the game plays (app.services.games.readings_changed), as its record line names it (issue 69)."""
    payload = event.get("payload") or {}
    readings = payload.get("readings") if event.get("kind") == "game-updated" else None
    return {"notice": f"The referee now plays {'; '.join(map(str, readings))}."} if readings else {}


def _timed(event: LoggedEvent, part: dict[str, Any], clock: dict[str, Any], panel: str) -> dict[str, Any]:
    """A frame's parts with the clock: the whole GameClock and this seat's clock panel for an event the clock
    reads, each side's in the score the frame carries (GameScore.clocks, as GET /score answers them)."""
    timed = dict(part)
    if clock_service.reads(event):
        timed["clock"] = clock
        timed["clock_panel"] = panel
    if isinstance(part.get("score"), dict):
        timed["score"] = {**part["score"], "clocks": clock["sides"]}
    return timed


def _round_aside(engine: Any, feed: live.Feed) -> str | None:
    """An event table's round timer (issue 57) as the game's streams send it beside the events (`aside`):
    the round and when it ends (null: stopped, or the table's round is over), so a moved end reaches the map,
    the referee's board and the table's page live; with the table's result's state, which its page follows.
    None for a game at no event's table."""
    kept: _KeptRound = feed.kept.get("round", _KeptRound)
    return kept.get(engine, feed.game_id, feed.wakes)


class _KeptRound:
    """The round timer of a game's feed, read once per wake-up of the feed for all its streams (a write that
    moves the timer wakes the feed of each table's game: app.services.tournaments.set_timer); a game at no
    event's table never becomes one (its table is made with the game), so it is read once."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.wakes = -1
        self.at_a_table = True
        self.data: str | None = None

    def get(self, engine: Any, game_id: int, wakes: int) -> str | None:
        with self.lock:
            if self.at_a_table and wakes != self.wakes:
                self.wakes = wakes
                with Session(engine) as session:
                    table = games.table_of_game(session, game_id)
                    if table is None:
                        self.at_a_table, self.data = False, None
                    else:
                        timer = tournaments.round_timer(session, game_id)
                        line = RoundLine(round=timer.number, ends_at=timer.ends_at) if timer else RoundLine()
                        # The result's state too: a confirmation, a dispute or the organiser's result wakes the
                        # game's feed (tournament_results._wake), and the table's page reads itself anew.
                        line.result, line.confirmed = table.status, table.a_confirmed + table.b_confirmed
                        self.data = _json({"round": line.model_dump(mode="json")})
            return self.data


class _KeptGame:
    """The game row a feed's frames read, kept between wake-ups as of event `upto`: read again only after an
    event that may have changed the game itself (`touches_game`: a stand's marker leaves it as it was),
    or when the feed's read does not reach back to `upto`."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.game: Game | None = None
        self.upto = -1

    def get(self, session: Session, game_id: int, shared: live.Shared) -> Game | None:
        with self.lock:
            new = shared.since(self.upto) if self.game is not None else None
            every = [*SIDES, "referee"]
            if new is None or any(touches_game(events_service.event_dict(e, every)) for e in new):
                self.game, self.upto = session.get(Game, game_id), shared.newest
            elif new:
                self.upto = new[-1].id
            return self.game


@live.view("map")
def _map_parts(
    session: Session, game: Game, viewer: Viewer, events: list[LoggedEvent], shared: live.Shared
) -> list[dict[str, Any]]:
    """The map's parts: the units each event touched, as /units answers them to this viewer (without the
    names, which change only when a unit is added: a reload), and the game's state when the game changed, with
    what the map draws of its board; a roll's claims told to the other seats (app.pages.claim_notice)."""
    read = units_service.reader(game, viewer)
    wanted = set().union(*(touched_units(e) for e in events))
    # Read once for every viewer of the wake-up (the board's frames too): each reads them through its own Reader.
    rows = {u.id: u for u in (shared_units(session, game.pk, wanted, shared) if wanted else [])}
    state = games.map_state(game)
    out: list[dict[str, Any]] = []
    for e in events:
        part: dict[str, Any] = {"units": [read(rows[i]) for i in sorted(touched_units(e)) if i in rows]}
        if touches_game(e):
            part["state"] = state
        if score_service.touches_score(e):  # worked out once, read as each seat may (app.services.score)
            at = clock_service.logged_at(events)  # its clocks as of the newest event, as the frame's clock
            part["score"] = shared.get(
                ("score", viewer.role, at),
                functools.partial(_score_now, session, game, shared, at, viewer.role),
            )
            panel = score_panel.frame_panel(session, game, viewer.role, "map", shared, at)
            if panel is not None:  # none where they show what this seat's streams were last sent
                part["score_panel"] = panel
        if claim_notice.claims_of(e) and e.get("actor") != viewer.role:  # told the other seats (table-act.js)
            said = functools.partial(claim_notice.claim_line, session, game, e)
            part["claim"] = shared.get(("claim", e["id"]), said)
        if e["kind"] == score_service.FINISHED and game.status == "finished":  # result-line.js swaps it in
            part["result"] = shared.get("result", lambda: _result_line(session, game))
        out.append(part)
    return out


def _result_line(session: Session, game: Game) -> str:
    """A finished game's result line (frontend/templates/_result_line.html), the same for every viewer."""
    line = result_service.game_result(session, game.pk)
    return templates.get_template("_result_line.html").render(result_line=line)


def _score_now(session: Session, game: Game, shared: live.Shared, at: datetime, role: str) -> dict[str, Any]:
    """The game's score as a frame carries it to a seat of `role` (GET /score's answer), read once with the
    score's panels."""
    return score_panel.frame_score(session, game, shared, at, role).model_dump(mode="json")
