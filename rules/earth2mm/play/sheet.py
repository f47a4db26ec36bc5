"""Battle for 2mm Earth 1418's playsheet (`GameRules.playsheet`), from the tables its lookups and its game read
(rules.earth2mm.data), each value with the rule book's section it comes from.

Page 1: the bound (its steps, the planning and executing orders), the high commands chart and the cover and
resilience table. Page 2: the characteristics chart, movement, assault, artillery and smoke. The readings in
force follow (playsheets/ prints them).
"""

from __future__ import annotations

from dataclasses import replace

from rules.core.game import GameRules
from rules.core.sheet import Bullets, Note, Playsheet, SheetSection, Table, fmt, label
from rules.earth2mm import data
from rules.earth2mm.ruleset import RULES

POSTURE_COLUMNS = ("Moving", "Stationary", "Dug in")  # the cover table's columns, as printed


def where(*sources: str) -> list[str]:
    """Citations as the section's source line: the section of the rule book each names."""
    return ["Rule book: " + "; ".join(s.removeprefix(f"{RULES}: ") for s in sources)]


def resilience(modifier: int) -> str:
    """A cover cell as the table prints it: '-3R', '+1R', '(R)' for no change."""
    return f"{modifier:+d}R" if modifier else "(R)"


def numbered(steps: tuple[str, ...]) -> list[str]:
    """Steps numbered as the book numbers them (the executing order's numbers are named by other rules)."""
    return [f"{i}. {step}" for i, step in enumerate(steps, start=1)]


def bound_section() -> SheetSection:
    return SheetSection(
        "bound",
        "The bound",
        [
            Bullets(numbered(data.BOUND), "Each bound", columns=2),
            Bullets(numbered(data.PLANNING_ORDER), "Planning order", columns=2),
            Bullets(numbered(data.EXECUTING_ORDER), "Executing order", columns=2),
        ],
        sources=where(data.SRC_ORDER),
        wide=True,
    )


def commands_section() -> SheetSection:
    """The high commands chart: a row per situation, a column per command, the plans each allows."""
    rows = [
        [label(situation), *(" or ".join(label(p) for p in data.PLANS[c][i]) for c in data.COMMANDS)]
        for i, situation in enumerate(data.SITUATIONS)
    ]
    dig = f"Yes but {data.DIGGING_PENALTY}R if attacked"
    rows.append(["Can choose to dig in?", *(dig if data.DIG_IN[c] else "No" for c in data.COMMANDS)])
    return SheetSection(
        "commands",
        "High commands chart",
        [Table(["Situation", *(label(c) for c in data.COMMANDS)], rows)],
        sources=where(data.SRC_COMMANDS),
    )


def cover_section() -> SheetSection:
    """The cover table: Resilience by terrain and posture (a sub-unit digging in counts as stationary)."""
    rows = [[label(t), *(resilience(m) for m in data.COVER[t])] for t in data.TERRAINS]
    return SheetSection(
        "cover",
        "Cover and resilience",
        [
            Table(["Terrain", *POSTURE_COLUMNS], rows),
            Note(f"Digging in: as stationary, {data.DIGGING_PENALTY}R if attacked that bound."),
            Note(f"Short-term gas: target {data.GAS_ARMING:+d}A {data.GAS_RESILIENCE:+d}R."),
        ],
        sources=where(data.SRC_COVER, data.SRC_SMOKE),
    )


def units_section() -> SheetSection:
    """The characteristics chart, a row per unit type as the book prints it."""
    rows = []
    for u in data.UNITS.values():
        row = u.as_dict()
        speed = f"{label(u.speed)} {data.SPEEDS_CM[u.speed]} cm" if data.SPEEDS_CM[u.speed] else "Immobile"
        rows.append([u.name, speed, fmt(row["arming"]), fmt(row["resilience"]), u.range_m])
    return SheetSection(
        "characteristics",
        "Characteristics chart",
        [Table(["Unit", "Speed", "Arming m/r", "Resilience", "Range (m)"], rows)],
        sources=where(data.SRC_UNITS, data.SRC_ARMING, data.SRC_HEAVY),
        wide=True,
    )


def movement_section() -> SheetSection:
    speeds = [[label(s), f"{cm} ({cm * data.SCALE_M_PER_CM})"] for s, cm in data.SPEEDS_CM.items() if cm]
    terrain = [[label(t), f"{p:+d}%" if p else "0%"] for t, p in data.MOVE_PERCENT.items()]
    return SheetSection(
        "movement",
        "Movement",
        [
            Table(["Speed", "cm (scale m)"], speeds),
            Table(["Terrain", "Distance"], terrain),
            Bullets(
                [
                    f"Assaulting (after all terrain modifiers): {data.ASSAULT_PERCENT:+d}%",
                    f"Motorised and mechanised transport: {data.TRANSPORT_PERCENT:+d}% "
                    f"(to a maximum total of {data.TRANSPORT_MAX_CM} cm); horse-drawn: no bonus",
                ]
            ),
        ],
        sources=where(data.SRC_ORDER, data.SRC_COVER, data.SRC_ASSAULT, data.SRC_TRANSPORT),
    )


def assault_section() -> SheetSection:
    return SheetSection(
        "assault",
        "Assault and melee",
        [
            Bullets(
                [
                    f"Only directly towards an enemy within {data.ASSAULT_REACH_M} m",
                    f"Assaulting infantry shoot with {data.ASSAULT_DICE}A",
                    "Melee: the m side of Arming m/r",
                ]
            )
        ],
        sources=where(data.SRC_ASSAULT),
    )


def artillery_section() -> SheetSection:
    return SheetSection(
        "artillery",
        "Artillery and smoke",
        [
            Bullets(
                [
                    f'Bombardment circle: {data.BOMBARDMENT_DIAMETER_IN}" across',
                    f'Map grid squares: at least {data.GRID_SQUARE_MIN_IN}" x {data.GRID_SQUARE_MIN_IN}"',
                    f'Smoke cordon: {data.CORDON_LENGTH_PER_BATTERY_IN}" long per battery firing',
                    f'Smoke drifts {data.CORDON_DRIFT_IN}" with the wind at the end of each bound',
                ]
            )
        ],
        sources=where(data.SRC_ARTILLERY, data.SRC_SMOKE),
    )


class EarthSheet(GameRules):
    def playsheet(self, period: str | None) -> Playsheet:
        """Page 1 the bound, the high commands and cover; page 2 the units, movement, assault and artillery."""
        first = (bound_section(), commands_section(), cover_section())
        second = (units_section(), movement_section(), assault_section(), artillery_section())
        return Playsheet((*first, *(replace(s, page=1) for s in second)))
