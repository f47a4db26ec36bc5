"""Area-of-effect templates: a template's shape on the table. The sizes are a rule set's (its table kit's), each
with its printed line; a template carries its spec.

`width_cm` runs across the template's facing, `depth_cm` along it (a template's depth runs along its
facing_deg). A template `across_table` spans the whole table: its width is the table's width where it is
placed; `width_cm` holds the default table's width for reference.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shapely import Point, Polygon

from rules.table.bases import ROUND_SEGMENTS, BaseShape
from rules.table.frame import DEFAULT_TABLE, Table, oriented_rect


@dataclass(frozen=True)
class TemplateSpec:
    kind: str
    width_cm: float
    depth_cm: float
    source: str
    across_table: bool = False
    # A round template (a bombardment circle) is `width_cm` across; its depth is the same.
    shape: BaseShape = "rect"


@dataclass(frozen=True)
class Template:
    spec: TemplateSpec
    center: tuple[float, float]
    facing_deg: float = 90.0

    @property
    def kind(self) -> str:
        return self.spec.kind

    def polygon(self, table: Table = DEFAULT_TABLE) -> Polygon:
        """The template's area. A rolling barrage is a band `depth_cm` deep through `center`, clipped to the
        table: "extends across the whole table top"."""
        if self.spec.shape == "round":
            return Point(self.center).buffer(self.spec.width_cm / 2, quad_segs=ROUND_SEGMENTS)
        if not self.spec.across_table:
            return oriented_rect(self.center, self.facing_deg, self.spec.width_cm, self.spec.depth_cm)
        span = 2 * math.hypot(table.width_cm, table.length_cm) + 2 * math.hypot(*self.center)
        band = oriented_rect(self.center, self.facing_deg, span, self.spec.depth_cm)
        clipped = band.intersection(table.polygon())
        return clipped if isinstance(clipped, Polygon) else Polygon()
