"""2mm Earth's artillery templates as Shapely geometry, in cm (the text gives them in inches).

"Place a bombardment circle (diameter 3") and every sub-unit with more than one base, or its only base,
under the circle takes damage"; "if a shot(s) is chosen on a platoon more than half-way outside the inner
circle, any successful shots must be re-rolled" (ARTILLERY). Smoke and gas: "a cordon of smoke, 3" long for
every battery firing, laid with its centre of the template's centre ... angled 90 degrees from the wind and
will travel 3" in that direction at the end of each bound" (SMOKE SCREENS & POISON GAS).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import shapely
from shapely import Point, Polygon
from shapely.affinity import translate

from rules.earth2mm.data import (
    BOMBARDMENT_DIAMETER_IN,
    CM_PER_INCH,
    CORDON_DRIFT_IN,
    CORDON_LENGTH_PER_BATTERY_IN,
)
from rules.table.frame import oriented_rect, oriented_rects, unit

INCH_CM = float(CM_PER_INCH)
CIRCLE_RADIUS_CM = BOMBARDMENT_DIAMETER_IN * INCH_CM / 2


def bombardment_circle(center: tuple[float, float]) -> Polygon:
    return Point(center).buffer(CIRCLE_RADIUS_CM, quad_segs=64)


@dataclass(frozen=True)
class BaseRect:
    """A base: centre, facing (degrees counter-clockwise from +x), frontage and depth in cm."""

    x: float
    y: float
    facing: float
    width: float
    depth: float

    def polygon(self) -> Polygon:
        return oriented_rect((self.x, self.y), self.facing, self.width, self.depth)


@dataclass(frozen=True)
class BaseUnder:
    index: int
    under: bool
    fraction_inside: float
    more_than_half_outside: bool


@dataclass(frozen=True)
class SubUnitUnder:
    index: int
    affected: bool
    bases: tuple[BaseUnder, ...]


def under_circle(center: tuple[float, float], subunits: Sequence[Sequence[BaseRect]]) -> list[SubUnitUnder]:
    """Which sub-units a circle damages, and which of their bases are more than half outside it."""
    circle = bombardment_circle(center)
    every = [b for bases in subunits for b in bases]
    # Every base's outline and its part under the circle, in one pass (each the same as BaseRect.polygon's).
    polys = oriented_rects(
        [(b.x, b.y) for b in every],
        [b.facing for b in every],
        [b.width for b in every],
        [b.depth for b in every],
    )
    areas = shapely.area(polys).tolist()
    under_areas = shapely.area(shapely.intersection(circle, polys)).tolist()
    out = []
    at = 0
    for i, bases in enumerate(subunits):
        rows = []
        for j in range(len(bases)):
            area, under_area = areas[at], under_areas[at]
            at += 1
            inside = under_area / area if area else 0.0
            rows.append(BaseUnder(j, inside > 0, inside, inside < 0.5))
        under = sum(1 for r in rows if r.under)
        # "every sub-unit with more than one base, or its only base, under the circle"
        affected = under > 1 or (len(bases) == 1 and under == 1)
        out.append(SubUnitUnder(i, affected, tuple(rows)))
    return out


def smoke_cordon(center: tuple[float, float], batteries: int, wind_deg: float, width_in: float) -> Polygon:
    """The cordon laid square to the wind: 3" long per battery, `width_in` wide along the wind."""
    length_cm = CORDON_LENGTH_PER_BATTERY_IN * batteries * INCH_CM
    # oriented_rect's depth runs along its facing: face it down-wind so its length lies across the wind.
    return oriented_rect(center, wind_deg, length_cm, width_in * INCH_CM)


def drift(cordon: Polygon, wind_deg: float, bounds: int) -> Polygon:
    """Where the cordon is after `bounds` ends of bound: 3" down-wind each time."""
    dx, dy = unit(wind_deg)
    step = CORDON_DRIFT_IN * INCH_CM * bounds
    return translate(cordon, dx * step, dy * step)


def coords(poly: Polygon) -> list[list[float]]:
    return [[round(x, 3), round(y, 3)] for x, y in poly.exterior.coords]
