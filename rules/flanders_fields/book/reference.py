"""Reference data served read-only: weapon ranges, arcs of fire, target priority, tanks, block houses,
template areas, superimposed and defending artillery, and formation spacing by quality.

Each value quotes the rule book; block house range and the light mortar partial-cover penalty are errata.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from rules.flanders_fields import errata
from rules.flanders_fields.book import tables as T
from rules.flanders_fields.book.table_sizes import TEMPLATES
from rules.flanders_fields.errata import SRC_BARRAGE_DANGER
from rules.flanders_fields.resolvers.barrage import DANGER_ZONE_CM
from rules.flanders_fields.ruleset import FlandersFields, cite

RANGES = T.SRC_RANGES
ARCS = cite("RANGED COMBAT, ARCS OF FIRE")
PRIORITY = cite("RANGED COMBAT, TARGET PRIORITY")
TANKS = cite("TANKS")
BLOCK_HOUSES = cite("BLOCK HOUSES")
FORMATIONS = cite("BASING AND ORGANISING TROOPS, PERMITTED FORMATIONS")


def _ctx(variants: Mapping[str, str] | None = None) -> Any:
    return FlandersFields().context("late", variants)


def weapon_ranges(variants: Mapping[str, str] | None = None) -> dict[str, T.WeaponRangeDict]:
    ctx = _ctx(variants)
    out: dict[str, T.WeaponRangeDict] = {
        k: {**v.as_dict(), "source": RANGES} for k, v in T.WEAPON_RANGES.items()
    }
    out["block-house"] = {
        **out["block-house"],
        "max_cm": ctx.value(errata.BLOCKHOUSE_RANGE),
        "source": ctx.citation(errata.BLOCKHOUSE_RANGE),
    }
    return out


class ArcOfFire(TypedDict):
    """One line of ARCS OF FIRE: the arc's shape and the numbers its text gives (`source` where served)."""

    arc: str
    extra_each_side_cm: NotRequired[int]
    may_reface: NotRequired[dict[str, bool]]
    arc_deg: NotRequired[int]
    fire_zone_width_cm: NotRequired[int]
    max_targets: NotRequired[int]
    free_pivot_deg: NotRequired[int]
    faces: NotRequired[list[str]]
    see: NotRequired[str]
    text: str
    source: NotRequired[str]


# ARCS OF FIRE: "Troops and weapons have specific arcs of fire ... without requiring an order to reface."
ARCS_OF_FIRE: dict[str, ArcOfFire] = {
    "infantry-lmg": {
        "arc": "frontal",
        "extra_each_side_cm": 10,
        "text": "Straight ahead the width of the unit plus 10cm on each side.",
    },
    "field-heavy-artillery": {
        "arc": "frontal",
        "extra_each_side_cm": 10,
        "text": "Straight ahead the width of the model plus 10cm on each side",
    },
    "mortar": {
        "arc": "frontal",
        "extra_each_side_cm": 5,
        "may_reface": {"light": True, "medium": False, "heavy": False},
        "text": "Straight ahead the width of the unit plus 5cm on each side. NB during a game Heavy mortars may "
        "NOT be refaced as they had very limited arcs.",
    },
    "machine-gun": {
        "arc": "cone",
        "arc_deg": 45,
        "fire_zone_width_cm": T.MG_LANE_WIDTH_CM,
        "max_targets": T.BEATEN_ZONE_TARGETS,
        "free_pivot_deg": 45,
        "text": "45o Arc, fire zone is 2cm wide, up to 3 targets in beaten zone may be hit. Model may pivot up "
        "to 45o as part of a fire action, pivoting more than 45o requires a separate movement action.",
    },
    "tank": {"arc": "by-type", "text": "Dependent on type of machine, see below", "see": "tank-types"},
    "block-house": {
        "arc": "per-face",
        "arc_deg": 45,
        "faces": ["front", "left", "right"],
        "text": "45o to front and sides; Block houses have an arc of fire of 45 degrees from each face "
        "calculated at the corners.",
    },
}
# "If present in a game medium and heavy mortars may not be refaced" (MORTARS) extends the arc note.
MORTAR_REFACE = cite("TROOP TYPES, MORTARS")


