"""Arrived fire-plan fire as cards (issue 26): read the turn's cards, apply one (its dice rolled here or given)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import Path
from pydantic import BaseModel, ConfigDict, Field, Strict

from app import errors
from app.core.routing import Router
from app.data.schemas_answers import ArrivalAppliedOut, ArrivalsOut
from app.deps import GameId, SessionDep
from app.guard.auth import ViewerDep
from app.services import acts, arrivals, games
from app.services.events import event_dict, roles_of
from app.services.writing import game_write
from rules.core.acts import ApplyArrival

router = Router(prefix="/api/v1/games/{game_id}/arrivals", tags=["fire plans"])

ItemId = Annotated[int, Path(ge=1, le=2_147_483_647, description="The arrived fire-plan item's id")]
# A roll's key: "action" or a stand's unit id.
RollKey = Annotated[str, Field(min_length=1, max_length=12, pattern=r"^(action|[0-9]{1,11})$")]
Die = Annotated[int, Strict(), Field(ge=1, le=20)]


class ArrivalApplyIn(BaseModel):
    """Dice given by roll (the rest the server rolls), and how stands too close to call measured."""

    model_config = ConfigDict(extra="forbid")
    dice: dict[RollKey, Annotated[list[Die], Field(max_length=8)]] = Field(
        default_factory=dict,
        max_length=200,
        description='Roll key ("action", or a stand\'s unit id) -> its dice in order, one roll per turn of '
        "fire; any die not given is rolled by the server.",
    )
    measured: dict[RollKey, Literal["full", "partial", "outside"]] = Field(
        default_factory=dict,
        max_length=200,
        description="A stand too close to call (unit id) -> how it measured on the table.",
    )
    shots: dict[RollKey, Annotated[int, Strict(), Field(ge=1, le=50)]] = Field(
        default_factory=dict,
        max_length=200,
        description="On a card that leaves its shots to its side (its `shots`): roll key -> the shots laid on "
        "it (a roll given dice and not named here takes as many shots as its dice make); the rest take none.",
    )


@router.get(
    "",
    response_model=ArrivalsOut,
    response_model_exclude_unset=True,
    summary="The turn's arrived fire-plan fire as cards: where each lands, the stands under it fully, partly "
    "or too close to call, and what is rolled with its exact odds (arrived items only: they are public)",
    responses=errors.responses(401, 403, 404),
)
def list_cards(game_id: GameId, viewer: ViewerDep, session: SessionDep) -> ArrivalsOut:
    return arrivals.cards(session, games.get_game(session, game_id))


@router.post(
    "/{item_id}/apply",
    response_model=ArrivalAppliedOut,
    response_model_exclude_unset=True,
    summary="Apply an arrived item's card: its action roll and every covered stand's roll, one event naming "
    "the item and its effect (its side or the referee; once a turn: 409 after)",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def apply_arrival(
    game_id: GameId, item_id: ItemId, body: ArrivalApplyIn, viewer: ViewerDep, session: SessionDep
) -> ArrivalAppliedOut:
    with game_write(session, game_id) as game:
        act = ApplyArrival(item_id=item_id, dice=body.dice, measured=body.measured, shots=body.shots)
        out = event_dict(acts.play(session, game, viewer, act).event, roles_of(viewer))
    return ArrivalAppliedOut.model_validate(
        {"event": out, **dict(arrivals.cards(session, games.get_game(session, game_id)))}
    )
