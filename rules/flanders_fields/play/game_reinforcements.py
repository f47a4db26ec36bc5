"""Reinforcements a scenario starts off the table, diced for at the start of their side's turn from the turn it
names (Mons: "Reinforcements arrive on the table at the start of turn two if a 6 is rolled on a die, on the
next turn the roll is reduced to a 5, then a 4 etc. until they arrive"): when the roll is due, what the roll is
filled with, and what it does (once a turn; on arrival the formation and everything under it come on the
table, for their player to place)."""

from __future__ import annotations

from rules.core.errors import RulesError
from rules.core.game import ancestors
from rules.core.records import Change, Snapshot, UnitState
from rules.flanders_fields.errata import REINFORCEMENT_ROLL_PER
from rules.flanders_fields.play.changes import CameOnTable, ReinforcementsDiced
from rules.flanders_fields.resolvers.reinforcements import SRC_REINFORCEMENTS, needed
from rules.flanders_fields.ruleset import FlandersFields

FROM = "reinforcement_turn"
DICED = "reinforcement_diced"


def turns_diced(snap: Snapshot, unit: UnitState) -> int:
    """The turns the formation has been diced for, this one included."""
    return snap.turn - int(unit.state.get(FROM, 0)) + 1


def due(snap: Snapshot) -> list[UnitState]:
    """The side to move's reinforcements still to dice for this turn."""
    return [
        u
        for u in snap.units
        if u.side == snap.side_to_move
        and u.off_table
        and 0 < int(u.state.get(FROM, 0)) <= snap.turn
        and int(u.state.get(DICED, 0)) != snap.turn
    ]


def needs(snap: Snapshot) -> list[str]:
    return [
        f"roll reinforcements for {u.name}: they arrive on a {needed(turns_diced(snap, u))}"
        + ("" if needed(turns_diced(snap, u)) == 1 else " or more")
        for u in due(snap)
    ]


def refused(snap: Snapshot, unit_id: int | None, apply: bool) -> None:
    """A reinforcement roll the table does not have now, refused with the rule."""
    if unit_id is None:
        raise RulesError(
            "unit_id", "name the formation the reinforcement roll is for", source=SRC_REINFORCEMENTS
        )
    unit = snap.unit(unit_id)
    first = int(unit.state.get(FROM, 0))
    if not first or not unit.off_table:
        raise RulesError(
            "unit_id", f"{unit.name} is not a reinforcement waiting off the table", source=SRC_REINFORCEMENTS
        )
    if unit.side != snap.side_to_move or snap.turn < first:
        raise RulesError(
            "unit_id",
            f"{unit.name} is diced for at the start of the {unit.side}'s turn, from turn {first}",
            source=SRC_REINFORCEMENTS,
        )
    if apply and int(unit.state.get(DICED, 0)) == snap.turn:
        raise RulesError(
            "unit_id",
            f"{unit.name} has been diced for this turn: dice again next turn",
            source=SRC_REINFORCEMENTS,
        )


def arrived(snap: Snapshot, unit: UnitState, outcome_key: str) -> tuple[Change, ...]:
    """Diced for this turn; on arrival the formation and every unit under it come on the table. Under the
    reading that one die serves a side (erratum reinforcement-roll-per: side) the roll is every formation's
    of the side due now."""
    one_die = FlandersFields().context(snap.period, snap.variants).value(REINFORCEMENT_ROLL_PER) == "side"
    formations = [u for u in due(snap) if u.side == unit.side] if one_die else [unit]
    by_id = snap.by_id
    changes: list[Change] = []
    for f in formations:
        diced = f"{f.name} diced for on turn {snap.turn}"
        changes.append(ReinforcementsDiced(diced, SRC_REINFORCEMENTS, f.id or 0, snap.turn))
        if outcome_key == "arrive":
            changes += [
                CameOnTable(f"{f.name} arrives as reinforcements", SRC_REINFORCEMENTS, u.id or 0)
                for u in snap.units
                if u.off_table and (u is f or f in ancestors(u, by_id))
            ]
    return tuple(changes)
