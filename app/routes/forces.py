"""Forces: the unit tree of each side, placing and moving stands, and suppression markers."""

from __future__ import annotations

from importlib import metadata
from typing import Annotated

from fastapi import Body, Path, Request, Response
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
)
from sqlmodel import Session

from app import errors
from app.core.routing import Router
from app.data.bounded import Bool, Float, Step, Version
from app.data.changes import LoggedChange
from app.data.models import Game, Unit
from app.data.schemas import ForceIn, GameFormationIn, Override
from app.data.schemas_counters import CountersOut
from app.data.schemas_unit_edits import UnitEdit, UnitIn
from app.data.schemas_units import UnitOut
from app.deps import GameId, SessionDep
from app.guard.auth import ViewerDep
from app.services import acts, counters, events, games, unit_list
from app.services import units as units_service
from app.services import units_by_hand as by_hand
from app.services.played import Played
from app.services.seating import Viewer
from app.services.unit_list import unit_out
from app.services.writing import game_write
from rules.core.acts import (
    BuildForce,
    MoveFormation,
    MoveStand,
    PlaceMarker,
    RecoverMarker,
)
from rules.core.vocabulary import Side

router = Router(prefix="/api/v1/games/{game_id}", tags=["forces"])

UnitId = Annotated[int, Path(ge=1, le=2_147_483_647, description="Unit id")]
SideLit = Side


class UnitMoveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    x: Float = Field(ge=0, le=1000, description="cm from the attacker's left-hand edge")
    y: Float = Field(ge=0, le=1000, description="cm from the attacker's base edge")
    facing_deg: Float = Field(default=90.0, ge=-360, le=360, description="90 faces the defender")
    version: Version | None = Field(default=None, description="When given, a stale version gets 409.")
    override: Override = False


class MarkerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    delta: Step = Field(description="+1 adds a suppression marker, -1 recovers one")
    fire: str | None = Field(
        default=None,
        max_length=48,
        description="What suppressed it (shooting firer id, e.g. mg, field-gun): MG, mortar and artillery "
        "fire spreads to the whole company.",
    )
    spend_action: Bool = Field(
        default=True, description="Recovering spends an action; only the referee may recover without one."
    )
    override: Override = False


class ChangesOut(BaseModel):
    event_id: int
    changes: list[LoggedChange]
    unit: UnitOut


def _changed(game: Game, viewer: Viewer, played: Played[Unit]) -> ChangesOut:
    """A unit's act answered from the rows as written in the open unit of work (the commit would have them read
    again): returned once committed."""
    read = units_service.reader(game, viewer)
    return ChangesOut(event_id=played.event.pk, changes=played.changes, unit=unit_out(played.answer, read))


def _release() -> str:
    """The firestep installed (0.1.N, per commit): a new one may answer the same units in other words."""
    try:
        return metadata.version("firestep")
    except metadata.PackageNotFoundError:
        return "source"


RELEASE = _release()


def units_tag(session: Session, game_id: int, viewer: Viewer) -> str:
    """The entity tag of the game's units as `viewer` reads them, from the game's row alone
    (`events.game_mark`: its version and its log's newest event, which every write to its units or its own
    fields moves on) and the viewer's audience: what units_service.reader lets it read, every side's secrets
    for the referee and once the game is over, its own side's else. Two seats that read different units never
    hold one tag."""
    version, status, newest = events.game_mark(session, game_id)
    audience = "all" if status == "finished" or viewer.is_referee else viewer.role
    return f'W/"units-{RELEASE}-{version}-{newest}-{audience}"'


def _held(request: Request, tag: str) -> bool:
    """Whether the client's If-None-Match names `tag` (compared weakly, as a GET's is)."""
    held = request.headers.get("if-none-match", "")
    return held.strip() == "*" or tag.removeprefix("W/") in (
        t.strip().removeprefix("W/") for t in held.split(",")
    )


