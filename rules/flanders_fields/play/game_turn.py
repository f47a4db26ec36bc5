"""Flanders Fields' turn as a game plays it: what asking a resolver costs or needs now (the one heroic action
of a game, the gas-wind roll once a turn)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.errors import RulesError
from rules.core.records import Change, SetSideState, Snapshot
from rules.flanders_fields.play.units import SRC_ORDERED_UNITS, order_unit, ordered_unit
from rules.flanders_fields.resolvers.heroic import SRC_HEROIC

HEROIC_KEY = "heroic-action"  # the side state that counts a side's heroic actions left


def wind_due(board: Mapping[str, Any], turn: int, side_to_move: str) -> bool:
    """ "after initial deployment the controlling player states his preferred wind direction ... At the
    start of every turn thereafter the attacking player rolls a D6": once a game turn, in the attacker's
    gas step, and at once for the first cloud."""
    if not board.get("clouds") or board.get("wind_turn") == turn:
        return False
    return board.get("wind") is None or side_to_move == "attacker"


def heroic_action_spent(snap: Snapshot, unit_id: int | None) -> tuple[Change, ...]:
    """ "Once per game each player may elect to attempt a Heroic Action" (HEROIC ACTIONS)."""
    if unit_id is None:
        raise RulesError(
            "unit_id", "a heroic action is carried out by a single platoon stand: name it", source=SRC_HEROIC
        )
    side = snap.unit(unit_id).side
    left = int(snap.sides.get(side, {}).get(HEROIC_KEY, 0))
    if left < 1:
        raise RulesError(
            "resolver", f"the {side} player has had the one heroic action of the game", source=SRC_HEROIC
        )
    return (SetSideState(f"the {side}'s heroic action of the game", SRC_HEROIC, side, HEROIC_KEY, left - 1),)


def own_table(snap: Snapshot, unit_id: int, given: object) -> None:
    """Refuse an order roll for a unit ordered with another (a platoon: its company's) or on another table
    than its own ("Battalion Rifle Companies", "Individual Battalion MGs" ...)."""
    unit = snap.unit(unit_id)
    by_id = snap.by_id
    own = order_unit(unit, by_id, snap.variants)
    if own is None:
        rolls = ordered_unit(unit, by_id, snap.variants)
        if rolls is not None:
            told = f"{unit.name} takes the order roll of {rolls.name}: roll it for that unit"
        elif any(u.parent_id == unit.id for u in snap.units):
            told = f"{unit.name} is not ordered as a whole: roll for each unit under it"
        else:
            told = f"{unit.name} is not ordered: no order table names a {unit.kind}"
        raise RulesError("unit_id", told, source=SRC_ORDERED_UNITS)
    if given is not None and given != own:
        raise RulesError(
            "fields.unit", f"{unit.name} is ordered on the {own} table", [own], SRC_ORDERED_UNITS
        )
