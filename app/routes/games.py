from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel

from app import crud
from app.deps import GameId, SessionDep

router = APIRouter(prefix="/api/v1/games", tags=["games"])


class GameOut(BaseModel):
    id: int
    name: str
    ruleset: str
    period: str | None
    variants: dict[str, Any]
    table_width_cm: float
    table_length_cm: float
    attacker_nation: str
    defender_nation: str
    scenario: str | None
    version: int
    created_at: datetime
    updated_at: datetime


@router.get("", response_model=list[GameOut], summary="Games in this database")
def list_games(session: SessionDep) -> list[GameOut]:
    return [GameOut.model_validate(g, from_attributes=True) for g in crud.list_games(session)]


@router.get(
    "/{game_id}", response_model=GameOut, summary="One game", responses={404: {"description": "No such game"}}
)
def get_game(game_id: GameId, session: SessionDep) -> GameOut:
    return GameOut.model_validate(crud.get_game(session, game_id), from_attributes=True)
