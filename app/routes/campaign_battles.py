"""A campaign's battles fought on the table (issue 17): the organiser opens a Flanders Fields game for the
battle waiting for its result, each campaign seat takes a device at its own side of the game, the finished
game's result is offered back (by the organiser, or by the game's referee from the game), and the organiser
confirms or overrides it as the battle's result. The game's own link back to its campaign battle is here too
(GET /api/v1/games/{game_id}/campaign-battle, POST .../campaign-battle/offer)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Body, Path, Response
from pydantic import BaseModel, ConfigDict, Field

from app import errors
from app.core.routing import Router
from app.data.bounded import Int, Version
from app.data.schemas import CampaignId
from app.data.schemas_answers import Snapshot
from app.data.schemas_campaign import GameCampaignLink, TableBattleOut
from app.deps import GameId, PageDep, SessionDep, SettingsDep
from app.guard import auth
from app.guard.auth import ViewerDep
from app.services import campaign_battles, campaign_store
from app.services.writing import unit_of_work
from rules.core.errors import NotFoundError

router = Router(prefix="/api/v1/campaigns/{campaign_id:int}/table-battles", tags=["campaigns"])
game_router = Router(prefix="/api/v1/games", tags=["games"])

TableBattleId = Annotated[int, Path(ge=1, le=2_147_483_647, description="Table battle id")]
GamePoints = Annotated[int, Field(ge=0, le=campaign_battles.MAX_VP, strict=True)]


CampaignViewer = auth.CampaignViewerDep


class OpenIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    layout_seed: Int | None = Field(
        default=None,
        ge=0,
        le=2_147_483_647,
        description="Varies the generated terrain layout only; omit for a random one.",
    )


class OfferIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    field_held_by: Literal["attacker", "defender", "neither"] = Field(
        description="Who holds the contested ground at the end of the game, as the referee saw it."
    )


class ConfirmIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: Version = Field(description="The campaign version the client saw.")


class OverrideIn(ConfirmIn):
    attacker_vp: GamePoints = Field(description="The attacker's Great War game points, 0 to 20.")
    defender_vp: GamePoints = Field(description="The defender's Great War game points, 0 to 20.")


class OpenedOut(BaseModel):
    table_battle: TableBattleOut
    created: bool = Field(description="False when the battle's game was already open: no credentials then.")
    referee_token: str | None = Field(description="The game's referee token; shown once, when created.")
    join_codes: dict[str, str] | None = Field(description="One code per game side; shown once, when created.")


class SeatOut(BaseModel):
    game_id: int
    role: str = Field(
        description="referee for the organiser, else the game side of the caller's campaign side"
    )
    token: str = Field(description="A new game token (a device of its own, revocable by the game's referee).")


class AppliedOut(BaseModel):
    table_battle: TableBattleOut
    campaign: Snapshot = Field(description="The campaign's snapshot after the resolve action.")


def _out(session: Any, campaign_id: int, link: Any) -> TableBattleOut:
    state = campaign_store.state_of(campaign_store.get(session, campaign_id))
    return campaign_battles.view(session, link, state)


@router.post(
    "",
    response_model=OpenedOut,
    status_code=201,
    summary="Fight the battle waiting for its result on the table (organiser): opens a Flanders Fields game; "
    "again while it is open: the same game (200, no credentials)",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def open_table_battle(
    campaign_id: CampaignId,
    body: Annotated[OpenIn, Body(openapi_examples={"random layout": {"value": {}}})],
    viewer: CampaignViewer,
    session: SessionDep,
    settings: SettingsDep,
    response: Response,
) -> OpenedOut:
    with unit_of_work(session):
        opened = campaign_battles.open_table_battle(
            session, settings.secret_key, campaign_id, viewer, body.layout_seed
        )
    creds = opened.credentials
    if creds is None:
        response.status_code = 200
    return OpenedOut(
        table_battle=_out(session, campaign_id, opened.link),
        created=creds is not None,
        referee_token=creds.referee_token if creds else None,
        join_codes=creds.join_codes if creds else None,
    )


@router.get(
    "",
    response_model=list[TableBattleOut],
    summary="The campaign's table battles: game, status, offer, applied score (no credentials)",
    responses=errors.responses(401, 403, 404, 422),
)
def list_table_battles(
    campaign_id: CampaignId, viewer: CampaignViewer, session: SessionDep, page: PageDep
) -> list[TableBattleOut]:
    state = campaign_store.state_of(campaign_store.get(session, campaign_id))
    return [
        campaign_battles.view(session, link, state)
        for link in page.of(campaign_battles.links(session, campaign_id), lambda link: link.pk)
    ]


@router.get(
    "/{table_battle_id}",
    response_model=TableBattleOut,
    summary="One table battle",
    responses=errors.responses(401, 403, 404, 422),
)
def get_table_battle(
    campaign_id: CampaignId, table_battle_id: TableBattleId, viewer: CampaignViewer, session: SessionDep
) -> TableBattleOut:
    return _out(session, campaign_id, campaign_battles.get_link(session, campaign_id, table_battle_id))


@router.post(
    "/{table_battle_id}/seat",
    response_model=SeatOut,
    summary="A game token for your own seat: the organiser referees, a player plays its own side's part",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def seat(
    campaign_id: CampaignId,
    table_battle_id: TableBattleId,
    viewer: CampaignViewer,
    session: SessionDep,
    settings: SettingsDep,
) -> SeatOut:
    with unit_of_work(session):
        joined = campaign_battles.seat(session, settings.secret_key, campaign_id, table_battle_id, viewer)
    return SeatOut(game_id=joined.owner_id, role=joined.side, token=joined.token)


@router.post(
    "/{table_battle_id}/offer",
    response_model=TableBattleOut,
    summary="Offer the finished game's result to the campaign (organiser): who holds the field; the losses "
    "are counted from the game",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def offer(
    campaign_id: CampaignId,
    table_battle_id: TableBattleId,
    body: Annotated[OfferIn, Body(openapi_examples={"held": {"value": {"field_held_by": "attacker"}}})],
    viewer: CampaignViewer,
    session: SessionDep,
) -> TableBattleOut:
    with unit_of_work(session):
        link = campaign_battles.make_offer(session, campaign_id, table_battle_id, viewer, body.field_held_by)
    return _out(session, campaign_id, link)


def _applied(session: Any, campaign_id: int, link: Any) -> AppliedOut:
    row = campaign_store.get(session, campaign_id)
    session.refresh(row)
    return AppliedOut(table_battle=_out(session, campaign_id, link), campaign=campaign_store.snapshot(row))


@router.post(
    "/{table_battle_id}/confirm",
    response_model=AppliedOut,
    summary="Apply the offered score as the battle's result (organiser), on the version you saw",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def confirm_table_battle(
    campaign_id: CampaignId,
    table_battle_id: TableBattleId,
    body: Annotated[ConfirmIn, Body(openapi_examples={"confirm": {"value": {"version": 6}}})],
    viewer: CampaignViewer,
    session: SessionDep,
) -> AppliedOut:
    with unit_of_work(session):
        link = campaign_battles.confirm(session, campaign_id, table_battle_id, viewer, body.version)
    return _applied(session, campaign_id, link)


@router.post(
    "/{table_battle_id}/override",
    response_model=AppliedOut,
    summary="Apply your own Great War score instead of the offer (organiser), on the version you saw",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def override(
    campaign_id: CampaignId,
    table_battle_id: TableBattleId,
    body: Annotated[
        OverrideIn,
        Body(openapi_examples={"score": {"value": {"version": 6, "attacker_vp": 7, "defender_vp": 4}}}),
    ],
    viewer: CampaignViewer,
    session: SessionDep,
) -> AppliedOut:
    with unit_of_work(session):
        link = campaign_battles.override(
            session, campaign_id, table_battle_id, viewer, body.version, body.attacker_vp, body.defender_vp
        )
    return _applied(session, campaign_id, link)


@game_router.get(
    "/{game_id}/campaign-battle",
    response_model=GameCampaignLink,
    summary="The campaign battle this game was opened for (read-only), to link back to the campaign",
    responses=errors.responses(401, 403, 404),
)
def game_campaign_battle(game_id: GameId, viewer: ViewerDep, session: SessionDep) -> GameCampaignLink:
    link = campaign_battles.game_link(session, game_id)
    if link is None:
        raise NotFoundError("campaign battle of game", str(game_id))
    return link


@game_router.post(
    "/{game_id}/campaign-battle/offer",
    response_model=GameCampaignLink,
    summary="Offer the finished game's result to its campaign (the game's referee): who holds the field; "
    "the losses are counted from the game; the organiser confirms or overrides it on the campaign",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def offer_from_game(
    game_id: GameId,
    body: Annotated[OfferIn, Body(openapi_examples={"held": {"value": {"field_held_by": "defender"}}})],
    viewer: ViewerDep,
    session: SessionDep,
) -> GameCampaignLink:
    with unit_of_work(session):
        campaign_battles.offer_from_game(session, game_id, viewer, body.field_held_by)
    link = campaign_battles.game_link(session, game_id)
    assert link is not None  # the offer was made to it
    return link
