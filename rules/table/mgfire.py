"""Machine gun fire: the 2 cm fire lane, the first target and the beaten zone behind it.

"MACHINE GUNS 45° Arc, fire zone is 2cm wide, up to 3 targets in beaten zone may be hit" (ARCS OF FIRE);
"the beaten zone extends for 15cm (10cm for block houses) behind the rear edge of the first base attacked.
Up to three targets in the beaten zone are also attacked but at -1 on the die roll for the first target,
-2 for the second etc." (MACHINEGUN BEATEN ZONE); "Short Range MGs (Under 10cm first target only) +2"
(DIRECT FIRE MODIFIERS).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely import Polygon
from shapely.geometry.base import BaseGeometry

from rules.core.errors import RulesError
from rules.table.bases import Stand
from rules.table.coverage import StandIndex
from rules.table.frame import angle_diff, strip, unit

GunKind = Literal["mg", "blockhouse"]
LANE_WIDTH_CM = 2.0
MG_RANGE_CM = 70.0  # "Machine Guns 70cm (Beaten Zone 15cm)" (WEAPON RANGES)
BEATEN_ZONE_CM: dict[str, float] = {"mg": 15.0, "blockhouse": 10.0}
MAX_BEATEN_TARGETS = 3
SHORT_RANGE_CM = 10.0
BLOCKHOUSE_HALF_ARC_DEG = 45.0  # "an arc of fire of 45 degrees from each face calculated at the corners"


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


def _hits(
    index: StandIndex, area: Polygon, origin: tuple[float, float], aim: float, gun: Gun, skip: str = ""
) -> list[tuple[float, int]]:
    """(distance along the lane to the stand's nearest point inside `area`, index), nearest first. The
    candidates are turned into the lane's own frame, where `area` is an axis-aligned box to clip by."""
    keep = [
        int(i)
        for i in index.overlapping(area)
        if index.ids[i] != skip and not _not_a_target(gun, index.stands[i])
    ]
    if not keep:
        return []
    local = _to_lane(index.polys[keep], origin, aim)
    start, end = _along(area, origin, aim)
    clipped = shapely.clip_by_rect(local, start, -LANE_WIDTH_CM / 2, end, LANE_WIDTH_CM / 2)
    xy, which = shapely.get_coordinates(clipped, return_index=True)
    near = np.full(len(keep), np.inf)
    np.minimum.at(near, which, xy[:, 0])
    return sorted((max(float(d), 0.0), i) for d, i in zip(near, keep, strict=True) if np.isfinite(d))


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


def choose_face(gun: Gun, aim_deg: float, half_arc_deg: float) -> tuple[str, float, float]:
    half = half_arc_deg if gun.kind == "mg" else BLOCKHOUSE_HALF_ARC_DEG
    for name, normal, offset in gun.faces():
        if abs(angle_diff(aim_deg, normal)) <= half + 1e-9:
            return name, normal, offset
    faces = [f"{n}: {normal - half:g} to {normal + half:g}" for n, normal, _ in gun.faces()]
    raise RulesError("aim_deg", f"aim {aim_deg:g} is outside the gun's arc", faces)


def mg_fire(gun: Gun, aim_deg: float, index: StandIndex, range_cm: float, half_arc_deg: float) -> MGFire:
    face, normal, offset = choose_face(gun, aim_deg, half_arc_deg)
    nx, ny = unit(normal)
    origin = (gun.center[0] + offset * nx, gun.center[1] + offset * ny)
    zone_cm = BEATEN_ZONE_CM[gun.kind]
    lane = strip(origin, aim_deg, 0.0, range_cm, LANE_WIDTH_CM)
    out = MGFire(face, origin, range_cm, zone_cm, lane)
    hits = _hits(index, lane, origin, aim_deg, gun)
    if not hits:
        return out
    dist, first = hits[0]
    first_stand = index.stands[first]
    _, rear = _along(index.polys[first], origin, aim_deg)
    out.first_target = first_stand.id
    out.first_distance_cm = dist
    out.short_range = dist < SHORT_RANGE_CM
    out.lane = strip(origin, aim_deg, 0.0, min(range_cm, rear), LANE_WIDTH_CM)
    out.zone = strip(origin, aim_deg, rear, rear + zone_cm, LANE_WIDTH_CM)
    zone_hits = _hits(index, out.zone, origin, aim_deg, gun, first_stand.id)
    out.beaten_zone = [
        ZoneHit(index.stands[i].id, d, -(n + 1)) for n, (d, i) in enumerate(zone_hits[:MAX_BEATEN_TARGETS])
    ]
    return out


def mg_fire_naive(
    gun: Gun, aim_deg: float, stands: list[Stand], polys: list[Polygon], range_cm: float, half_arc_deg: float
) -> tuple[str | None, list[str]]:
    """Every stand tested against lane and zone one at a time: the benchmark's baseline and a test oracle."""
    _face, normal, offset = choose_face(gun, aim_deg, half_arc_deg)
    nx, ny = unit(normal)
    origin = (gun.center[0] + offset * nx, gun.center[1] + offset * ny)
    lane = strip(origin, aim_deg, 0.0, range_cm, LANE_WIDTH_CM)
    best: tuple[float, int] | None = None
    for i, (s, p) in enumerate(zip(stands, polys, strict=True)):
        if not _not_a_target(gun, s) and lane.intersects(p) and not lane.touches(p):
            d = max(_along(lane.intersection(p), origin, aim_deg)[0], 0.0)
            if best is None or (d, i) < best:
                best = (d, i)
    if best is None:
        return None, []
    _, rear = _along(polys[best[1]], origin, aim_deg)
    zone = strip(origin, aim_deg, rear, rear + BEATEN_ZONE_CM[gun.kind], LANE_WIDTH_CM)
    found: list[tuple[float, int]] = []
    for i, (s, p) in enumerate(zip(stands, polys, strict=True)):
        if not _not_a_target(gun, s) and i != best[1] and zone.intersects(p) and not zone.touches(p):
            found.append((max(_along(zone.intersection(p), origin, aim_deg)[0], 0.0), i))
    found.sort()
    return stands[best[1]].id, [stands[i].id for _, i in found[:MAX_BEATEN_TARGETS]]
