"""The game clock's request and answer shapes (issue 55): `GameClock`, as `GET /api/v1/games/{id}/clock`
answers it and a live frame carries it, and what the referee sends to pause, resume, give time and set the
limits and settings (issue 64: seconds, per side, and the rules tournaments add). The bounds are the rules' (rules.core.clock)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules.core.clock import MAX_GAME_MINUTES, MAX_GIVEN_SECONDS, MAX_TURN_MINUTES, Clock, Limits
from rules.core.vocabulary import Side

GameMinutes = Annotated[
    int | None,
    Field(ge=1, le=MAX_GAME_MINUTES, description="Every side's minutes for the whole game; none: no limit."),
]
TurnMinutes = Annotated[
    int | None,
    Field(ge=1, le=MAX_TURN_MINUTES, description="Every side's minutes in each turn; none: no limit."),
]
GameSeconds = Annotated[int | None, Field(ge=1, le=MAX_GAME_MINUTES * 60)]
TurnSeconds = Annotated[int | None, Field(ge=1, le=MAX_TURN_MINUTES * 60)]


class ClockLimits(BaseModel):
    """The clock as the referee sets it (chosen as the game is created, changed by the referee from the board):
    each side's limits in seconds (`game_seconds`, `turn_seconds`, by side; a side not named: no limit), or the
    same whole minutes for every side (`game_minutes`, `turn_minutes`); and the rules tournaments add. Strict:
    `true` is no number of seconds and "yes" no setting."""

    model_config = ConfigDict(extra="forbid", strict=True)

    game_minutes: GameMinutes = None
    turn_minutes: TurnMinutes = None
    game_seconds: dict[Side, GameSeconds] | None = Field(
        default=None, description="Each side's seconds for the whole game; null: no limit."
    )
    turn_seconds: dict[Side, TurnSeconds] | None = Field(
        default=None, description="Each side's seconds in each turn; null: no limit."
    )
    dispute_pause: bool = Field(
        default=False, description="A player may stop the clock for a dispute; only the referee restarts it."
    )
    finish_act: bool = Field(
        default=False,
        description="A side out of time finishes the act under way, then acts no more until given time.",
    )
    end_under_seconds: GameSeconds = Field(
        default=None,
        description="The game ends as a turn starts with every side under this much game time left.",
    )

    @model_validator(mode="after")
    def _one_shape(self) -> ClockLimits:
        minutes = self.game_minutes is not None or self.turn_minutes is not None
        if minutes and (self.game_seconds is not None or self.turn_seconds is not None):
            raise ValueError("give the limits in minutes for every side or in seconds by side, not both")
        return self


class ClockSettings(BaseModel):
    """The clock as it is set: each side's limits in seconds (null: no limit) and the tournament rules."""

    game_seconds: dict[str, int | None]
    turn_seconds: dict[str, int | None]
    dispute_pause: bool
    finish_act: bool
    end_under_seconds: int | None

    @classmethod
    def of(cls, limits: Limits, sides: Sequence[str]) -> ClockSettings:
        return cls(
            game_seconds={s: limits.side(s).game_seconds for s in sides},
            turn_seconds={s: limits.side(s).turn_seconds for s in sides},
            dispute_pause=limits.dispute_pause,
            finish_act=limits.finish_act,
            end_under_seconds=limits.end_under_seconds,
        )


class GiveTimeIn(BaseModel):
    """Time given back to a side. Strict, as the limits are: `true` is no number of seconds, nor "5"."""

    model_config = ConfigDict(extra="forbid", strict=True)

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
    paused: bool = Field(description="Stopped by the referee (or by a player for a dispute).")
    dispute: bool = Field(description="Paused for a dispute: the referee restarts it.")
    started: bool
    ended: bool
    turn: int = Field(description="The turn the turn limit counts.")
    limits: ClockSettings
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
            dispute=c.dispute,
            started=c.started,
            ended=c.ended,
            turn=c.turn,
            limits=ClockSettings.of(c.limits, [s.side for s in c.sides]),
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