@router.get(
    "/units",
    response_model=list[UnitOut],
    summary="Every unit of both sides, as a flat tree (parent_id), with its markers and state",
    description="Its ETag names the game's version and the seat's view of it: a request carrying it in "
    "If-None-Match is answered 304 Not Modified while both stand, the units unread.",
    responses={
        304: {"description": "Not Modified: the units as the ETag in If-None-Match named them"},
        **errors.responses(401, 403, 404),
    },
)
def list_units(
    game_id: GameId, viewer: ViewerDep, session: SessionDep, request: Request, response: Response
) -> list[UnitOut] | Response:
    # The tag read before the units: a write in between answers a newer body under it, never an older one.
    tag = units_tag(session, game_id, viewer)
    if _held(request, tag):
        return Response(status_code=304, headers={"ETag": tag})
    # Each unit's answer encoded once per its version, the game's and the seat's view (app.services.unit_list);
    # names depend on the whole force tree (a unit added later can change another's): sent with every list.
    listed = unit_list.listed(session, games.get_game(session, game_id, unread=(Game.terrain,)), viewer)
    return Response(listed, media_type="application/json", headers={"ETag": tag})


@router.get(
    "/counters",
    response_model=CountersOut,
    summary="A game played on a board of counters, not a table: the field holding a counter's place, what a "
    "place is called, the level counters are grouped under, the values printed on them, the turn track and "
    "the named places (404 for a game on a table)",
    responses=errors.responses(401, 403, 404),
)
def get_counters(game_id: GameId, viewer: ViewerDep, session: SessionDep) -> CountersOut:
    view = counters.counter_board(session, games.get_game(session, game_id))
    return CountersOut.model_validate(view, from_attributes=True)


@router.get(
    "/units/{unit_id}", response_model=UnitOut, summary="One unit", responses=errors.responses(401, 403, 404)
)
def get_unit(game_id: GameId, unit_id: UnitId, viewer: ViewerDep, session: SessionDep) -> UnitOut:
    read = units_service.reader(games.get_game(session, game_id), viewer)
    return unit_out(units_service.get_unit(session, game_id, unit_id), read)


