"""What Flanders Fields supplies to the table geometry (rules/table) and to its geometry lookups that measure the
table by its rules (play/geometry_*.py): the sizes it measures with, the citations of the rules it measures, the
rules it reads beside the geometry (cover, movement, visibility, gas, their errata and their request types), and
the table's request models narrowed to its kit's bases and templates.

The geometry's queries take their sizes as parameters; these are the ones the rule book prints, taken from
where each is defined (tables.py, barrage.py, reference.py). The rule modules are named here, not copied, so
the geometry lookups import Flanders Fields through this one module.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Annotated, Literal

from pydantic import Field

from rules.core.ruleset import Context
from rules.flanders_fields.book import cover
from rules.flanders_fields.book import tables as T
from rules.flanders_fields.book.common import PeriodId, Quality
from rules.flanders_fields.book.reference import ARCS_OF_FIRE, BLOCK_HOUSE_RULES, TARGET_PRIORITY
from rules.flanders_fields.errata import GAS_SPEED_BELOW_ZERO, SRC_BARRAGE_DANGER
from rules.flanders_fields.play.kit import KIT
from rules.flanders_fields.resolvers import gas, movement, visibility
from rules.flanders_fields.resolvers.barrage import DANGER_ZONE_CM as _DANGER_ZONE_CM
from rules.flanders_fields.resolvers.deviation import SRC_DEVIATION
from rules.flanders_fields.ruleset import FlandersFields, cite
from rules.registry import get_ruleset
from rules.table import requests
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
# The table kit the geometry lookups measure stands and templates with (its bases and templates, by kind).
KIT_BASES = KIT.bases
KIT_TEMPLATES = KIT.templates
BASE_KINDS = tuple(KIT_BASES)
TEMPLATE_KINDS = tuple(KIT_TEMPLATES)
BaseKind = Literal[BASE_KINDS]  # type: ignore[valid-type]
TemplateKind = Literal[TEMPLATE_KINDS]  # type: ignore[valid-type]


class StandIn(requests.StandIn):
    base: BaseKind


class TemplateIn(requests.TemplateIn):
    kind: TemplateKind


Stands = Annotated[list[StandIn], Field(default_factory=list, max_length=requests.MAX_STANDS)]
# The template a rolling barrage covers (ROLLING BARRAGE AREA OF EFFECT).
BARRAGE_TEMPLATE = "rolling-barrage"
# Bases seen at the "Buildings, Fieldworks, Vehicles & Heavy Artillery" distance (VISIBILITY DISTANCES).
LARGE_BASES = frozenset({"tank", "heavy-artillery", "super-heavy-artillery"})


def context(variants: Mapping[str, str], period: str | None = None) -> Context:
    """The context for the errata the geometry reads (none of them depends on the period, if none is given)."""
    rs = get_ruleset(FlandersFields.id)
    ctx = rs.context(period or rs.period_ids[0], dict(variants))
    return ctx if period else replace(ctx, period=None)


SRC_MANOEUVRE = cite("MOVEMENT, MANOEUVRING FIGURES")
SRC_MOVING_THROUGH_WIRE = cite("MOVING THROUGH BARBED WIRE")
SRC_FIRE_ZONES = cite("MOVING THROUGH ARTILLERY AND INDIRECT MACHINEGUN FIRE ZONES")
SRC_LINE_OF_SIGHT = cite("VISIBILITY DISTANCES")
SRC_FIRE_PLANS = cite("ARTILLERY FIRE PLANS")
__all__ = [
    "ARC_SIZES",
    "DANGER_ZONE_CM",
    "GAS_SPEED_BELOW_ZERO",
    "MG_RANGE_CM",
    "MG_SIZES",
    "SRC_BARRAGE_DANGER",
    "SRC_DEVIATION",
    "SRC_FIRE_PLANS",
    "SRC_FIRE_ZONES",
    "SRC_LINE_OF_SIGHT",
    "SRC_MANOEUVRE",
    "SRC_MOVING_THROUGH_WIRE",
    "WIRE_BELT_CM",
    "PeriodId",
    "Quality",
    "cite",
    "context",
    "cover",
    "gas",
    "movement",
    "visibility",
]
