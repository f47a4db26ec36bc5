"""Machine gun fire: the fire lane, the first target and the beaten zone behind it.

The sizes (lane width, beaten zone depth by gun kind, how many stands it attacks, short range, a block
house's arc) come from the rule set as `MGSizes`: the geometry is the same for any rules that draw a lane
from the gun's face to its first target and a beaten zone beyond that target's rear edge. Each stand in the
beaten zone is attacked at -1 for the first, -2 for the second and so on.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely import Polygon
from shapely.geometry.base import BaseGeometry

from rules.core.errors import RulesError
from rules.table.bases import Stand
from rules.table.coverage import AREA_EPS, StandIndex
from rules.table.frame import angle_diff, strip, unit

GunKind = Literal["mg", "blockhouse"]


@dataclass(frozen=True)
class MGSizes:
    """What a rule set says of machine-gun fire on the table; the geometry copies none of it."""

    lane_width_cm: float
    beaten_zone_cm: Mapping[str, float]  # by gun kind: how far beyond the first target's rear edge
    beaten_zone_targets: int  # how many stands in the beaten zone are also attacked
    short_range_cm: float  # a first target nearer than this is at short range
    blockhouse_half_arc_deg: float  # each face of a block house fires this far either side


@dataclass(frozen=True)
class Gun:
    kind: GunKind
    center: tuple[float, float]
    facing_deg: float
    width_cm: float
    depth_cm: float
    side: str | None = None
    id: str | None = None

    def faces(self) -> list[tuple[str, float, float]]:
        """(name, outward normal, distance of the face from the centre) of each face that may fire: the
        front for an MG; front and sides for a block house ("45° to front and sides")."""
        front = ("front", self.facing_deg, self.depth_cm / 2)
        if self.kind == "mg":
            return [front]
        return [
            front,
            ("left", self.facing_deg + 90.0, self.width_cm / 2),
            ("right", self.facing_deg - 90.0, self.width_cm / 2),
        ]


@dataclass(frozen=True)
class ZoneHit:
    id: str
    distance_cm: float
    penalty: int


@dataclass
class MGFire:
    face: str
    origin: tuple[float, float]
    range_cm: float
    zone_cm: float
    lane: Polygon
    first_target: str | None = None
    first_distance_cm: float | None = None
    short_range: bool = False
    zone: Polygon = field(default_factory=Polygon)
    beaten_zone: list[ZoneHit] = field(default_factory=list)


def _along(geom: BaseGeometry, origin: tuple[float, float], angle: float) -> tuple[float, float]:
    """(nearest, farthest) extent of geom along the ray from origin."""
    xy = shapely.get_coordinates(geom)
    ux, uy = unit(angle)
    t = (xy[:, 0] - origin[0]) * ux + (xy[:, 1] - origin[1]) * uy
    return float(t.min()), float(t.max())


def _targets(index: StandIndex, area: Polygon, gun: Gun) -> NDArray[np.intp]:
    """Indices of the stands whose polygon meets `area` (one STRtree query), less the gun and its side."""
    idx = index.candidates(area)
    keep = index.ids[idx] != gun.id
    if gun.side is not None:
        keep &= index.sides[idx] != gun.side
    return idx[keep]


def _nearest_inside(
    local: NDArray[np.object_], start: float, end: float, lane_width_cm: float
) -> NDArray[np.float64]:
    """For polygons in the lane's frame: the distance along the lane to each one's nearest point inside the
    lane's stretch [start, end] (an axis-aligned box there), or inf when their interiors do not meet (a
    sliver under AREA_EPS is float noise along an edge, as for coverage). Only polygons whose bounds
    overlap the box are clipped."""
    half = lane_width_cm / 2
    near = np.full(len(local), np.inf)
    b = shapely.bounds(local)
    box = np.flatnonzero((b[:, 0] < end) & (b[:, 2] > start) & (b[:, 1] < half) & (b[:, 3] > -half))
    if len(box) == 0:
        return near
    clipped = shapely.clip_by_rect(local[box], start, -half, end, half)
    xy, which = shapely.get_coordinates(clipped, return_index=True)
    nearest = np.full(len(box), np.inf)
    np.minimum.at(nearest, which, xy[:, 0])
    nearest[shapely.area(clipped) <= AREA_EPS] = np.inf
    near[box] = np.maximum(nearest, 0.0)
    return near


def _ranked(near: NDArray[np.float64], idx: NDArray[np.intp]) -> list[tuple[float, int]]:
    """(distance, stand index) of the stands hit, nearest first (ties by input order)."""
    hit = np.isfinite(near)
    return sorted(zip(near[hit].tolist(), idx[hit].tolist(), strict=True))


def _to_lane(polys: NDArray[np.object_], origin: tuple[float, float], aim: float) -> NDArray[np.object_]:
    """Polygons in the lane's frame: origin at the lane's start, x along the aim."""
    ux, uy = unit(aim)

    def turn(xy: NDArray[np.float64]) -> NDArray[np.float64]:
        dx, dy = xy[:, 0] - origin[0], xy[:, 1] - origin[1]
        return np.column_stack([dx * ux + dy * uy, -dx * uy + dy * ux])

    return np.asarray(shapely.transform(polys, turn))


def _not_a_target(gun: Gun, s: Stand) -> bool:
    """The gun itself and its own side's stands are not targets."""
    return s.id == gun.id or (gun.side is not None and s.side == gun.side)


