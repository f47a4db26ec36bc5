"""The rolling barrage: advancing it, what it passes over, and the danger zone behind it.

The barrage is a template that spans the table; the depth of the danger zone behind it is the rule set's
(`danger_zone_cm`). A stand in the zone is safe when a D6 rolls less than its distance from the barrage in
cm, as Flanders Fields has it: "Roll a D6 to be safe from the barrage the result must be less than the
number of centimetres the figures are from the barrage" (RISK TO ATTACKING TROOPS FROM THEIR OWN BARRAGE).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import shapely
from shapely import Polygon

from rules.table.coverage import Coverage, StandIndex, classify
from rules.table.frame import DEFAULT_TABLE, Table, oriented_rect, unit
from rules.table.templates import Template


def at_risk_chance(distance_cm: float) -> Fraction:
    """P(a D6 is not less than the distance): "if the figures are 5cm from the barrage they are safe if
    they roll 1-4 on the dice but at risk if they roll a 5 or 6"."""
    return Fraction(sum(1 for r in range(1, 7) if r >= distance_cm), 6)


@dataclass(frozen=True)
class DangerHit:
    id: str
    side: str
    distance_cm: float
    at_risk: Fraction


@dataclass
class Advance:
    moved: Template
    polygon: Polygon
    swept: Polygon
    passed_over: Coverage
    danger_zone: Polygon
    danger: list[DangerHit]


def advance(
    barrage: Template,
    distance_cm: float,
    index: StandIndex,
    danger_zone_cm: float,
    table: Table = DEFAULT_TABLE,
) -> Advance:
    """Move the barrage `distance_cm` along its facing (its depth runs the way it advances); the danger zone
    is the band `danger_zone_cm` deep behind its new rear edge."""
    fx, fy = unit(barrage.facing_deg)
    moved = Template(
        barrage.spec,
        (barrage.center[0] + distance_cm * fx, barrage.center[1] + distance_cm * fy),
        barrage.facing_deg,
    )
    before, after = barrage.polygon(table), moved.polygon(table)
    swept = shapely.union(before, after).convex_hull.intersection(table.polygon())
    swept_poly = swept if isinstance(swept, Polygon) else Polygon()
    passed = classify(swept_poly, index, 0.0)
    # The band behind the barrage's rear edge, across the table.
    depth = moved.spec.depth_cm
    back = (
        moved.center[0] - (depth + danger_zone_cm) / 2 * fx,
        moved.center[1] - (depth + danger_zone_cm) / 2 * fy,
    )
    span = 4 * (table.width_cm + table.length_cm) + 4 * (abs(back[0]) + abs(back[1]))
    zone = oriented_rect(back, moved.facing_deg, span, danger_zone_cm).intersection(table.polygon())
    zone_poly = zone if isinstance(zone, Polygon) else Polygon()
    under = set(index.overlapping(after)) if not after.is_empty else set()
    # Measured to the barrage where it stands: past the table's far edge (its rear edge on the edge, the zone on
    # the table) nothing of it is left on the table to measure to, and a distance to nothing is no number.
    reach = after if not after.is_empty else oriented_rect(moved.center, moved.facing_deg, span, depth)
    danger = []
    for i in index.overlapping(zone_poly):
        if i in under:
            continue
        s = index.stands[i]
        d = float(index.polys[i].distance(reach))
        danger.append(DangerHit(s.id, s.side, d, at_risk_chance(d)))
    danger.sort(key=lambda h: (h.distance_cm, h.id))
    return Advance(moved, after, swept_poly, passed, zone_poly, danger)
