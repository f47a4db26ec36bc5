"""Fire plans: written during set-up, locked with a published SHA-256 commitment, revealed item by item as
each arrives on the table, and verifiable against the commitment."""

from __future__ import annotations

from typing import Annotated, Union

from fastapi import Body, Path
from fastapi.responses import JSONResponse

from app import errors
from app.core.routing import Router
from app.data.schemas import PlanItemIn, PlanItemOut, PlanOut, plan_item_out
from app.data.schemas_answers import PlanEditOut, PlanItemRevealedOut, PlanVerifiedOut, RehearsalOut
from app.deps import GameId, SessionDep
from app.errors import Forbidden
from app.guard.auth import ViewerDep
from app.services import fireplans, games, rehearsal, seats, turns
from app.services.seating import new_salt
from app.services.writing import game_write
from rules.core.errors import NotFoundError
from rules.core.vocabulary import Side
from rules.registry import all_game_rules

router = Router(prefix="/api/v1/games/{game_id}/fireplans", tags=["fire plans"])

SideLit = Side
ItemId = Annotated[int, Path(ge=1, le=2_147_483_647, description="Fire plan item id")]


@router.get(
    "",
    response_model=list[PlanOut],
    summary="Both sides' plans: locked or not, and the commitment published at locking",
    responses=errors.responses(401, 403, 404),
)
def list_plans(game_id: GameId, viewer: ViewerDep, session: SessionDep) -> list[PlanOut]:
    game = games.get_game(session, game_id)
    return [PlanOut(**fireplans.plan_summary(session, game, s.side)) for s in seats.sides(session, game_id)]


@router.get(
    "/{side}/items",
    response_model=list[PlanItemOut],
    summary="A side's plan items: its own player and the referee only (the opponent gets 403 until the game "
    "is over; arrived items are revealed in the event log)",
    responses=errors.responses(401, 403, 404, 422),
)
def list_items(game_id: GameId, side: SideLit, viewer: ViewerDep, session: SessionDep) -> list[PlanItemOut]:
    game = games.get_game(session, game_id)
    if not fireplans.may_read_plan(viewer, side, game):
        raise Forbidden(f"the {side}'s fire plan is secret until its items arrive")
    return [plan_item_out(i) for i in fireplans.plan_items(session, game_id, side)]


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
                name: {"value": v} for r in all_game_rules() for name, v in r.book.kit.plan_examples.items()
            }
        ),
    ],
    viewer: ViewerDep,
    session: SessionDep,
) -> PlanItemOut:
    viewer.require_side(side, "write the fire plan")
    with game_write(session, game_id) as game:
        turns.plan_of_play(session, game, viewer, side)
        data = body.item.model_dump(exclude={"kind"})
        item = fireplans.add_plan_item(
            session, game, side, body.item.kind, body.arrival_turn, data, new_salt()
        )
    session.refresh(item)
    return plan_item_out(item)


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
    with game_write(session, game_id) as game:
        turns.plan_of_play(session, game, viewer, side)
        fireplans.remove_plan_item(session, game, side, item_id)


@router.get(
    "/{side}/edits",
    response_model=list[PlanEditOut],
    summary="A side's own record of its plan edits, oldest first: its own player and the referee only",
    responses=errors.responses(401, 403, 404, 422),
)
def list_edits(game_id: GameId, side: SideLit, viewer: ViewerDep, session: SessionDep) -> list[PlanEditOut]:
    viewer.require_side(side, "read the fire-plan edits")
    games.get_game(session, game_id)
    return fireplans.plan_edits(session, game_id, side)


@router.post(
    "/{side}/lock",
    response_model=PlanOut,
    summary="Lock a side's plan (a plan sealed each turn: its plan for the turn): publishes its SHA-256 "
    "commitment to both sides at once",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def lock(game_id: GameId, side: SideLit, viewer: ViewerDep, session: SessionDep) -> PlanOut:
    viewer.require_side(side, "lock the fire plan")
    with game_write(session, game_id) as game:
        turns.plan_of_play(session, game, viewer, side)
        fireplans.lock_plan(session, game, side, viewer.role)
    return PlanOut(**fireplans.plan_summary(session, game, side))


@router.get(
    "/{side}/items/{item_id}",
    response_model=PlanItemRevealedOut,
    summary="One item with its salt and the plan's leaves, to check against the commitment: the opponent gets "
    "404 until it has arrived",
    responses=errors.responses(401, 403, 404, 422),
)
def get_item(
    game_id: GameId, side: SideLit, item_id: ItemId, viewer: ViewerDep, session: SessionDep
) -> PlanItemRevealedOut:
    game = games.get_game(session, game_id)
    item = fireplans.plan_item(session, game_id, side, item_id)
    if not item.arrived and not fireplans.may_read_plan(viewer, side, game):
        raise NotFoundError("fire plan item", str(item_id))
    seal = fireplans.seal_of(session, game, side, item.arrival_turn)
    return PlanItemRevealedOut.model_validate({**fireplans.reveal(item, seal), "arrived": item.arrived})


@router.get(
    "/{side}/verify",
    response_model=PlanVerifiedOut,
    response_model_exclude_unset=True,
    summary="Check the whole plan against its commitment (its own side and the referee; everyone once the "
    "game is over)",
    responses=errors.responses(401, 403, 404, 422),
)
def verify(game_id: GameId, side: SideLit, viewer: ViewerDep, session: SessionDep) -> PlanVerifiedOut:
    game = games.get_game(session, game_id)
    if not fireplans.may_read_plan(viewer, side, game):
        raise Forbidden(f"the {side}'s fire plan can be verified by the opponent after the game")
    return PlanVerifiedOut.model_validate(fireplans.verify_plan(session, game, side))


# The rehearsal's request is the rule set's own (its fire plan's `rehearsal`: its limits and options).
REHEARSALS = tuple(
    dict.fromkeys(r.book.plan_terms.rehearsal for r in all_game_rules() if r.book.plan_terms.rehearsal)
)
RehearsalIn = Union[REHEARSALS]  # type: ignore[valid-type]  # noqa: UP007  (a Union of the declared models)


@router.post(
    "/{side}/rehearsal",
    responses={200: {"model": RehearsalOut}, **errors.responses(401, 403, 404, 422, 429)},
    summary="Rehearse a side's own fire plan against the enemy's stands as they stand now: per enemy stand "
    "and turn, the chances of 0, 1, 2 suppression markers and of being destroyed (its own player and the "
    "referee only). Rehearsals run one at a time off the request path; past the limits per device and "
    "overall, 429 with Retry-After",
)
def rehearse(
    game_id: GameId,
    side: SideLit,
    viewer: ViewerDep,
    session: SessionDep,
    body: RehearsalIn,
) -> JSONResponse:
    viewer.require_side(side, "rehearse the fire plan")
    game = games.get_game(session, game_id)
    # Encoded as it is (plain JSON types): FastAPI's own encoder walks it in Python, in this process.
    answer = rehearsal.rehearse_plan(session, game, viewer, side, rehearsal.request_of(game, body))
    return JSONResponse(answer)
