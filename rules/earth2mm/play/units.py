"""What a 2mm Earth 1418 unit is in a game: a strategic formation (SF), a sub-unit (a company) or a base (a
platoon), and which planning and executing steps name a sub-unit (PLANNING & EXECUTING), read from its kind,
its SF's quality and its state."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from rules.core.game import ancestor_at
from rules.core.records import Snapshot, UnitState
from rules.core.ruleset import Context
from rules.earth2mm.data import UNITS
from rules.earth2mm.ruleset import Earth2mm

# The force tree (the contract's names): an SF is a company's parent, a sub-unit a company, a base a platoon.
LEVELS = ("regiment", "battalion", "company", "platoon")
SUB_UNIT = "company"
BASE = "platoon"
FORMATION_KIND = "formation"
QUALITIES = ("reserve", "line", "elite")

# The planning step a sub-unit plans in (PLANNING (1)-(6)), by what it is.
Planning = Literal["naval-railway", "artillery", "reserve", "line", "heavy-weapons", "elite"]
PLANNING: tuple[Planning, ...] = ("naval-railway", "artillery", "reserve", "line", "heavy-weapons", "elite")
# Chart kinds of infantry that name their own quality (a sub-unit of an SF without one), and the quality of any
# other such sub-unit: "Line/good inf", the chart's ordinary troops (erratum sf-quality).
QUALITY_OF_KIND = {"reserve-inf": "reserve", "line-inf": "line", "elite-inf": "elite"}
ORDINARY_QUALITY = "line"


def context(snap: Snapshot) -> Context:
    """The rule set's context of a game: the errata readings it chose."""
    return Earth2mm().context(None, snap.variants)


def kind_class(kind: str) -> str:
    """The chart's class of a kind (infantry, cavalry, heavy-weapon, vehicle, artillery, command), "" for any
    other (a formation)."""
    unit = UNITS.get(kind)
    return unit.kind if unit is not None else ""


def is_artillery(kind: str) -> bool:
    return kind_class(kind) == "artillery"


def is_heavy_weapon(kind: str) -> bool:
    """ "Heavy Weapons ... means any Heavy Machine Guns, Mortars, Trench Guns and also Command bases"."""
    return kind_class(kind) in ("heavy-weapon", "command")


def is_vehicle(kind: str) -> bool:
    return kind_class(kind) == "vehicle"


def is_infantry(kind: str) -> bool:
    """The executing list's "infantry": every sub-unit that is neither artillery nor a heavy weapon (cavalry
    and tanks "work as normal infantry": erratum executing-infantry)."""
    return kind_class(kind) in ("infantry", "cavalry", "vehicle")


def formation_of(unit: UnitState, by_id: Mapping[int | None, UnitState]) -> UnitState | None:
    """A sub-unit's strategic formation: its parent (a battalion, or a regiment a scenario makes its SF)."""
    company = ancestor_at(unit, SUB_UNIT, by_id)
    return by_id.get(company.parent_id) if company is not None else None


def sub_unit_of(unit: UnitState, by_id: Mapping[int | None, UnitState]) -> UnitState | None:
    """The sub-unit a base (or the sub-unit itself) belongs to."""
    return ancestor_at(unit, SUB_UNIT, by_id)


def bases_of(company: UnitState, snap: Snapshot) -> list[UnitState]:
    """A sub-unit's bases still on the table, in id order."""
    return sorted((u for u in snap.children.get(company.id, ()) if not u.killed), key=lambda u: u.id)


def quality_of(company: UnitState, by_id: Mapping[int | None, UnitState]) -> str:
    """The SF quality a sub-unit plans and resists by: its SF's, else its own chart kind's, else line
    (erratum sf-quality)."""
    sf = formation_of(company, by_id)
    if sf is not None and sf.quality in QUALITIES:
        return sf.quality
    return QUALITY_OF_KIND.get(company.kind, ORDINARY_QUALITY)


def planning_of(company: UnitState, by_id: Mapping[int | None, UnitState], ctx: Context) -> Planning:
    """The planning step a sub-unit plans in: naval and railway artillery, other artillery, heavy weapons,
    else its SF's quality (PLANNING (1)-(6))."""
    if company.kind in ctx.value("naval-railway"):
        return "naval-railway"
    if is_artillery(company.kind):
        return "artillery"
    if is_heavy_weapon(company.kind):
        return "heavy-weapons"
    return quality_of(company, by_id)  # type: ignore[return-value]
