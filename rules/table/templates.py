"""Area-of-effect templates: artillery, SOS, mortars, indirect MG, gas clouds, the rolling barrage.

`width_cm` runs across the template's facing, `depth_cm` along it (a template's depth runs along its
facing_deg). The rolling barrage spans the whole table: its width is the table's width where it is placed
(`across_table`); `width_cm` holds the default table's width for reference.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shapely import Polygon

from rules.table.frame import DEFAULT_TABLE, Table, oriented_rect

BOOK = "Flanders Fields rule book"
DEFAULT_TABLE_WIDTH_CM = 120.0


@dataclass(frozen=True)
class TemplateSpec:
    kind: str
    width_cm: float
    depth_cm: float
    source: str
    across_table: bool = False


TEMPLATES: dict[str, TemplateSpec] = {
    t.kind: t
    for t in (
        # "all batteries firing have the same area of effect which is a rectangle 10x10cm"
        TemplateSpec("artillery", 10.0, 10.0, f"{BOOK}: ARTILLERY BATTERIES AREA OF EFFECT"),
        # "SOS fire covers an area of effect 10cm wide by 5cm deep"
        TemplateSpec("sos", 10.0, 5.0, f"{BOOK}: SOS TARGETS"),
        # "Light Mortars have an area of effect 3cm square"
        TemplateSpec("light-mortar", 3.0, 3.0, f"{BOOK}: MORTAR AREA OF EFFECT"),
        # "Medium Mortars have an area of effect 4cm square"
        TemplateSpec("medium-mortar", 4.0, 4.0, f"{BOOK}: MORTAR AREA OF EFFECT"),
        # "Heavy Mortars have an area of effect 5cm square"
        TemplateSpec("heavy-mortar", 5.0, 5.0, f"{BOOK}: MORTAR AREA OF EFFECT"),
        # "a machine gun platoon of 1 model covers an area of 2x10cm" (per gun; 2 wide, 10 deep)
        TemplateSpec("mg-indirect", 2.0, 10.0, f"{BOOK}: ARTILLERY BATTERIES AREA OF EFFECT"),
        # "an area 20cm wide by 10cm deep if launched by the attacker"
        TemplateSpec("gas-attacker", 20.0, 10.0, f"{BOOK}: GAS"),
        # "but only 10x5 if used by a defender"
        TemplateSpec("gas-defender", 10.0, 5.0, f"{BOOK}: GAS"),
        # "A Rolling Barrage covers an area 20cm wide which extends across the whole table top"
        TemplateSpec(
            "rolling-barrage",
            DEFAULT_TABLE_WIDTH_CM,
            20.0,
            f"{BOOK}: ROLLING BARRAGE AREA OF EFFECT",
            across_table=True,
        ),
    )
}

TEMPLATE_KINDS: tuple[str, ...] = tuple(TEMPLATES)


def template_polygon(
    spec: TemplateSpec, center: tuple[float, float], facing_deg: float, table: Table = DEFAULT_TABLE
) -> Polygon:
    """The template's area. A rolling barrage is a band `depth_cm` deep through `center`, clipped to the
    table: "extends across the whole table top"."""
    if not spec.across_table:
        return oriented_rect(center, facing_deg, spec.width_cm, spec.depth_cm)
    span = 2 * math.hypot(table.width_cm, table.length_cm) + 2 * math.hypot(*center)
    band = oriented_rect(center, facing_deg, span, spec.depth_cm)
    clipped = band.intersection(table.polygon())
    return clipped if isinstance(clipped, Polygon) else Polygon()


@dataclass(frozen=True)
class Template:
    kind: str
    center: tuple[float, float]
    facing_deg: float = 90.0

    @property
    def spec(self) -> TemplateSpec:
        return TEMPLATES[self.kind]

    def polygon(self, table: Table = DEFAULT_TABLE) -> Polygon:
        return template_polygon(self.spec, self.center, self.facing_deg, table)