def choose_face(gun: Gun, aim_deg: float, half_arc_deg: float, sizes: MGSizes) -> tuple[str, float, float]:
    half = half_arc_deg if gun.kind == "mg" else sizes.blockhouse_half_arc_deg
    for name, normal, offset in gun.faces():
        if abs(angle_diff(aim_deg, normal)) <= half + 1e-9:
            return name, normal, offset
    faces = [f"{n}: {normal - half:g} to {normal + half:g}" for n, normal, _ in gun.faces()]
    raise RulesError("aim_deg", f"aim {aim_deg:g} is outside the gun's arc", faces)


def mg_fire(
    gun: Gun, aim_deg: float, index: StandIndex, range_cm: float, half_arc_deg: float, sizes: MGSizes
) -> MGFire:
    face, normal, offset = choose_face(gun, aim_deg, half_arc_deg, sizes)
    nx, ny = unit(normal)
    origin = (gun.center[0] + offset * nx, gun.center[1] + offset * ny)
    zone_cm = float(sizes.beaten_zone_cm[gun.kind])
    width = sizes.lane_width_cm
    lane = strip(origin, aim_deg, 0.0, range_cm, width)
    out = MGFire(face, origin, range_cm, zone_cm, lane)
    # One STRtree query serves the lane and the beaten zone: the first target's rear edge lies at most one
    # base extent past the lane's end, so its zone ends within this reach.
    reach = strip(origin, aim_deg, 0.0, range_cm + index.max_extent_cm + zone_cm, width)
    idx = _targets(index, reach, gun)
    if len(idx) == 0:
        return out
    local = _to_lane(index.polys[idx], origin, aim_deg)
    hits = _ranked(_nearest_inside(local, 0.0, range_cm, width), idx)
    if not hits:
        return out
    dist, first = hits[0]
    first_stand = index.stands[first]
    rear = float(shapely.bounds(local[idx == first][0])[2])  # farthest point along the lane
    out.first_target = first_stand.id
    out.first_distance_cm = dist
    out.short_range = dist < sizes.short_range_cm
    out.lane = strip(origin, aim_deg, 0.0, min(range_cm, rear), width)
    out.zone, out.beaten_zone = _zone(
        index, idx[idx != first], local[idx != first], origin, aim_deg, rear, sizes, zone_cm
    )
    return out


