"""Line of sight and visibility distances (VISIBILITY DISTANCES).

"it must be possible to trace a straight uninterrupted line to the object being viewed. Troops on elevated
ground man see over buildings and woods ... However a limited amount of dead ground will still remain and
for practical purposes this is defined as 2.5cm. This means that troops within 2.5cm of a building are safe
from being spotted by observers on a hill or ridge on the other side of the building". The line is traced
centre to centre; a wood or village the viewer or target stands in does not block (its cover is in the
visibility distance instead). The distances themselves are rules.flanders_fields.resolvers.visibility's.
"""

from __future__ import annotations

from dataclasses import dataclass

from shapely import LineString, Point

from rules.table.bases import Stand
from rules.table.terrain import SIGHT_BLOCKING, Feature, TerrainIndex

DEAD_GROUND_CM = 2.5


def elevation(terrain: TerrainIndex, xy: tuple[float, float]) -> float:
    """Height of the highest hill under a point (0: level ground)."""
    p = Point(xy)
    return max((f.height_cm for f in terrain.intersecting(p) if f.kind == "hill"), default=0.0)


@dataclass(frozen=True)
class Sight:
    clear: bool
    blocked_by: Feature | None
    dead_ground: bool
    viewer_height_cm: float
    target_height_cm: float
    seen_over: tuple[str, ...]


def line_of_sight(viewer: Stand, target: Stand, terrain: TerrainIndex) -> Sight:
    line = LineString([viewer.center, target.center])
    vz, tz = elevation(terrain, viewer.center), elevation(terrain, target.center)
    target_poly = target.polygon()
    vp, tp = Point(viewer.center), Point(target.center)
    seen_over: list[str] = []
    crossed = sorted(terrain.intersecting(line), key=lambda f: f.geometry.distance(vp))
    for f in crossed:
        if f.geometry.covers(vp) or f.geometry.covers(tp):
            continue
        if line.intersection(f.geometry).length <= 1e-9:
            continue
        if f.kind == "hill" and f.height_cm > max(vz, tz):
            return Sight(False, f, False, vz, tz, tuple(seen_over))
        if f.kind in SIGHT_BLOCKING:
            if vz <= tz:
                return Sight(False, f, False, vz, tz, tuple(seen_over))
            if target_poly.distance(f.geometry) <= DEAD_GROUND_CM:
                return Sight(False, f, True, vz, tz, tuple(seen_over))
            seen_over.append(f.id)
    return Sight(True, None, False, vz, tz, tuple(seen_over))