class TargetRule(TypedDict):
    """One rank of TARGET PRIORITY: the rule, the distance it names where it names one, and its text."""

    rank: int
    rule: str
    within_cm: NotRequired[int]
    text: str


TARGET_PRIORITY: tuple[TargetRule, ...] = (
    {"rank": 1, "rule": "closest", "text": "Closest Enemy"},
    {"rank": 2, "rule": "in-arc-within", "within_cm": 15, "text": "Any enemy in arc within 15cm."},
    {
        "rank": 3,
        "rule": "straight-ahead-within",
        "within_cm": 30,
        "text": "Enemy straight ahead within 30cm.",
    },
    {"rank": 4, "rule": "in-arc", "text": "Other enemy within arc."},
)


class TankTarget(TypedDict):
    """How many targets a tank engages, where and with which weapon."""

    count: int
    where: str
    weapon: str


class TankTypeDict(TypedDict):
    """A tank type as the dataset serves it: its fields and the rule it cites."""

    id: str
    nation: str
    name: str
    weight_class: str
    guns: tuple[str, ...]
    max_range_cm: int
    move_and_fire: bool
    move_fire_penalty: int | None
    targets: tuple[TankTarget, ...]
    text: str
    source: str


@dataclass(frozen=True)
class TankType:
    id: str
    nation: str
    name: str
    weight_class: str  # heavy or light
    guns: tuple[str, ...]
    max_range_cm: int
    move_and_fire: bool
    move_fire_penalty: int | None
    targets: tuple[TankTarget, ...]
    text: str

    def as_dict(self) -> TankTypeDict:
        return {
            "id": self.id,
            "nation": self.nation,
            "name": self.name,
            "weight_class": self.weight_class,
            "guns": self.guns,
            "max_range_cm": self.max_range_cm,
            "move_and_fire": self.move_and_fire,
            "move_fire_penalty": self.move_fire_penalty,
            "targets": tuple(TankTarget(**t) for t in self.targets),
            "text": self.text,
            "source": TANKS,
        }


TANK_TYPES: dict[str, TankType] = {
    t.id: t
    for t in (
        TankType(
            "british-male",
            "british",
            "British Heavy Tank (male)",
            "heavy",
            ("2 x 6pdr", "3 x LMG"),
            30,
            False,
            None,
            ({"count": 2, "where": "flanks or front", "weapon": "any"},),
            "British Heavy Tank (male) 2 x 6ld and 3 x LMG Max range 30cm. May NOT Move and fire. May engage up "
            "to 2 targets to flanks or front.",
        ),
        TankType(
            "british-female",
            "british",
            "Heavy Tank (female)",
            "heavy",
            ("4 x LMG",),
            30,
            True,
            -1,
            ({"count": 2, "where": "flanks or front", "weapon": "lmg"},),
            "Heavy Tank (female) 4 x LMG Max range 30cm. May Move and fire. May engage up to 2 targets to flanks "
            "or front as LMG -1 to fire effect if moved.",
        ),
        TankType(
            "whippet",
            "british",
            "Whippet Light Tank",
            "light",
            ("4 x LMG",),
            30,
            True,
            -1,
            (
                {"count": 1, "where": "left", "weapon": "lmg"},
                {"count": 1, "where": "right", "weapon": "lmg"},
                {"count": 1, "where": "front", "weapon": "lmg"},
            ),
            "Whippet Light Tank 4 x LMG Max range 30cm. May Move and fire. May engage up to 1 targets to each "
            "side, and front as LMG -1 to fire effect if moved",
        ),
        TankType(
            "st-chamond",
            "french",
            "St. Chamond Heavy Tank",
            "heavy",
            ("1 x 75mm field gun", "4 x LMG"),
            30,
            False,
            None,
            (
                {"count": 1, "where": "front", "weapon": "75mm (tank fire)"},
                {"count": 1, "where": "left", "weapon": "lmg"},
                {"count": 1, "where": "right", "weapon": "lmg"},
            ),
            "St. Chamond Heavy Tank 1 x 75mm field gun, 4 x LMG May engage 1 target to the front with 75mm as "
            '"Tank Fire" and up to 1 to each side as LMG, max range 30. May NOT Move and fire',
        ),
        TankType(
            "renault",
            "french",
            "Renault Light Tank",
            "light",
            ("1 x 37mm gun or 1 x LMG",),
            30,
            True,
            None,
            ({"count": 1, "where": "any direction", "weapon": "37mm or lmg"},),
            "Renault Light Tank 1 x 37mm gun or 1 x LMG. May engage 1 target in any direction as appropriate "
            "weapon, max range 30cm. LMG armed may Move and fire but only once.",
        ),
        TankType(
            "a7v",
            "german",
            "A7V",
            "heavy",
            ("1 x 57mm gun", "multiple LMGs"),
            30,
            False,
            None,
            (
                {"count": 1, "where": "front", "weapon": "57mm (tank gun)"},
                {"count": 1, "where": "left", "weapon": "lmg"},
                {"count": 1, "where": "right", "weapon": "lmg"},
            ),
            'A7V 1 x 57mm gun and multiple LMGs May engage 1 target to front with "tank gun" and 1 to each side '
            "using LMGs, max range 30cm. May NOT Move and fire",
        ),
    )
}
TANK_NOTES = (
    "British female and whippet tanks armed only with LMGs may fire on the move, in effect at the end of their "
    "movement but the fire has a penalty of -1 when rolling for effect.",
    "Renault: LMG armed may Move and fire but only once (the 37mm gun may not).",
    "Captured British and French machines as above",
    'For game purposes in "Flanders Fields" tanks are split into two types, Heavy and Light.',
)


