"""Rehearsing a side's fire plan on the game's current table: the enemy's stands as they stand now (their
positions are public), the side's own plan (never the other side's), and rules/flanders_fields/rehearsal.py
for every number."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlmodel import Session

from app.auth import Viewer
from app.models import Game, Unit
from app.services.fireplans import plan_items
from app.services.table import table_of
from app.services.unit_names import display_names
from app.services.units import list_units
from rules.core.errors import RulesError
from rules.core.game import ancestor_at
from rules.flanders_fields import rehearsal as R
from rules.flanders_fields.game_table import stand_of, target_cover, terrain_index
from rules.flanders_fields.units import quality_of
from rules.table.frame import Side

RULESET = "flanders-fields"


def enemy_targets(game: Game, units: Sequence[Unit], side: str) -> list[R.TargetStand]:
    """The other side's living stands on the table, each with its company (or itself), the cover the
    terrain under its base gives it, and its markers now."""
    by_id: dict[int | None, Unit] = {u.id: u for u in units}
    terrain = terrain_index(game.terrain)
    names = display_names(units)  # "1/1/2 Coy Plt 3": every company has a "Platoon 3"
    out: list[R.TargetStand] = []
    for u in units:
        stand = stand_of(u)
        if u.side == side or stand is None:
            continue
        company = ancestor_at(u, "company", by_id)
        cover = target_cover(u, quality_of(u, by_id), terrain)
        out.append(
            R.TargetStand(
                id=str(u.id),
                name=names.get(u.id or 0, u.name),
                group=f"company-{company.id}" if company is not None else f"stand-{u.id}",
                stand=stand,
                cover=str(cover.value) if cover is not None else "open",
                is_command=u.is_command,
                armour=u.kind == "tank",
                markers=u.suppression,
            )
        )
    return out


def rehearse_plan(
    session: Session,
    game: Game,
    viewer: Viewer,
    side: str,
    turns: int | None,
    seed: int,
    samples: int,
    firers: Mapping[str, str],
    sos: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    """The side's own plan against the enemy's stands as they stand now. The caller has checked that the
    viewer plays this side or referees (the plan read here is the side's own)."""
    viewer.require_side(side, "rehearse the fire plan")
    if game.ruleset != RULESET:
        raise RulesError("game", f"fire-plan rehearsal is for {RULESET} games", [RULESET])
    table = table_of(game)
    items = [
        {"id": str(i.public_id), "kind": i.kind, "arrival_turn": i.arrival_turn, "data": i.data}
        for i in plan_items(session, game.id or 0, side)
    ]
    plan_side: Side = "attacker" if side == "attacker" else "defender"
    plan = R.plan_from_items(plan_side, items, table, firers, sos)
    units = list_units(session, game.id or 0)
    targets = enemy_targets(game, units, side)
    result = R.rehearse(
        plan, targets, table, game.period or "late", game.variants, turns=turns, seed=seed, samples=samples
    )
    body = result.as_dict()
    body["game"] = game.id
    body["stands"] = [
        {
            "stand": t.id,
            "name": t.name,
            "center": list(t.stand.center) if t.stand else None,
            "cover": t.cover,
            "markers_now": t.markers,
        }
        for t in targets
    ]
    body["assumptions"] = [
        "The enemy's stands stay where they stand now and spend no action on recovering.",
        "Batteries fire as field guns and mortars as medium mortars unless `firers` names another.",
        "No Deep Suppression is in force against the rehearsing side.",
        "Ranges are measured from the side's own rear edge: a mortar out of range from there does nothing.",
    ]
    return body
