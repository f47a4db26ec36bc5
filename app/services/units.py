"""A game's units: queries and writes, a row as the rules read it, and walking the force tree."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import update
from sqlmodel import Session, col, select

from app.errors import Conflict
from app.models import Unit
from rules.core.errors import NotFoundError, RulesError
from rules.core.game import UnitState
from rules.core.game import ancestor_at as ancestor_at
from rules.core.game import ancestors as ancestors
from rules.core.game import leaves_under as leaves_under


# -- units -----------------------------------------------------------------------------------------------
def list_units(session: Session, game_id: int) -> list[Unit]:
    return list(
        session.exec(
            select(Unit)
            .where(Unit.game_id == game_id)
            .order_by(col(Unit.id))
            .execution_options(populate_existing=True)
        )
    )


def get_unit(session: Session, game_id: int, unit_id: int, field: str | None = None) -> Unit:
    """A unit of this game. With `field`, a unit named in a request body: unknown is a 422 naming it."""
    unit = session.exec(
        select(Unit)
        .where(Unit.id == unit_id, Unit.game_id == game_id)
        .execution_options(populate_existing=True)
    ).first()
    if unit is None:
        if field:
            raise RulesError(field, f"game {game_id} has no unit {unit_id}")
        raise NotFoundError("unit", str(unit_id))
    return unit


def add_unit_tree(
    session: Session,
    game_id: int,
    side: str,
    node: Any,
    placements: Mapping[str, Mapping[str, Any]],
    parent_id: int | None = None,
    off_table: Iterable[str] = (),
    off_parent: bool = False,
) -> Unit:
    """Insert a rules.flanders_fields.organisation.Unit tree (id, name, level, kind, base, quality, models,
    children, source); `placements` maps stand ids to {center, facing_deg}; units named in `off_table`
    (reinforcements, off-table batteries) and everything under them start off the table."""
    off = set(off_table)
    place = placements.get(node.id)
    row = Unit(
        game_id=game_id,
        parent_id=parent_id,
        side=side,
        ref=node.id,
        name=node.name,
        level=node.level,
        kind=node.kind,
        base=node.base,
        quality=node.quality,
        models=node.models,
        is_command=node.kind.endswith("-command"),
        off_table=off_parent or node.id in off,
        x=float(place["center"][0]) if place else None,
        y=float(place["center"][1]) if place else None,
        facing_deg=float(place.get("facing_deg", 90.0)) if place else None,
        source=node.source,
    )
    session.add(row)
    session.flush()
    assert row.id is not None
    for child in node.children:
        add_unit_tree(session, game_id, side, child, placements, row.id, off, row.off_table)
    return row


def update_unit(
    session: Session, unit: Unit, expected_version: int | None = None, **values: Any
) -> list[dict]:
    """Set fields on a unit, bumping its version; returns the changes as {unit, field, before, after}.
    With `expected_version` the write only lands on that version: else 409 with the current unit."""
    assert unit.id is not None
    changes = [
        {"unit": unit.id, "field": k, "before": getattr(unit, k), "after": v}
        for k, v in values.items()
        if getattr(unit, k) != v
    ]
    stmt = update(Unit).where(col(Unit.id) == unit.id)
    if expected_version is not None:
        stmt = stmt.where(col(Unit.version) == expected_version)
    result = session.execute(stmt.values(version=Unit.version + 1, **values))
    if result.rowcount == 0:  # type: ignore[attr-defined]
        session.refresh(unit)
        raise Conflict(f"unit version is {unit.version}, not {expected_version}", current=unit_dict(unit))
    session.refresh(unit)
    return changes


def increment(session: Session, unit: Unit, field: str, delta: int, floor: int = 0) -> dict[str, Any] | None:
    """An atomic `field = field + delta` (never below `floor`): two devices adding a marker at once make two.
    Returns the change, or None when it would go below the floor."""
    assert unit.id is not None
    column = getattr(Unit, field)
    stmt = update(Unit).where(col(Unit.id) == unit.id)
    if delta < 0:
        stmt = stmt.where(column + delta >= floor)
    result = session.execute(stmt.values({field: column + delta, "version": Unit.version + 1}))
    if result.rowcount == 0:  # type: ignore[attr-defined]
        return None
    session.refresh(unit)
    return {"unit": unit.id, "field": field, "delta": delta, "after": getattr(unit, field)}


def unit_dict(unit: Unit) -> dict[str, Any]:
    return unit.model_dump(mode="json")


# -- the force tree ---------------------------------------------------------------------------------------
# Walking the tree (ancestors, ancestor_at, leaves_under) is rules.core.game's: it reads the rows as they are.
def subtree(root: Unit, units: Sequence[Unit]) -> list[Unit]:
    """The root and everything under it, in id order."""
    inside = {root.id}
    for u in sorted(units, key=lambda u: u.id or 0):  # parents are inserted before their children
        if u.parent_id in inside:
            inside.add(u.id)
    return [u for u in units if u.id in inside]


def unit_state(u: Unit) -> UnitState:
    """A unit row as the rules read it (rules.core.game)."""
    assert u.id is not None
    return UnitState(
        id=u.id,
        parent_id=u.parent_id,
        side=u.side,
        level=u.level,
        kind=u.kind,
        name=u.name,
        quality=u.quality,
        base=u.base,
        is_command=u.is_command,
        off_table=u.off_table,
        x=u.x,
        y=u.y,
        facing_deg=u.facing_deg,
        suppression=u.suppression,
        killed=u.killed,
        stuck_on_wire=u.stuck_on_wire,
        raw_under_fire=u.raw_under_fire,
        field_promotion=u.field_promotion,
        in_gas=u.in_gas,
        crew_abandoned=u.crew_abandoned,
        actions_left=u.actions_left,
        morale_stage=u.morale_stage,
        morale_due=u.morale_due,
    )
