"""How a game is won (issue 55): its score now (each side's points and losses, each objective's holder), the
referee's call on a contested objective (an act of the one pipeline, logged), and a finished game's result."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import Body
from pydantic import BaseModel, ConfigDict, Field

from app import errors
from app.core.routing import Router
from app.data.bounded import Int, Version
from app.data.schemas_answers import EventOut, ObjectiveCalledOut
from app.data.schemas_scenario import ObjectiveFeature
from app.data.schemas_score import GameResultOut, GameScore, ObjectivesVerifiedOut, SecretGivenOut
from app.deps import GameId, NowDep, SessionDep
from app.guard.auth import ViewerDep
from app.services import acts, games, secret_objectives
from app.services import clock as clock_service
from app.services import result as result_service
from app.services import score as score_service
from app.services.events import event_dict, roles_of
from app.services.writing import game_write
from rules.core.acts import CallObjective
from rules.core.errors import NotFoundError
from rules.core.victory import MAX_CONDITIONS
from rules.core.vocabulary import Side
from rules.table.objectives import ID_PATTERN

router = Router(prefix="/api/v1/games/{game_id}", tags=["score"])


class ObjectiveCallIn(BaseModel):
    """The referee's call: the objective, and the side that holds it (null: nobody)."""

    model_config = ConfigDict(extra="forbid")
    objective_id: Annotated[str, Field(min_length=1, max_length=40, pattern=ID_PATTERN.pattern)]
    side: Side | None


@router.get(
    "/score",
    response_model=GameScore,
    summary="The score now: the turn or bound, each side's victory points and losses, each objective's holder, "
    "the stands holding it and whether it is contested",
    responses=errors.responses(401, 403, 404),
)
def get_score(game_id: GameId, viewer: ViewerDep, session: SessionDep, now: NowDep) -> GameScore:
    game = games.get_game(session, game_id)
    clock = clock_service.game_clock(session, game, now)
    return score_service.score_answer(game, score_service.game_score(session, game, viewer.role), clock)


@router.post(
    "/score/calls",
    response_model=ObjectiveCalledOut,
    summary="The referee's call on a contested objective: who holds it (null: nobody), until the stands change",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def call_objective(
    game_id: GameId,
    body: Annotated[
        ObjectiveCallIn,
        Body(openapi_examples={"the bridge": {"value": {"objective_id": "bridge-1", "side": "defender"}}}),
    ],
    viewer: ViewerDep,
    session: SessionDep,
    now: NowDep,
) -> ObjectiveCalledOut:
    viewer.require_referee("call an objective")
    with game_write(session, game_id) as game:
        played = acts.play(
            session, game, viewer, CallObjective(objective_id=body.objective_id, side=body.side)
        )
        event = EventOut.model_validate(event_dict(played.event, roles_of(viewer)))
    session.refresh(game)
    clock = clock_service.game_clock(session, game, now)
    score = score_service.score_answer(game, score_service.game_score(session, game, viewer.role), clock)
    return ObjectiveCalledOut(event=event, score=score)


class ConditionChoiceIn(BaseModel):
    """The referee's choice on a victory condition met: end the game with its result, or play on."""

    model_config = ConfigDict(extra="forbid")
    version: Version | None = Field(
        default=None, description="The game version the client saw (a stale one gets 409); none: as it is now"
    )
    condition: Annotated[Int, Field(ge=1, le=MAX_CONDITIONS, description="Its number in the scenario's list")]
    choice: Literal["end", "play-on"]


@router.post(
    "/score/conditions",
    response_model=ObjectiveCalledOut,
    summary="The referee's choice on the scenario's victory condition met: end the game with its result, or play "
    "on (logged)",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def choose_on_condition(
    game_id: GameId,
    body: Annotated[
        ConditionChoiceIn,
        Body(openapi_examples={"play on": {"value": {"version": 7, "condition": 1, "choice": "play-on"}}}),
    ],
    viewer: ViewerDep,
    session: SessionDep,
    now: NowDep,
) -> ObjectiveCalledOut:
    viewer.require_referee("choose on a victory condition")
    with game_write(session, game_id) as game:
        if body.choice == "end":
            ended = result_service.on_condition(session, game, viewer, body.version, body.condition)
            ev = acts.play(session, game, viewer, ended).event
        else:
            ev = result_service.play_on(session, game, viewer, body.version, body.condition)
        event = EventOut.model_validate(event_dict(ev, roles_of(viewer)))
    session.refresh(game)
    clock = clock_service.game_clock(session, game, now)
    score = score_service.score_answer(game, score_service.game_score(session, game), clock)
    return ObjectiveCalledOut(event=event, score=score)


@router.get(
    "/result",
    response_model=GameResultOut,
    summary="A finished game's result: the winner (null: a draw), points, losses, the objectives as they stood",
    responses=errors.responses(401, 403, 404),
)
def get_result(game_id: GameId, viewer: ViewerDep, session: SessionDep) -> GameResultOut:
    game = games.get_game(session, game_id)
    result = result_service.game_result(session, game_id)
    if result is None:
        raise NotFoundError("result of game (it is not over)", str(game_id))
    return result_service.result_answer(game, result)


class SecretObjectiveIn(BaseModel):
    """The referee gives a side a secret objective at set-up: the side, and the objective as a scenario
    writes one (its id is drawn by the server)."""

    model_config = ConfigDict(extra="forbid")
    side: Side
    objective: ObjectiveFeature


@router.post(
    "/objectives/secret",
    status_code=201,
    response_model=SecretGivenOut,
    summary="The referee gives a side a secret objective at set-up: only that side (and the referee) sees it "
    "until it scores; sealed with the side's others as the game starts",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def give_secret_objective(
    game_id: GameId, body: SecretObjectiveIn, viewer: ViewerDep, session: SessionDep
) -> SecretGivenOut:
    viewer.require_referee("give a secret objective")
    with game_write(session, game_id) as game:
        public = score_service.objectives_of(game)
        given = secret_objectives.give_objective(session, game, body.side, body.objective, public)
    return SecretGivenOut(id=given, side=body.side)


@router.get(
    "/objectives/{side}/verify",
    response_model=ObjectivesVerifiedOut,
    summary="A side's secret objectives checked against the commitment published as the game started: those "
    "revealed (each by its path to the root) to the other side; all of them, the whole tree, to its own side, "
    "the referee, and everyone once the game is over",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def verify_secret_objectives(
    game_id: GameId, side: Side, viewer: ViewerDep, session: SessionDep
) -> ObjectivesVerifiedOut:
    game = games.get_game(session, game_id)
    whole = game.status == "finished" or viewer.may_act_for(side)
    return score_service.secrets_checked(session, game, side, whole)
