"""A move across the table: its length as the rules measure it, the terrain it crosses, the wire belts,
streams and rivers, and the fire zones it enters.

"all other movement distances are measured from the farthest point of travel of any base" and "it is
considered to require 3cm to turn a stand through 180 degrees" (MANOEUVRING FIGURES). A base carried along
a path without turning moves every point the path's length; turning is charged separately.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely import LineString, Point, Polygon
from shapely.affinity import translate
from shapely.geometry.base import BaseGeometry

from rules.table.bases import Stand
from rules.table.coverage import AREA_EPS
from rules.table.frame import angle_diff
from rules.table.terrain import Feature, TerrainIndex

TURN_180_CM = 3.0
# Terrain classes of the movement table, the feature kinds that make them, strongest first: "Close
# Terrain (Woods, BuA, Marsh etc unless on road)".
TERRAIN_CLASSES: tuple[tuple[str, frozenset[str]], ...] = (
    ("road", frozenset({"road"})),
    ("trench", frozenset({"trench"})),
    ("close", frozenset({"woods", "village", "marsh"})),
    ("shattered", frozenset({"shattered"})),
    ("shell-torn", frozenset({"shell-torn"})),
)
WATER_KINDS = ("stream", "river")
# "Cavalry, horse drawn artillery and pack animals may not cross wire except by a cleared path"
# (EXTRA BARBED WIRE RULES); "A tank will crush a 3cm wide track in wire".
NO_WIRE_MOVERS = frozenset({"cavalry", "field-artillery", "mg-packed", "light-mortar-packed", "motor"})
WIRE_CRUSHERS = frozenset({"tank"})
# "any troops who move through an area which is already targeted AND which has received at least 1 round
# of artillery fire will be automatically attacked by the targeting unit but at a penalty of -1"
FIRE_ZONE_PENALTY = -1


@dataclass(frozen=True)
class FireZone:
    id: str
    area: Polygon
    fired: bool


@dataclass
class MoveGeometry:
    route: LineString
    path_cm: float
    turn_cm: float
    by_terrain: dict[str, float]
    start_terrain: str
    wire: list[tuple[str, int]] = field(default_factory=list)
    water: list[tuple[str, str, int]] = field(default_factory=list)
    zones_entered: list[str] = field(default_factory=list)
    swept: BaseGeometry = field(default_factory=Polygon)

    @property
    def length_cm(self) -> float:
        return self.path_cm + self.turn_cm


def route_of(stand: Stand, path: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    pts = [stand.center]
    for p in path:
        if p != pts[-1]:
            pts.append(p)
    return pts


def turn_cost(start_deg: float, end_deg: float | None, proportional: bool) -> float:
    if end_deg is None:
        return 0.0
    turned = abs(angle_diff(end_deg, start_deg))
    if turned <= 1e-9:
        return 0.0
    return TURN_180_CM * turned / 180.0 if proportional else TURN_180_CM


def swept_area(stand: Stand, pts: Sequence[tuple[float, float]]) -> BaseGeometry:
    """Everything the base passes over: for a convex base carried along a segment, the hull of its start
    and end positions. All positions and hulls in one vectorised pass."""
    base = stand.polygon()
    if len(pts) == 1:
        return base
    ring = shapely.get_coordinates(base)
    placed = ring[None, :, :] + (np.asarray(pts, dtype=float) - stand.center)[:, None, :]
    pairs = np.concatenate([placed[:-1], placed[1:]], axis=1)
    return shapely.union_all(shapely.convex_hull(shapely.multipoints(pairs)))


def _swept_area_naive(stand: Stand, pts: Sequence[tuple[float, float]]) -> BaseGeometry:
    base = stand.polygon()
    cx, cy = stand.center
    placed = [translate(base, x - cx, y - cy) for x, y in pts]
    if len(placed) == 1:
        return placed[0]
    return shapely.union_all([shapely.union(a, b).convex_hull for a, b in itertools.pairwise(placed)])


def zones_entered(swept: BaseGeometry, zones: Sequence[FireZone]) -> list[str]:
    """Fired zones whose interior the swept area meets: one vectorised test over all of them."""
    fired = [z for z in zones if z.fired]
    if not fired or swept.is_empty:
        return []
    areas = np.array([z.area for z in fired], dtype=object)
    hit = np.flatnonzero(shapely.intersects(swept, areas))
    overlap = shapely.area(shapely.intersection(swept, areas[hit]))
    return [fired[i].id for i, a in zip(hit.tolist(), overlap.tolist(), strict=True) if a > AREA_EPS]


def _pieces(geom: BaseGeometry) -> int:
    if geom.is_empty:
        return 0
    return len(getattr(geom, "geoms", [geom]))


def _route(pts: Sequence[tuple[float, float]]) -> LineString:
    return LineString(pts) if len(pts) > 1 else LineString([pts[0], pts[0]])


def _measure(
    stand: Stand,
    pts: Sequence[tuple[float, float]],
    route: LineString,
    near: Sequence[Feature],
    final_facing_deg: float | None,
    proportional_turn: bool,
    wire_belt_cm: float,
) -> MoveGeometry:
    """Everything about the route but the fire zones, given the features it meets."""
    remaining: BaseGeometry = route
    by_terrain: dict[str, float] = {}
    start_terrain = "cross-country"
    start = Point(pts[0])
    for cls, kinds in TERRAIN_CLASSES:
        geoms = [f.geometry for f in near if f.kind in kinds]
        if not geoms:
            continue
        area = shapely.union_all(geoms)
        if start_terrain == "cross-country" and area.covers(start):
            start_terrain = cls
        part = remaining.intersection(area).length
        if part > 1e-9:
            by_terrain[cls] = part
            remaining = remaining.difference(area)
    if remaining.length > 1e-9:
        by_terrain["cross-country"] = remaining.length
    out = MoveGeometry(
        route,
        route.length if len(pts) > 1 else 0.0,
        turn_cost(stand.facing_deg, final_facing_deg, proportional_turn),
        by_terrain,
        start_terrain,
    )
    crossed = [f for f in near if f.kind == "wire" or f.kind in WATER_KINDS]
    insides = shapely.intersection(route, np.array([f.geometry for f in crossed], dtype=object))
    for f, inside in zip(crossed, insides, strict=True):
        if f.kind == "wire" and inside.length > 1e-9:
            depth = f.properties.get("depth_cm")
            across = float(depth) if isinstance(depth, int | float) else inside.length
            # A crossing roll for every standard belt's depth of wire crossed.
            out.wire.append((f.id, max(1, math.ceil(across / wire_belt_cm - 1e-9))))
        elif f.kind in WATER_KINDS and not inside.is_empty:
            out.water.append((f.id, f.kind, _pieces(inside)))
    return out


def measure_move(
    stand: Stand,
    path: Sequence[tuple[float, float]],
    terrain: TerrainIndex,
    zones: Sequence[FireZone] = (),
    final_facing_deg: float | None = None,
    proportional_turn: bool = True,
    *,
    wire_belt_cm: float,
) -> MoveGeometry:
    """The move's geometry; `wire_belt_cm` is the rule set's standard belt (one crossing roll per belt)."""
    pts = route_of(stand, path)
    route = _route(pts)
    out = _measure(
        stand, pts, route, terrain.intersecting(route), final_facing_deg, proportional_turn, wire_belt_cm
    )
    out.swept = swept_area(stand, pts)
    out.zones_entered = zones_entered(out.swept, zones)
    return out


def measure_move_naive(
    stand: Stand,
    path: Sequence[tuple[float, float]],
    features: Sequence[Feature],
    zones: Sequence[FireZone] = (),
    final_facing_deg: float | None = None,
    proportional_turn: bool = True,
    *,
    wire_belt_cm: float,
) -> MoveGeometry:
    """The straightforward loop, no index: every feature tested against the route and every zone against
    the swept area, one at a time. The benchmark's baseline and a test oracle."""
    pts = route_of(stand, path)
    route = _route(pts)
    near = [f for f in features if route.intersects(f.geometry)]
    out = _measure(stand, pts, route, near, final_facing_deg, proportional_turn, wire_belt_cm)
    out.swept = _swept_area_naive(stand, pts)
    for z in zones:
        if z.fired and z.area.intersection(out.swept).area > AREA_EPS:
            out.zones_entered.append(z.id)
    return out


