"""The other stands a shot from the table attacks, found on the table: every stand fully or partly under a
battery's 10 cm square or a mortar's area ("Any infantry platoon or support weapon which falls fully with the
area of effect are attacked at full effect, if the platoon or weapon falls only partially within the area of
effect it is attacked at -2", ARTILLERY BATTERIES AREA OF EFFECT; MORTAR AREA OF EFFECT), and up to three
stands in a direct-fire MG's beaten zone ("Up to three targets in the beaten zone are also attacked but at -1
on the die roll for the first target, -2 for the second etc.", MACHINEGUN BEATEN ZONE). Each is one entry of
the shot's `also`, rolled on a die of its own in the same roll."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict, Unpack

from rules.core.errors import RulesError
from rules.core.records import Snapshot, UnitState
from rules.flanders_fields.book import tables as T
from rules.flanders_fields.book.table_sizes import BASES, TEMPLATES
from rules.flanders_fields.errata import ROAD_MARCH_COVER
from rules.flanders_fields.play.game_table import context, target_cover, terrain_index
from rules.flanders_fields.play.table_rules import MG_SIZES
from rules.flanders_fields.play.units import quality_of
from rules.flanders_fields.resolvers.shooting import AREA_FIRERS, SRC_BEATEN_ZONE
from rules.table.coverage import classify
from rules.table.frame import AHEAD_DEG, Table
from rules.table.mgfire import Gun, GunKind, beaten_zone
from rules.table.placed import index_of, stand_of
from rules.table.templates import Template


class AttackedWhere(TypedDict, total=False):
    """Where a stand is under the area: partly under a template, or its place in a beaten zone."""

    partial_template: bool
    beaten_zone_index: int


class Attacked(AttackedWhere):
    """A stand the shot also attacks, as the request's `also` entry: what differs from the first target (its
    cover, command and deep shelter), and where it is under the area."""

    name: str
    unit_id: int
    target_is_command: bool
    target_in_deep_shelter: bool
    target: NotRequired[str]
    cover: NotRequired[str]


@dataclass(frozen=True)
class Area:
    """What one shot attacks besides its target: `also` (the request's entries, in the order rolled), whether
    the target itself is only partly under the area (None: no area), why and by which rule."""

    also: tuple[Attacked, ...]
    target_partial: bool | None
    why: str
    source: str


def shot_area(
    snap: Snapshot, firer: UnitState, target: UnitState, fires_as: str, indirect: bool
) -> Area | None:
    """The rest of the shot's area or beaten zone, for a firer and a target on the table (None otherwise)."""
    if fires_as in AREA_FIRERS:
        return _template_area(snap, firer, target, fires_as)
    if fires_as in T.MG_FIRERS and not indirect:
        return _beaten_zone(snap, firer, target, fires_as)
    return None


def _attacked(snap: Snapshot, u: UnitState, **fields: Unpack[AttackedWhere]) -> Attacked:
    """A stand's entry: what differs from the first target (its cover, command and deep shelter), named as
    the table names it."""
    entry: Attacked = {
        "name": u.name,
        "unit_id": u.id,
        "target_is_command": u.is_command,
        "target_in_deep_shelter": u.deep_shelter,
        **fields,
    }
    road = bool(context(snap).value(ROAD_MARCH_COVER))
    cover = target_cover(u, quality_of(u, snap.by_id), terrain_index(snap.terrain), road)
    if u.kind == "tank":
        entry["target"] = "armour"
        entry["cover"] = "open" if cover is None or cover.value == "open" else "cover"
    elif cover is not None:
        entry["cover"] = cover.value
    return entry


def _template_area(snap: Snapshot, firer: UnitState, target: UnitState, fires_as: str) -> Area | None:
    """A battery's 10 cm square on its aiming point (on the target when it has none: "Each type of fire is
    centred on a specific point ... called the Aiming Point"); a mortar's square "centred on a single platoon
    base or model", the target's."""
    aimed = stand_of(target, BASES)
    if aimed is None:
        return None
    battery = fires_as in T.ARTILLERY_FIRERS
    point = firer.state.get("aiming_point") if battery else None
    centre = (float(point[0]), float(point[1])) if point else aimed.center
    spec = TEMPLATES["artillery" if battery else fires_as]
    polygon = Template(
        spec, centre, AHEAD_DEG["attacker" if firer.side == "attacker" else "defender"]
    ).polygon(Table(snap.table_width_cm, snap.table_length_cm))
    cov = classify(polygon, index_of(snap.units, BASES), 0.0)
    under = {**{i: True for i in cov.partial}, **{i: False for i in cov.full}}
    under.pop(str(firer.id), None)
    if str(target.id) not in under:
        raise RulesError(
            "target_id",
            f"{target.name} is not under {firer.name}'s square at its aiming point: shoot at a stand under it",
            sorted(int(i) for i in under),
            spec.source,
        )
    also = tuple(
        _attacked(snap, snap.unit(int(i)), partial_template=partial)
        for i, partial in sorted(under.items(), key=lambda kv: int(kv[0]))
        if i != str(target.id)
    )
    where = f"{firer.name}'s aiming point" if point else target.name
    square = f"{spec.width_cm:g} cm square"
    why = f"{len(also)} other stand{'s' if len(also) != 1 else ''} under the {square} on {where}"
    return Area(also, under[str(target.id)], why, spec.source)


def _beaten_zone(snap: Snapshot, firer: UnitState, target: UnitState, fires_as: str) -> Area | None:
    gun_stand, aimed = stand_of(firer, BASES), stand_of(target, BASES)
    if gun_stand is None or aimed is None:
        return None
    kind: GunKind = "blockhouse" if fires_as == "blockhouse" else "mg"
    spec = gun_stand.spec
    gun = Gun(
        kind, gun_stand.center, gun_stand.facing_deg, spec.width_cm, spec.depth_cm, firer.side, str(firer.id)
    )
    _zone, hits = beaten_zone(gun, aimed, index_of(snap.units, BASES), MG_SIZES)
    also = tuple(_attacked(snap, snap.unit(int(h.id)), beaten_zone_index=n + 1) for n, h in enumerate(hits))
    zone_cm = T.BEATEN_ZONE_CM[kind]
    why = f"{len(also)} stand{'s' if len(also) != 1 else ''} in the {zone_cm} cm beaten zone behind {target.name}"
    return Area(also, None, why, SRC_BEATEN_ZONE)


def given_area(given: Mapping[str, Any]) -> None:
    """Inside a game the table finds the stands a shot also attacks: a request naming them is refused."""
    if given.get("also"):
        raise RulesError("fields.also", "inside a game the table finds the stands a shot also attacks", [])
