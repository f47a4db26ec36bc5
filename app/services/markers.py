"""Markers on units: suppression and recovering from it, killing a stand, the morale flags raised by
losses, and gas markers."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlmodel import Session

from app.errors import Conflict
from app.models import Game, Unit
from app.services.table import in_gas, stand_of
from app.services.units import (
    ancestor_at,
    ancestors,
    increment,
    is_rifle_platoon,
    leaves_under,
    list_units,
    unit_dict,
    update_unit,
)
from rules.core.errors import RulesError
from rules.flanders_fields.suppression import UNIT_LEVELS, is_killed, spreads_to_company


def suppression_level(u: Unit) -> str:
    """The unit level the suppression rules know a stand by (command stands by their kind)."""
    return u.kind if u.kind in UNIT_LEVELS else "company" if u.level == "company" else "platoon"


# -- markers ------------------------------------------------------------------------------------------------
def add_suppression(
    session: Session, game: Game, target: Unit, fire: str | None, count: int = 1
) -> list[dict[str, Any]]:
    """Suppress a stand: MG, mortar and artillery fire suppresses its whole company; a third marker kills."""
    if target.killed:
        raise RulesError("unit_id", f"unit {target.id} is already destroyed")
    units = list_units(session, game.id or 0)
    by_id: dict[int | None, Unit] = {u.id: u for u in units}
    hit = [target]
    company = ancestor_at(target, "company", by_id) if fire and spreads_to_company(fire) else None
    if company is not None and company is not target:
        hit = [u for u in leaves_under(company, units) if not u.killed]
    changes: list[dict[str, Any]] = []
    for u in hit:
        change = increment(session, u, "suppression", count)
        assert change is not None
        changes.append(change)
        if is_killed(u.suppression) and not u.killed:
            changes += update_unit(session, u, killed=True)
    return changes + morale_flags(session, game, [u for u in hit if u.killed])


def recover(session: Session, unit: Unit, spend_action: bool) -> list[dict[str, Any]]:
    """ "The only method of recovering from Battle Suppression is by the use of an Action": the action comes
    from the stand itself or the nearest unit above it that was ordered (a company's actions)."""
    if unit.killed:
        raise RulesError("unit_id", f"unit {unit.id} is destroyed")
    if unit.suppression < 1:
        raise RulesError("delta", f"unit {unit.id} has no suppression marker to remove")
    changes: list[dict[str, Any]] = []
    if spend_action:
        by_id: dict[int | None, Unit] = {u.id: u for u in list_units(session, unit.game_id)}
        payer = next((a for a in [unit, *ancestors(unit, by_id)] if a.actions_left > 0), None)
        if payer is None:
            raise RulesError(
                "spend_action",
                f"no action left for unit {unit.id} or the units above it: roll its order first",
            )
        spent = increment(session, payer, "actions_left", -1)
        if spent is None:
            raise Conflict("the action was spent meanwhile", current=unit_dict(payer))
        changes.append(spent)
    dropped = increment(session, unit, "suppression", -1)
    if dropped is None:
        raise Conflict("the marker was removed meanwhile", current=unit_dict(unit))
    return [*changes, dropped]


def morale_flags(session: Session, game: Game, newly_lost: Iterable[Unit]) -> list[dict[str, Any]]:
    """Flag a battalion's morale test at 50% and again at 75% of its rifle platoons lost
    ("If a battalion's RIFLE PLATOONS are reduced to 50% it must roll morale. Roll again at -2 when rifle
    company casualties reach 75%.")."""
    units = list_units(session, game.id or 0)
    by_id: dict[int | None, Unit] = {u.id: u for u in units}
    changes: list[dict[str, Any]] = []
    seen: set[int] = set()
    for lost in newly_lost:
        bn = ancestor_at(lost, "battalion", by_id)
        if bn is None or bn.id in seen or bn.morale_due:
            continue
        seen.add(bn.id or 0)
        start, gone = rifle_losses(bn, units)
        if start and (
            (bn.morale_stage == 0 and 2 * gone >= start) or (bn.morale_stage <= 1 and 4 * gone >= 3 * start)
        ):
            changes += update_unit(session, bn, morale_due=True)
    return changes


def rifle_losses(bn: Unit, units: Sequence[Unit]) -> tuple[int, int]:
    rifles = [u for u in leaves_under(bn, units) if is_rifle_platoon(u)]
    return len(rifles), sum(1 for u in rifles if u.killed)


def kill(session: Session, game: Game, unit: Unit) -> list[dict[str, Any]]:
    if unit.killed:
        return []
    return update_unit(session, unit, killed=True) + morale_flags(session, game, [unit])


def gas_markers(
    session: Session, clouds: Sequence[dict[str, Any]], units: Sequence[Unit]
) -> list[dict[str, Any]]:
    covered = in_gas(clouds, units)
    changes: list[dict[str, Any]] = []
    for u in units:
        if stand_of(u) is not None and u.in_gas != (u.id in covered):
            changes += update_unit(session, u, in_gas=u.id in covered)
    return changes
