"""A campaign battle fought on the table as its campaign, its game and their answers read it
(app.services.campaign_battles, app.routes.campaign_battles): the result offered back to the campaign as its
column keeps it (app.data.models.CampaignBattle.offer), the link and the game's link back."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field


class CampaignOut(BaseModel):
    """The lobby view: no token needed."""

    id: int
    name: str
    ruleset: str
    version: int
    turn: int
    phase: str
    variants: dict[str, str] = Field(description="Erratum id -> reading id.")
    created_at: datetime
    updated_at: datetime


class TableOutcomeOut(BaseModel):
    """The table game as the campaign reads it (app.services.campaign_battles.outcome_of): each side's stands
    and stands lost, and who held the field."""

    attacker_bases: int
    defender_bases: int
    attacker_lost: int
    defender_lost: int
    field_held_by: str


class BattleOffer(BaseModel):
    """What the finished game offers the campaign besides its score: the Firestorm side it gives the battle to
    (or a draw), why, and the table's outcome."""

    winner: str | None
    reasons: list[str]
    sources: list[str]
    outcome: TableOutcomeOut


class OfferOut(BattleOffer):
    attacker_vp: int
    defender_vp: int


class ScoreOut(BaseModel):
    attacker_vp: int
    defender_vp: int


class TableBattleOut(BaseModel):
    id: int
    campaign_id: int
    turn: int
    battle: int = Field(description="The battle's number in its turn, from 1.")
    area: str
    area_name: str
    period: str
    attacker: str = Field(description="The Firestorm side attacking (german or bef).")
    game_sides: dict[str, str] = Field(description="Firestorm side -> the side it plays in the game.")
    status: Literal["open", "offered", "confirmed", "overridden", "abandoned"]
    game_id: int | None
    game_name: str | None
    game_status: str | None
    game_path: str | None
    field_held_by: str | None
    offer: OfferOut | None
    applied: ScoreOut | None
    created_at: datetime
    updated_at: datetime


class GameCampaignLink(BaseModel):
    campaign_id: int
    campaign_name: str
    turn: int
    battle: int
    area: str
    area_name: str
    table_battle_id: int
    status: str
    campaign_path: str
    field_held_by: str | None
    offer: OfferOut | None = Field(description="The result offered to the campaign, once it is.")
    applied: ScoreOut | None = Field(description="The score the organiser applied, once they have.")
