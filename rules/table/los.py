"""Line of sight and visibility distances (VISIBILITY DISTANCES).

"it must be possible to trace a straight uninterrupted line to the object being viewed. Troops on elevated
ground man see over buildings and woods ... However a limited amount of dead ground will still remain and
for practical purposes this is defined as 2.5cm. This means that troops within 2.5cm of a building are safe
from being spotted by observers on a hill or ridge on the other side of the building". The line is traced
centre to centre; a wood or village the viewer or target stands in does not block (its cover is in the
visibility distance instead). The distances themselves are rules.flanders_fields.resolvers.visibility's.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely import LineString, Point

from rules.table.bases import Stand
from rules.table.terrain import SIGHT_BLOCKING, Feature, TerrainIndex

DEAD_GROUND_CM = 2.5
PIECE_CM = 20.0  # lines of sight are put to the terrain's index in pieces this long (not a rule; 10 cost a tenth more)


def elevation(terrain: TerrainIndex, xy: tuple[float, float]) -> float:
    """Height of the highest hill under a point (0: level ground)."""
    p = Point(xy)
    return max((f.height_cm for f in terrain.sight.intersecting(p) if f.kind == "hill"), default=0.0)


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
    # Only hills and what blocks sight can stop the line or raise an end (terrain.sight): the rest is passed.
    return _traced(line, viewer, target, terrain.sight.intersecting(line), vz, tz)


def lines_of_sight(viewer: Stand, targets: Sequence[Stand], terrain: TerrainIndex) -> Iterator[Sight]:
    """`line_of_sight` from one viewer to each target, the same answers, the lines and the heights of their
    ends put to the terrain's index all at once (a sub-unit's base looking at every base of another: issue
    52), each line then traced past the features it crosses as it is asked for (stop at the one that sees)."""
    if not targets:
        return iter(())
    sight = terrain.sight
    ends = [viewer.center, *(t.center for t in targets)]
    heights = _elevations(sight, ends)
    points = shapely.points(ends).tolist()  # each end once, not once a line
    lines = shapely.linestrings([[viewer.center, t.center] for t in targets])
    crossed: list[list[int]] = [[] for _ in targets]
    if sight.features:
        which, near = _near(sight, np.array([[viewer.center, t.center] for t in targets], dtype=float))
        hit = shapely.intersects(sight.tree.geometries.take(near), lines.take(which))
        for i, f in zip(which[hit].tolist(), near[hit].tolist(), strict=True):
            crossed[i].append(f)
    return (
        _traced(line, viewer, t, [sight.features[f] for f in fs], heights[0], z, points[0], tp)
        for line, t, fs, z, tp in zip(lines, targets, crossed, heights[1:], points[1:], strict=True)
    )


def _near(sight: TerrainIndex, ends: NDArray[np.float64]) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """(line, feature) of each feature whose box meets a piece of one of the lines (`ends`: n x 2 x 2), each
    pair once, in order: every feature a line crosses among them. A long slanting line's own box holds most
    of the table; its pieces of PIECE_CM hold only what lies along it."""
    span = np.hypot(*(ends[:, 1] - ends[:, 0]).T)
    pieces = np.maximum(1, np.ceil(span / PIECE_CM)).astype(np.intp)
    line = np.repeat(np.arange(len(ends)), pieces)
    k = np.arange(len(line)) - np.repeat(np.cumsum(pieces) - pieces, pieces)
    n = pieces[line][:, None]
    a, b = ends[line, 0], ends[line, 1]
    starts, stops = a + (b - a) * (k[:, None] / n), a + (b - a) * ((k[:, None] + 1) / n)
    boxes = shapely.box(
        np.minimum(starts, stops)[:, 0],
        np.minimum(starts, stops)[:, 1],
        np.maximum(starts, stops)[:, 0],
        np.maximum(starts, stops)[:, 1],
    )
    piece, near = sight.tree.query(boxes)
    pairs = np.unique(line[piece] * len(sight.features) + near)
    return pairs // len(sight.features), pairs % len(sight.features)


def _elevations(sight: TerrainIndex, points: Sequence[tuple[float, float]]) -> list[float]:
    """`elevation` of each point, in one query."""
    hills: list[list[float]] = [[] for _ in points]
    if sight.features:
        which, near = sight.tree.query(shapely.points(points), predicate="intersects")
        for i, f in zip(which.tolist(), near.tolist(), strict=True):
            if sight.features[f].kind == "hill":
                hills[i].append(sight.features[f].height_cm)
    return [max(h, default=0.0) for h in hills]


def _traced(
    line: LineString,
    viewer: Stand,
    target: Stand,
    features: Sequence[Feature],
    vz: float,
    tz: float,
    vp: Point | None = None,
    tp: Point | None = None,
) -> Sight:
    """The line from the viewer's centre to the target's past the hills and what blocks sight it crosses
    (`features`, in the index's order), nearest the viewer first. `vp`, `tp`: the centres as points, where
    the caller has made them."""
    if not features:  # nothing crossed: nothing stops it nor is seen over
        return Sight(True, None, False, vz, tz, ())
    vp = Point(viewer.center) if vp is None else vp
    tp = Point(target.center) if tp is None else tp
    seen_over: list[str] = []
    crossed = sorted(features, key=lambda f: f.geometry.distance(vp))
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
            if target.polygon().distance(f.geometry) <= DEAD_GROUND_CM:
                return Sight(False, f, True, vz, tz, tuple(seen_over))
            seen_over.append(f.id)
    return Sight(True, None, False, vz, tz, tuple(seen_over))
