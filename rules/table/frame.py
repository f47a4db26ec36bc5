"""The table frame, side-relative grid references and deviation by the clock.

Table frame: cm, origin at the attacker's left-hand rear corner, x along the attacker's base edge, y towards
the defender, angles counter-clockwise from +x (so 90 faces the defender). Fire plans name points
side-relative: "64cm along the German's rear table edge from the left hand corner and then 120cm up the
table towards the enemy" (ARTILLERY FIRE PLANS).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely import Polygon, box

from rules.core.vocabulary import Side

# "on a "standard" war-game table of approximately 1.8 by 1.2 meters ... the forces set up along the
# short, 1.2 meter edges": 120 cm across, 180 cm from base edge to base edge.
TABLE_WIDTH_CM = 120.0
TABLE_LENGTH_CM = 180.0

# Facing of each side's "straight ahead" in the table frame.
AHEAD_DEG: dict[Side, float] = {"attacker": 90.0, "defender": 270.0}


@dataclass(frozen=True)
class Table:
    width_cm: float = TABLE_WIDTH_CM
    length_cm: float = TABLE_LENGTH_CM

    def polygon(self) -> Polygon:
        return box(0.0, 0.0, self.width_cm, self.length_cm)


DEFAULT_TABLE = Table()


def unit(angle_deg: float) -> tuple[float, float]:
    a = math.radians(angle_deg)
    return math.cos(a), math.sin(a)


def oriented_rect(center: tuple[float, float], facing_deg: float, width: float, depth: float) -> Polygon:
    """A rectangle whose depth runs along facing_deg and width across it: shapely's box(-depth/2, -width/2,
    depth/2, width/2) (depth along +x) rotated about the origin and moved to `center`, each vertex worked out
    by the very operations shapely.affinity's rotate and translate do (the same floats, bit for bit), without
    their three geometries on the way (a third of the cost: a table measures thousands of bases a request)."""
    c, s = _turn(facing_deg)
    xoff, yoff = (
        0 - 0 * c + 0 * s,
        0 - 0 * s - 0 * c,
    )  # rotate's offsets about the origin (0.0, signed as its)
    cx, cy = center
    ring = []
    for x, y in _box_ring(width, depth):
        xp, yp = c * x + -s * y + xoff, s * x + c * y + yoff
        ring.append((1.0 * xp + 0.0 * yp + cx, 0.0 * xp + 1.0 * yp + cy))
    return cast(Polygon, shapely.polygons(np.array(ring)))


def oriented_rects(
    centers: Sequence[tuple[float, float]],
    facings: Sequence[float],
    widths: Sequence[float],
    depths: Sequence[float],
) -> NDArray[np.object_]:
    """`oriented_rect` of each (centre, facing, width, depth), the same vertices bit for bit, in one numpy pass."""
    n = len(centers)
    if n == 0:
        return np.empty(0, dtype=object)
    turns = np.array([_turn(f) for f in facings], dtype=float).reshape(n, 2)
    c, s = turns[:, :1], turns[:, 1:]
    xoff, yoff = 0 - 0 * c + 0 * s, 0 - 0 * s - 0 * c
    ring = np.array([_box_ring(w, d) for w, d in zip(widths, depths, strict=True)], dtype=float)
    x, y = ring[..., 0], ring[..., 1]
    xp, yp = c * x + -s * y + xoff, s * x + c * y + yoff
    at = np.array(centers, dtype=float).reshape(n, 1, 2)
    moved = np.stack([1.0 * xp + 0.0 * yp + at[..., 0], 0.0 * xp + 1.0 * yp + at[..., 1]], axis=2)
    return cast(NDArray[np.object_], shapely.polygons(moved))


def _turn(facing_deg: float) -> tuple[float, float]:
    """(cos, sin) of a facing as shapely.affinity.rotate takes them (it snaps |values| under 2.5e-16 to 0)."""
    angle = facing_deg * math.pi / 180.0
    c, s = math.cos(angle), math.sin(angle)
    return (0.0 if abs(c) < 2.5e-16 else c), (0.0 if abs(s) < 2.5e-16 else s)


def _box_ring(width: float, depth: float) -> tuple[tuple[float, float], ...]:
    """shapely.box(-depth/2, -width/2, depth/2, width/2)'s ring, counter-clockwise from (max x, min y)."""
    return (
        (depth / 2, -width / 2),
        (depth / 2, width / 2),
        (-depth / 2, width / 2),
        (-depth / 2, -width / 2),
        (depth / 2, -width / 2),
    )


