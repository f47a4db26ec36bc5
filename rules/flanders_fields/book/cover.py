"""Cover from terrain (TERRAIN AND ITS IMPACT ON COVER, TYPES OF COVER), and the names of the errata of the
table's geometry (MG arcs, mixed-terrain moves, turning), which the geometry endpoints read through a
Context of this rule set."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypedDict

from rules.flanders_fields.book.common import Cover, Quality
from rules.flanders_fields.book.tables import SRC_ARMOUR, SRC_CAVALRY, SRC_WIRE
from rules.flanders_fields.errata import BLOCKHOUSE_RANGE, MG_ARC, MOVE_MIXED_TERRAIN, TURN_COST
from rules.flanders_fields.ruleset import FlandersFields, cite

SRC_TERRAIN_COVER = cite("TERRAIN AND ITS IMPACT ON COVER")
SRC_TYPES_OF_COVER = cite("TYPES OF COVER")

# (kinds that must all be present, cover, source, quoted line), strongest first: the first match wins.
COVER_RULES: tuple[tuple[frozenset[str], Cover, str, str], ...] = (
    (
        frozenset({"blockhouse"}),
        "fortified",
        SRC_TERRAIN_COVER,
        "NB a block house in a village remains Fortified position.",
    ),
    (
        frozenset({"trench", "village"}),
        "fortified",
        SRC_TERRAIN_COVER,
        "trenches and strong points dug into villages are classed as fortified",
    ),
    (
        frozenset({"strongpoint", "village"}),
        "fortified",
        SRC_TERRAIN_COVER,
        "trenches and strong points dug into villages are classed as fortified",
    ),
    (
        frozenset({"trench", "woods"}),
        "hard",
        SRC_TERRAIN_COVER,
        "a trench in a wood is classed as Hard Cover rather than Medium",
    ),
    (
        frozenset({"strongpoint"}),
        "hard",
        SRC_TYPES_OF_COVER,
        "Hard Cover: Particularly well made sections of trench and/or strong points",
    ),
    (
        frozenset({"village"}),
        "hard",
        SRC_TERRAIN_COVER,
        "built up areas like village provide hard cover",
    ),
    (frozenset({"trench"}), "medium", SRC_TYPES_OF_COVER, "Medium Cover: Most open trenches"),
    (frozenset({"woods"}), "soft", SRC_TERRAIN_COVER, "Wooded areas provide soft cover"),
    (frozenset({"marsh"}), "soft", SRC_TERRAIN_COVER, "Marshes and river banks are classed as soft cover"),
    (
        frozenset({"river-bank"}),
        "soft",
        SRC_TERRAIN_COVER,
        "Marshes and river banks are classed as soft cover",
    ),
)
# "Experienced and Veteran troops in what would otherwise be deemed Open Ground are classed as being in
# Soft Cover at all times"; "All Storm troop battalions are veteran." (TROOP QUALITY)
FIELD_CRAFT: frozenset[str] = frozenset({"experienced", "veteran", "storm"})
FIELD_CRAFT_LINE = (
    "Experienced and Veteran troops in what would otherwise be deemed Open Ground are classed as being in "
    "Soft Cover at all times"
)


# Who counts as in the open whatever the troops' quality (TYPES OF COVER names "troops"; these are read
# before field craft): troops stuck on wire, cavalry out of woods and built-up areas, and tanks, whose armour
# table has only its "In Open" and "In Cover" columns.
WIRE_LINE = "If the test is failed then the troops may not cross and count as being in the open"
CAVALRY_KINDS = frozenset({"cavalry-troop"})
CAVALRY_COVER_KINDS = frozenset({"woods", "village"})
CAVALRY_LINE = "Cavalry always count as in the open unless in a wood or built up area."
TANK_KINDS = frozenset({"tank"})
TANK_LINE = 'SHOOTING WHEN TARGET IS ARMOUR: "In Open", "In Cover" (field craft is for troops)'
ROAD_LINE = "Open ground also covers troops marching in close order on roads."


@dataclass(frozen=True)
class CoverReading:
    """A stand's cover, the rule that gives it and the line it quotes."""

    cover: Cover
    source: str
    line: str