@dataclass
class MoveFit:
    fits: bool
    used: float
    allowances: dict[str, int | None]
    reasons: list[str]


def fit_move(
    geom: MoveGeometry,
    allowance: Callable[[str], int | None],
    mode: str,
    mover: str,
) -> MoveFit:
    """Whether the move fits one move's allowance. `mode` is the mixed-terrain reading: "proportional"
    (each stretch uses its share of its terrain's allowance) or "slowest"."""
    lengths = dict(geom.by_terrain)
    if geom.turn_cm:
        lengths[geom.start_terrain] = lengths.get(geom.start_terrain, 0.0) + geom.turn_cm
    allowances = {t: allowance(t) for t in lengths}
    for _fid, kind, _n in geom.water:
        allowances[kind] = allowance(kind)
    reasons = [f"{mover} may not pass {t}" for t, a in allowances.items() if a is None]
    if geom.wire and mover in NO_WIRE_MOVERS:
        reasons.append(f"{mover} may not cross wire except by a cleared path")
    rates = {t: a for t, a in allowances.items() if t in lengths and a}
    if mode == "slowest":
        slowest = min(rates.values(), default=0)
        total = sum(lengths.values())
        used = total / slowest if slowest else (0.0 if total <= 1e-9 else math.inf)
    else:
        used = sum(lengths[t] / a for t, a in rates.items())
    if any(t in lengths and a == 0 for t, a in allowances.items()):
        used = math.inf
    if used > 1 + 1e-9:
        reasons.append(f"the move needs {used:.2f} of the allowance")
    return MoveFit(not reasons, used, allowances, reasons)
