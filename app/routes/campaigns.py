"""The rule set's campaign over HTTP, statelessly: the client holds the state and sends it back with each action
(the pure state machine is the one the rule set declares, rules.core.campaign.Campaign)."""

from __future__ import annotations

import random

from pydantic import BaseModel, ConfigDict, Field

from app import errors
from app.core.routing import Router
from app.data.bounded import Adjacency, Die, JsonObject, Variants
from app.data.schemas_answers import CampaignEvent, CampaignResultOut, CampaignState, LegalAction
from rules.registry import the_campaign

campaign = the_campaign()
router = Router(prefix=f"/api/v1/rulesets/{campaign.ruleset_id}/campaign", tags=[campaign.ruleset_id])


class NewCampaign(BaseModel):
    model_config = ConfigDict(extra="forbid")

    adjacency: Adjacency | None = Field(
        default=None, description="A corrected map adjacency (area -> adjacent areas); default map.json."
    )
    variants: Variants = Field(default_factory=dict)


class StateIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    state: CampaignState


class ApplyIn(StateIn):
    action: JsonObject = Field(
        description="An action as listed by legal-actions, e.g. {'type': 'initiative'}."
    )
    dice: list[Die] | None = Field(
        default=None,
        max_length=10,
        description="The faces rolled, as many as the action takes; omit to let the server roll.",
    )


class CampaignStateOut(BaseModel):
    state: CampaignState
    legal_actions: list[LegalAction]
    result: CampaignResultOut


class ApplyOut(CampaignStateOut):
    events: list[CampaignEvent]
    dice: list[int]
    rolled_by_server: bool


def _out(state: CampaignState) -> CampaignStateOut:
    return CampaignStateOut.model_validate(
        {"state": state, "legal_actions": campaign.legal_actions(state), "result": campaign.result(state)}
    )


@router.post(
    "/new", response_model=CampaignStateOut, responses=errors.responses(422), summary="Set up a new campaign"
)
def new_campaign_state(body: NewCampaign) -> CampaignStateOut:
    return _out(campaign.new(body.adjacency, body.variants))


@router.post(
    "/legal-actions",
    response_model=CampaignStateOut,
    responses=errors.responses(422),
    summary="What may be done next",
)
def campaign_state_legal_actions(body: StateIn) -> CampaignStateOut:
    return _out(body.state)


@router.post("/apply", response_model=ApplyOut, responses=errors.responses(422), summary="Apply one action")
def apply_campaign_action(body: ApplyIn) -> ApplyOut:
    dice = body.dice
    by_server = dice is None
    if dice is None:
        campaign.check(body.state)
        rng = random.SystemRandom()
        dice = [rng.randint(1, 6) for _ in range(campaign.dice_needed(body.state, body.action))]
    state, events = campaign.apply(body.state, body.action, dice)
    return ApplyOut(**dict(_out(state)), events=events, dice=dice, rolled_by_server=by_server)