def _zone(
    index: StandIndex,
    idx: NDArray[np.intp],
    local: NDArray[np.object_],
    origin: tuple[float, float],
    aim_deg: float,
    rear: float,
    sizes: MGSizes,
    zone_cm: float,
) -> tuple[Polygon, list[ZoneHit]]:
    """The beaten zone from `rear` (along the lane) and the stands it attacks, nearest first: `idx` are the
    candidates (not the first target), `local` their polygons in the lane's frame."""
    width = sizes.lane_width_cm
    zone = strip(origin, aim_deg, rear, rear + zone_cm, width)
    hits = _ranked(_nearest_inside(local, rear, rear + zone_cm, width), idx)
    return zone, [
        ZoneHit(index.stands[i].id, d, -(n + 1)) for n, (d, i) in enumerate(hits[: sizes.beaten_zone_targets])
    ]


def beaten_zone(gun: Gun, target: Stand, index: StandIndex, sizes: MGSizes) -> tuple[Polygon, list[ZoneHit]]:
    """The beaten zone behind a chosen first target: the gun fires from the middle of its front at the
    target's centre, and the zone runs from the target's rear edge along that line ("the beaten zone extends
    for 15cm ... behind the rear edge of the first base attacked"). The gun, the target and the gun's own
    side are not attacked in it."""
    _name, normal, offset = gun.faces()[0]
    nx, ny = unit(normal)
    origin = (gun.center[0] + offset * nx, gun.center[1] + offset * ny)
    dx, dy = target.center[0] - origin[0], target.center[1] - origin[1]
    aim = math.degrees(math.atan2(dy, dx))
    rear = float(shapely.bounds(_to_lane(np.array([target.polygon()], dtype=object), origin, aim)[0])[2])
    zone_cm = float(sizes.beaten_zone_cm[gun.kind])
    reach = strip(origin, aim, 0.0, rear + zone_cm, sizes.lane_width_cm)
    idx = _targets(index, reach, gun)
    idx = idx[index.ids[idx] != target.id]
    return _zone(index, idx, _to_lane(index.polys[idx], origin, aim), origin, aim, rear, sizes, zone_cm)


def mg_fire_naive(
    gun: Gun, aim_deg: float, stands: list[Stand], range_cm: float, half_arc_deg: float, sizes: MGSizes
) -> tuple[str | None, list[str]]:
    """The straightforward loop, no index: for each stand, build its polygon and test it against the lane;
    then each against the beaten zone. The benchmark's baseline and a test oracle."""
    _face, normal, offset = choose_face(gun, aim_deg, half_arc_deg, sizes)
    nx, ny = unit(normal)
    origin = (gun.center[0] + offset * nx, gun.center[1] + offset * ny)
    lane = strip(origin, aim_deg, 0.0, range_cm, sizes.lane_width_cm)
    best: tuple[float, int] | None = None
    polys: list[Polygon] = []
    for i, s in enumerate(stands):
        p = s.polygon()
        polys.append(p)  # built once: the beaten-zone pass below reuses it
        if not _not_a_target(gun, s) and lane.intersects(p):
            inside = lane.intersection(p)
            if inside.area > AREA_EPS:
                d = max(_along(inside, origin, aim_deg)[0], 0.0)
                if best is None or (d, i) < best:
                    best = (d, i)
    if best is None:
        return None, []
    _, rear = _along(polys[best[1]], origin, aim_deg)
    zone = strip(origin, aim_deg, rear, rear + float(sizes.beaten_zone_cm[gun.kind]), sizes.lane_width_cm)
    found: list[tuple[float, int]] = []
    for i, (s, p) in enumerate(zip(stands, polys, strict=True)):
        if not _not_a_target(gun, s) and i != best[1] and zone.intersects(p):
            inside = zone.intersection(p)
            if inside.area > AREA_EPS:
                found.append((max(_along(inside, origin, aim_deg)[0], 0.0), i))
    found.sort()
    return stands[best[1]].id, [stands[i].id for _, i in found[: sizes.beaten_zone_targets]]
