"""Flanders Fields tables as data: order rolls, firing, armour, morale, assault factors and wire.

Values are transcribed from the rule book's three period playsheets and its main text (the comments quote
the lines); `validate()` runs at import so a typo in a band or a cell fails loudly before any request.
Where a playsheet and the main text disagree the playsheet value is here and errata.py holds the other.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, NotRequired, TypedDict

from rules.flanders_fields.ruleset import cite

# -- order rolls ------------------------------------------------------------------------------------------

OrderUnit = Literal[
    "rifle-company",
    "battalion-mg",
    "battalion-mortar",
    "tank",
    "regimental-mg",
    "blockhouse",
    "regimental-artillery",
    "regimental-mortar",
    "air-support",
]
ORDER_UNITS: tuple[OrderUnit, ...] = (
    "rifle-company",
    "battalion-mg",
    "battalion-mortar",
    "tank",
    "regimental-mg",
    "blockhouse",
    "regimental-artillery",
    "regimental-mortar",
    "air-support",
)


@dataclass(frozen=True)
class Band:
    """Die results `lo`..`hi` as printed give `actions`; the lowest band also takes totals below it and the
    highest band totals above it (a modified 0 is 'No Action', a modified 8 is the top band)."""

    lo: int
    hi: int
    actions: int

    @property
    def printed(self) -> str:
        return str(self.lo) if self.lo == self.hi else f"{self.lo}-{self.hi}"


def bands(*rows: tuple[int, int, int]) -> tuple[Band, ...]:
    return tuple(Band(*r) for r in rows)


def action_thresholds(table: Sequence[Band]) -> dict[str, int]:
    """The lowest rolls giving one and two actions: the artillery action table as the resolvers read it."""
    lowest = {b.actions: b.lo for b in reversed(table)}
    return {"one": lowest[1], "two": lowest[2]}


# "1 = No Action 2-4 = 1 Action 5-6 = 2 Actions 7 = 3 Actions" (Battalion Rifle Companies, all three sheets)
RIFLE_COMPANY = bands((1, 1, 0), (2, 4, 1), (5, 6, 2), (7, 7, 3))
# "1 = No Action 2 = 1 Action 3-5 = 2 Actions 6 = 3 Actions" (MGs, all three sheets; mid battalion: "6+")
MACHINE_GUN = bands((1, 1, 0), (2, 2, 1), (3, 5, 2), (6, 6, 3))
# "1-2 = No Action 3-5 = 1 Action 6+ = 2 Actions" (early: with line of sight and off table alike; late)
ARTILLERY_EARLY_LATE = bands((1, 2, 0), (3, 5, 1), (6, 6, 2))
# "1-3 = No Action 4-5 = 1 Action 6 = 2 Actions" (mid playsheet; main text differs: errata)
ARTILLERY_MID = bands((1, 3, 0), (4, 5, 1), (6, 6, 2))
# "1-2 = No Action 3-4 = 1 Action 5-6 = 2 Actions" (Individual Battalion Mortars, mid and late)
BATTALION_MORTAR = bands((1, 2, 0), (3, 4, 1), (5, 6, 2))
# mid: "1-2 = No Action 3-5 + 1 Action 6 = 2 Actions"; late: "1 = No Action 2-5 + 1 Action 6 = 2 Actions"
TANK_MID = bands((1, 2, 0), (3, 5, 1), (6, 6, 2))
TANK_LATE = bands((1, 1, 0), (2, 5, 1), (6, 6, 2))
# late: "Direct Air Support mission Roll D6 1-4 no effect, 5 or 6 Biggles/Red Baron arrives where required."
AIR_SUPPORT = bands((1, 4, 0), (5, 6, 1))

EARLY_SUPPORT = "1 SUPPORT ORDERS"
EARLY_BATTALION = "2 BATTALION ORDERS"
LATER_SUPPORT = "5 SUPPORT ORDERS"
LATE_SUPPORT = "5 DIVISIONAL/REGIMENTAL/BRIGADE ORDERS"
LATER_BATTALION = "6 BATTALION ORDERS"


@dataclass(frozen=True)
class OrderTable:
    unit: OrderUnit
    label: str
    bands: tuple[Band, ...]
    section: str


def _order_tables() -> dict[str, dict[str, OrderTable]]:
    def t(unit: OrderUnit, label: str, b: tuple[Band, ...], section: str) -> OrderTable:
        return OrderTable(unit, label, b, section)

    return {
        "early": {
            "regimental-mg": t(
                "regimental-mg", "Individual Regimental/Brigade MGs", MACHINE_GUN, f"{EARLY_SUPPORT} II"
            ),
            "regimental-artillery": t(
                "regimental-artillery",
                "Individual Regimental/Brigade Artillery (with line of sight or off table)",
                ARTILLERY_EARLY_LATE,
                f"{EARLY_SUPPORT} III",
            ),
            "battalion-mg": t(
                "battalion-mg", "Individual Battalion MGs", MACHINE_GUN, f"{EARLY_BATTALION} i"
            ),
            "rifle-company": t(
                "rifle-company", "Battalion Rifle Companies", RIFLE_COMPANY, f"{EARLY_BATTALION} ii"
            ),
        },
        "mid": {
            "regimental-mg": t(
                "regimental-mg", "Individual Regimental/Brigade MGs", MACHINE_GUN, f"{LATER_SUPPORT} II"
            ),
            "blockhouse": t(
                "blockhouse", "Block Houses (as Regimental/Brigade MGs)", MACHINE_GUN, f"{LATER_SUPPORT} II"
            ),
            "regimental-artillery": t(
                "regimental-artillery",
                "Individual Regimental/Brigade Artillery",
                ARTILLERY_MID,
                f"{LATER_SUPPORT} III",
            ),
            "regimental-mortar": t(
                "regimental-mortar",
                "Individual Regimental/Brigade Mortars",
                ARTILLERY_MID,
                f"{LATER_SUPPORT} III",
            ),
            "tank": t("tank", "Tanks etc. attached to the battalions", TANK_MID, f"{LATER_BATTALION} I"),
            "battalion-mg": t(
                "battalion-mg", "Individual Battalion MGs", MACHINE_GUN, f"{LATER_BATTALION} II"
            ),
            "battalion-mortar": t(
                "battalion-mortar", "Individual Battalion Mortars", BATTALION_MORTAR, f"{LATER_BATTALION} III"
            ),
            "rifle-company": t(
                "rifle-company", "Battalion Rifle Companies", RIFLE_COMPANY, f"{LATER_BATTALION} IV"
            ),
        },
        "late": {
            "regimental-mg": t(
                "regimental-mg", "Individual Regimental/Brigade MGs", MACHINE_GUN, f"{LATE_SUPPORT} II"
            ),
            "blockhouse": t(
                "blockhouse", "Block Houses (as Regimental/Brigade MGs)", MACHINE_GUN, f"{LATE_SUPPORT} II"
            ),
            "regimental-artillery": t(
                "regimental-artillery",
                "Individual Regimental/Brigade Artillery",
                ARTILLERY_EARLY_LATE,
                f"{LATE_SUPPORT} III",
            ),
            "regimental-mortar": t(
                "regimental-mortar",
                "Individual Regimental/Brigade Mortars",
                ARTILLERY_EARLY_LATE,
                f"{LATE_SUPPORT} III",
            ),
            "air-support": t("air-support", "Direct Air Support mission", AIR_SUPPORT, f"{LATE_SUPPORT} IV"),
            "tank": t("tank", "Tanks etc. attached to the battalions", TANK_LATE, f"{LATER_BATTALION} I"),
            "battalion-mg": t(
                "battalion-mg", "Individual Battalion MGs", MACHINE_GUN, f"{LATER_BATTALION} II"
            ),
            "battalion-mortar": t(
                "battalion-mortar", "Individual Battalion Mortars", BATTALION_MORTAR, f"{LATER_BATTALION} III"
            ),
            "rifle-company": t(
                "rifle-company", "Battalion Rifle Companies", RIFLE_COMPANY, f"{LATER_BATTALION} IV"
            ),
        },
    }


ORDER_TABLES = _order_tables()


def actions_for(total: int, table: Sequence[Band]) -> int:
    """Actions for a modified total: the band that holds it, clamped to the lowest and highest bands."""
    if total <= table[0].hi:
        return table[0].actions
    for band in table:
        if band.lo <= total <= band.hi:
            return band.actions
    return table[-1].actions


# -- firing table (target: infantry, machine guns, mortars or artillery) ----------------------------------

CoverColumn = Literal["open", "soft", "medium", "hard", "fortified"]
COLUMNS: tuple[CoverColumn, ...] = ("open", "soft", "medium", "hard", "fortified")
COLUMN_LABELS = {
    "open": "Open",
    "soft": "Soft Cover",
    "medium": "Medium Cover",
    "hard": "Hard Cover",
    "fortified": "Fortifications",
}
# Cells as printed: a number, "Auto" (automatic suppression), "Ass" (assault only), "No" (not possible);
# "6 (Direct)" is the number with direct=True (the firer must have a direct line of sight).
Printed = int | Literal["Auto", "Ass", "No"]


class CellDict(TypedDict):
    """A firing cell as JSON: its two printed values, and `direct` when the firer needs a direct line of sight."""

    suppress: Printed
    kill: Printed
    direct: NotRequired[bool]


@dataclass(frozen=True)
class Cell:
    suppress: Printed
    kill: Printed
    direct: bool = False

    def as_dict(self) -> CellDict:
        out: CellDict = {"suppress": self.suppress, "kill": self.kill}
        if self.direct:
            out["direct"] = True
        return out


@dataclass(frozen=True)
class FiringRow:
    id: str
    label: str
    cells: Mapping[str, Cell]


def _row(row_id: str, label: str, *printed: Printed | str) -> FiringRow:
    """Cells from the printed pairs, left to right: Open, Soft, Medium, Hard[, Fortifications]."""
    cells: dict[str, Cell] = {}
    values = list(printed)
    for i, column in enumerate(COLUMNS[: len(values) // 2]):
        s, k = values[2 * i], values[2 * i + 1]
        direct = isinstance(s, str) and s.endswith("(Direct)")
        if direct:
            assert isinstance(s, str)
            s = int(s.split()[0])
        cells[column] = Cell(s, k, direct)  # type: ignore[arg-type]
    return FiringRow(row_id, label, cells)


# Early playsheet "Firing Table" (Open, Soft, Medium, Hard; no Fortifications column). 004 prints the heavy
# artillery medium-cover kill as "- 5"; the 002 copy reads "4 5".
EARLY_ROWS = (
    _row("mg", "MG – Max 70cm", 3, 4, 4, 5, 5, 7, 6, 7),
    _row("infantry", "Infantry (Max 45)", 3, 4, 5, 6, 6, 7, 7, "Ass"),
    _row("field-gun", "Field Artillery – Guns", 3, 4, 4, 5, 5, 6, 6, 7),
    _row("field-howitzer", "Field Artillery, Howitzers / Light Mortars", 3, 4, 3, 4, 4, 6, 6, 7),
    _row("heavy-artillery", "Heavy Artillery / Medium Mortars", 2, 3, 3, 4, 4, 5, 5, 6),
    _row("gas", "Gas", 3, 5, 3, 5, 3, 5, 3, 5),
)
_MID_LATE_COMMON = (
    _row("mg", "MG – Max 70cm", 3, 4, 4, 5, 5, 7, 6, 7, "6 (Direct)", "No"),
    _row("infantry", "Infantry & LMG (Max 45)", 3, 4, 5, 6, 6, 7, 7, "Ass", 8, "Ass"),
    _row("field-gun", "Field Artillery – Guns", 3, 4, 4, 5, 5, 6, 6, 7, "6 (Direct)", "No"),
    _row("field-howitzer", "Field Artillery, Howitzers / Light Mortars", 3, 4, 3, 4, 4, 6, 6, 7, "No", "No"),
    _row("heavy-artillery", "Heavy Artillery / Medium Mortars", 2, 3, 3, 4, 4, 5, 5, 6, 6, "No"),
    _row("super-heavy", "Super Heavy Art. / Heavy Mortars", "Auto", 2, 2, 3, 3, 4, 4, 5, 5, "No"),
    _row("tank", "Tanks – Max 30cm", 4, 5, 4, 5, 5, 6, 5, 6, 6, "No"),
)
# Mid playsheet (printed under the heading "Firing table – Mid 1917 to End of War": errata).
MID_ROWS = (
    *_MID_LATE_COMMON,
    _row("gas", "Gas", 4, 6, 4, 6, 4, 5, 4, 6, 5, 6),
    _row("flamethrower", "Flame Thrower", 5, 6, 4, 5, 3, 4, 3, 5, 3, 6),
)
LATE_ROWS = (
    *_MID_LATE_COMMON,
    _row("gas", "Gas", 4, 6, 4, 6, 4, 6, 4, 6, 4, 6),
    _row("flamethrower", "Flame Thrower", 5, 6, 4, 5, 3, 4, 3, 5, 3, 5),
)
# Main text SHOOTING MATRIX (gas: "Depends on Year, see individual play sheets").
MAIN_ROWS = (
    *(r for r in _MID_LATE_COMMON if r.id != "tank"),
    _row("tank", "Heavy Tanks – Max 30cm", 4, 5, 4, 5, 5, 6, 5, 6, 6, "No"),
    _row("flamethrower", "Flame Thrower", 5, 6, 4, 5, 3, 4, 3, 5, 3, 5),
)

FIRING_ROWS: dict[str, dict[str, FiringRow]] = {
    "early": {r.id: r for r in EARLY_ROWS},
    "mid": {r.id: r for r in MID_ROWS},
    "late": {r.id: r for r in LATE_ROWS},
    "main": {r.id: r for r in MAIN_ROWS},
}
# The mid and late playsheets print the same heading ("Firing table – Mid 1917 to End of War – Any Target
# Except Armour– Roll D6"); on the mid sheet it is a misprint, the mid-firing-table erratum.
MID_LATE_FIRING_HEADING = "Firing table – Mid 1917 to End of War – Any Target Except Armour"
FIRING_SECTIONS = {"early": "Firing Table", "mid": MID_LATE_FIRING_HEADING, "late": MID_LATE_FIRING_HEADING}
SRC_SHOOTING_MATRIX = cite("RANGED COMBAT, SHOOTING MATRIX")

Firer = Literal[
    "mg",
    "blockhouse",
    "infantry",
    "lmg-unit",
    "cavalry",
    "field-gun",
    "field-howitzer",
    "light-mortar",
    "heavy-artillery",
    "medium-mortar",
    "super-heavy-artillery",
    "heavy-mortar",
    "heavy-tank",
    "light-tank",
    "gas",
    "flamethrower",
]
FIRERS: tuple[Firer, ...] = (
    "mg",
    "blockhouse",
    "infantry",
    "lmg-unit",
    "cavalry",
    "field-gun",
    "field-howitzer",
    "light-mortar",
    "heavy-artillery",
    "medium-mortar",
    "super-heavy-artillery",
    "heavy-mortar",
    "heavy-tank",
    "light-tank",
    "gas",
    "flamethrower",
)


@dataclass(frozen=True)
class FirerSpec:
    """How a firer uses the tables: its row against troops and against armour, and its ranges."""

    row: str
    armour_row: str
    max_range_cm: float | None
    min_range_cm: float = 0
    range_source: str = ""
    note: str = ""


SRC_RANGES = cite("RANGED COMBAT, WEAPON RANGES")
SRC_CAVALRY = cite("CAVALRY (rules)")
SRC_LMG = cite("RANGED COMBAT, SHOOTING MATRIX notes")
SRC_TANKS = cite("RANGED COMBAT, TANKS")


class WeaponRangeDict(TypedDict, total=False):
    """A line of WEAPON RANGES as JSON (the keys in the printed order; `source` where a dataset cites it)."""

    min_cm: int
    max_cm: int
    beaten_zone_cm: int
    text: str
    source: str


@dataclass(frozen=True)
class WeaponRange:
    """One line of WEAPON RANGES: the values and the printed line they come from."""

    max_cm: int
    text: str
    min_cm: int | None = None
    beaten_zone_cm: int | None = None

    def as_dict(self) -> WeaponRangeDict:
        out: WeaponRangeDict = {} if self.min_cm is None else {"min_cm": self.min_cm}
        out["max_cm"] = self.max_cm
        if self.beaten_zone_cm is not None:
            out["beaten_zone_cm"] = self.beaten_zone_cm
        out["text"] = self.text
        return out


# WEAPON RANGES: "Maximum effective ranges for weapons are shown below"
WEAPON_RANGES: dict[str, WeaponRange] = {
    "machine-gun": WeaponRange(70, "Machine Guns 70cm (Beaten Zone 15cm)", beaten_zone_cm=15),
    "block-house": WeaponRange(50, "Block Houses 50cm (Beaten Zone 10cm)", beaten_zone_cm=10),
    "infantry-lmg": WeaponRange(45, "Infantry & LMGs 45cm"),
    "tank": WeaponRange(30, "Tanks 30cm"),
    "mortar": WeaponRange(100, "Mortars (All Types) 10 (Min)-100cm (Max)", min_cm=10),
    "artillery-open-sights": WeaponRange(200, "Artillery (Open Sights) 200cm"),
    "flamethrower": WeaponRange(5, "Flamethrowers 5cm"),
}
MG_RANGE_CM = WEAPON_RANGES["machine-gun"].max_cm
_INFANTRY_RANGE = WEAPON_RANGES["infantry-lmg"].max_cm
_TANK_RANGE = WEAPON_RANGES["tank"].max_cm
_ARTILLERY_RANGE = WEAPON_RANGES["artillery-open-sights"].max_cm
_MORTAR = WEAPON_RANGES["mortar"]
_MORTAR_RANGE, _MORTAR_MIN = _MORTAR.max_cm, _MORTAR.min_cm or 0
# "Block Houses fire as machineguns but with a reduced range of 45cm and a reduced beaten zone of 10cm"
# (BLOCK HOUSES); WEAPON RANGES says 50: erratum blockhouse-range.
BLOCK_HOUSES_RANGE_CM = 45
# Block houses: errata (45 or 50). Artillery firing indirectly and gas have no range limit here
# (max_range_cm None; artillery's 200 applies over open sights only).
FIRER_SPECS: dict[str, FirerSpec] = {
    "mg": FirerSpec("mg", "mg", MG_RANGE_CM, range_source=SRC_RANGES),
    "blockhouse": FirerSpec(
        "mg",
        "mg",
        BLOCK_HOUSES_RANGE_CM,
        range_source=cite("RANGED COMBAT, BLOCK HOUSES"),
        note="Block houses fire as machineguns",
    ),
    "infantry": FirerSpec("infantry", "infantry", _INFANTRY_RANGE, range_source=SRC_RANGES),
    "lmg-unit": FirerSpec(
        "infantry",
        "infantry",
        _INFANTRY_RANGE,
        range_source=SRC_RANGES,
        note="LMG units attack as infantry but fire twice",
    ),
    "cavalry": FirerSpec(
        "infantry",
        "infantry",
        _INFANTRY_RANGE,
        range_source=SRC_RANGES,
        note="Cavalry must dismount to fire (as infantry, -1)",
    ),
    "field-gun": FirerSpec("field-gun", "field-artillery-direct", _ARTILLERY_RANGE, range_source=SRC_RANGES),
    "field-howitzer": FirerSpec(
        "field-howitzer", "field-artillery-direct", _ARTILLERY_RANGE, range_source=SRC_RANGES
    ),
    "light-mortar": FirerSpec(
        "field-howitzer", "field-artillery-indirect", _MORTAR_RANGE, _MORTAR_MIN, SRC_RANGES
    ),
    "heavy-artillery": FirerSpec(
        "heavy-artillery", "heavy-artillery", _ARTILLERY_RANGE, range_source=SRC_RANGES
    ),
    "medium-mortar": FirerSpec("heavy-artillery", "heavy-artillery", _MORTAR_RANGE, _MORTAR_MIN, SRC_RANGES),
    "super-heavy-artillery": FirerSpec(
        "super-heavy", "super-heavy", _ARTILLERY_RANGE, range_source=SRC_RANGES
    ),
    "heavy-mortar": FirerSpec("super-heavy", "super-heavy", _MORTAR_RANGE, _MORTAR_MIN, SRC_RANGES),
    "heavy-tank": FirerSpec("tank", "armour", _TANK_RANGE, range_source=SRC_RANGES),
    "light-tank": FirerSpec(
        "infantry",
        "armour",
        _TANK_RANGE,
        range_source=SRC_LMG,
        note="Light Tanks (Renaults, Whippets etc.) and British 'Female' fire as LMGs range 30",
    ),
    "gas": FirerSpec("gas", "gas", None),
    "flamethrower": FirerSpec(
        "flamethrower", "flamethrower", WEAPON_RANGES["flamethrower"].max_cm, range_source=SRC_RANGES
    ),
}
ARTILLERY_FIRERS = frozenset({"field-gun", "field-howitzer", "heavy-artillery", "super-heavy-artillery"})
FIELD_ARTILLERY = frozenset({"field-gun", "field-howitzer"})
MORTAR_FIRERS = frozenset({"light-mortar", "medium-mortar", "heavy-mortar"})
MG_FIRERS = frozenset({"mg", "blockhouse"})
INFANTRY_FIRERS = frozenset({"infantry", "lmg-unit", "cavalry"})
TANK_FIRERS = frozenset({"heavy-tank", "light-tank"})
# Beaten zone beyond the first target (WEAPON RANGES; the playsheets agree: "Machine Gun Beaten Zone = 15cm
# beyond First target Block House Beaten Zone = 10cm beyond First target"); "Up to three targets in the
# beaten zone are also attacked" (MACHINEGUN BEATEN ZONE).
BEATEN_ZONE_CM: dict[str, int] = {
    "mg": WEAPON_RANGES["machine-gun"].beaten_zone_cm or 0,
    "blockhouse": WEAPON_RANGES["block-house"].beaten_zone_cm or 0,
}
BEATEN_ZONE_TARGETS = 3
# "fire zone is 2cm wide" (ARCS OF FIRE, MACHINE GUNS)
MG_LANE_WIDTH_CM = 2

# -- shooting at armour (main text; the mid and late playsheets refer to it: "For armour see page 21") ----

ArmourCover = Literal["open", "cover"]
ARMOUR_COVERS: tuple[ArmourCover, ...] = ("open", "cover")


class ArmourCellDict(TypedDict):
    """An armour cell as JSON: its two printed values, and the kill with an anti-tank rifle where printed."""

    suppress: int
    kill: int | Literal["Assault Only", "Not Possible"]
    kill_with_at_rifle: NotRequired[int]


@dataclass(frozen=True)
class ArmourCell:
    suppress: int
    kill: int | Literal["Assault Only", "Not Possible"]
    kill_with_at_rifle: int | None = None

    def as_dict(self) -> ArmourCellDict:
        out: ArmourCellDict = {"suppress": self.suppress, "kill": self.kill}
        if self.kill_with_at_rifle is not None:
            out["kill_with_at_rifle"] = self.kill_with_at_rifle
        return out


@dataclass(frozen=True)
class ArmourRow:
    id: str
    label: str
    open: ArmourCell
    cover: ArmourCell


SRC_ARMOUR = cite("RANGED COMBAT, SHOOTING WHEN TARGET IS ARMOUR")
ARMOUR_ROWS: dict[str, ArmourRow] = {
    r.id: r
    for r in (
        # "Infantry (Max 45) 6 Assault Only Or AT Rifle 7 | 5 Assault Only Or AT Rifle 5"
        ArmourRow(
            "infantry",
            "Infantry (Max 45)",
            ArmourCell(6, "Assault Only", 7),
            ArmourCell(5, "Assault Only", 5),
        ),
        # "MG (Max 70) 6 Not Possible 7 Not Possible"
        ArmourRow("mg", "MG (Max 70)", ArmourCell(6, "Not Possible"), ArmourCell(7, "Not Possible")),
        # "Field Artillery – Guns and Howitzers Direct Fire 4 5 6 Not Possible"
        ArmourRow(
            "field-artillery-direct",
            "Field Artillery – Guns and Howitzers Direct Fire",
            ArmourCell(4, 5),
            ArmourCell(6, "Not Possible"),
        ),
        # "Field Artillery, Light Mortars - Indirect 5 6 5 6"
        ArmourRow(
            "field-artillery-indirect",
            "Field Artillery, Light Mortars - Indirect",
            ArmourCell(5, 6),
            ArmourCell(5, 6),
        ),
        # "Heavy Artillery, Medium Mortars 4 5 4 5"
        ArmourRow("heavy-artillery", "Heavy Artillery, Medium Mortars", ArmourCell(4, 5), ArmourCell(4, 5)),
        # "Super Heavy Artillery, Heavy Mortars 3 4 3 4"
        ArmourRow("super-heavy", "Super Heavy Artillery, Heavy Mortars", ArmourCell(3, 4), ArmourCell(3, 4)),
        # "Armour (by Weapon – Field Gun or MG) 5 6 5 6"
        ArmourRow("armour", "Armour (by Weapon – Field Gun or MG)", ArmourCell(5, 6), ArmourCell(5, 6)),
        # "Gas 4 5 4 5"
        ArmourRow("gas", "Gas", ArmourCell(4, 5), ArmourCell(4, 5)),
        # "Flame Throwers 5 6 5 6"
        ArmourRow("flamethrower", "Flame Throwers", ArmourCell(5, 6), ArmourCell(5, 6)),
    )
}
# "For Infantry to engage armour when it is in cover the infantry must be within short Range (5cm)."
INFANTRY_VS_ARMOUR_IN_COVER_CM = 5
# "Infantry Antitank Rifle +1 / Field artillery firing over 75 -1 / Field Howitzers shooting at tanks -1"
ARMOUR_MODIFIERS = {"anti_tank_rifle": 1, "field_artillery_over_75": -1, "field_howitzer": -1}

# -- direct fire modifiers (playsheets' DIRECT FIRE FACTORS; main text DIRECT FIRE MODIFIERS) -------------

SHORT_RANGE_MG_CM = 10  # "+2 Short Range MGs – Under 10cm and first target only"
SHORT_RANGE_MG = 2
SHORT_RANGE_INFANTRY_CM = 5  # "Short Range Infantry – Under 5cm"
# early "+1 Short Range Infantry"; mid "+1 Short Range Infantry and Tanks"; late "+2 ... Short Range Infantry
# and LMGs – Under 5cm / +1 Short Range Tanks – Under 5cm"
SHORT_RANGE_INFANTRY = {"early": 1, "mid": 1, "late": 2}
SHORT_RANGE_TANK = {"mid": 1, "late": 1}
FIELD_ARTILLERY_RANGE_PENALTIES = ((150, -2), (100, -1))  # over 150 cm: -2; over 100 cm: -1
BARRAGE = -2
BARRAGE_UPHILL = -1
FIRER_IN_GAS = -1
COMMAND_TARGET = -1
RAW_FIRER = -1
CAVALRY_DISMOUNTED = -1  # "a penalty of -1 is applied to cavalry shooting"
MOVED_AND_FIRED = -1  # "they may move and fire at -1"
PARTIAL_TEMPLATE = -2  # "if the platoon or weapon falls only partially within the area of effect ... -2"

# -- morale ---------------------------------------------------------------------------------------------

MoraleKey = Literal["rout", "retreat-40", "retreat-20", "ok"]


@dataclass(frozen=True)
class MoraleBand:
    lo: int | None
    hi: int | None
    key: MoraleKey
    printed: str
    text: str
    retreat_cm: int
    suppressed: bool
    abandon_crewed_weapons: bool
    removed: bool


# "0 or Less Rout, Surrender etc. – Remove from play. / 1 Retreat 40cm, become Suppressed, abandon crewed
# weapons. / 2-3 Retreat 20cm, become Suppressed, abandon crewed weapons. / 4+ Morale OK" (all three sheets;
# the main text reads the same with "Rout Remove from play.")
MORALE_BANDS = (
    MoraleBand(
        None, 0, "rout", "0 or Less", "Rout, Surrender etc. – Remove from play.", 0, False, False, True
    ),
    MoraleBand(
        1,
        1,
        "retreat-40",
        "1",
        "Retreat 40cm, become Suppressed, abandon crewed weapons.",
        40,
        True,
        True,
        False,
    ),
    MoraleBand(
        2,
        3,
        "retreat-20",
        "2-3",
        "Retreat 20cm, become Suppressed, abandon crewed weapons.",
        20,
        True,
        True,
        False,
    ),
    MoraleBand(4, None, "ok", "4+", "Morale OK – carry on.", 0, False, False, False),
)
# "Veteran Troops +1 / Raw Troops -1 / 75% Casualties -2"
MORALE_QUALITY = {"raw": -1, "experienced": 0, "veteran": 1, "storm": 1}
MORALE_75 = -2
MORALE_SECTION = "MORALE – Test by rolling a D6"


def morale_band(total: int) -> MoraleBand:
    for band in MORALE_BANDS:
        if (band.lo is None or total >= band.lo) and (band.hi is None or total <= band.hi):
            return band
    raise AssertionError(f"morale bands do not cover {total}")


# -- assault factors (main text ASSAULT FACTORS; the two printed columns are split here) ------------------

SRC_ASSAULT = cite("CLOSE COMBAT (ASSAULTING), ASSAULT FACTORS")


@dataclass(frozen=True)
class AssaultFactor:
    id: str
    label: str
    value: int
    side: Literal["attacker", "defender", "either"]


ASSAULT_FACTORS: dict[str, AssaultFactor] = {
    f.id: f
    for f in (
        AssaultFactor("assaulting-infantry", "Assaulting Infantry", 1, "attacker"),
        AssaultFactor("cavalry-vs-infantry", "Assaulting Cavalry Vs Infantry", 3, "attacker"),
        AssaultFactor("cavalry-vs-cavalry", "Assaulting Cavalry Vs Cavalry", 1, "attacker"),
        AssaultFactor("heavy-tank", "Assaulting Tank (Heavy)", 3, "attacker"),
        AssaultFactor("light-tank", "Assaulting Tank (Light)", 2, "attacker"),
        AssaultFactor("veteran-or-storm", "Veteran or Storm Troops", 1, "either"),
        AssaultFactor("supporting-platoon", "Supporting platoon to rear", 1, "attacker"),
        AssaultFactor("command-stand", "Command Stand", 1, "defender"),
        AssaultFactor("flamethrower-vs-cover", "Flamethrower Vs Medium, Hard or Fortified", 2, "attacker"),
        AssaultFactor("suppressed", "Suppressed Troops", -1, "either"),
        AssaultFactor("support-weapon", "Support Weapons or Artillery", -1, "defender"),
        AssaultFactor("enemy-medium", "Enemy is in Medium Cover", -1, "attacker"),
        AssaultFactor("enemy-hard", "Enemy is in Hard Cover", -2, "attacker"),
        AssaultFactor("enemy-fortified", "Enemy is in Fortified Cover", -3, "attacker"),
        AssaultFactor("raw", "Raw Troops", -1, "either"),
        # TROOPS IN DEEP SHELTERS: "counting -1 on their combat die"
        AssaultFactor("deep-shelter", "In deep shelter (TROOPS IN DEEP SHELTERS)", -1, "defender"),
    )
}
ENEMY_COVER_FACTOR = {"medium": "enemy-medium", "hard": "enemy-hard", "fortified": "enemy-fortified"}
DRAW_FALL_BACK_CM = 3  # "If combat is a draw attackers fall back 3cm and stay in Soft Cover"

# -- barbed wire (main text MOVING THROUGH BARBED WIRE; mid and late playsheets agree) ----------------------

SRC_WIRE = cite("MOVEMENT, MOVING THROUGH BARBED WIRE")
# "1914 to Early 1915 = 3+ / Mid 1915 to Mid1917 = 5+ / Mid 1917 onwards = 3+"
WIRE_NEEDS = {"early": 3, "mid": 5, "late": 3}
WIRE_BELT_CM = 2  # "a 'standard' belt of barbed wire is considered to be 2cm wide"
WIRE_BEYOND_CM = 5  # "continue to move forward for up to 5cm beyond the rear edge of the wire"
WIRE_EXTRA_RULES = (
    "An Engineer or Pioneer Company can clear a 6cm wide gap in wire as an action.",
    "A tank will crush a 3cm wide track in wire when it moves over any wire, infantry may cross this "
    "without penalty but it's unusable by cavalry.",
    "British Heavy tanks equipped with grapnels will completely clear an area of wire equal to their base "
    "size as an action, Cavalry may use such gaps.",
    "Cavalry, horse drawn artillery and pack animals may not cross wire except by a cleared path.",
)


# -- validation at import -----------------------------------------------------------------------------


def _check_bands(name: str, table: Sequence[Band]) -> None:
    if table[0].lo != 1:
        raise ValueError(f"{name}: bands must start at 1")
    for a, b in itertools.pairwise(table):
        if a.hi + 1 != b.lo or a.actions >= b.actions:
            raise ValueError(f"{name}: bands {a} and {b} are not contiguous and increasing")
    for band in table:
        if band.lo > band.hi or band.actions < 0:
            raise ValueError(f"{name}: bad band {band}")


def _check_cell(name: str, cell: Cell) -> None:
    for value in (cell.suppress, cell.kill):
        if not (isinstance(value, int) and 2 <= value <= 8) and value not in ("Auto", "Ass", "No"):
            raise ValueError(f"{name}: bad cell value {value!r}")
    if isinstance(cell.suppress, int) and isinstance(cell.kill, int) and cell.kill < cell.suppress:
        raise ValueError(f"{name}: kill below suppress")


def validate() -> None:
    for period, tables in ORDER_TABLES.items():
        for unit, table in tables.items():
            if unit not in ORDER_UNITS or table.unit != unit:
                raise ValueError(f"{period}: unknown order unit {unit}")
            _check_bands(f"{period}/{unit}", table.bands)
    for period, rows in FIRING_ROWS.items():
        width = 4 if period == "early" else 5
        for row_id, row in rows.items():
            if tuple(row.cells) != COLUMNS[:width]:
                raise ValueError(f"{period}/{row_id}: columns {tuple(row.cells)}")
            for column, cell in row.cells.items():
                _check_cell(f"{period}/{row_id}/{column}", cell)
    all_rows = {row_id for rows in FIRING_ROWS.values() for row_id in rows}
    for firer in FIRERS:
        spec = FIRER_SPECS[firer]
        if spec.armour_row not in ARMOUR_ROWS or spec.row not in all_rows:
            raise ValueError(f"firer {firer}: unknown row")
    if set(FIRER_SPECS) != set(FIRERS):
        raise ValueError("FIRER_SPECS and FIRERS differ")
    covered = [morale_band(t).key for t in range(-6, 10)]
    if covered[0] != "rout" or covered[-1] != "ok":
        raise ValueError("morale bands")


validate()
