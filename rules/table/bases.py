"""Stand bases: the rule book's base sizes (BASE SIZES gives them in mm; here in cm)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from shapely import Point, Polygon

from rules.table.frame import oriented_rect, unit

BaseShape = Literal["round", "rect"]

BASE_SIZES = "Flanders Fields rule book: BASING AND ORGANISING TROOPS, BASE SIZES"


@dataclass(frozen=True)
class BaseSpec:
    """A base: `width_cm` runs across the stand's front, `depth_cm` front to back (both the diameter
    when round)."""

    kind: str
    shape: BaseShape
    width_cm: float
    depth_cm: float
    source: str = BASE_SIZES


def _round(kind: str, diameter_cm: float) -> BaseSpec:
    return BaseSpec(kind, "round", diameter_cm, diameter_cm)


def _rect(kind: str, width_cm: float, depth_cm: float) -> BaseSpec:
    return BaseSpec(kind, "rect", width_cm, depth_cm)


# Each line quotes BASE SIZES. "Square or circular base approx 20mm x 20mm" (support weapons, heavy MGs)
# is modelled square, as issue 4 fixes it.
BASES: dict[str, BaseSpec] = {
    b.kind: b
    for b in (
        _round("battalion-command", 2.0),  # "Circular base approx 20mm diameter."
        _rect("infantry-platoon", 3.0, 1.5),  # "Rectangular base 30 mm wide by 15mm deep."
        _rect("cavalry-platoon", 3.0, 2.0),  # "Rectangular base 30 mm wide by 20mm deep."
        _rect("support-weapon", 2.0, 2.0),  # "Square or circular base approx 20mm x 20mm."
        _rect("heavy-mg", 2.0, 2.0),  # "Square or circular base approx 20mm x 20mm."
        _round("flamethrower", 2.0),  # "Flamethrower or Anti-Tank Rifle Circular base 20mm diameter."
        _round("anti-tank-rifle", 2.0),
        _round("heavy-support-weapon", 2.5),  # "Circular base 25mm diameter."
        _round("regimental-command", 2.5),  # "Regiment/Brigade Command Circular base 25mm diameter."
        _rect("field-artillery", 6.0, 4.0),  # "Rectangular base 60 mm wide by 40mm deep"
        _rect("heavy-artillery", 8.0, 4.0),  # "Rectangular base 80 mm wide by 40mm deep."
        _rect("super-heavy-artillery", 8.0, 5.0),  # "Rectangular base 80 mm wide by 50mm deep."
        _rect("tank", 3.0, 6.0),  # "Tanks Rectangular base 30 mm wide by 60mm deep."
        _round("divisional-command", 3.0),  # "Circular base approx 30mm diameter."
    )
}

BASE_KINDS: tuple[str, ...] = tuple(BASES)


# Round bases become 128-gon approximations: the area they lose is under 0.05 % of the disc.
ROUND_SEGMENTS = 32


def base_polygon(spec: BaseSpec, center: tuple[float, float], facing_deg: float) -> Polygon:
    if spec.shape == "round":
        return Point(center).buffer(spec.width_cm / 2, quad_segs=ROUND_SEGMENTS)
    return oriented_rect(center, facing_deg, spec.width_cm, spec.depth_cm)


@dataclass(frozen=True)
class Stand:
    """A stand on the table: width runs across its front, facing_deg is where its front looks."""

    id: str
    side: str
    base: str
    center: tuple[float, float]
    facing_deg: float = 90.0

    @property
    def spec(self) -> BaseSpec:
        return BASES[self.base]

    def polygon(self) -> Polygon:
        return base_polygon(self.spec, self.center, self.facing_deg)

    def front_corners(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """(left, right) ends of the front edge; a round base uses its diameter as its front."""
        fx, fy = unit(self.facing_deg)
        lx, ly = -fy, fx
        d, w = self.spec.depth_cm / 2, self.spec.width_cm / 2
        cx, cy = self.center[0] + d * fx, self.center[1] + d * fy
        return (cx + w * lx, cy + w * ly), (cx - w * lx, cy - w * ly)
