"""Arcs of fire and target priority (ARCS OF FIRE, TARGET PRIORITY).

"INFANTRY INCLUDING LMGS Straight ahead the width of the unit plus 10cm on each side. FIELD & HEAVY ART.
Straight ahead the width of the model plus 10cm on each side. MORTARS Straight ahead the width of the unit
plus 5cm on each side. MACHINE GUNS 45° Arc ... BLOCK HOUSES 45° to front and sides"; "Block houses have an
arc of fire of 45 degrees from each face calculated at the corners."
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import shapely
from shapely import Polygon

from rules.table.bases import Stand
from rules.table.coverage import StandIndex
from rules.table.frame import unit

FirerKind = Literal["infantry", "artillery", "mortar", "mg", "blockhouse"]
FIRER_KINDS: tuple[str, ...] = FirerKind.__args__  # type: ignore[attr-defined]
# Extra width each side of a straight-ahead arc.
SIDE_EXTRA_CM: dict[str, float] = {"infantry": 10.0, "artillery": 10.0, "mortar": 5.0}
# Arcs are drawn far enough to leave any table (coordinates are bounded to +-1000 cm).
REACH_CM = 5000.0
# "1. Closest Enemy 2. Any enemy in arc within 15cm. 3. Enemy straight ahead within 30cm. 4. Other enemy
# within arc."
PRIORITY_NEAR_CM = 15.0
PRIORITY_AHEAD_CM = 30.0


def _corners(
    center: tuple[float, float], facing: float, width: float, depth: float
) -> dict[str, tuple[float, float]]:
    fx, fy = unit(facing)
    lx, ly = -fy, fx
    cx, cy = center

    def at(a: float, b: float) -> tuple[float, float]:
        return cx + a * fx + b * lx, cy + a * fy + b * ly

    d, w = depth / 2, width / 2
    return {"fl": at(d, w), "fr": at(d, -w), "rl": at(-d, w), "rr": at(-d, -w)}


def _ahead(center: tuple[float, float], facing: float, width: float, depth: float, extra: float) -> Polygon:
    c = _corners(center, facing, width + 2 * extra, depth)
    fx, fy = unit(facing)
    far = [(x + REACH_CM * fx, y + REACH_CM * fy) for x, y in (c["fr"], c["fl"])]
    return Polygon([c["fl"], c["fr"], *far])


def _splay(a: tuple[float, float], b: tuple[float, float], normal: float, half: float) -> Polygon:
    """The arc of a face from corner a (left, seen from outside) to corner b, splayed `half` degrees
    outward at each corner."""
    ax, ay = unit(normal + half)
    bx, by = unit(normal - half)
    return Polygon(
        [a, b, (b[0] + REACH_CM * bx, b[1] + REACH_CM * by), (a[0] + REACH_CM * ax, a[1] + REACH_CM * ay)]
    )


def arc_polygon(
    kind: str,
    center: tuple[float, float],
    facing: float,
    width: float,
    depth: float,
    mg_half_arc_deg: float = 45.0,
) -> Polygon:
    if kind in SIDE_EXTRA_CM:
        return _ahead(center, facing, width, depth, SIDE_EXTRA_CM[kind])
    c = _corners(center, facing, width, depth)
    if kind == "mg":
        return _splay(c["fl"], c["fr"], facing, mg_half_arc_deg)
    faces = [
        _splay(c["fl"], c["fr"], facing, 45.0),
        _splay(c["rl"], c["fl"], facing + 90.0, 45.0),
        _splay(c["fr"], c["rr"], facing - 90.0, 45.0),
    ]
    merged = shapely.union_all(faces)
    return merged if isinstance(merged, Polygon) else Polygon(merged.convex_hull)


@dataclass(frozen=True)
class Priority:
    id: str
    priority: int
    distance_cm: float
    straight_ahead: bool


def target_priority(
    firer: Stand, arc: Polygon, index: StandIndex, width: float, depth: float
) -> list[Priority]:
    """Enemies (other sides) in the arc, in the order the firer must prefer them."""
    me = firer.polygon()
    ahead = _ahead(firer.center, firer.facing_deg, width, depth, 0.0)
    in_arc = [i for i in index.overlapping(arc) if index.stands[i].side != firer.side]
    if not in_arc:
        return []
    dist = shapely.distance(me, index.polys[in_arc])
    ahead_hit = set(int(i) for i in index.overlapping(ahead))
    closest = float(dist.min())
    out = []
    for i, d in zip(in_arc, dist, strict=True):
        d = float(d)
        straight = int(i) in ahead_hit
        if d <= closest + 1e-9:
            p = 1
        elif d <= PRIORITY_NEAR_CM:
            p = 2
        elif straight and d <= PRIORITY_AHEAD_CM:
            p = 3
        else:
            p = 4
        out.append(Priority(index.stands[i].id, p, d, straight))
    out.sort(key=lambda t: (t.priority, t.distance_cm, t.id))
    return out
