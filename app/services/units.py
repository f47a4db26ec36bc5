"""A game's units: queries and writes, and the helpers that walk the force tree (ancestors, subtrees, the
unit a stand takes its orders from)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import update
from sqlmodel import Session, col, select

from app.errors import Conflict
from app.models import Unit
from rules.core.errors import NotFoundError, RulesError


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
def ancestors(unit: Unit, by_id: dict[int | None, Unit]) -> list[Unit]:
    out = []
    cur = by_id.get(unit.parent_id)
    while cur is not None:
        out.append(cur)
        cur = by_id.get(cur.parent_id)
    return out


def ancestor_at(unit: Unit, level: str, by_id: dict[int | None, Unit]) -> Unit | None:
    for a in [unit, *ancestors(unit, by_id)]:
        if a.level == level:
            return a
    return None


def leaves_under(root: Unit, units: Sequence[Unit]) -> list[Unit]:
    children: dict[int | None, list[Unit]] = {}
    for u in units:
        children.setdefault(u.parent_id, []).append(u)
    out: list[Unit] = []
    stack = [root]
    while stack:
        u = stack.pop()
        kids = children.get(u.id, [])
        if kids:
            stack.extend(kids)
        else:
            out.append(u)
    return sorted(out, key=lambda u: u.id or 0)


def subtree(root: Unit, units: Sequence[Unit]) -> list[Unit]:
    """The root and everything under it, in id order."""
    inside = {root.id}
    for u in sorted(units, key=lambda u: u.id or 0):  # parents are inserted before their children
        if u.parent_id in inside:
            inside.add(u.id)
    return [u for u in units if u.id in inside]


def quality_of(unit: Unit, by_id: dict[int | None, Unit]) -> str | None:
    for a in [unit, *ancestors(unit, by_id)]:
        if a.quality:
            return a.quality
    return None


def is_rifle_platoon(u: Unit) -> bool:
    return u.level == "platoon" and u.kind in RIFLE_KINDS


RIFLE_KINDS = ("rifle-platoon", "infantry")  # organisation tables name rifle platoons rifle-platoon


# Organisation kinds -> the order-roll resolver's unit ids; MGs and mortars by what they belong to.
ORDER_UNIT = {
    "rifle-company": "rifle-company",
    "field-battery": "regimental-artillery",
    "howitzer-battery": "regimental-artillery",
    "heavy-battery": "regimental-artillery",
    "tank": "tank",
    "tank-company": "tank",
}


MG_KINDS = ("mmg", "mmg-company", "mmg-section")


MORTAR_KINDS = ("light-mortar", "medium-mortar", "heavy-mortar", "light-mortar-battery")


def order_unit(unit: Unit, by_id: dict[int | None, Unit]) -> str | None:
    if unit.kind in ORDER_UNIT:
        return ORDER_UNIT[unit.kind]
    in_battalion = ancestor_at(unit, "battalion", by_id) is not None
    if unit.kind in MG_KINDS:
        return "battalion-mg" if in_battalion else "regimental-mg"
    if unit.kind in MORTAR_KINDS:
        return "battalion-mortar" if in_battalion else "regimental-mortar"
    return None