@router.post(
    "/units",
    response_model=ChangesOut,
    status_code=201,
    summary="Add a unit by hand",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def add_unit(
    game_id: GameId,
    body: Annotated[
        UnitIn,
        Body(
            openapi_examples={
                "platoon": {
                    "value": {
                        "side": "defender",
                        "name": "1 Platoon",
                        "level": "platoon",
                        "kind": "infantry",
                        "base": "infantry-platoon",
                        "x": 60,
                        "y": 120,
                        "facing_deg": 270,
                    }
                }
            }
        ),
    ],
    viewer: ViewerDep,
    session: SessionDep,
) -> ChangesOut:
    with game_write(session, game_id) as game:
        played = by_hand.add_unit(session, game, viewer, body)
        read = units_service.reader(game, viewer)
    unit = played.answer
    session.refresh(unit)
    return ChangesOut(event_id=played.event.pk, changes=[], unit=unit_out(unit, read))


@router.put(
    "/units/{unit_id}",
    response_model=ChangesOut,
    summary="Edit a unit's state (whole-object edit carrying its version; 409 with the current unit if stale)",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def edit_unit(
    game_id: GameId,
    unit_id: UnitId,
    body: Annotated[UnitEdit, Body(openapi_examples={"limber": {"value": {"version": 1, "limbered": True}}})],
    viewer: ViewerDep,
    session: SessionDep,
) -> ChangesOut:
    with game_write(session, game_id) as game:
        played = by_hand.edit_unit(session, game, viewer, unit_id, body)
        return _changed(game, viewer, played)


@router.post(
    "/units/{unit_id}/move",
    response_model=ChangesOut,
    summary="Place or move a stand (undoable by its player until the next die roll)",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def move_unit(
    game_id: GameId,
    unit_id: UnitId,
    body: Annotated[
        UnitMoveIn, Body(openapi_examples={"advance": {"value": {"x": 60, "y": 35, "facing_deg": 90}}})
    ],
    viewer: ViewerDep,
    session: SessionDep,
) -> ChangesOut:
    act = MoveStand(unit_id=unit_id, **body.model_dump())
    with game_write(session, game_id) as game:
        played = acts.play(session, game, viewer, act)
        return _changed(game, viewer, played)


class FormationMoveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    dx: Float = Field(ge=-1000, le=1000, description="cm across the table (the attacker's left to right)")
    dy: Float = Field(ge=-1000, le=1000, description="cm along the table (towards the defender's edge)")
    turn_deg: Float = Field(
        default=0.0, ge=-360, le=360, description="turned about its centre, anticlockwise"
    )
    override: Override = False


class FormationMovedOut(BaseModel):
    event_id: int
    changes: list[LoggedChange]


@router.post(
    "/units/{unit_id}/move-formation",
    response_model=FormationMovedOut,
    summary="Move a company, battalion or any unit as one: its stands on the table shifted and turned about "
    "their centre, keeping their formation (one event, one Undo)",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def move_formation(
    game_id: GameId, unit_id: UnitId, body: FormationMoveIn, viewer: ViewerDep, session: SessionDep
) -> FormationMovedOut:
    act = MoveFormation(unit_id=unit_id, **body.model_dump())
    # Worked out before the game's write lock, written under it (app.services.formations).
    planned = acts.plan_formation(session, game_id, viewer, act)
    with game_write(session, game_id) as game:
        played = acts.play(session, game, viewer, act, planned)
    return FormationMovedOut(event_id=played.event.pk, changes=played.changes)


@router.post(
    "/units/{unit_id}/markers",
    response_model=ChangesOut,
    summary="Add (+1) or recover (-1) a suppression marker: adding is an atomic increment, spreads to the "
    "company for MG, mortar and artillery fire, and a third marker kills; recovering spends an action",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def marker(
    game_id: GameId,
    unit_id: UnitId,
    body: Annotated[
        MarkerIn,
        Body(
            openapi_examples={
                "MG fire": {"value": {"delta": 1, "fire": "mg"}},
                "recover": {"value": {"delta": -1}},
            }
        ),
    ],
    viewer: ViewerDep,
    session: SessionDep,
) -> ChangesOut:
    act: PlaceMarker | RecoverMarker = (
        PlaceMarker(unit_id=unit_id, cause=body.fire, override=body.override)
        if body.delta > 0
        else RecoverMarker(unit_id=unit_id, spend_action=body.spend_action, override=body.override)
    )
    with game_write(session, game_id) as game:
        played = acts.play(session, game, viewer, act)
        return _changed(game, viewer, played)


@router.post(
    "/forces",
    response_model=list[UnitOut],
    status_code=201,
    summary="Build a force from an organisation table (division to platoon) for one side",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def build_force(
    game_id: GameId,
    body: Annotated[ForceIn, Body()],
    viewer: ViewerDep,
    session: SessionDep,
) -> list[UnitOut]:
    return _built(session, game_id, viewer, body)


@router.post(
    "/formations",
    response_model=list[UnitOut],
    status_code=201,
    summary="Build a formation from the rule set's chart of troops (its sub-units, each of bases of one kind) "
    "for one side",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def build_formation(
    game_id: GameId,
    body: Annotated[
        GameFormationIn,
        Body(
            openapi_examples={
                "an SF": {
                    "value": {
                        "side": "attacker",
                        "name": "1st Battalion",
                        "quality": "line",
                        "sub_units": [{"kind": "line-inf", "bases": 3}, {"kind": "machineguns", "bases": 2}],
                    }
                }
            }
        ),
    ],
    viewer: ViewerDep,
    session: SessionDep,
) -> list[UnitOut]:
    return _built(session, game_id, viewer, body)


def _built(session: Session, game_id: int, viewer: Viewer, body: ForceIn | GameFormationIn) -> list[UnitOut]:
    """A force built for a side (an organisation-table entry or a formation of the chart) and its units."""
    entry = body.model_dump(exclude={"override", "side"})
    with game_write(session, game_id) as game:
        act = BuildForce(side=body.side, entry=entry, override=body.override)
        root = acts.play(session, game, viewer, act).answer
        read = units_service.reader(game, viewer)
    units = units_service.list_units(session, game_id)
    return [unit_out(u, read) for u in units_service.subtree(root, units)]