def grid_to_table(
    side: Side, along_cm: float, up_cm: float, table: Table = DEFAULT_TABLE
) -> tuple[float, float]:
    """A side's grid reference (along its rear edge from its left-hand corner, then up the table towards
    the enemy) as a table-frame point. The defender faces -y, so its left hand is +x: its left-hand rear
    corner is the table's far right corner."""
    if side == "attacker":
        return along_cm, up_cm
    return table.width_cm - along_cm, table.length_cm - up_cm


def table_to_grid(side: Side, x: float, y: float, table: Table = DEFAULT_TABLE) -> tuple[float, float]:
    """The inverse of grid_to_table."""
    if side == "attacker":
        return x, y
    return table.width_cm - x, table.length_cm - y


def clock_to_deg(side: Side, hour: int) -> float:
    """The table-frame direction of a clock hour, "12 being directly ahead of the rolling player's base
    table edge"; hours run clockwise."""
    return (AHEAD_DEG[side] - 30.0 * (hour % 12)) % 360.0


def deviate(side: Side, aim: tuple[float, float], hour: int, distance_cm: float) -> tuple[float, float]:
    """The aiming point moved distance_cm towards the clock hour as seen by `side`."""
    ux, uy = unit(clock_to_deg(side, hour))
    return aim[0] + distance_cm * ux, aim[1] + distance_cm * uy


def strip(origin: tuple[float, float], angle_deg: float, start: float, end: float, width: float) -> Polygon:
    """The band of `width` centred on the ray from origin along angle_deg, from `start` to `end` cm."""
    ux, uy = unit(angle_deg)
    lx, ly = -uy * width / 2, ux * width / 2
    ox, oy = origin
    return Polygon(
        [
            (ox + start * ux + lx, oy + start * uy + ly),
            (ox + end * ux + lx, oy + end * uy + ly),
            (ox + end * ux - lx, oy + end * uy - ly),
            (ox + start * ux - lx, oy + start * uy - ly),
        ]
    )


def angle_diff(a_deg: float, b_deg: float) -> float:
    """Signed smallest difference a - b in (-180, 180]."""
    d = (a_deg - b_deg) % 360.0
    return d - 360.0 if d > 180.0 else d


def shifted_about_centre(
    points: Sequence[tuple[float, float]], dx: float, dy: float, turn_deg: float
) -> list[tuple[float, float]]:
    """Points moved as one (a formation's stands): shifted by (dx, dy) cm and turned `turn_deg` counter-clockwise
    about their centre, keeping their shape."""
    if not points:
        return []
    cx = sum(x for x, _ in points) / len(points)
    cy = sum(y for _, y in points) / len(points)
    a = math.radians(turn_deg)
    cos, sin = math.cos(a), math.sin(a)
    out = []
    for x, y in points:
        rx, ry = x - cx, y - cy
        out.append((cx + dx + rx * cos - ry * sin, cy + dy + rx * sin + ry * cos))
    return out


def laid(
    x: float, y: float, rotation: float, width_cm: float, across_table: bool
) -> tuple[float, float, float]:
    """Where a template lies as laid at (x, y) turned `rotation` (to the hundredth of a cm and of a degree): one
    that spans the whole table (`across_table`: a rolling barrage "extends across the whole table top") has no
    place across it, and lies across its middle."""
    if across_table:
        x = width_cm / 2
    return round(x, 2), round(y, 2), round(rotation % 360, 2)