class BlockHouseRules(TypedDict):
    """BLOCK HOUSES: who orders them, which faces fire and how, and the rule's lines."""

    command: str
    ordered: str
    faces_that_fire: list[str]
    arc_deg_per_face: int
    fires_as: str
    beaten_zone_cm: int
    cover: str
    text: list[str]


class BlockHouses(BlockHouseRules):
    """BLOCK HOUSES with the range in force (an erratum) and the rules it cites."""

    max_range_cm: int
    sources: list[str]


BLOCK_HOUSE_RULES: BlockHouseRules = {
    "command": "regimental",
    "ordered": "individually in the Regimental Command phase, before battalion orders",
    "faces_that_fire": ["front", "left", "right"],
    "arc_deg_per_face": 45,
    "fires_as": "machine-gun",
    "beaten_zone_cm": T.BEATEN_ZONE_CM["blockhouse"],
    "cover": "fortified",
    "text": [
        "Block Houses come under Regimental command and so fire before battalion orders take place.",
        "They may fire from any or all of their front or side faces for any single order received, each block "
        "house is ordered individually in the Regimental Command phase of the turn.",
        "Block houses have an arc of fire of 45 degrees from each face calculated at the corners.",
        "Block Houses fire as machineguns but with a reduced range of 45cm and a reduced beaten zone of 10cm",
        "NB a block house in a village remains Fortified position.",
        "Non battalion crewed weapons and block houses roll separately when their supporting rifle battalion "
        "routs or is destroyed.",
    ],
}


def block_houses(variants: Mapping[str, str] | None = None) -> BlockHouses:
    ctx = _ctx(variants)
    return {
        **BLOCK_HOUSE_RULES,
        "max_range_cm": ctx.value(errata.BLOCKHOUSE_RANGE),
        "sources": [BLOCK_HOUSES, ctx.citation(errata.BLOCKHOUSE_RANGE)],
    }


# Partial-coverage penalties; template sizes come from rules.table.templates.
PARTIAL = cite("ARTILLERY BATTERIES AREA OF EFFECT")
MORTAR_AREA = cite("MORTAR AREA OF EFFECT")


