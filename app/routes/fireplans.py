"""Fire plans: written during set-up, locked with a published SHA-256 commitment, revealed item by item as
each arrives on the table, and verifiable against the commitment."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Path
from pydantic import BaseModel, ConfigDict, Field

from app import crud, errors, game_engine
from app.auth import ViewerDep, new_salt
from app.deps import GameId, SessionDep
from app.errors import Conflict, Forbidden
from app.limits import Float, Int
from app.models import FirePlanItem
from rules.core.vocabulary import Side

router = APIRouter(prefix="/api/v1/games/{game_id}/fireplans", tags=["fire plans"])

SideLit = Side
ItemId = Annotated[int, Path(ge=1, le=2_147_483_647, description="Fire plan item id")]
Grid = Annotated[
    list[Annotated[Float, Field(ge=0, le=1000)]],
    Field(
        min_length=2,
        max_length=2,
        description="Side-relative grid reference: cm along the side's rear edge from its left-hand corner, "
        "then cm up the table towards the enemy (ARTILLERY FIRE PLANS).",
    ),
]


class FireItem(BaseModel):
    """Aiming points of batteries and mortars, bombardments, superimposed batteries, air missions."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["aiming-point", "bombardment", "superimposed", "mortar", "air-mission"]
    grid: Grid
    battery: str = Field(default="", max_length=64, description="Which battery or mortar fires.")
    turns: Int = Field(default=1, ge=1, le=50, description="Turns of fire.")


class GasItem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["gas"]
    grid: Grid
    gas: Literal["offensive", "denying"]
    wind_deg: Float = Field(ge=0, lt=360, description="Direction the controlling player states, table frame.")


class BarrageItem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["rolling-barrage"]
    start_up_cm: Float = Field(
        ge=0, le=1000, description="Start line: cm up the table from the side's rear edge."
    )
    duration_turns: Int = Field(ge=1, le=20, description="As rolled with barrage-duration (4 + D3).")
    halts: list[Annotated[Int, Field(ge=1, le=100)]] = Field(
        default_factory=list, max_length=20, description="Turns in which it halts."
    )


class DeepSuppressionItem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["deep-suppression"]


class PlanItemIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    arrival_turn: Int = Field(ge=1, le=100, description="The turn at whose start the item arrives.")
    item: FireItem | GasItem | BarrageItem | DeepSuppressionItem = Field(discriminator="kind")


class PlanItemOut(BaseModel):
    id: int
    side: str
    kind: str
    arrival_turn: int
    data: dict[str, Any]
    arrived: bool


class PlanOut(BaseModel):
    side: str
    locked: bool
    commitment: str | None
    capacity: int = Field(description="The most items a plan holds: the leaves of its commitment tree.")
    how_to_check: str = Field(description="How to check an arrived item against the commitment.")


def _item_out(i: FirePlanItem) -> PlanItemOut:
    return PlanItemOut(
        id=i.public_id, side=i.side, kind=i.kind, arrival_turn=i.arrival_turn, data=i.data, arrived=i.arrived
    )


def _may_read_plan(viewer: Any, side: str, status: str) -> bool:
    return viewer.may_act_for(side) or status == "finished"


@router.get(
    "",
    response_model=list[PlanOut],
    summary="Both sides' plans: locked or not, and the commitment published at locking",
    responses=errors.responses(401, 403, 404),
)
def list_plans(game_id: GameId, viewer: ViewerDep, session: SessionDep) -> list[PlanOut]:
    return [PlanOut(**game_engine.plan_summary(s)) for s in crud.sides(session, game_id)]


@router.get(
    "/{side}/items",
    response_model=list[PlanItemOut],
    summary="A side's plan items: its own player and the referee only (the opponent gets 403 until the game "
    "is over; arrived items are revealed in the event log)",
    responses=errors.responses(401, 403, 404, 422),
)
def list_items(game_id: GameId, side: SideLit, viewer: ViewerDep, session: SessionDep) -> list[PlanItemOut]:
    game = crud.get_game(session, game_id)
    if not _may_read_plan(viewer, side, game.status):
        raise Forbidden(f"the {side}'s fire plan is secret until its items arrive")
    return [_item_out(i) for i in crud.plan_items(session, game_id, side)]


