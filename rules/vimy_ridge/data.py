"""Vimy Ridge tables as data: the integrated combat results table, the bombardment table and its
modifiers, the turn and artillery tracks. Each value is tested against the rule text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.core.ruleset import Erratum, Reading
from rules.vimy_ridge.ruleset import VimyRidge, cite

Terrain = Literal["peak", "trench", "woods", "town", "hill", "la-folie-farm", "river", "clear"]
TERRAINS: tuple[Terrain, ...] = ("peak", "trench", "woods", "town", "hill", "la-folie-farm", "river", "clear")

CRT_SOURCE = cite("Integrated Combat Results Table")
BOMBARD_SOURCE = cite("World War One Bombardment Results Table")
MODIFIER_SOURCE = cite("Artillery Bombardment Modifiers")

# The CRT's five terrain lines, each with its own run of differential columns. The text's trailing empty
# cells show the lines are left-aligned: a peak's "-1" column is the clear line's "-5" column, so better
# ground shifts the attack four columns to the left. Each entry: (lowest differential, highest).
CRT_LINES: dict[str, tuple[Terrain, ...]] = {
    "Peak": ("peak",),
    "Trench hexside, Woods": ("trench", "woods"),
    "Town, Hill, La Folie Farm": ("town", "hill", "la-folie-farm"),
    "River": ("river",),
    "Clear": ("clear",),
}
# Lowest differential printed on each line: "Peak -1 0 +1 ...", "Trench hexside, Woods -2 -1 0 ...",
# "Town, Hill, La Folie Farm -3 ...", "River -4 ...", "Clear -5 -4 -3 -2 -1 0 +1 +2, +3 ... +10".
CRT_LOWEST: dict[str, int] = {
    "Peak": -1,
    "Trench hexside, Woods": -2,
    "Town, Hill, La Folie Farm": -3,
    "River": -4,
    "Clear": -5,
}

# Column labels after the single-value run: every line ends "+1, +2 +3, +4 +5, +6 +7, +8 +9, +10".
_TAIL: tuple[tuple[int, int], ...] = ((2, 3), (4, 5), (6, 7), (8, 9), (10, 10))


def line_columns(line: str) -> tuple[tuple[int, int], ...]:
    """(low, high) differential of each column of a CRT line, left to right."""
    singles = tuple((d, d) for d in range(CRT_LOWEST[line], 2))
    return singles + _TAIL


# Results by die roll (rows) and column (1 to 12), exactly as printed; "" is a cell the text leaves blank.
# "1 (A) A3 A2 _ Ex Ex D2 D2 D2 D3 De De" ... "6 Ae Ae (A) (A) (A) (A) (A) A1 _ Ex Ex Ex".
CRT_RESULTS: dict[int, tuple[str, ...]] = {
    1: ("(A)", "A3", "A2", "", "Ex", "Ex", "D2", "D2", "D2", "D3", "De", "De"),
    2: ("(A)", "(A)", "A3", "A2", "", "Ex", "Ex", "Ex", "D2", "D2", "D3", "De"),
    3: ("(A)", "(A)", "(A)", "A3", "A2", "", "Ex", "Ex", "Ex", "D2", "D2", "D3"),
    4: ("(A)", "(A)", "(A)", "(A)", "A3", "A2", "", "Ex", "Ex", "Ex", "D2", "D2"),
    5: ("Ae", "(A)", "(A)", "(A)", "(A)", "A3", "A2", "", "Ex", "Ex", "Ex", "D2"),
    6: ("Ae", "Ae", "(A)", "(A)", "(A)", "(A)", "(A)", "A1", "", "Ex", "Ex", "Ex"),
}


def line_of(terrain: Terrain) -> str:
    for line, members in CRT_LINES.items():
        if terrain in members:
            return line
    raise KeyError(terrain)


# -- bombardment ---------------------------------------------------------------------------------------
# "Die Roll Result 1 Hit (depletion) 2 Hit (depletion) 3 — 4 — 5 — 6 —"
BOMBARDMENT_TABLE: dict[int, str] = {
    1: "hit",
    2: "hit",
    3: "no effect",
    4: "no effect",
    5: "no effect",
    6: "no effect",
}

HexFeature = Literal["clear", "no-mans-land", "town", "woods", "trench"]
HEX_FEATURES: tuple[HexFeature, ...] = ("clear", "no-mans-land", "town", "woods", "trench")
# "0 = Clear terrain hex", "+1 = No Man's Land hex", "+2 = Town in hex", "+2 = Woods terrain in hex",
# "+3 = Trench hex"; "If multiple types of terrain are present ... the highest modifier always applies".
TERRAIN_MODIFIERS: dict[HexFeature, int] = {"clear": 0, "no-mans-land": 1, "town": 2, "woods": 2, "trench": 3}
# The extraction turned the minus signs of the first three lines into list bullets ("- 2 = Gas attack");
# 17.6 confirms gas "applies a -2 die roll bonus", and a lower roll is better for the bombarder: the
# minus-signs erratum's default reading (below), the values a game reads by its variant.
GAS_MODIFIER = -2
AIRCRAFT_MODIFIER = -1  # "1 = Allied aircraft added to bombardment hex ... No more than one aircraft"
ALLIED_TARGET_MODIFIER = -1  # "1 = An Allied unit is the target of the bombardment"
NIGHT_MODIFIER = 1  # "+1 = During any Night game turn"
MAX_MARKERS_PER_UNIT = 2  # 17.2 "no more than two bombardment markers per enemy unit"


# -- the turn and artillery tracks ------------------------------------------------------------------------
@dataclass(frozen=True)
class Turn:
    number: int
    date: str
    part: str  # Morning, Day, Evening

    @property
    def night(self) -> bool:
        return self.part == "Evening"


def _track() -> tuple[Turn, ...]:
    turns: list[Turn] = []
    for date in ("9 April", "10 April", "11 April", "12 April"):
        for part in ("Morning", "Day", "Evening"):
            turns.append(Turn(len(turns) + 1, date, part))
    return tuple(turns[:11])  # 20.1 "The game is divided into 11 turns"


TURNS: tuple[Turn, ...] = _track()
LAST_TURN = len(TURNS)
TOTAL_MARKERS = 13  # 11.1 "Place all 13 bombardment markers on the Artillery Track"
REPLACEMENTS_PER_NIGHT = 2  # 11.3 and 11.6: "automatically receives two replacements"
VP_TO_WIN = 2  # 12.1 "wins if he accumulates no less than two (2) VP"
PEAK_HEXES = 13  # 12.1 "each and every 'peak' hex (13 in all)"
VIMY_TOWN_HEXES = 12  # 12.1 "any one or more of the 12 Vimy town hexes"
EAST_EDGE_UNITS = 3  # 12.1 "at least three Canadian units of the same division"
PETIT_VIMY_SUPPLY_HEX = "1534"

VimyRidge.add_errata(
    Erratum(
        "turn-track",
        "Which turns are night turns",
        (
            Reading(
                "morning-day-evening",
                "The turn track is not reproduced. 9 April (Morning) is turn 1 (11.1); Morning, Day and "
                "Evening turns follow (10.3) for 11 turns (20.1), the Evening turns being the night (moon) turns.",
                cite("10.3 Game Scale; 11.1 Set up Sequence; 20.1 First Player"),
                {t.number: t.night for t in TURNS},
            ),
        ),
        default="morning-day-evening",
        note="10.3 says Morning and Day turns are six hours and Evening turns six to 12; 20.1 says each "
        "turn is about eight hours. Correct the track from the printed map if it differs.",
    ),
    Erratum(
        "artillery-track",
        "Bombardment markers allotted per turn (Allied/German)",
        (
            Reading(
                "turn-2-everywhere-night-halved",
                "The text prints only turn 2: '8/5'. Every day turn is read as 8/5 and each night turn as "
                "half of it rounded down (4/2), since night allotments are 'reduced' (13.1).",
                cite("17.1 Artillery Bombardment Limitations; 13.1 Night"),
                {"day": (8, 5), "night": (4, 2)},
            ),
            Reading(
                "turn-2-everywhere",
                "8/5 on every turn, night or day.",
                cite("17.1 Artillery Bombardment Limitations"),
                {"day": (8, 5), "night": (8, 5)},
            ),
        ),
        default="turn-2-everywhere-night-halved",
        note="The Artillery Track itself is printed on the map, which the library does not hold.",
    ),
    Erratum(
        "crt-off-table",
        "Combat differentials beyond the ends of a CRT line",
        (
            Reading(
                "use-end-column",
                "The text prints no rule; a differential below a line's first column uses that column, "
                "above +10 uses the +10 column.",
                CRT_SOURCE,
                "clamp",
            ),
        ),
        default="use-end-column",
    ),
    Erratum(
        "crt-blank-cell",
        "The blank cell on each die row of the CRT",
        (
            Reading(
                "no-effect",
                "Each die row has one blank cell (between the A results and the Ex results); read as no effect.",
                CRT_SOURCE,
                "no effect",
            ),
        ),
        default="no-effect",
        note="The letter codes ((A), A1-A3, Ae, Ex, D2, D3, De) are explained by the Fire & Movement "
        "standard rules, which the library does not hold.",
    ),
    Erratum(
        "petit-vimy-proviso",
        "The instant-win proviso 'provided that neither town hex of Petit Vimy is not presently occupied by any German unit'",
        (
            Reading(
                "no-german-in-petit-vimy",
                "The double negative is read as meant: the instant win holds only while no German unit "
                "occupies either Petit Vimy town hex.",
                cite("12.1 Victory Points"),
                False,
            ),
            Reading(
                "literal",
                "Read literally: both Petit Vimy town hexes must be occupied by German units.",
                cite("12.1 Victory Points"),
                True,
            ),
        ),
        default="no-german-in-petit-vimy",
    ),
)
# Readings the code had made without naming them (issue 62): each with the other reading, the first the default.
VimyRidge.add_errata(
    Erratum(
        "crt-alignment",
        "Which die-roll columns each terrain line of the Combat Results Table reads",
        (
            Reading(
                "left-aligned",
                "Each line's first column is the table's first: the text leaves each shorter line's trailing "
                "cells empty ('Peak -1 0 +1 ... +10' then four empty cells), so better ground reads the "
                "results four, three, two or one columns further left than Clear.",
                CRT_SOURCE,
                "left",
            ),
            Reading(
                "right-aligned",
                "Each line's +10 column is the table's last (the extraction lost the columns; the empty cells "
                "read as leading), so every line reads the same results at +10.",
                CRT_SOURCE,
                "right",
            ),
        ),
        default="left-aligned",
        note="The extraction lost the table's columns; only the trailing empty cells place the lines.",
    ),
    Erratum(
        "bombardment-below-one",
        "A bombardment roll modified below 1 (17.5, the Bombardment Results Table)",
        (
            Reading(
                "read-as-1",
                "Read on the table's lowest row, 1: a hit (a lower roll is better for the bombarder; the "
                "table prints rows 1 to 6 only).",
                BOMBARD_SOURCE,
                "hit",
            ),
            Reading(
                "no-effect",
                "Off the table, no effect: only a natural 1 hits 'regardless of modifiers'.",
                BOMBARD_SOURCE,
                "no effect",
            ),
        ),
        default="read-as-1",
        note="The table prints die rolls 1 to 6; gas (-2) and aircraft (-1) take a roll of 2 below 1.",
    ),
    Erratum(
        "minus-signs",
        "The first three Artillery Bombardment Modifiers, printed '- 2 = Gas attack', '- 1 = Allied aircraft', "
        "'- 1 = An Allied unit is the target' in the extracted text",
        (
            Reading(
                "restored",
                "The list bullets are the minus signs the extraction lost: -2, -1, -1 (17.6: gas 'applies a -2 "
                "die roll bonus'; a lower roll is better for the bombarder).",
                f"{MODIFIER_SOURCE}; {cite('17.6 Gas')}",
                {"gas": GAS_MODIFIER, "aircraft": AIRCRAFT_MODIFIER, "allied_target": ALLIED_TARGET_MODIFIER},
            ),
            Reading(
                "as-extracted",
                "Read without the bullets as the unsigned values they print: +2, +1, +1.",
                MODIFIER_SOURCE,
                {
                    "gas": -GAS_MODIFIER,
                    "aircraft": -AIRCRAFT_MODIFIER,
                    "allied_target": -ALLIED_TARGET_MODIFIER,
                },
            ),
        ),
        default="restored",
    ),
)