class TemplateArea(TypedDict):
    """A template's area of effect: its size and source, the penalty for a base partly under it, and what the
    rules add for some kinds (per gun, the barrage's danger zone and advance)."""

    width_cm: float
    depth_cm: float
    across_table: bool
    source: str
    partial_modifier: NotRequired[int | None]
    partial_source: NotRequired[str]
    per_gun: NotRequired[bool]
    note: NotRequired[str]
    danger_zone_cm: NotRequired[int]
    danger_source: NotRequired[str]
    advance_cm: NotRequired[float]


def template_areas(variants: Mapping[str, str] | None = None) -> dict[str, TemplateArea]:
    ctx = _ctx(variants)
    partial: dict[str, tuple[int | None, str]] = {
        # "if the platoon or weapon falls only partially within the area of effect it is attacked at -2"
        "artillery": (-2, PARTIAL),
        "mg-indirect": (-2, PARTIAL),
        "sos": (-2, PARTIAL),
        "light-mortar": (ctx.value(errata.LIGHT_MORTAR_PARTIAL), ctx.citation(errata.LIGHT_MORTAR_PARTIAL)),
        # "bases not fully covered by the blast template are attacked at -2"
        "medium-mortar": (-2, MORTAR_AREA),
        "heavy-mortar": (-2, MORTAR_AREA),
    }
    out: dict[str, TemplateArea] = {}
    for kind, t in TEMPLATES.items():
        entry: TemplateArea = {
            "width_cm": t.width_cm,
            "depth_cm": t.depth_cm,
            "across_table": t.across_table,
            "source": t.source,
        }
        if kind in partial:
            entry["partial_modifier"], entry["partial_source"] = partial[kind]
        out[kind] = entry
    out["mg-indirect"]["per_gun"] = True
    out["mg-indirect"]["note"] = (
        "a machine gun platoon of 1 model covers an area of 2x10cm while a Machine Gun company of 4 models "
        "covers an area equal to four individual machine guns."
    )
    out["rolling-barrage"]["danger_zone_cm"] = DANGER_ZONE_CM
    out["rolling-barrage"]["danger_source"] = SRC_BARRAGE_DANGER
    # "It advances its own width at the start of the attacking side's turn" (the 20 cm band is its depth here)
    out["rolling-barrage"]["advance_cm"] = TEMPLATES["rolling-barrage"].depth_cm
    return out


SUPERIMPOSED = cite("SUPERIMPOSED ARTILLERY")
DEFENDING = cite("DEFENDING ARTILLERY")


class SuperimposedAllowance(TypedDict):
    """SUPERIMPOSED ARTILLERY: from when, how many batteries of each weight per regiment or division."""

    from_period: str
    field_batteries_per_regiment: int
    heavy_batteries_per_two_regiments: int
    super_heavy_batteries_whole_division: int
    side: str
    text: str
    source: str


class DefendingAllowance(TypedDict):
    """DEFENDING ARTILLERY: how many brigades of each weight per regiment."""

    field_artillery_brigades_per_regiment: int
    heavy_artillery_brigades_per_two_regiments: int
    super_heavy: bool
    side: str
    text: str
    source: str


class ArtilleryAllowances(TypedDict):
    superimposed: SuperimposedAllowance
    defending: DefendingAllowance


ARTILLERY_ALLOWANCES: ArtilleryAllowances = {
    "superimposed": {
        "from_period": "late",
        "field_batteries_per_regiment": 1,
        "heavy_batteries_per_two_regiments": 1,
        "super_heavy_batteries_whole_division": 1,
        "side": "attacker",
        "text": "From mid 1917 onwards each Regiment may be allocated a Superimposed Field battery and a further "
        "heavy battery may be allocated for every two regiments/brigades. A single Super Heavy battery may "
        "be allocated if a game is played using an entire division.",
        "source": SUPERIMPOSED,
    },
    "defending": {
        "field_artillery_brigades_per_regiment": 1,
        "heavy_artillery_brigades_per_two_regiments": 1,
        "super_heavy": False,
        "side": "defender",
        "text": "Defending artillery should be allocated along divisional lines with about one brigade of field "
        "artillery per regiment and one brigade of heavy artillery per two Regiments. Super-heavy artillery "
        "is not generally available to defenders",
        "source": DEFENDING,
    },
}


