"""Arcs of fire and target priority.

Three shapes of arc: straight ahead the width of the stand plus an extra width each side (by firer kind), a
machine gun's cone splayed from its front corners, and a block house's three faces splayed from its
corners. The widths, angles and priority distances come from the rule set as `ArcSizes`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import shapely
from shapely import Polygon

from rules.table.bases import Stand
from rules.table.coverage import StandIndex
from rules.table.frame import unit

FirerKind = Literal["infantry", "artillery", "mortar", "mg", "blockhouse"]
FIRER_KINDS: tuple[str, ...] = FirerKind.__args__  # type: ignore[attr-defined]
# Arcs are drawn far enough to leave any table (coordinates are bounded to +-1000 cm).
REACH_CM = 5000.0


@dataclass(frozen=True)
class ArcSizes:
    """What a rule set says of arcs of fire and target priority; the geometry copies none of it."""

    side_extra_cm: Mapping[str, float]  # straight-ahead arcs: the extra width each side, by firer kind
    blockhouse_half_arc_deg: float  # each face of a block house fires this far either side
    priority_near_cm: float  # after the closest enemy: any enemy in the arc within this
    priority_ahead_cm: float  # then: an enemy straight ahead within this


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
    sizes: ArcSizes,
    mg_half_arc_deg: float,
) -> Polygon:
    extra = sizes.side_extra_cm.get(kind)
    return _arc(kind, center, facing, width, depth, extra, sizes.blockhouse_half_arc_deg, mg_half_arc_deg)


# A stand's arc is asked again for each of its shots and its card's targets, request after request, where it
# stands still: built once (a Polygon is immutable), the most recent kept.
@lru_cache(maxsize=4096)
def _arc(
    kind: str,
    center: tuple[float, float],
    facing: float,
    width: float,
    depth: float,
    extra: float | None,
    blockhouse_half: float,
    mg_half_arc_deg: float,
) -> Polygon:
    if extra is not None:
        return _ahead(center, facing, width, depth, extra)
    if kind == "mg" and mg_half_arc_deg >= 90.0:
        # Splayed 90 degrees or more (an arc widened by a pivot), the cone is all the table ahead of the face.
        return _ahead(center, facing, width, depth, REACH_CM)
    c = _corners(center, facing, width, depth)
    if kind == "mg":
        return _splay(c["fl"], c["fr"], facing, mg_half_arc_deg)
    half = blockhouse_half
    faces = [
        _splay(c["fl"], c["fr"], facing, half),
        _splay(c["rl"], c["fl"], facing + 90.0, half),
        _splay(c["fr"], c["rr"], facing - 90.0, half),
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
    firer: Stand, arc: Polygon, index: StandIndex, width: float, depth: float, sizes: ArcSizes
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
        elif d <= sizes.priority_near_cm:
            p = 2
        elif straight and d <= sizes.priority_ahead_cm:
            p = 3
        else:
            p = 4
        out.append(Priority(index.stands[i].id, p, d, straight))
    out.sort(key=lambda t: (t.priority, t.distance_cm, t.id))
    return out
