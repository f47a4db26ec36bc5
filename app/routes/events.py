"""The event log: read it, undo an entry (by appending its reverse), and follow it live over Server-Sent
Events with Last-Event-ID resume."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Header, Path, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app import crud, errors, game_engine, live
from app.auth import SIDES, ViewerDep
from app.deps import EngineDep, GameId, SessionDep

router = APIRouter(prefix="/api/v1/games/{game_id}", tags=["events"])

EventId = Annotated[int, Path(ge=1, le=2_147_483_647, description="Event id")]


class EventOut(BaseModel):
    id: int
    turn: int
    side: str
    step: str
    kind: str
    actor: str
    visibility: str
    payload: dict[str, Any]
    reverses_id: int | None
    created_at: str


def _roles(viewer: Any) -> list[str]:
    return [*SIDES, "referee"] if viewer.is_referee else [viewer.role]


@router.get(
    "/events",
    response_model=list[EventOut],
    summary="The log: every roll and change of state, in order (a side does not see the other's secret plan)",
    responses=errors.responses(401, 403, 404, 422),
)
def list_events(
    game_id: GameId,
    viewer: ViewerDep,
    session: SessionDep,
    after: Annotated[int, Query(ge=0, le=2_147_483_647, description="Only events with a larger id")] = 0,
    turn: Annotated[int | None, Query(ge=0, le=10_000)] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 1000,
) -> list[EventOut]:
    events = crud.list_events(session, game_id, _roles(viewer), after, limit, turn)
    return [EventOut(**game_engine.event_dict(e)) for e in events]


@router.post(
    "/events/{event_id}/undo",
    response_model=EventOut,
    summary="Undo an event by appending its reverse: players undo their own moves and markers back to the "
    "last die roll; undoing a roll is the referee's call",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def undo(game_id: GameId, event_id: EventId, viewer: ViewerDep, session: SessionDep) -> EventOut:
    game = crud.lock_game(session, game_id)
    ev = game_engine.undo(session, game, viewer, event_id)
    session.commit()
    return EventOut(**game_engine.event_dict(ev))


@router.get(
    "/stream",
    response_class=StreamingResponse,
    summary="Live events (Server-Sent Events); resume with Last-Event-ID. Token by header, cookie or ?token=",
    responses={
        200: {
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
            "description": "An SSE stream",
        },
        **errors.responses(401, 403, 404, 422),
    },
)
async def stream(
    game_id: GameId,
    request: Request,
    viewer: ViewerDep,
    engine: EngineDep,
    session: SessionDep,
    last_event_id: Annotated[int | None, Header(ge=0, le=2_147_483_647)] = None,
    after: Annotated[int | None, Query(ge=0, le=2_147_483_647, description="Like Last-Event-ID")] = None,
    token: Annotated[
        str | None, Query(max_length=200, description="For EventSource, which sends no header")
    ] = None,
) -> StreamingResponse:
    session.close()  # the stream reads with its own short sessions; hold no connection while it waits
    roles = _roles(viewer)
    start = last_event_id if last_event_id is not None else (after or 0)

    def fetch(after_id: int, limit: int) -> list[tuple[int, str, str]]:
        return _fetch(engine, game_id, roles, after_id, limit)

    return StreamingResponse(
        live.stream(game_id, start, fetch, request.is_disconnected),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def _fetch(
    engine: Engine, game_id: int, roles: list[str], after_id: int, limit: int
) -> list[tuple[int, str, str]]:
    with Session(engine) as session:
        return [
            (e.id or 0, e.kind, json.dumps(game_engine.event_dict(e), separators=(",", ":")))
            for e in crud.list_events(session, game_id, roles, after_id, limit)
        ]
