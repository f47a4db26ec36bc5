"""What Flanders Fields supplies to the table geometry (rules/table): the sizes it measures with and the
citations of the rules it measures.

The geometry's queries take their sizes as parameters; these are the ones the rule book prints, taken from
where each is defined (tables.py, barrage.py, reference.py).
"""

from __future__ import annotations

from rules.flanders_fields.book import tables as T
from rules.flanders_fields.book.reference import ARCS_OF_FIRE, BLOCK_HOUSE_RULES, TARGET_PRIORITY
from rules.flanders_fields.resolvers.barrage import DANGER_ZONE_CM as _DANGER_ZONE_CM
from rules.flanders_fields.resolvers.deviation import SRC_DEVIATION
from rules.flanders_fields.ruleset import cite
from rules.table.arcs import ArcSizes
from rules.table.mgfire import MGSizes

MG_SIZES = MGSizes(
    lane_width_cm=float(T.MG_LANE_WIDTH_CM),
    beaten_zone_cm={kind: float(cm) for kind, cm in T.BEATEN_ZONE_CM.items()},
    beaten_zone_targets=T.BEATEN_ZONE_TARGETS,
    short_range_cm=float(T.SHORT_RANGE_MG_CM),
    blockhouse_half_arc_deg=float(BLOCK_HOUSE_RULES["arc_deg_per_face"]),
)
ARC_SIZES = ArcSizes(
    side_extra_cm={
        kind: float(ARCS_OF_FIRE[row]["extra_each_side_cm"])
        for kind, row in (
            ("infantry", "infantry-lmg"),
            ("artillery", "field-heavy-artillery"),
            ("mortar", "mortar"),
        )
    },
    blockhouse_half_arc_deg=float(BLOCK_HOUSE_RULES["arc_deg_per_face"]),
    priority_near_cm=float(next(p["within_cm"] for p in TARGET_PRIORITY if p["rule"] == "in-arc-within")),
    priority_ahead_cm=float(
        next(p["within_cm"] for p in TARGET_PRIORITY if p["rule"] == "straight-ahead-within")
    ),
)
MG_RANGE_CM = float(T.MG_RANGE_CM)
WIRE_BELT_CM = float(T.WIRE_BELT_CM)
DANGER_ZONE_CM = float(_DANGER_ZONE_CM)

SRC_MANOEUVRE = cite("MOVEMENT, MANOEUVRING FIGURES")
SRC_MOVING_THROUGH_WIRE = cite("MOVING THROUGH BARBED WIRE")
SRC_FIRE_ZONES = cite("MOVING THROUGH ARTILLERY AND INDIRECT MACHINEGUN FIRE ZONES")
SRC_LINE_OF_SIGHT = cite("VISIBILITY DISTANCES")
SRC_FIRE_PLANS = cite("ARTILLERY FIRE PLANS")
__all__ = [
    "ARC_SIZES",
    "DANGER_ZONE_CM",
    "MG_RANGE_CM",
    "MG_SIZES",
    "SRC_DEVIATION",
    "SRC_FIRE_PLANS",
    "SRC_FIRE_ZONES",
    "SRC_LINE_OF_SIGHT",
    "SRC_MANOEUVRE",
    "SRC_MOVING_THROUGH_WIRE",
    "WIRE_BELT_CM",
]
