"""2mm Earth 1418 tables as data, each tested against the rule text: high commands, digging in, the
cover/resilience table, speeds and terrain percentages, the unit characteristics, bound order."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from typing_extensions import TypedDict

from rules.core.ruleset import Erratum, Reading
from rules.earth2mm.ruleset import Earth2mm, cite

Command = Literal["advance", "hold", "assault", "retreat"]
COMMANDS: tuple[Command, ...] = ("advance", "hold", "assault", "retreat")
Situation = Literal["dug-in-safe", "dug-in-under-fire", "not-dug-in-safe", "not-dug-in-under-fire"]
SITUATIONS: tuple[Situation, ...] = (
    "dug-in-safe",
    "dug-in-under-fire",
    "not-dug-in-safe",
    "not-dug-in-under-fire",
)
Plan = Literal["move", "stay put", "find cover", "assault", "retreat"]

SRC_COMMANDS = cite("HIGH COMMANDS")
SRC_ORDER = cite("PLANNING & EXECUTING")
SRC_ARMING = cite("ARMING and RESILIENCE")
SRC_HEAVY = cite("HEAVY WEAPONS")
SRC_COVER = cite("DIGGING IN & COVER")
SRC_ASSAULT = cite("ASSAULTING & MELEE COMBAT")
SRC_UNITS = cite("characteristics chart (SPEED ARMING m/r RESILIENCE RANGE)")
SRC_VEHICLES = cite("SPECIAL TROOP TYPES: VEHICLES")
SRC_TRANSPORT = cite("SPECIAL TROOP TYPES: Transport Bonuses")
SRC_ARTILLERY = cite("ARTILLERY")
SRC_SMOKE = cite("SMOKE SCREENS & POISON GAS")
# The errata quote the extracted text's lines (one paragraph per line).
SRC_BONUS_LINE = cite("HEAVY WEAPONS (line 212)")
SRC_RECOVERY_LINE = cite("ARMING and RESILIENCE (line 212)")
SRC_COVER_LINE = cite("DIGGING IN & COVER (line 214)")
SRC_MOVE_LINE = cite("DIGGING IN & COVER, movement (line 214)")
SRC_TRANSPORT_LINE = cite("SPECIAL TROOP TYPES: Transport Bonuses (line 218)")

# High commands chart, read column by command. The text runs: "Move Stay put Move Move | Stay put Stay put
# Stay put Find cover | Find cover Assault Assault Assault Assault or Find cover | Retreat Retreat Retreat
# Retreat or Find cover": the ASSAULT column has five entries for four cells (see erratum assault-column).
_ASSAULT_BY_EXAMPLE: tuple[tuple[Plan, ...], ...] = (
    ("assault",),
    ("find cover",),
    ("assault",),
    ("assault", "find cover"),
)
_ASSAULT_BY_ORDER: tuple[tuple[Plan, ...], ...] = (
    ("find cover",),
    ("assault",),
    ("assault",),
    ("assault", "find cover"),
)
PLANS: dict[Command, tuple[tuple[Plan, ...], ...]] = {
    "advance": (("move",), ("stay put",), ("move",), ("move",)),
    "hold": (("stay put",), ("stay put",), ("stay put",), ("find cover",)),
    "assault": _ASSAULT_BY_EXAMPLE,
    "retreat": (("retreat",), ("retreat",), ("retreat",), ("retreat", "find cover")),
}

# "(Can choose to dig in?) Yes but -1R if attacked | Yes but -1R if attacked | No | No"
DIG_IN: dict[Command, bool] = {"advance": True, "hold": True, "assault": False, "retreat": False}
DIGGING_PENALTY = -1

Terrain = Literal["open", "rough", "defensible", "fortification"]
TERRAINS: tuple[Terrain, ...] = ("open", "rough", "defensible", "fortification")
Posture = Literal["moving", "stationary", "digging", "dug-in"]
POSTURES: tuple[Posture, ...] = ("moving", "stationary", "digging", "dug-in")
# "Moving Stationary Dug in: Open -3R -2R (R) Rough -2R -1R +1R Defensible +1R +1R +2R Fortification +2R +2R +3R"
COVER: dict[Terrain, tuple[int, int, int]] = {
    "open": (-3, -2, 0),
    "rough": (-2, -1, 1),
    "defensible": (1, 1, 2),
    "fortification": (2, 2, 3),
}
COVER_POSTURE_INDEX = {"moving": 0, "stationary": 1, "digging": 1, "dug-in": 2}

SpeedClass = Literal["slow-inf", "medium-inf", "fast-inf", "slow-cav", "medium-cav", "fast-cav", "immobile"]
# "Slow infantry 4cm (40 scale metres) Medium infantry 6cm Fast infantry 8cm Slow cavalry 8 cm Medium cavalry
# 12cm Fast cavalry 16cm"
SPEEDS_CM: dict[SpeedClass, int] = {
    "slow-inf": 4,
    "medium-inf": 6,
    "fast-inf": 8,
    "slow-cav": 8,
    "medium-cav": 12,
    "fast-cav": 16,
    "immobile": 0,
}
SCALE_M_PER_CM = 10  # "4cm (40 scale metres)"
MoveTerrain = Literal["road", "open", "rough", "impractical"]
# "on an intact road = (+25% distance) ... open terrain = (normal distance) ... rough terrain = (-25%
# distance) ... impractical terrain = (-75% distance)"
MOVE_PERCENT: dict[MoveTerrain, int] = {"road": 25, "open": 0, "rough": -25, "impractical": -75}
ASSAULT_PERCENT = 100  # "Assaulting (after all terrain modifiers) = (+100% distance)"
ASSAULT_REACH_M = 300  # "An Assault can only be directed directly towards an enemy within 300m"
ASSAULT_DICE = -1  # "shooting is done with -1A [one less die] than usual"
TRANSPORT_PERCENT = 50  # "Motorised and mechanised transported units move at (+50%)"
TRANSPORT_MAX_CM = 12  # "(to a maximum total of 12cm)"


@dataclass(frozen=True)
class Arming:
    dice: int
    bonus: int = 0

    @classmethod
    def parse(cls, text: str) -> Arming:
        m = re.fullmatch(r"(\d+)(?:\(\+(\d+)\))?", text)
        if not m:
            raise ValueError(f"bad arming {text!r}")
        return cls(int(m.group(1)), int(m.group(2) or 0))


UnitKind = Literal["infantry", "cavalry", "heavy-weapon", "vehicle", "artillery", "command"]


class UnitTypeRow(TypedDict):
    """A unit type as the characteristics chart prints it (the dataset `units`)."""

    id: str
    name: str
    speed: SpeedClass
    speed_cm: int
    arming: str
    melee_dice: int
    melee_bonus: int
    ranged_dice: int
    ranged_bonus: int
    resilience: int | str
    range_m: str
    kind: UnitKind


@dataclass(frozen=True)
class UnitType:
    id: str
    name: str
    speed: SpeedClass
    melee: Arming
    ranged: Arming
    resilience: int | None  # None: "As S.F." (the parent formation's)
    range_m: str
    kind: UnitKind

    def as_dict(self) -> UnitTypeRow:
        return {
            "id": self.id,
            "name": self.name,
            "speed": self.speed,
            "speed_cm": SPEEDS_CM[self.speed],
            "arming": f"{_fmt(self.melee)}/{_fmt(self.ranged)}",
            "melee_dice": self.melee.dice,
            "melee_bonus": self.melee.bonus,
            "ranged_dice": self.ranged.dice,
            "ranged_bonus": self.ranged.bonus,
            "resilience": self.resilience if self.resilience is not None else "As S.F.",
            "range_m": self.range_m,
            "kind": self.kind,
        }


def _fmt(a: Arming) -> str:
    return f"{a.dice}(+{a.bonus})" if a.bonus else str(a.dice)


_SPEED_NAMES: dict[str, SpeedClass] = {
    "Slow Inf": "slow-inf",
    "Medium Inf": "medium-inf",
    "Fast Inf": "fast-inf",
    "Medium Cav": "medium-cav",
    "Fast Cav": "fast-cav",
    "": "immobile",
}
# The characteristics chart, one line per row as extracted: name | speed | arming m/r | resilience | range.
_CHART = """\
reserve-inf|Reserve inf|Medium Inf|2/1|3|300|infantry
line-inf|Line/good inf|Medium Inf|2/1|4|300|infantry
elite-inf|Elite (rare) inf|Medium Inf|2/1|5|400|infantry
command|Command|Slow Inf|1/1|As S.F.|100|command
machineguns|Machineguns x1/2|Slow Inf|1/3(+1)|As S.F.|800|heavy-weapon
early-mortar|Early mortar|Slow Inf|1/2(+1)|As S.F.|1200|heavy-weapon
melee-cav|Melee only cav|Fast Cav|3/0|3|0|cavalry
mixed-cav|Mixed cavalry|Fast Cav|3/1|3|50|cavalry
mounted-rifles|Mounted rifles|Medium Cav|2/1|3|300/100|cavalry
lmg-squad|LMG Squad (x2/3)|Medium Inf|1/2|As S.F.|400|infantry
smg-squads|1-3 SMG Squads|Medium Inf|2/2|As S.F.|150|infantry
grenadier-squads|Grenadier Squads|Medium Inf|3(+1)/2|As S.F.|150|infantry
mother-tank|Mother Tank (x2)|Slow Inf|0/3(+2)|6|400|vehicle
whippets|Medium/Whippets|Fast Inf|0/1(+1)|5|200|vehicle
field-guns|75/77 Field Guns|Slow Inf|0/2(+1)|4|2000|artillery
light-howitzers|105 Lt Howitzers|Slow Inf|0/2(+2)|4|Infinite|artillery
howitzers-120|120 Howitzers|Slow Inf|0/2(+3)|4|Infinite|artillery
very-heavy-guns|Very Heavy Guns (Immobile)||0/3(+4)|4|Infinite|artillery"""


def _units() -> dict[str, UnitType]:
    out: dict[str, UnitType] = {}
    for line in _CHART.splitlines():
        uid, name, speed, arming, res, rng, kind = line.split("|")
        m, r = arming.split("/")
        out[uid] = UnitType(
            uid,
            name,
            _SPEED_NAMES[speed],
            Arming.parse(m),
            Arming.parse(r),
            None if res == "As S.F." else int(res),
            rng,
            kind,  # type: ignore[arg-type]
        )
    return out


UNITS: dict[str, UnitType] = _units()
UNIT_IDS: tuple[str, ...] = tuple(UNITS)
# "Short-term Gas (3 + Wind) Target suffers -1A -1R Special"
GAS_ARMING = -1
GAS_RESILIENCE = -1

# The bound (PLANNING and EXECUTING lists, in order).
PLANNING_ORDER: tuple[str, ...] = (
    "Naval and railway artillery plan shooting (Anon)",
    "All normal Artillery plans shooting (Anon)",
    "Reserve SF sub-units plan moving and shooting (Mark)",
    "Line SF sub-units plan moving and shooting (Mark)",
    "All Heavy Weapons plan moving and shooting (Mark)",
    "Elite SF sub-units plan moving and shooting (Mark)",
)
EXECUTING_ORDER: tuple[str, ...] = (
    "All dug in (for 1 bound or longer) Artillery and Heavy Weapons, now shoot.",
    "All Artillery and Heavy Weapons who did not move or dig in last turn, now shoot.",
    "Dug in infantry planning to leave their position are now marked to show they have begun to leave the dugout.",
    "Dug in infantry (regardless of how long they have been dug in for) who are NOT assaulting, now shoot.",
    "Infantry who are not dug in and are NOT assaulting, now shoot.",
    "Assaulting infantry move their full distance",
    "Infantry moving normally move their full distance",
    "Dug-in infantry now move their full distance",
    "Infantry who are assaulting now shoot",
    "Naval and railway artillery shots are worked out",
)
BOUND: tuple[str, ...] = (
    "High commands given to Strategic Formations",
    "Plan moving and shooting with sub-units",
    "Execute moving and shooting as shown in Order chart.",
    "Resolve melee using the m side of Arming m/r",
    "Start new bound.",
)

# Templates (inches as written; the geometry works in cm).
CM_PER_INCH = Fraction(254, 100)
BOMBARDMENT_DIAMETER_IN = 3  # "Place a bombardment circle (diameter 3")"
CORDON_LENGTH_PER_BATTERY_IN = 3  # "a cordon of smoke, 3" long for every battery firing"
CORDON_DRIFT_IN = 3  # "will travel 3" in that direction at the end of each bound"
GRID_SQUARE_MIN_IN = 6  # "grid squares should be minimum 6"x6" in size"


def _plans_by_situation(column: tuple[tuple[Plan, ...], ...]) -> dict[str, list[str]]:
    """A reading of the ASSAULT column as the erratum holds it (a table of names by situation, as a reading's
    value is typed: rules.core.ruleset.ReadingValue)."""
    return {s: list(p) for s, p in zip(SITUATIONS, column, strict=True)}


Earth2mm.add_errata(
    Erratum(
        "assault-column",
        "The ASSAULT column of the high commands chart",
        (
            Reading(
                "by-example",
                "Dug in & safe: Assault; dug in & under fire: Find cover (already in the best cover, it stays "
                "put, as the 81st Reserve Battalion example says); not dug in & safe: Assault; not dug in & "
                "under fire: Assault or Find cover (the example's other companies).",
                SRC_COMMANDS,
                _plans_by_situation(_ASSAULT_BY_EXAMPLE),
            ),
            Reading(
                "text-order",
                "The extraction's order: Find cover, Assault, Assault, Assault or Find cover (one surplus "
                "'Assault' dropped).",
                SRC_COMMANDS,
                _plans_by_situation(_ASSAULT_BY_ORDER),
            ),
        ),
        default="by-example",
        note="The column has five entries for four cells in the extracted text.",
    ),
    Erratum(
        "bonus-which-die",
        "Which die the (+#) bonus is added to: 'a number added to one of the die that they roll'",
        (
            Reading(
                "best-die",
                "'The + bonus is a number added to one of the die that they roll (or their only die if they "
                "have A1)': added after the roll, to the die it helps most (a miss it lifts to a hit). A "
                "Machinegun pair (3 dice, +1) hits R7 unless no die shows a 6: 1 - (5/6)^3 = 91/216.",
                SRC_BONUS_LINE,
                "best",
            ),
            Reading(
                "designated-die",
                "'added to one of the die that they roll': one die is marked before the roll (another colour; "
                "here the first die given) and only it carries the bonus. A Machinegun pair hits R7 only when "
                "the marked die shows a 6: 1/6.",
                SRC_BONUS_LINE,
                "designated",
            ),
        ),
        default="best-die",
        note="The text says 'one of the die' and not which, nor when it is chosen. The default lets the "
        "shooter choose after the roll, as a player reading 'added to one of the die that they roll' would; "
        "the designated die is the stricter reading of the same words. With one die (A1) they agree.",
    ),
    Erratum(
        "bonus-die",
        "Whether the (+#) bonus also applies when hits are re-rolled",
        (
            Reading(
                "best-die-each-roll",
                "'a number added to one of the die that they roll': on every roll, re-rolls included (on the "
                "die erratum bonus-which-die names).",
                SRC_HEAVY,
                True,
            ),
            Reading(
                "first-roll-only", "The bonus helps the first roll only, never a re-roll.", SRC_HEAVY, False
            ),
        ),
        default="best-die-each-roll",
    ),
    Erratum(
        "vehicle-reroll",
        "'all infantry and heavy weapon rolls against them must be re-rolled'",
        (
            Reading(
                "reroll-hits",
                "Re-rolling every die would change nothing, so each successful die is rolled again and "
                "counts only if it succeeds again (as the bombardment rule says of 'successful shots').",
                SRC_VEHICLES,
                "hits",
            ),
        ),
        default="reroll-hits",
    ),
    Erratum(
        "digging-penalty",
        "'Yes but -1R if attacked' while digging in",
        (
            Reading(
                "stationary-minus-one",
                "A sub-unit digging in counts as stationary with 1 less Resilience if attacked that bound.",
                SRC_COVER,
                DIGGING_PENALTY,
            ),
        ),
        default="stationary-minus-one",
    ),
    Erratum(
        "transport-order",
        "How the motorised +50% and its 12cm cap combine with terrain and assault",
        (
            Reading(
                "rate-first",
                "'Horse-drawn transported units receive no bonus and move at their standard rate. Motorised "
                "and mechanised transported units move at (+50%) (to a maximum total of 12cm)': transport "
                "changes the standard rate, min(12cm, 1.5 x speed); then terrain, assault and injury apply. "
                "Motorised Line infantry on a road: 6 x 1.5 = 9, x 1.25 = 11.25cm.",
                SRC_TRANSPORT_LINE,
                "rate-first",
            ),
            Reading(
                "additive",
                "'add the modifiers for road, open, rough or impractical together BEFORE applying them': the "
                "+50% is one more modifier, added to the terrain ones before applying, the sum capped at 12cm; "
                "then assault and injury. Motorised Line infantry on a road: 6 x (1 + 0.50 + 0.25) = 10.5cm.",
                f"{SRC_MOVE_LINE}; {SRC_TRANSPORT_LINE}",
                "additive",
            ),
            Reading(
                "cap-on-total",
                "'(to a maximum total of 12cm)': the 12cm caps the total move of transported troops, after "
                "terrain, assault and injury. On a road 11.25cm as rate-first; assaulting on a road 12cm "
                "(rate-first: 22.5cm).",
                SRC_TRANSPORT_LINE,
                "cap-on-total",
            ),
        ),
        default="rate-first",
        note="The transport rule sets a rate ('move at their standard rate' for horse-drawn, '+50%' for "
        "motorised), so the default applies it to the rate as the other speeds are; the additive rule names "
        "only road, open, rough and impractical. Capping the total would make a transported assault no "
        "longer than an assault on foot (6cm x 2 = 12cm), which no rule suggests.",
    ),
    Erratum(
        "inner-circle",
        "'a platoon more than half-way outside the inner circle'",
        (
            Reading(
                "the-circle",
                "The text describes one 3\" circle; the 'inner circle' is read as that circle.",
                SRC_ARTILLERY,
                BOMBARDMENT_DIAMETER_IN,
            ),
        ),
        default="the-circle",
    ),
    Erratum(
        "cordon-width",
        "Width of a smoke or gas cordon",
        (
            Reading(
                "template-width",
                "'using the normal template': the cordon is as wide as the 3\" bombardment template and "
                "3\" long per battery, centred on the template's centre, square to the wind.",
                SRC_SMOKE,
                BOMBARDMENT_DIAMETER_IN,
            ),
        ),
        default="template-width",
    ),
    Erratum(
        "recovery-resilience",
        "The 'R' of the recovery die: the platoon's built-in Resilience or its Resilience now",
        (
            Reading(
                "built-in",
                "'A recovery die is when a platoon must roll equal to or under its own Resilience value (a roll "
                "of 6 fails)': its own, the chart's value (or its formation's), whatever its cover. Line "
                "infantry (R4) moving in the open recovers on 1-4: 2/3.",
                SRC_RECOVERY_LINE,
                "built-in",
            ),
            Reading(
                "current",
                "'Resilience starts as a built-in value but is increased or decreased depending on their "
                "terrain, effects of gas, and any injuries': R is its Resilience now, in its cover and gas. "
                "Line infantry moving in the open (R4 - 3 = R1) recovers on a 1: 1/6.",
                f"{SRC_RECOVERY_LINE}; {SRC_COVER_LINE}",
                "current",
            ),
        ),
        default="built-in",
        note="'its own Resilience value' names what belongs to the platoon, not what its terrain lends it "
        "(the cover table gives a target's Resilience for being shot at); recovering its movement is the "
        "platoon's doing.",
    ),
)
