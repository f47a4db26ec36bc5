"""2mm Earth 1418's table kit (rules.core.kit): its bases (one for every kind of the characteristics chart),
the bombardment circle and the smoke cordon as templates, the board keys that hold landed circles, cordons
and the wind with what the map draws of them, and the kinds of item a side's bound plan holds (ARTILLERY;
SMOKE SCREENS & POISON GAS), each a typed model the app validates a plan item by."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from pydantic import ConfigDict, Field, Strict, ValidationInfo, field_validator

from rules.core.kit import BoardKey, Drawn, Grid, PlanKind, TableKit
from rules.core.ruleset import Erratum, Reading
from rules.earth2mm.data import (
    BOMBARDMENT_DIAMETER_IN,
    CORDON_LENGTH_PER_BATTERY_IN,
    GRID_SQUARE_MIN_IN,
    SRC_ARTILLERY,
    SRC_SMOKE,
    UNIT_IDS,
)
from rules.earth2mm.play.table import CLASSES, ROUGH_GROUND_KEY
from rules.earth2mm.ruleset import Earth2mm, cite
from rules.earth2mm.templates import INCH_CM
from rules.table.bases import BaseSpec
from rules.table.frame import Table
from rules.table.templates import TemplateSpec

SRC_INTRODUCTION = cite("INTRODUCTION")
SRC_FORMATIONS = cite("STRATEGIC FORMATIONS")

# The book sizes no base: "Check the website (www.battlefor2mmearth.co.uk) for information on modelling and
# basing for the game" (erratum base-size). A platoon's base, every kind alike, in cm.
BASE_WIDTH_CM = 2.0
BASE_DEPTH_CM = 1.0

Earth2mm.add_errata(
    Erratum(
        "base-size",
        "The size of a base (a platoon): the book sends its players to its website for basing",
        (
            Reading(
                "lookup-base",
                "Every base, of any kind, 2cm across its front and 1cm deep: the base the bombardment-circle "
                "lookup takes when none is given, so the game's circle covers what the lookup says; sub-units "
                "'are normally lined up in base contact with each other' along a single rank.",
                f"{SRC_INTRODUCTION}; {SRC_FORMATIONS}",
                (BASE_WIDTH_CM, BASE_DEPTH_CM),
            ),
        ),
        default="lookup-base",
        note="'Check the website (www.battlefor2mmearth.co.uk) for information on modelling and basing for "
        "the game': the text gives no size. A game's bases are its table kit's, one size for every game, so "
        "this erratum has one reading; a club basing otherwise plays the lookups with its own sizes.",
    ),
)

BASES: Mapping[str, BaseSpec] = {
    kind: BaseSpec(kind, "rect", BASE_WIDTH_CM, BASE_DEPTH_CM, Earth2mm().context(None).citation("base-size"))
    for kind in UNIT_IDS
}

CIRCLE = "bombardment-circle"
CORDON = "smoke-cordon"
CIRCLE_CM = BOMBARDMENT_DIAMETER_IN * INCH_CM
CORDON_PER_BATTERY_CM = CORDON_LENGTH_PER_BATTERY_IN * INCH_CM
TEMPLATES: Mapping[str, TemplateSpec] = {
    # "Place a bombardment circle (diameter 3")"
    CIRCLE: TemplateSpec(CIRCLE, CIRCLE_CM, CIRCLE_CM, SRC_ARTILLERY, shape="round"),
    # "a cordon of smoke, 3" long for every battery firing", as wide as "the normal template" (erratum
    # cordon-width): one battery's length; a side lays one for each battery firing, end to end.
    CORDON: TemplateSpec(CORDON, CORDON_PER_BATTERY_CM, CIRCLE_CM, SRC_SMOKE),
}


# -- what the map draws of the board ---------------------------------------------------------------------
def _words(s: str) -> str:
    return s.replace("-", " ").capitalize()


def cordon_words(cloud: str) -> str:
    """A cordon by the cloud chosen for it: "Chlorine cordon" (planned, laid and drawn alike)."""
    return f"{_words(cloud)} cordon"


def _at(p: Sequence[Any]) -> tuple[float, float]:
    return float(p[0]), float(p[1])


# -- what the board keeps: the bound's circles, the cordons, the wind (rules.earth2mm.play.artillery) --------------
class Circle(TypedDict):
    """A bombardment circle landed this bound: its plan item, side, kind, the battery its plan named (and that
    battery's unit, None: not on the table), its centre (table cm) and the bound it landed."""

    item_id: int
    side: str
    kind: str
    battery: str
    firer_id: int | None
    center: list[float]
    bound: int


class Cordon(TypedDict):
    """A smoke or gas cordon: its plan item, side and cloud, the batteries that laid it, where and square to
    which wind, the bound it was laid, the ends of bound it has drifted since and its polygon now (table cm)."""

    item_id: int
    side: str
    cloud: Cloud
    transparent: bool
    batteries: list[str]
    laid_at: list[float]
    wind_deg: float
    bound: int
    drifts: int
    polygon: NotRequired[list[list[float]]]


class Wind(TypedDict):
    """The wind: the direction it blows towards (degrees, table frame), the die that set it, its bound and rule."""

    deg: float
    die: int | None
    bound: int
    source: str


class CordonLanded(TypedDict):
    """What a cordon landing sets on the board: the cordons with it, and the wind where it was rolled."""

    cordons: tuple[Cordon, ...]
    wind: NotRequired[Wind]


def draw_circles(circles: Sequence[Circle], table: Table) -> list[Drawn]:
    """Landed bombardment circles, 3" across, each labelled with its side and battery."""
    return [
        Drawn(
            style="board-fire",
            label=f"Bombardment of the {c['side']} ({c['battery']})",
            point=_at(c["center"]),
            radius_cm=round(CIRCLE_CM / 2, 3),
        )
        for c in circles
    ]


def draw_cordons(cordons: Sequence[Cordon], table: Table) -> list[Drawn]:
    """Smoke and gas cordons where they lie now (laid square to the wind, drifted since)."""
    return [
        Drawn(
            style="board-gas",
            label=f"{cordon_words(c['cloud'])} of the {c['side']}",
            polygon=tuple(_at(p) for p in c["polygon"][:-1]),
        )
        for c in cordons
    ]


JsonObject = dict[str, Any]
# The board's own keys: what the rules write as plan items land (rules.earth2mm.play.artillery) and read back
# (as the records above; the board keeps them as JSON).
BOARD_KEYS = (
    BoardKey(
        "circles", "Bombardment circles landed this bound", (), tuple[JsonObject, ...], draw=draw_circles
    ),
    BoardKey("cordons", "Smoke and gas cordons", (), tuple[JsonObject, ...], draw=draw_cordons),
    # "The scenario (or a die roll) should dictate wind direction": the direction it blows towards.
    BoardKey("wind", "The wind", None, JsonObject | None),
    # Dugouts left in the open, rough ground from then on (rules.earth2mm.play.game.moves).
    BoardKey(ROUGH_GROUND_KEY, "Dugouts left as rough ground", (), tuple[JsonObject, ...]),
)


# -- the bound plan's items ----------------------------------------------------------------------------------
# A point of the side's map: the core's Grid (strict, bounded) in the book's words.
GridPoint = Annotated[
    Grid,
    Field(
        description="The grid reference, side-relative: cm along the side's rear edge from its left-hand "
        "corner, then cm up the table towards the enemy ('order bombardments on a grid reference', ARTILLERY)."
    ),
]
SquareInches = Annotated[
    int,
    Strict(),
    Field(
        ge=GRID_SQUARE_MIN_IN,
        le=48,
        description='The side of the map\'s grid squares in inches: "grid squares should be minimum 6"x6" in '
        'size" (ARTILLERY).',
    ),
]
BatteryName = Annotated[str, Field(min_length=1, max_length=64)]


class BombardmentItem(PlanKind):
    """A bombardment ordered on a grid reference (ARTILLERY): the battery that fires and where. A naval or
    railway battery's lands last in the bound (EXECUTING (10))."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["circle-bombardment", "naval-railway-bombardment"]
    battery: BatteryName = Field(description="The artillery sub-unit (battery) that fires, by its name.")
    grid: GridPoint
    square_in: SquareInches = GRID_SQUARE_MIN_IN


Cloud = Literal["smoke", "short-term-gas", "long-delayed-gas"]


class CordonItem(PlanKind):
    """A smoke or gas cordon (SMOKE SCREENS & POISON GAS): "3" long for every battery firing, laid with its
    centre of the template's centre", square to the wind."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["smoke-cordon"]
    batteries: list[BatteryName] = Field(
        min_length=1, max_length=10, description="The artillery sub-units (batteries) that fire it, by name."
    )
    grid: GridPoint
    square_in: SquareInches = GRID_SQUARE_MIN_IN
    cloud: Cloud = Field(
        default="smoke",
        description="Ordinary smoke, short-term (immediate effect) gas: -1A -1R on the troops under it, or "
        "long-delayed gas: no effect in play, it blocks sight like smoke.",
    )
    transparent: Annotated[bool, Strict()] = Field(
        default=False, description="Gas only: 'some gas is transparent and won't block line of sight'."
    )

    @field_validator("batteries")
    @classmethod
    def _each_once(cls, names: list[str]) -> list[str]:
        if len(set(names)) != len(names):
            raise ValueError('name each battery once: the cordon is 3" long for every battery firing')
        return names

    @field_validator("transparent")
    @classmethod
    def _gas_only(cls, transparent: bool, info: ValidationInfo) -> bool:
        if transparent and info.data.get("cloud") == "smoke":
            raise ValueError("smoke always blocks sight; only some gas is transparent")
        return transparent


PLAN_EXAMPLES: dict[str, dict[str, Any]] = {
    "bombardment": {
        "arrival_turn": 1,
        "item": {"kind": "circle-bombardment", "battery": "A Battery", "grid": [60, 100]},
    },
    "naval or railway bombardment": {
        "arrival_turn": 1,
        "item": {"kind": "naval-railway-bombardment", "battery": "Railway Guns", "grid": [40, 130]},
    },
    "smoke cordon": {
        "arrival_turn": 2,
        "item": {"kind": "smoke-cordon", "batteries": ["A Battery", "B Battery"], "grid": [60, 80]},
    },
}

KIT = TableKit(
    bases=BASES,
    templates=TEMPLATES,
    board_keys=BOARD_KEYS,
    plan_kinds=(BombardmentItem, CordonItem),
    plan_examples=PLAN_EXAMPLES,
    terrain_classes=CLASSES,
)
