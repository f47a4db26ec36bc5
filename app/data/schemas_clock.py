"""The game clock's request and answer shapes (issue 55): `GameClock`, as `GET /api/v1/games/{id}/clock`
answers it and a live frame carries it, and what the referee sends to pause, resume, give time and set the
limits. The bounds are the rules' (rules.core.clock)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from rules.core.clock import MAX_GAME_MINUTES, MAX_GIVEN_SECONDS, MAX_TURN_MINUTES, Clock, Limits
from rules.core.vocabulary import Side

GameMinutes = Annotated[
    int | None,
    Field(ge=1, le=MAX_GAME_MINUTES, description="Each side's minutes for the whole game; none: no limit."),
]
TurnMinutes = Annotated[
    int | None,
    Field(ge=1, le=MAX_TURN_MINUTES, description="Each side's minutes in each turn; none: no limit."),
]


class ClockLimits(BaseModel):
    """The clock's limits per side (minutes), for the game and for each turn: chosen as the game is created,
    changed by the referee."""

    model_config = ConfigDict(extra="forbid")

    game_minutes: GameMinutes = None
    turn_minutes: TurnMinutes = None

    def limits(self) -> Limits:
        return Limits(self.game_minutes, self.turn_minutes)


class GiveTimeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    side: Side
    seconds: int = Field(ge=1, le=MAX_GIVEN_SECONDS, description="Given back to the side's clock.")


class SideClockOut(BaseModel):
    """One side's clock: the seconds it has used and been given back in the game and in the current turn,
    what remains of each limit (negative: over by that much; null: no limit), whether its time ran out."""

    side: str
    running: bool = Field(description="Its time runs now (its step; both sides' in a bound's shared steps).")
    used_seconds: float
    given_seconds: float
    turn_used_seconds: float
    turn_given_seconds: float
    remaining_seconds: float | None
    turn_remaining_seconds: float | None
    out_of_time: bool


class GameClock(BaseModel):
    """The game clock as of `as_of` (the server's time: a device runs the running sides' clocks on from it
    until the next frame). Worked out from the log: the same after a restart."""

    as_of: datetime
    running: list[str] = Field(description="The sides whose time runs now: none while paused or not played.")
    paused: bool = Field(description="Stopped by the referee.")
    started: bool
    ended: bool
    turn: int = Field(description="The turn the turn limit counts.")
    limits: ClockLimits
    out_of_time: list[str] = Field(
        description="The sides whose time has run out: flagged to everyone; the referee decides what follows."
    )
    sides: list[SideClockOut]

    @classmethod
    def of(cls, c: Clock) -> GameClock:
        return cls(
            as_of=datetime.fromtimestamp(c.as_of, UTC),
            running=list(c.running),
            paused=c.paused,
            started=c.started,
            ended=c.ended,
            turn=c.turn,
            limits=ClockLimits(game_minutes=c.limits.game_minutes, turn_minutes=c.limits.turn_minutes),
            out_of_time=[s.side for s in c.sides if s.out_of_time],
            sides=[
                SideClockOut(
                    side=s.side,
                    running=s.side in c.running,
                    used_seconds=round(s.used, 3),
                    given_seconds=s.given,
                    turn_used_seconds=round(s.turn_used, 3),
                    turn_given_seconds=s.turn_given,
                    remaining_seconds=None if s.remaining is None else round(s.remaining, 3),
                    turn_remaining_seconds=None if s.turn_remaining is None else round(s.turn_remaining, 3),
                    out_of_time=s.out_of_time,
                )
                for s in c.sides
            ],
        )
