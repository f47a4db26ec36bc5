"""Stand bases: a base's shape on the table. The sizes are a rule set's (its table kit's), each with its printed
line; a stand carries its base's spec."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely import Point, Polygon

from rules.table.frame import oriented_rect, unit

BaseShape = Literal["round", "rect"]


@dataclass(frozen=True)
class BaseSpec:
    """A base: `width_cm` runs across the stand's front, `depth_cm` front to back (both the diameter
    when round)."""

    kind: str
    shape: BaseShape
    width_cm: float
    depth_cm: float
    source: str


def max_extent_cm(specs: Iterable[BaseSpec]) -> float:
    """The longest straight line across any of these bases (its diagonal, or its diameter): how far past a
    line a base that touches the line can reach."""
    return max(
        (math.hypot(b.width_cm, b.depth_cm) if b.shape == "rect" else b.width_cm for b in specs), default=0.0
    )


# Round bases become 128-gon approximations: the area they lose is under 0.05 % of the disc.
ROUND_SEGMENTS = 32


# A stand's outline is asked for again by each act and read that measures it, request after request, where it
# stands still: built once (a Polygon is immutable), the most recent kept.
@lru_cache(maxsize=8192)
def base_polygon(spec: BaseSpec, center: tuple[float, float], facing_deg: float) -> Polygon:
    if spec.shape == "round":
        return Point(center).buffer(spec.width_cm / 2, quad_segs=ROUND_SEGMENTS)
    return oriented_rect(center, facing_deg, spec.width_cm, spec.depth_cm)


# GEOS's circle for a point buffer of radius 1: every round base is this ring scaled and moved, so the
# vectorised builder lays out the same vertices as Point.buffer does.
_UNIT_RING = shapely.get_coordinates(Point(0.0, 0.0).buffer(1.0, quad_segs=ROUND_SEGMENTS))
# A rectangle's ring as shapely.box lays it out (counter-clockwise from (max x, min y)), in half-depths
# along x and half-widths along y: oriented_rect builds box(-d/2, -w/2, d/2, w/2) before rotating it.
_BOX_RING = np.array([[1.0, -1.0], [1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0]])


def _cos_sin(facing_deg: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """cos and sin as shapely.affinity.rotate takes them (it snaps |values| under 2.5e-16 to 0)."""
    a = facing_deg * math.pi / 180.0
    c, s = np.cos(a), np.sin(a)
    return np.where(np.abs(c) < 2.5e-16, 0.0, c), np.where(np.abs(s) < 2.5e-16, 0.0, s)


@dataclass(frozen=True)
class Stand:
    """A stand on the table: width runs across its front, facing_deg is where its front looks."""

    id: str
    side: str
    spec: BaseSpec
    center: tuple[float, float]
    facing_deg: float = 90.0

    @property
    def base(self) -> str:
        return self.spec.kind

    def polygon(self) -> Polygon:
        """The base's outline, worked out once per stand (a stand is measured against many others)."""
        made = self.__dict__.get("_polygon")
        if made is None:
            made = base_polygon(self.spec, self.center, self.facing_deg)
            object.__setattr__(self, "_polygon", made)
        return made

    def front_corners(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """(left, right) ends of the front edge; a round base uses its diameter as its front."""
        fx, fy = unit(self.facing_deg)
        lx, ly = -fy, fx
        d, w = self.spec.depth_cm / 2, self.spec.width_cm / 2
        cx, cy = self.center[0] + d * fx, self.center[1] + d * fy
        return (cx + w * lx, cy + w * ly), (cx - w * lx, cy - w * ly)


def nearer_than_none(a: Stand, b: Stand) -> float:
    """A distance the two stands' outlines are never nearer than: their centres' distance less the radius of
    the circle about each centre that holds its base (half its diagonal; a round base's radius is within it),
    less a margin for float rounding. Cheaper than measuring the outlines: a search for the nearest stand
    measures only those that could be nearer than the nearest found."""
    reach = (
        math.hypot(a.spec.width_cm, a.spec.depth_cm) / 2 + math.hypot(b.spec.width_cm, b.spec.depth_cm) / 2
    )
    apart = math.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1])
    return apart - reach - 1e-6


def base_polygons(stands: Sequence[Stand]) -> NDArray[np.object_]:
    """Every stand's base polygon, built in one numpy pass (per-stand affinity calls cost ~50 us each; this
    is ~1 us a stand). Equal to `Stand.polygon()` vertex for vertex, within float rounding."""
    n = len(stands)
    out = np.empty(n, dtype=object)
    if n == 0:
        return out
    specs = [s.spec for s in stands]
    is_round = np.array([b.shape == "round" for b in specs])
    width = np.array([b.width_cm for b in specs])
    depth = np.array([b.depth_cm for b in specs])
    center = np.array([s.center for s in stands], dtype=float).reshape(n, 1, 2)
    if is_round.any():
        radius = (width[is_round] / 2).reshape(-1, 1, 1)
        out[is_round] = shapely.polygons(center[is_round] + radius * _UNIT_RING)
    rect = ~is_round
    if rect.any():
        half = np.stack([depth[rect] / 2, width[rect] / 2], axis=1).reshape(-1, 1, 2)
        local = half * _BOX_RING  # (m, 5, 2)
        c, s = _cos_sin(np.array([st.facing_deg for st in stands], dtype=float)[rect])
        c, s = c.reshape(-1, 1), s.reshape(-1, 1)
        x, y = local[..., 0], local[..., 1]
        turned = np.stack([c * x - s * y, s * x + c * y], axis=2)
        out[rect] = shapely.polygons(turned + center[rect])
    return out
