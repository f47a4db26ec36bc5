"""The organiser's board over HTTP (issue 57): every table of the event's round as one answer (`/board`) and
live (`/stream`, a `board` frame at once and whenever a table moves or another round is committed; `?view=html`
the page's cells, app.pages.event_rows, and a new round whole, app.pages.event_round). The board is read once a
change for all of an event's streams, which are capped per event (app.core.watch)."""

from __future__ import annotations

import functools
import weakref
from typing import Annotated

from fastapi import Query, Request
from fastapi.responses import StreamingResponse
from sqlmodel import Session

from app import errors
from app import openapi as api_schema
from app.core import watch
from app.core.routing import Router
from app.data.schemas_events import BoardOut, EventId
from app.deps import EngineDep, NowDep, SessionDep, SettingsDep
from app.guard.organiser import Token, organiser_only
from app.pages.event_round import EventPlaces, round_piece, shown_ids, standings_piece
from app.pages.event_rows import BoardView, Shown, ShownRound
from app.services import events as events_service
from app.services import tournament_results

router = Router(prefix="/api/v1", tags=["club events"])

BOARD_EVERY = 0.5  # seconds: the organiser's view redraws at most twice a second however busy the tables


@router.get(
    "/events/{event_id:int}/board",
    response_model=BoardOut,
    summary="Every table of the round: its game's turn, status and score, and the disputes (organiser)",
    responses=errors.responses(401, 403, 404, 422),
)
def get_board(
    event_id: EventId, token: Token, session: SessionDep, settings: SettingsDep, now: NowDep
) -> BoardOut:
    organiser_only(session, settings, event_id, token)
    return tournament_results.board(session, event_id, now)


@router.get(
    "/events/{event_id:int}/stream",
    response_class=StreamingResponse,
    summary="The organiser's view live: a `board` frame (as /board answers) at once and whenever a table moves",
    responses={
        **api_schema.sse(
            "The organiser's view of the event live.",
            [api_schema.Frame("board", BoardOut, "the view as GET /board answers it (`id:` a count)")],
        ),
        **errors.responses(401, 403, 404, 422, 429),
    },
)
async def stream_club_event(
    event_id: EventId,
    request: Request,
    token: Token,
    engine: EngineDep,
    settings: SettingsDep,
    at: Annotated[EventPlaces, Query()],
    view: BoardView = None,
    shown_round: ShownRound = None,
) -> StreamingResponse:
    """With `view=html`, the organiser's page's places (`at`): its page of the round's tables (`page` and `q`, the
    rows whose cells it is sent) and of the standings (`standings`), and the others' (a round's section drawn
    again keeps them in its links and find box)."""
    with Session(engine) as session:
        organiser_only(session, settings, event_id, token)
        tables = shown_ids(session, event_id, at.page, at.q) if view == "html" else None
    clock = request.app.state.clock
    following = tournament_results.Following()  # a table read again once it moved

    # Read once a change for every stream of the event: the first stream's `read` serves them all (Shared).
    def read() -> watch.Read[BoardOut]:
        with Session(engine) as own:
            return tournament_results.board_read(own, event_id, clock(), following)

    shown = Shown(shown_round, tables)  # this stream's own: the page's cells it sent

    def piece() -> str:  # another round than the page shows, whole (once a round)
        with Session(engine) as own:
            return round_piece(own, event_id, request)

    def standings_read() -> tournament_results.EventStandings:  # once the event's version moved
        with Session(engine) as own:
            return tournament_results.event_standings(own, event_id)

    def feeds() -> list[int]:  # what the board's read will name, followed before it: the first frame one read
        with Session(engine) as own:
            return tournament_results.board_feeds(own, event_id)

    def first_page() -> frozenset[int] | None:  # another round's, as its piece draws it
        with Session(engine) as own:
            return shown_ids(own, event_id)

    def frames(board: BoardOut) -> list[str]:
        if view != "html":
            return [board.model_dump_json()]
        # The standings are read once a version for all the event's streams; each draws its own page of them.
        read_once = shared.kept(board.event.version, standings_read)
        return shown.frames(board, piece, lambda: standings_piece(read_once, at.standings), first_page)

    shared, leave = request.app.state.boards.admit(event_id, read)  # 429 past the event's streams
    stream = watch.watch(
        request.app.state.broker,
        watch.event_channel(event_id),
        shared,
        functools.partial(events_service.feed_read, engine),
        frames,
        request.is_disconnected,
        leave,
        every=BOARD_EVERY,
        feeds=feeds,
    )
    weakref.finalize(stream, leave)  # a stream never started (its client gone first) leaves too
    return StreamingResponse(
        stream,
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
