"""The acts on a game as a whole rather than on its table, as the act pipeline (app.services.acts) prepares them:
the game clock's (the referee's pause, resume, time given and limits; a player's pause for a dispute where the
limits allow it) and how a game is won (an objective called, the game ended). Each answers the pipeline's
`Todo`, refused on the clock or the result as they stand."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlmodel import Session

from app.data.models import Game
from app.errors import RuleRefused
from app.services import clock as clock_service
from app.services import score, secret_objectives, turns
from app.services.games import bump_game, game_state
from app.services.markers import rules_of
from app.services.played import Todo, Written
from app.services.result import may_end
from app.services.seating import Viewer
from rules.core.acts import CallObjective, EndGame, GiveTime, PauseClock, ResumeClock, SetClockLimits
from rules.core.clock import Limits, may_pause
from rules.core.clock import refusal as clock_refusal
from rules.core.game import Answer

__all__ = ["CLOCK_ACTS", "call_objective", "clock", "end_game"]


# -- the game clock (rules.core.clock): the referee's ---------------------------------------------------------
CLOCK_WORDS = {PauseClock: "pause the clock", ResumeClock: "resume the clock", GiveTime: "give time",
                SetClockLimits: "set the clock's limits"}  # fmt: skip
CLOCK_ACTS = (PauseClock, ResumeClock, GiveTime, SetClockLimits)


def clock(
    session: Session,
    game: Game,
    viewer: Viewer,
    act: PauseClock | ResumeClock | GiveTime | SetClockLimits,
    _: Any,
) -> Todo:
    """The referee stops or runs the clock, gives a side time back, or sets its limits and settings (a player
    stops it for a dispute where they allow it): one event each, which the clock reads (app.services.clock);
    refused on the clock as it stands (rules.core.clock.refusal)."""
    now = clock_service.game_clock(session, game)
    if not (viewer.role in rules_of(game).book.sides and may_pause(now, act, viewer.role)):
        viewer.require_referee(CLOCK_WORDS[type(act)])
    refused = clock_refusal(now, act)
    if refused is not None:
        raise RuleRefused(refused, current=game_state(game), why=refused.why, source=refused.source)
    payload: dict[str, Any] = {}
    if isinstance(act, PauseClock) and act.dispute:
        payload = {"dispute": True, "by": viewer.role}
    elif isinstance(act, GiveTime):
        payload = {"side": act.side, "seconds": act.seconds}
    elif isinstance(act, SetClockLimits):
        payload = clock_service.payload(Limits.of(act))

    def write(answer: Answer) -> Written:
        return Written({**payload, "source": clock_service.SOURCE}, [])

    return Todo([], [], write)


# -- how a game is won ----------------------------------------------------------------------------------------
def call_objective(session: Session, game: Game, viewer: Viewer, act: CallObjective, _: Any) -> Todo:
    viewer.require_referee("call an objective")
    if game.status != "playing":
        raise turns.conflict(
            game, "Objectives are called while the game is played: start it first, or it is over."
        )
    # A side's secret objective is kept apart from the board the rule set reads: the act carries its name. Its
    # call, in every seat's log, reveals it (the score's too): before it scores, only one contested is called
    # (issue 89: else the game could never end), and the board's end list says the call reveals it.
    secret = next(
        (o.name for o in secret_objectives.objectives(session, [game])[game.pk] if o.id == act.objective_id),
        None,
    )
    if secret is not None:
        kept = next(
            o for o in score.game_score(session, game, "referee").objectives if o.id == act.objective_id
        )
        if not kept.revealed and kept.settled != "contested":
            raise turns.conflict(
                game, "A secret objective is called before it scores only while contested: a call reveals it."
            )

    def write(answer: Answer) -> Written:
        return Written(dict(answer.shown), [])

    return Todo([], [], write, act=replace(act, secret=secret) if secret is not None else None)


def end_game(session: Session, game: Game, viewer: Viewer, act: EndGame, _: Any) -> Todo:
    if not turns.both_ready(session, game, "end"):  # at an event's table both seats end it
        viewer.require_referee("end the game")
    may_end(session, game, viewer)

    def write(answer: Answer) -> Written:
        turn = game.turn
        bump_game(session, game, act.version, status="finished")
        return Written({**answer.shown, "turn": turn}, [])

    return Todo([], [], write)
