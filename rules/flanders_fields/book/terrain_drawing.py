"""Drawing a Flanders Fields table (dataset `terrain-drawing`, which the scenario editor offers): the widths
the book gives a trench line and a belt of wire, and its own name for the built-up areas the table's `village`
kind draws, each with its printed line."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from rules.flanders_fields.book.common import PERIODS
from rules.flanders_fields.book.tables import SRC_WIRE, WIRE_BELT_CM
from rules.flanders_fields.ruleset import FlandersFields, cite, cite_playsheets

SRC_MODELLING = cite("SUGGESTIONS FOR MODELLING THE WESTERN FRONT")

TRENCH_LINE = (
    "Brown felt lines about 1.5-2cm wide and 15-30cm long offers plenty of flexibility when laying out trench "
    "lines"
)
# "about 1.5-2cm wide": both ends offered, the wider first (a platoon's 1.5cm-deep base lies wholly inside it).
TRENCH_WIDTHS_CM = (2.0, 1.5)
WIRE_BELT_LINE = "a “standard” belt of barbed wire is considered to be 2cm wide"
WIRE_DEPTH_LINE = "The above rules apply to every 2cm depth of wire the infantry has to cross."
# A standard belt, and two (a belt thickened once, as the "Wiring Party" card's "extra 2cm depth of wire").
WIRE_DEPTHS_CM = (WIRE_BELT_CM, 2 * WIRE_BELT_CM)

# The book's name, from the movement table's row (the cover it gives is cover.py's "built up areas like
# village provide hard cover").
BUILT_UP_NAME = "Built-up area (BuA)"
BUILT_UP_LINE = "Close Terrain (Woods, BuA, Marsh etc unless on road)"


class DrawnWidth(TypedDict):
    cm: float
    text: str
    source: str


class DrawnKind(TypedDict):
    """A terrain kind as the book draws it: its name (when not the kind's own) and the widths of a line of it."""

    name: NotRequired[str]
    text: NotRequired[str]
    source: NotRequired[str]
    widths: NotRequired[list[DrawnWidth]]


class TerrainDrawing(TypedDict):
    kinds: dict[str, DrawnKind]


def terrain_drawing(_period: str | None = None) -> TerrainDrawing:
    """Per terrain kind: the name the book gives it (when not the kind's own), and the typical widths of a
    line drawn of it (the first the one to start with), each with its printed line."""
    return {
        "kinds": {
            "trench": {
                "widths": [
                    {"cm": cm, "text": TRENCH_LINE, "source": SRC_MODELLING} for cm in TRENCH_WIDTHS_CM
                ],
            },
            "wire": {
                "widths": [
                    {"cm": float(WIRE_DEPTHS_CM[0]), "text": WIRE_BELT_LINE, "source": SRC_WIRE},
                    {"cm": float(WIRE_DEPTHS_CM[1]), "text": WIRE_DEPTH_LINE, "source": SRC_WIRE},
                ],
            },
            "village": {
                "name": BUILT_UP_NAME,
                "text": BUILT_UP_LINE,
                "source": cite_playsheets("MOVEMENT DISTANCES", PERIODS),
            },
        }
    }


FlandersFields.dataset(
    "terrain-drawing", "Drawing the table: the book's widths of trench lines and wire, its name for villages"
)(terrain_drawing)