def cover_reading(
    feature_kinds: Iterable[str],
    quality: Quality | str | None = None,
    unit_kind: str | None = None,
    *,
    on_wire: bool = False,
    road_march_open: bool = False,
) -> CoverReading:
    """The cover of a stand of `unit_kind` standing in these terrain kinds. Kinds that give no cover (hill,
    road, stream, river, shell-torn, shattered, wire) leave it in the open; `road_march_open` is the reading
    of erratum road-march-cover that troops on a road are in the open whatever their quality."""
    kinds = set(feature_kinds)
    if on_wire:
        return CoverReading("open", SRC_WIRE, WIRE_LINE)
    if unit_kind in CAVALRY_KINDS and not kinds & CAVALRY_COVER_KINDS:
        return CoverReading("open", SRC_CAVALRY, CAVALRY_LINE)
    for needs, cover, src, line in COVER_RULES:
        if needs <= kinds:
            return CoverReading(cover, src, line)
    if unit_kind in TANK_KINDS:
        return CoverReading("open", SRC_ARMOUR, TANK_LINE)
    if road_march_open and "road" in kinds:
        return CoverReading("open", SRC_TYPES_OF_COVER, ROAD_LINE)
    if quality in FIELD_CRAFT:
        return CoverReading("soft", SRC_TYPES_OF_COVER, FIELD_CRAFT_LINE)
    return CoverReading("open", SRC_TYPES_OF_COVER, "Open Ground (No Cover)")


def cover_for(feature_kinds: Iterable[str], quality: Quality | str | None = None) -> Cover:
    """The cover of troops of this quality standing in these terrain kinds."""
    return cover_reading(feature_kinds, quality).cover


def cover_source(feature_kinds: Iterable[str], quality: Quality | str | None = None) -> str:
    return cover_reading(feature_kinds, quality).source


class CoverRuleRow(TypedDict):
    """A cover rule: the terrain kinds all under the stand, the cover they give, the rule and its line."""

    kinds: list[str]
    cover: str
    source: str
    text: str


class CoverByTarget(TypedDict):
    """A target whose cover is read before the terrain: what it is, its cover, the rule and its line."""

    target: str
    cover: str
    source: str
    text: str


class CoverClasses(TypedDict):
    """The cover rules in order, open ground's cover by quality (with the rule and its line), how the rules
    are read, and the targets read first."""

    rules: list[CoverRuleRow]
    open_ground: dict[str, str]
    order: str
    by_target: list[CoverByTarget]


def cover_classes(_period: str | None = None) -> CoverClasses:
    return {
        "rules": [
            {"kinds": sorted(needs), "cover": cover, "source": src, "text": line}
            for needs, cover, src, line in COVER_RULES
        ],
        "open_ground": {
            "raw": "open",
            **{q: "soft" for q in sorted(FIELD_CRAFT)},
            "source": SRC_TYPES_OF_COVER,
            "text": FIELD_CRAFT_LINE,
        },
        "order": "the first rule whose kinds are all under the stand applies",
        # What the target is, read before the terrain (troops on wire, cavalry) or before field craft (tanks).
        "by_target": [
            {"target": "troops stuck on wire", "cover": "open", "source": SRC_WIRE, "text": WIRE_LINE},
            {
                "target": "cavalry out of woods and villages",
                "cover": "open",
                "source": SRC_CAVALRY,
                "text": CAVALRY_LINE,
            },
            {"target": "tanks in open ground", "cover": "open", "source": SRC_ARMOUR, "text": TANK_LINE},
        ],
    }


FlandersFields.dataset("cover-classes", "Cover: which terrain (and combinations) gives which cover")(
    cover_classes
)

# The errata the table's geometry reads (rules/flanders_fields/errata/), named here for the endpoints.
__all__ = [
    "BLOCKHOUSE_RANGE",
    "MG_ARC",
    "MOVE_MIXED_TERRAIN",
    "TURN_COST",
    "cover_classes",
    "cover_for",
]
