"""Vimy Ridge: Arras Diversion's playsheet (`GameRules.playsheet`), from the tables its lookups and its game read
(rules.vimy_ridge.data, rules.vimy_ridge.play), each value with the exclusive rule it comes from.

Page 1: the integrated combat results table (every terrain line, die 1-6) and the bombardment (its table,
modifiers and limits). Page 2: the turn (Zero Hour, the phases, 11 turns), night and replacements, and victory.
The readings in force follow (playsheets/ prints them). The map, the counters and the tracks are the club's:
the sheet prints none of them.
"""

from __future__ import annotations

from dataclasses import replace

from rules.core.game import GameRules
from rules.core.sheet import Bullets, Note, Playsheet, SheetSection, Table
from rules.core.turn import Step
from rules.vimy_ridge import data
from rules.vimy_ridge.play import club
from rules.vimy_ridge.resolvers import crt_column
from rules.vimy_ridge.ruleset import RULES


def where(*sources: str) -> list[str]:
    """Citations as the section's source line: the sections of the exclusive rules each names."""
    return ["Exclusive rules: " + "; ".join(s.removeprefix(f"{RULES}: ") for s in sources)]


def crt_section() -> SheetSection:
    """The CRT as printed: a row per die roll, the columns of the Clear line (the longest), each other line's
    columns shifted left as the text's alignment shows (a Peak's -1 column is Clear's -5)."""
    lines = list(data.CRT_LINES)
    header_rows = []
    for line in lines:
        members = data.CRT_LINES[line]
        labels = [crt_column(members[0], lo)[1] for lo, _ in data.line_columns(line)]
        header_rows.append([line, *labels, *([""] * (12 - len(labels)))])
    results = [[str(d), *(c or "-" for c in data.CRT_RESULTS[d])] for d in range(1, 7)]
    return SheetSection(
        "crt",
        "Integrated Combat Results Table (differential: attack minus defence)",
        [
            Table(["Terrain line", *(f"{i}" for i in range(1, 13))], header_rows, caption="Columns by line"),
            Table(["Die", *(f"{i}" for i in range(1, 13))], results, caption="Result by die roll and column"),
            Note(
                "Across a trench hexside: the trench line (14.2). Defender in No Man's Land: defence halved, "
                "rounded down, never the trench line (14.1). One division's units per attack (18.3). "
                "A blank cell is read as no effect; beyond a line's ends, its end column (errata)."
            ),
        ],
        sources=where(
            data.CRT_SOURCE, "14.1 No Man's Land", "14.2 Trench Lines", "18.3 Divisional Integrity"
        ),
        wide=True,
    )


def bombardment_section() -> SheetSection:
    rows = [[str(d), "Hit (depletion)" if r == "hit" else "-"] for d, r in data.BOMBARDMENT_TABLE.items()]
    mods = [
        ["Gas (Allied, turn 1 only)", f"{data.GAS_MODIFIER:+d}"],
        ["Allied aircraft over the hex (one at most)", f"{data.AIRCRAFT_MODIFIER:+d}"],
        ["An Allied unit is the target", f"{data.ALLIED_TARGET_MODIFIER:+d}"],
        *[[f"{f.replace('-', ' ').capitalize()} hex", f"{m:+d}"] for f, m in data.TERRAIN_MODIFIERS.items()],
        ["Night game turn", f"{data.NIGHT_MODIFIER:+d}"],
    ]
    return SheetSection(
        "bombardment",
        "Artillery bombardment",
        [
            Table(["Die", "Result"], rows, caption="Bombardment Results Table"),
            Table(["Modifier", "Die"], mods, caption="Modifiers (terrain: the highest only)"),
            Bullets(
                [
                    "A roll of 1 always hits.",
                    f"Markers per side per turn: the Artillery Track (turn 2 prints "
                    f"{club.TURN_TWO_ALLOTMENT[0]}/{club.TURN_TWO_ALLOTMENT[1]}; {data.TOTAL_MARKERS} in all).",
                    f"At most {data.MAX_MARKERS_PER_UNIT} markers on one enemy unit; one hit at most.",
                    "End of the owner's movement phase, observed units only; no retreat.",
                    "No Allied bombardment in a La Folie Woods hex (18.2).",
                ]
            ),
        ],
        sources=where(data.BOMBARD_SOURCE, data.MODIFIER_SOURCE, "17.1-17.6", "18.2 La Folie Woods"),
    )


def turn_section(steps: tuple[Step, ...]) -> SheetSection:
    return SheetSection(
        "turn",
        "The turn",
        [
            Bullets(
                [
                    f"{data.LAST_TURN} game turns from 9 April (Morning); the Allied player first (15.1).",
                    "Zero Hour: the game begins with the Allied combat phase (15.2).",
                    *[f"{s.number}. {s.title}: {s.does}." for s in steps],
                ]
            )
        ],
        sources=where("15.0 Turn Sequence", "20.1 First Player"),
    )


def night_section() -> SheetSection:
    return SheetSection(
        "night",
        "Night and replacements",
        [
            Bullets(
                [
                    "Night (moon on the track): no attack or movement by either side (13.1).",
                    "Bombardment allowed at the reduced allotment of the track; sight to adjacent hexes only.",
                    f"Each side receives {data.REPLACEMENTS_PER_NIGHT} replacements: not saved; one counter "
                    "that moved that night may be rebuilt (11.3, 11.6).",
                    "The Allied player loses one aircraft marker each night (18.1 The Red Baron).",
                ]
            )
        ],
        sources=where("13.1 Night", "11.3 Allied Replacements", "11.6 German Replacements", "18.1"),
    )


def victory_section() -> SheetSection:
    return SheetSection(
        "victory",
        "Victory",
        [
            Table(
                ["Objective", "VP"],
                [
                    [f"Canadians last in every peak hex ({data.PEAK_HEXES})", "1"],
                    [f"Canadians last in the supply hex {club.SUPPLY_HEX}", "1"],
                    [
                        f"{data.EAST_EDGE_UNITS} Canadian units of one division, moved, on easternmost hexes",
                        "1",
                    ],
                ],
            ),
            Bullets(
                [
                    f"The Canadian side wins with {data.VP_TO_WIN} VP; else the German side (12.2).",
                    f"Instant Allied win: a unit enters one of the {data.VIMY_TOWN_HEXES} Vimy town hexes, "
                    "no German unit in Petit Vimy's town hexes (erratum); or every German unit eliminated.",
                ]
            ),
        ],
        sources=where("12.1 Victory Points", "12.2 German Victory"),
    )


class VimySheet(GameRules):
    def playsheet(self, period: str | None) -> Playsheet:
        """Page 1 the CRT and the bombardment, page 2 the turn, night and victory."""
        first = (crt_section(), bombardment_section())
        second = (turn_section(self.steps(period)), night_section(), victory_section())
        return Playsheet((*first, *(replace(s, page=1) for s in second)))
