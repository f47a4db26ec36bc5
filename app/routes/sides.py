"""A game's sides as each seat sets them (issue 69): whose dice a side's rolls are, its players' own entered at
the table or firestep's, the seat's choice kept with the game (the stand card's one tap sends it)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path

from app import errors
from app.core.routing import Router
from app.data.schemas import SideDiceIn, SideDiceOut
from app.deps import GameId, SessionDep
from app.guard.auth import ViewerDep
from app.services import seats
from app.services.writing import game_write
from rules.core.vocabulary import Side

router = Router(prefix="/api/v1/games/{game_id}", tags=["games"])


@router.put(
    "/sides/{side}/dice",
    response_model=SideDiceOut,
    summary="Whose dice a side's rolls are: its players' own, rolled at the table and entered, or firestep's "
    "(the side's own seat sets it, never the other side's)",
    responses=errors.responses(401, 403, 404, 422),
)
def set_side_dice(
    game_id: GameId,
    side: Annotated[Side, Path()],
    body: SideDiceIn,
    viewer: ViewerDep,
    session: SessionDep,
) -> SideDiceOut:
    with game_write(session, game_id) as game:
        seats.set_dice(session, game, viewer, side, body.dice)
    return SideDiceOut(side=side, dice=body.dice)
