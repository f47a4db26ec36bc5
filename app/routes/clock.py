"""The game clock (issue 55): read it as of now, and the referee's acts on it (pause, resume, give a side time
back, set the limits and settings; a player's stop for a dispute where they allow it), each played through the one act pipeline (app.services.acts.play) and logged; every
device's stream carries each change (app.routes.events). The clock is worked out from the log
(app.services.clock), as of the app's clock (app.deps.NowDep)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Body
from sqlmodel import Session

from app import errors
from app.core.routing import Router
from app.data.schemas_clock import ClockLimits, GameClock, GiveTimeIn
from app.deps import GameId, NowDep, SessionDep
from app.guard.auth import ViewerDep
from app.services import acts, games
from app.services import clock as clock_service
from app.services.markers import rules_of
from app.services.seating import Viewer
from app.services.writing import game_write
from rules.core.acts import GiveTime, PauseClock, ResumeClock, SetClockLimits

router = Router(prefix="/api/v1/games/{game_id}/clock", tags=["clock"])


def _answer(session: Session, game_id: int, now: NowDep) -> GameClock:
    game = games.get_game(session, game_id)
    return GameClock.of(clock_service.game_clock(session, game, now))


@router.get(
    "",
    response_model=GameClock,
    summary="The game clock: each side's time used and left, the sides it runs for now, paused or not",
    responses=errors.responses(401, 403, 404, 422),
)
def read_clock(game_id: GameId, viewer: ViewerDep, session: SessionDep, now: NowDep) -> GameClock:
    return _answer(session, game_id, now)


def _played(
    session: Session,
    game_id: int,
    viewer: Viewer,
    act: PauseClock | ResumeClock | GiveTime | SetClockLimits,
    now: NowDep,
) -> GameClock:
    with game_write(session, game_id) as game:
        acts.play(session, game, viewer, act)
    return _answer(session, game_id, now)


@router.post(
    "/pause",
    response_model=GameClock,
    summary="Pause the clock for every side (referee)",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def pause(game_id: GameId, viewer: ViewerDep, session: SessionDep, now: NowDep) -> GameClock:
    return _played(session, game_id, viewer, PauseClock(), now)


@router.post(
    "/dispute",
    response_model=GameClock,
    summary="Stop the clock for a dispute (the referee; a player where the clock's settings allow it)",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def dispute_clock(game_id: GameId, viewer: ViewerDep, session: SessionDep, now: NowDep) -> GameClock:
    return _played(session, game_id, viewer, PauseClock(dispute=True), now)


@router.post(
    "/resume",
    response_model=GameClock,
    summary="Run the clock again for the sides whose step it is (referee)",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def resume(game_id: GameId, viewer: ViewerDep, session: SessionDep, now: NowDep) -> GameClock:
    return _played(session, game_id, viewer, ResumeClock(), now)


@router.post(
    "/give",
    response_model=GameClock,
    summary="Give a side time back (referee): recorded in the log",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def give(
    game_id: GameId,
    body: Annotated[
        GiveTimeIn, Body(openapi_examples={"a minute": {"value": {"side": "defender", "seconds": 60}}})
    ],
    viewer: ViewerDep,
    session: SessionDep,
    now: NowDep,
) -> GameClock:
    return _played(session, game_id, viewer, GiveTime(side=body.side, seconds=body.seconds), now)


@router.put(
    "/limits",
    response_model=GameClock,
    summary="Set the clock (referee): each side's limits for the game and each turn, and the tournament rules",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def set_limits(
    game_id: GameId,
    body: Annotated[
        ClockLimits,
        Body(
            openapi_examples={
                "3 hours, 20 minutes a turn": {"value": {"game_minutes": 180, "turn_minutes": 20}},
                "by side, in seconds, tournament rules": {
                    "value": {
                        "game_seconds": {"attacker": 5400, "defender": 4500},
                        "turn_seconds": {"attacker": 600, "defender": 90},
                        "dispute_pause": True,
                        "finish_act": True,
                        "end_under_seconds": 300,
                    }
                },
            }
        ),
    ],
    viewer: ViewerDep,
    session: SessionDep,
    now: NowDep,
) -> GameClock:
    sides = rules_of(games.get_game(session, game_id)).book.sides
    limits = clock_service.limits_of(body.model_dump(), sides)
    return _played(session, game_id, viewer, SetClockLimits(**clock_service.payload(limits)), now)
