"""The appendix artillery tables: British, French and German guns with range, shell and gun weight.

The extraction lost the table's columns ("Weapon Name Range (meters) Shell Weight (Kg) Weight (t) Notes");
an empty cell shows as a double space in the text (e.g. "105mm 12,000  2.3"), and such cells are None here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from rules.flanders_fields.ruleset import FlandersFields, cite


class GunRow(TypedDict):
    """A gun of the appendix tables as JSON (None: a cell the text leaves blank)."""

    id: str
    nation: str
    name: str
    range_m: int
    shell_kg: float | None
    weight_t: float | None
    notes: str
    source: str


@dataclass(frozen=True)
class Gun:
    id: str
    nation: str
    name: str
    range_m: int
    shell_kg: float | None
    weight_t: float | None
    notes: str
    source: str

    def as_dict(self) -> GunRow:
        return {
            "id": self.id,
            "nation": self.nation,
            "name": self.name,
            "range_m": self.range_m,
            "shell_kg": self.shell_kg,
            "weight_t": self.weight_t,
            "notes": self.notes,
            "source": self.source,
        }


BRITISH = cite("ARTILLERY, BRITISH ARTILLERY")
FRENCH = cite("ARTILLERY, FRENCH ARTILLERY")
GERMAN = cite("ARTILLERY, GERMAN ARTILLERY")

# Each line quotes its row of the text.
GUNS: dict[str, Gun] = {
    g.id: g
    for g in (
        # "18ld Field Gun 6000 8.4 1.3 20 round/min"
        Gun("18pdr-field-gun", "british", "18ld Field Gun", 6000, 8.4, 1.3, "20 round/min", BRITISH),
        # "4.5" Field Howitzer 6,650 15.5 1.36 4 rounds/min"
        Gun(
            "4.5in-field-howitzer",
            "british",
            '4.5" Field Howitzer',
            6650,
            15.5,
            1.36,
            "4 rounds/min",
            BRITISH,
        ),
        # "60ld Field Gun 9,400 27.25   " (no gun weight given)
        Gun("60pdr-field-gun", "british", "60ld Field Gun", 9400, 27.25, None, "", BRITISH),
        # "6" Howitzer 8,700 45 3.7 3,600 + built"
        Gun("6in-howitzer", "british", '6" Howitzer', 8700, 45, 3.7, "3,600 + built", BRITISH),
        # "8" Howitzer 10,000 90 3.4 678 built"
        Gun("8in-howitzer", "british", '8" Howitzer', 10000, 90, 3.4, "678 built", BRITISH),
        # "9.2" Howitzer 9,100 131 15 320 in service"
        Gun("9.2in-howitzer", "british", '9.2" Howitzer', 9100, 131, 15, "320 in service", BRITISH),
        # "12 " Howitzer 11,000 340  Only 14 in service"
        Gun("12in-howitzer", "british", '12" Howitzer', 11000, 340, None, "Only 14 in service", BRITISH),
        # "15" Howitzer 9,800 658  Only 12 built"
        Gun("15in-howitzer", "british", '15" Howitzer', 9800, 658, None, "Only 12 built", BRITISH),
        # "75mm 8,500 7.25 1.5 Le glorieux "soixante-quinze""
        Gun("75mm", "french", "75mm", 8500, 7.25, 1.5, 'Le glorieux "soixante-quinze"', FRENCH),
        # "105mm 12,000  2.3"
        Gun("105mm", "french", "105mm", 12000, None, 2.3, "", FRENCH),
        # "155mm Howitzer 11,300 43.6 3.3"
        Gun("155mm-howitzer", "french", "155mm Howitzer", 11300, 43.6, 3.3, "", FRENCH),
        # "280mm Mortar 11,000 205 16"
        Gun("280mm-mortar", "french", "280mm Mortar", 11000, 205, 16, "", FRENCH),
        # "77mm Field Gun 9,100 6.8 1.3"
        Gun("77mm-field-gun", "german", "77mm Field Gun", 9100, 6.8, 1.3, "", GERMAN),
        # "105mm Howitzer 6,300  1.14"
        Gun("105mm-howitzer", "german", "105mm Howitzer", 6300, None, 1.14, "", GERMAN),
        # "105mm Field Gun 12,000  2.8"
        Gun("105mm-field-gun", "german", "105mm Field Gun", 12000, None, 2.8, "", GERMAN),
        # "150mm Howitzer 7400 40.5 2"
        Gun("150mm-howitzer", "german", "150mm Howitzer", 7400, 40.5, 2, "", GERMAN),
        # "21cm Howitzer 9400 114 15.5 Two versions"
        Gun("21cm-howitzer", "german", "21cm Howitzer", 9400, 114, 15.5, "Two versions", GERMAN),
        # "42cm Howitzer 12,500 820 43 "Big Bertha""
        Gun("42cm-howitzer", "german", "42cm Howitzer", 12500, 820, 43, '"Big Bertha"', GERMAN),
    )
}

NATIONS: tuple[str, ...] = ("british", "french", "german")


class ArtilleryTables(TypedDict):
    columns: dict[str, str]
    nations: dict[str, list[GunRow]]
    notes: list[str]
    sources: list[str]


@FlandersFields.dataset("artillery-tables", "British, French and German guns: range, shell and gun weight")
def artillery_tables(period: str | None = None) -> ArtilleryTables:
    return {
        "columns": {"range_m": "Range (meters)", "shell_kg": "Shell Weight (Kg)", "weight_t": "Weight (t)"},
        "nations": {n: [g.as_dict() for g in GUNS.values() if g.nation == n] for n in NATIONS},
        "notes": [
            "The data in the following tables has been represents a general consensus and has converted to a "
            "metric format for ease of comparison.",
            "The tables include very heavy mortars like the French 280mm which were effectively artillery but "
            "not trench mortars which are included elsewhere.",
            "An empty cell (null) is one the text leaves blank.",
        ],
        "sources": [BRITISH, FRENCH, GERMAN],
    }
