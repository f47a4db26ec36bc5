"""Firestorm campaigns kept on the server like games (app/services/campaign_store.py): the organiser creates one and
gets a token and a join code per side; each player joins with a code and acts for their own side; every
write carries the version the client saw (409 with the current state when stale); the log is append-only
and undo (organiser only) is a new entry."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import Body, Depends, Query
from pydantic import BaseModel, ConfigDict, Field, field_serializer

from app import errors
from app.core.routing import Router
from app.data.bounded import Adjacency, Die, JsonObject, Variants, Version
from app.data.models import Campaign
from app.data.schemas import CampaignId, DeviceId, JoinIn
from app.data.schemas_answers import CampaignAction, CampaignEvent, CampaignResultOut, Snapshot
from app.data.schemas_campaign import CampaignOut
from app.data.schemas_devices import DeviceOut
from app.data.written import AsWritten
from app.deps import DIGITS, MAX_PAGE, PageDep, SessionDep, SettingsDep, cursor
from app.guard import auth, security
from app.services import campaign_battles, campaign_store, seating
from app.services.writing import unit_of_work

router = Router(prefix="/api/v1/campaigns", tags=["campaigns"])

# Names are shown on tablets and stored in VARCHAR columns: printable text only (PostgreSQL refuses NUL).
Name = Annotated[str, Field(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f\x7f]+$")]


CampaignViewer = auth.CampaignViewerDep


class CampaignCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Name | None = None
    adjacency: Adjacency | None = Field(
        default=None, description="The organiser's corrected map (area -> adjacent areas); default map.json."
    )
    variants: Variants = Field(default_factory=dict)


class CampaignCreated(BaseModel):
    campaign: CampaignOut
    organiser_token: str = Field(description="Bearer token of the organiser; shown once.")
    join_codes: dict[str, str] = Field(description="One code per side (german, bef); shown once.")


class CampaignJoined(BaseModel):
    campaign_id: int
    side: str
    token: str


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: JsonObject = Field(
        description="An action as listed by legal-actions, e.g. {'type': 'initiative'}."
    )
    dice: list[Die] | None = Field(
        default=None,
        max_length=10,
        description="The faces rolled, as many as the action takes (initiative: german, bef; a battle: "
        "attacker, defender); omit to let the server roll.",
    )
    version: Version = Field(description="The campaign version the client saw.")


class VersionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: Version = Field(description="The campaign version the client saw.")


class MapIn(VersionIn):
    adjacency: Adjacency | None = Field(description="Area -> adjacent areas; null restores map.json.")


class MapSet(BaseModel):
    """A map entry's action: the organiser's map as it stands after it (area -> adjacent areas)."""

    model_config = ConfigDict(extra="forbid")

    adjacency: dict[str, list[str]]


class TableBattleNote(AsWritten):
    """A table-battle entry's action (app.services.campaign_battles._note): the step the table game reached, its
    campaign battle and game as they are now (the game's id and path, None once deleted), the battle's turn,
    number and area, and what the step adds: once opened, the game's name and date; once offered, confirmed or
    overridden, the Great War score (and, offered, which side held the field)."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["table-battle"]
    step: Literal["opened", "offered", "confirmed", "overridden", "abandoned"]
    table_battle_id: int
    game_id: int | None
    path: str | None
    turn: int
    battle: int
    area: str
    game_name: str | None = None
    date: str | None = None
    attacker_vp: int | None = None
    defender_vp: int | None = None
    field_held_by: Literal["attacker", "defender", "neither"] | None = None


# The first entry's action: nothing done yet (an object of no keys).
NoAction = Annotated[dict[str, str], Field(max_length=0)]


class LogEntry(BaseModel):
    id: int
    kind: Literal["created", "map", "action", "undo", "table-battle"]  # table-battle: issue 17
    actor: str
    turn: int
    phase: str
    # Told apart by their keys, each closed to the others': an action (and the one an undo takes back) as the
    # rule set's campaign declares it, a map set, a table-battle note, or nothing (created).
    action: CampaignAction | MapSet | TableBattleNote | NoAction
    dice: list[int]
    rolled_by_server: bool
    events: list[CampaignEvent]
    version: int
    reverses_id: int | None
    undone: bool
    created_at: datetime

    # Unannotated on purpose (its schema stays the field's): an action is answered with the keys it was sent with,
    # its defaults left out, as the log keeps it.
    @field_serializer("action", mode="wrap")
    def _action_as_sent(self, value, handler):  # type: ignore[no-untyped-def]
        out = handler(value)
        return (
            {k: v for k, v in out.items() if k in value.model_fields_set}
            if isinstance(value, BaseModel)
            else out
        )


class Acted(Snapshot):
    entry: LogEntry


def _acted(session: Any, row: Campaign, ev: Any) -> Acted:
    session.refresh(ev)  # the entry as committed (model_dump reads no expired field)
    undone = campaign_store.reversed_ids(session, row.pk)
    return Acted(**campaign_store.snapshot(row), entry=LogEntry(**campaign_store.event_dict(ev, undone)))


@router.get("", response_model=list[CampaignOut], summary="Campaigns in this database (the lobby: no token)")
def list_campaigns(session: SessionDep, page: PageDep) -> list[CampaignOut]:
    return page.of(campaign_store.list_campaigns(session), lambda c: c.id)


@router.post(
    "",
    response_model=CampaignCreated,
    status_code=201,
    summary="Create a Firestorm campaign: returns the organiser's token and a join code per side "
    "(X-Organiser-Key when the server requires one)",
    responses=errors.responses(401, 403, 422),
    dependencies=[Depends(auth.require_organiser)],
)
def create_campaign(
    body: Annotated[
        CampaignCreate,
        Body(openapi_examples={"default map": {"value": {"name": "Villers-Bretonneux at the club"}}}),
    ],
    session: SessionDep,
    settings: SettingsDep,
) -> CampaignCreated:
    with unit_of_work(session):
        row, creds = campaign_store.create(
            session, settings.secret_key, body.name, body.adjacency, body.variants
        )
    return CampaignCreated(
        campaign=campaign_store.listing_of(row),
        organiser_token=creds.referee_token,
        join_codes=creds.join_codes,
    )


@router.post(
    "/join",
    response_model=CampaignJoined,
    summary="Join a campaign with a side's code: returns that side's token",
    responses=errors.responses(422, 429),
)
def join_campaign(
    body: Annotated[JoinIn, Body(openapi_examples={"code": {"value": {"code": "ABCDE-FGH23"}}})],
    session: SessionDep,
    settings: SettingsDep,
) -> CampaignJoined:
    with security.guessing_a_code(), unit_of_work(session):
        campaign_id, side, token = campaign_store.join(session, settings.secret_key, body.code)
    return CampaignJoined(campaign_id=campaign_id, side=side, token=token)


@router.get(
    "/{campaign_id:int}",
    response_model=CampaignOut,
    summary="One campaign (the lobby view)",
    responses=errors.responses(404, 422),
)
def get_campaign(campaign_id: CampaignId, session: SessionDep) -> CampaignOut:
    return campaign_store.listing_of(campaign_store.get(session, campaign_id))


@router.get(
    "/{campaign_id:int}/legal-actions",
    response_model=Snapshot,
    summary="The state, its version, what may be done next and the score so far",
    responses=errors.responses(401, 403, 404, 422),
)
def legal_actions(campaign_id: CampaignId, viewer: CampaignViewer, session: SessionDep) -> Snapshot:
    return Snapshot.model_validate(campaign_store.snapshot(campaign_store.get(session, campaign_id)))


@router.post(
    "/{campaign_id:int}/actions",
    response_model=Acted,
    summary="Take one action for your side on the version you saw (409 with the current state when stale)",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def act(
    campaign_id: CampaignId,
    body: Annotated[
        ActionIn,
        Body(
            openapi_examples={
                "initiative, dice given": {
                    "value": {"action": {"type": "initiative"}, "dice": [], "version": 1}
                },
                "battle, server rolls": {"value": {"action": {"type": "resolve"}, "version": 4}},
            }
        ),
    ],
    viewer: CampaignViewer,
    session: SessionDep,
) -> Acted:
    with unit_of_work(session):
        row, ev = campaign_store.act(session, campaign_id, viewer, body.action, body.dice, body.version)
    return _acted(session, row, ev)


@router.post(
    "/{campaign_id:int}/undo",
    response_model=Acted,
    summary="Take back the latest action (organiser): a new log entry restores the state before it",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def undo_campaign_action(
    campaign_id: CampaignId,
    body: Annotated[VersionIn, Body(openapi_examples={"undo": {"value": {"version": 5}}})],
    viewer: CampaignViewer,
    session: SessionDep,
) -> Acted:
    with unit_of_work(session):
        row, ev = campaign_store.undo(session, campaign_id, viewer, body.version)
    return _acted(session, row, ev)


@router.get(
    "/{campaign_id:int}/log",
    response_model=list[LogEntry],
    summary="The append-only log: every action with its dice, who took it and what happened",
    responses=errors.responses(401, 403, 404, 422),
)
def log(
    campaign_id: CampaignId,
    viewer: CampaignViewer,
    session: SessionDep,
    after: Annotated[int, DIGITS, cursor("Only entries after this id.")] = 0,
    limit: Annotated[
        int, Query(ge=1, le=MAX_PAGE, description=f"How many entries (at most {MAX_PAGE})")
    ] = MAX_PAGE,
) -> list[LogEntry]:
    campaign_store.get(session, campaign_id)
    undone = campaign_store.reversed_ids(session, campaign_id)
    entries = [
        campaign_store.event_dict(e, undone)
        for e in campaign_store.events(session, campaign_id, after, limit)
    ]
    return [LogEntry(**e) for e in campaign_battles.log_entries_now(session, campaign_id, entries)]


@router.get(
    "/{campaign_id:int}/result",
    response_model=CampaignResultOut,
    summary="Campaign victory points and outcome (final once the campaign is finished)",
    responses=errors.responses(401, 403, 404, 422),
)
def result(campaign_id: CampaignId, viewer: CampaignViewer, session: SessionDep) -> CampaignResultOut:
    return CampaignResultOut.model_validate(
        campaign_store.snapshot(campaign_store.get(session, campaign_id))["result"]
    )


@router.put(
    "/{campaign_id:int}/map",
    response_model=Acted,
    summary="Correct the map's adjacency (organiser, before the first action)",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def put_map(
    campaign_id: CampaignId,
    body: Annotated[
        MapIn, Body(openapi_examples={"back to map.json": {"value": {"adjacency": None, "version": 1}}})
    ],
    viewer: CampaignViewer,
    session: SessionDep,
) -> Acted:
    with unit_of_work(session):
        row, ev = campaign_store.set_map(session, campaign_id, viewer, body.adjacency, body.version)
    return _acted(session, row, ev)


class CampaignCredentials(BaseModel):
    organiser_token: str = Field(description="The organiser's new bearer token; shown once.")
    join_codes: dict[str, str] = Field(description="A new code per side (german, bef); shown once.")


@router.post(
    "/{campaign_id:int}/credentials",
    response_model=CampaignCredentials,
    summary="New join codes and a new organiser token (organiser); every old token and code is revoked",
    responses=errors.responses(401, 403, 404, 422),
)
def reissue_campaign_credentials(
    campaign_id: CampaignId, viewer: CampaignViewer, session: SessionDep, settings: SettingsDep
) -> CampaignCredentials:
    with unit_of_work(session):
        creds = campaign_store.reissue(session, settings.secret_key, campaign_id, viewer)
    return CampaignCredentials(organiser_token=creds.referee_token, join_codes=creds.join_codes)


@router.get(
    "/{campaign_id:int}/devices",
    response_model=list[DeviceOut],
    summary="The campaign's devices (organiser): role, when issued, last seen, revoked",
    responses=errors.responses(401, 403, 404, 422),
)
def list_campaign_devices(
    campaign_id: CampaignId, viewer: CampaignViewer, session: SessionDep, page: PageDep
) -> list[DeviceOut]:
    rows = page.of(campaign_store.devices(session, campaign_id, viewer), lambda d: d.pk)
    return [seating.device_out(d, viewer.token_id) for d in rows]


@router.post(
    "/{campaign_id:int}/devices/{device_id:int}/revoke",
    response_model=DeviceOut,
    summary="Revoke one device (organiser): its token answers 401 everywhere from now on",
    responses=errors.responses(401, 403, 404, 422),
)
def revoke_campaign_device(
    campaign_id: CampaignId, device_id: DeviceId, viewer: CampaignViewer, session: SessionDep
) -> DeviceOut:
    with unit_of_work(session):
        row = campaign_store.revoke(session, campaign_id, viewer, device_id)
    return seating.device_out(row, viewer.token_id)