@router.post(
    "/{side}/items",
    response_model=PlanItemOut,
    status_code=201,
    summary="Add an item to a side's plan (before it is locked)",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def add_item(
    game_id: GameId,
    side: SideLit,
    body: Annotated[
        PlanItemIn,
        Body(
            openapi_examples={
                "battery aiming point": {
                    "value": {
                        "arrival_turn": 1,
                        "item": {"kind": "aiming-point", "grid": [64, 120], "battery": "1"},
                    }
                },
                "gas": {
                    "value": {
                        "arrival_turn": 2,
                        "item": {"kind": "gas", "grid": [60, 40], "gas": "offensive", "wind_deg": 90},
                    }
                },
                "rolling barrage": {
                    "value": {
                        "arrival_turn": 1,
                        "item": {
                            "kind": "rolling-barrage",
                            "start_up_cm": 50,
                            "duration_turns": 6,
                            "halts": [3],
                        },
                    }
                },
                "deep suppression": {"value": {"arrival_turn": 1, "item": {"kind": "deep-suppression"}}},
            }
        ),
    ],
    viewer: ViewerDep,
    session: SessionDep,
) -> PlanItemOut:
    viewer.require_side(side, "write the fire plan")
    game = crud.lock_game(session, game_id)
    data = body.item.model_dump(exclude={"kind"})
    item = game_engine.add_plan_item(session, game, side, body.item.kind, body.arrival_turn, data, new_salt())
    session.commit()
    session.refresh(item)
    return _item_out(item)


@router.delete(
    "/{side}/items/{item_id}",
    status_code=204,
    summary="Remove an item from a side's plan (before it is locked)",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def delete_item(
    game_id: GameId, side: SideLit, item_id: ItemId, viewer: ViewerDep, session: SessionDep
) -> None:
    viewer.require_side(side, "write the fire plan")
    game = crud.lock_game(session, game_id)
    game_engine.remove_plan_item(session, game, side, item_id)
    session.commit()


@router.get(
    "/{side}/edits",
    summary="A side's own record of its plan edits, oldest first: its own player and the referee only",
    responses=errors.responses(401, 403, 404, 422),
)
def list_edits(
    game_id: GameId, side: SideLit, viewer: ViewerDep, session: SessionDep
) -> list[dict[str, Any]]:
    viewer.require_side(side, "read the fire-plan edits")
    crud.get_game(session, game_id)
    return game_engine.plan_edits(session, game_id, side)


@router.post(
    "/{side}/lock",
    response_model=PlanOut,
    summary="Lock a side's plan: publishes its SHA-256 commitment to both sides at once",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def lock(game_id: GameId, side: SideLit, viewer: ViewerDep, session: SessionDep) -> PlanOut:
    viewer.require_side(side, "lock the fire plan")
    game = crud.lock_game(session, game_id)
    if game.status != "setup":
        raise Conflict("fire plans are locked before the game starts", current=crud.game_state(game))
    game_engine.lock_plan(session, game, side, viewer.role)
    session.commit()
    return PlanOut(**game_engine.plan_summary(crud.get_side(session, game_id, side)))


@router.get(
    "/{side}/items/{item_id}",
    summary="One item with its salt and the plan's leaves, to check against the commitment: the opponent gets "
    "404 until it has arrived",
    responses=errors.responses(401, 403, 404, 422),
)
def get_item(
    game_id: GameId, side: SideLit, item_id: ItemId, viewer: ViewerDep, session: SessionDep
) -> dict[str, Any]:
    game = crud.get_game(session, game_id)
    item = game_engine.plan_item(session, game_id, side, item_id)
    if not item.arrived and not _may_read_plan(viewer, side, game.status):
        raise crud.NotFoundError("fire plan item", str(item_id))
    return {**game_engine.reveal(item, crud.get_side(session, game_id, side)), "arrived": item.arrived}


@router.get(
    "/{side}/verify",
    summary="Check the whole plan against its commitment (its own side and the referee; everyone once the "
    "game is over)",
    responses=errors.responses(401, 403, 404, 422),
)
def verify(game_id: GameId, side: SideLit, viewer: ViewerDep, session: SessionDep) -> dict[str, Any]:
    game = crud.get_game(session, game_id)
    if not _may_read_plan(viewer, side, game.status):
        raise Forbidden(f"the {side}'s fire plan can be verified by the opponent after the game")
    return game_engine.verify_plan(session, game, side)