def superimposed_allowance(regiments: int, whole_division: bool) -> dict[str, int]:
    """Batteries an attacker may superimpose (mid 1917 on): a field battery per regiment, a heavy battery
    per two regiments, one super heavy battery when a whole division is played."""
    return {"field": regiments, "heavy": regiments // 2, "super_heavy": 1 if whole_division else 0}


def defending_allowance(regiments: int) -> dict[str, int]:
    """Artillery brigades for a defender: about one field brigade per regiment and one heavy brigade per two
    regiments; no super heavy."""
    return {"field_brigades": regiments, "heavy_brigades": regiments // 2, "super_heavy": 0}


# PERMITTED FORMATIONS: "The platoon stands of RAW troops must maintain contact other stands of the same
# company, the stands of EXPERIENCED troops may maintain up to 5cm between them and the platoons of Veteran
# troops may maintain up to 10cm between themselves." "All Storm troop battalions are veteran."
FORMATION_SPACING_CM: dict[str, int] = {"raw": 0, "experienced": 5, "veteran": 10, "storm": 10}


class Formations(TypedDict):
    """PERMITTED FORMATIONS: the gap each quality may keep, close formation, regrouping, turning about."""

    max_gap_cm: dict[str, int]
    close_formation: str
    regroup: str
    turn_180_cm: int
    sources: list[str]


class TargetPriority(TypedDict):
    priority: list[TargetRule]
    source: str


class TankTypes(TypedDict):
    types: list[TankTypeDict]
    notes: list[str]
    source: str


def formations() -> Formations:
    return {
        "max_gap_cm": dict(FORMATION_SPACING_CM),
        "close_formation": "It is permissible to place a base immediately behind another base and claim that the "
        "troops are in close formation ... will potentially increase casualties from artillery and other area "
        "effect weapons.",
        "regroup": "if platoons find themselves breaking the above rule they will automatically move towards "
        "each other at the start of their next movement phase ... any such movement should be deducted from "
        "the unit's overall move.",
        "turn_180_cm": 3,
        "sources": [FORMATIONS, cite("TROOP QUALITY, VETERAN"), cite("MANOEUVRING FIGURES")],
    }


@FlandersFields.dataset("weapon-ranges", "Maximum effective ranges and beaten zones")
def _weapon_ranges(period: str | None) -> dict[str, T.WeaponRangeDict]:
    return weapon_ranges()


@FlandersFields.dataset("arcs-of-fire", "Arcs of fire by troop and weapon type")
def _arcs(period: str | None) -> dict[str, ArcOfFire]:
    return {k: {**v, "source": ARCS} for k, v in ARCS_OF_FIRE.items()}


@FlandersFields.dataset("target-priority", "The order in which troops choose their targets")
def _priority(period: str | None) -> TargetPriority:
    return {"priority": list(TARGET_PRIORITY), "source": PRIORITY}


@FlandersFields.dataset("tank-types", "Tank types: guns, targets, range, move and fire")
def _tanks(period: str | None) -> TankTypes:
    return {"types": [t.as_dict() for t in TANK_TYPES.values()], "notes": list(TANK_NOTES), "source": TANKS}


@FlandersFields.dataset("block-houses", "Block houses: command, arcs, range, beaten zone")
def _block_houses(period: str | None) -> BlockHouses:
    return block_houses()


@FlandersFields.dataset(
    "template-areas", "Areas of effect: artillery, SOS, mortars, MG indirect, barrage, gas"
)
def _templates(period: str | None) -> dict[str, TemplateArea]:
    return template_areas()


@FlandersFields.dataset("artillery-allowances", "Superimposed and defending artillery allowances")
def _allowances(period: str | None) -> ArtilleryAllowances:
    return ARTILLERY_ALLOWANCES


@FlandersFields.dataset("formations", "Formation spacing by troop quality")
def _formations(period: str | None) -> Formations:
    return formations()
