"""A campaign battle's result offered back to its campaign (app.services.campaign_battles.make_offer), as its
column keeps it (app.data.models.CampaignBattle.offer) and its answers carry it (app.routes.campaign_battles)."""

from __future__ import annotations

from pydantic import BaseModel


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
