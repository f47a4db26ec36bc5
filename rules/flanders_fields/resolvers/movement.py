"""Movement: allowance in cm by mover and terrain, crossing and limbering actions, and the resolver.

The period playsheets' MOVEMENT DISTANCES tables govern cross country, road, close terrain and trench lines
(and are the only source for motors); the main text's table adds shell torn and shattered ground, streams
and rivers, which the playsheets omit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, TypedDict

from pydantic import Field

from rules.core.errors import RulesError
from rules.core.resolution import Evaluation, Modifier
from rules.core.ruleset import Context, Resolver
from rules.flanders_fields import errata
from rules.flanders_fields.book.common import FFRequest
from rules.flanders_fields.ruleset import FlandersFields, cite

Mover = Literal[
    "infantry",
    "cavalry",
    "field-artillery",
    "field-artillery-manhandled",
    "tank",
    "motor",
    "mg-packed",
    "mg-manhandled",
    "light-mortar-packed",
    "light-mortar-manhandled",
]
Terrain = Literal["cross-country", "shell-torn", "shattered", "road", "close", "trench", "stream", "river"]
MOVERS: tuple[Mover, ...] = (
    "infantry",
    "cavalry",
    "field-artillery",
    "field-artillery-manhandled",
    "tank",
    "motor",
    "mg-packed",
    "mg-manhandled",
    "light-mortar-packed",
    "light-mortar-manhandled",
)
TERRAINS: tuple[Terrain, ...] = (
    "cross-country",
    "shell-torn",
    "shattered",
    "road",
    "close",
    "trench",
    "stream",
    "river",
)
# Terrain crossed by actions rather than centimetres.
WATER: tuple[Terrain, ...] = ("stream", "river")

MAIN = cite("MOVEMENT, MOVEMENT DISTANCES")


def playsheet(period: str) -> str:
    return cite("MOVEMENT DISTANCES", period)


# The four columns both tables share. Main text rows (INFANTRY, CAVALRY, FIELD ARTILLERY, TANKS):
#   "Cross Country – Shell Torn Ground  (See below) 15cm 20cm 10cm 10cm"
#   "Cross Country – Shattered Ground (See below) 10cm 10cm 5cm 5cm"
# Playsheet rows (all three periods; INFANTRY, CAVALRY, FIELD ARTILLERY, TANKS, MOTORS):
#   "Cross Country 20cm 30cm 20cm 15cm 5"
#   "Road (Troops must be in marching columns) 25cm 35cm 35cm 20cm 40"
#   "Close Terrain (Woods, BuA, Marsh etc unless on road) 10cm 15cm 10cm 10cm No"  (infantry: erratum)
#   "Moving along trench line 10cm No No 10cm No"
_BASE: dict[str, dict[str, int | None]] = {
    "cross-country": {"infantry": 20, "cavalry": 30, "field-artillery": 20, "tank": 15, "motor": 5},
    "shell-torn": {"infantry": 15, "cavalry": 20, "field-artillery": 10, "tank": 10},
    "shattered": {"infantry": 10, "cavalry": 10, "field-artillery": 5, "tank": 5},
    "road": {"infantry": 25, "cavalry": 35, "field-artillery": 35, "tank": 20, "motor": 40},
    "close": {"infantry": 10, "cavalry": 15, "field-artillery": 10, "tank": 10, "motor": None},
    "trench": {"infantry": 10, "cavalry": None, "field-artillery": None, "tank": 10, "motor": None},
}
# Main text: "Streams – Requires 1 specific Action 1 Action 1 Action No passage 1 Order";
# "Rivers – Requires 3specific orders ... 3 Actions 3 Actions No passage No passage".
_CROSSING: dict[str, dict[str, int | None]] = {
    "stream": {"infantry": 1, "cavalry": 1, "field-artillery": None, "tank": 1},
    "river": {"infantry": 3, "cavalry": 3, "field-artillery": None, "tank": None},
}
# Main text and playsheets: "Light Tanks and Veteran infantry add 5cm."
BONUS_CM = 5
# "Artillery being man handled move at 3cm"; playsheets "Manhandling deployed Field Artillery 3cm".
MANHANDLED_ARTILLERY_CM = 3
# "Machineguns, Light Mortars and Artillery require 1 order to limber or unlimber, pack or unpack."
LIMBER_ACTIONS = 1
_LIMBERED = ("field-artillery", "mg-packed", "light-mortar-packed")
_DEPLOYED = ("field-artillery-manhandled", "mg-manhandled", "light-mortar-manhandled")
_PACKED = ("mg-packed", "light-mortar-packed")
_MANHANDLED_WEAPONS = ("mg-manhandled", "light-mortar-manhandled")


@dataclass(frozen=True)
class MoveRule:
    """Everything the movement table says about one mover on one terrain."""

    allowance_cm: int | None  # None: may not move through/along this terrain
    crossing_actions: int | None  # streams, rivers (and trench lines for artillery in one reading)
    may_pass: bool
    sources: tuple[str, ...]
    modifiers: tuple[Modifier, ...] = ()


def _check_period(period: str) -> None:
    FlandersFields().check_period(period)


def _column(mover: str) -> str:
    """The table column a mover reads: packed/manhandled weapons read the infantry column."""
    if mover in (*_PACKED, *_MANHANDLED_WEAPONS):
        return "infantry"
    if mover == "field-artillery-manhandled":
        return "field-artillery"
    return mover


def _check_flags(period: str, mover: str, veteran: bool, storm: bool, light_tank: bool) -> None:
    if mover not in MOVERS:
        raise RulesError("mover", f"unknown mover {mover!r}", MOVERS)
    if (veteran or storm) and mover != "infantry":
        # "Veteran infantry add 5cm"; "Crewed Weapons ... are always classed as Experienced".
        raise RulesError(
            "veteran" if veteran else "storm", "only infantry move faster as veterans", ["infantry"]
        )
    if storm and period != "late":
        # GERMAN INFANTRY DIVISION 1916-1918: "In 1918 the German answer ... was ... storm troops."
        raise RulesError("storm", "storm troops fight only in the late period", ["late"])
    if light_tank and mover != "tank":
        raise RulesError("light_tank", "the light tank bonus applies to tanks", ["tank"])


def move_rule(
    period: str,
    mover: str,
    terrain: str,
    *,
    veteran: bool = False,
    storm: bool = False,
    light_tank: bool = False,
    variants: Mapping[str, str] | None = None,
) -> MoveRule:
    ctx = FlandersFields().context(period, variants)
    _check_flags(period, mover, veteran, storm, light_tank)
    if terrain not in TERRAINS:
        raise RulesError("terrain", f"unknown terrain {terrain!r}", TERRAINS)
    column = _column(mover)
    sources: list[str] = []

    if terrain in WATER:
        sources.append(MAIN)
        actions: int | None = None
        if column == "motor":
            # Silent in the text; every reading keeps motors out of streams and rivers.
            sources.append(ctx.citation(errata.MOVE_MOTOR_BROKEN_GROUND))
        else:
            actions = _CROSSING[terrain][column]
        return MoveRule(0 if actions is not None else None, actions, actions is not None, tuple(sources))

    base = _base_allowance(ctx, period, column, terrain, sources)
    crossing: int | None = None
    if terrain == "trench" and column == "field-artillery":
        crossing = ctx.value(errata.MOVE_TRENCH_FIELD_ARTILLERY)
        sources.append(ctx.citation(errata.MOVE_TRENCH_FIELD_ARTILLERY))

    modifiers: list[Modifier] = []
    allowance = base
    if allowance is not None:
        if mover == "field-artillery-manhandled":
            allowance = MANHANDLED_ARTILLERY_CM
            sources.append(playsheet(period))
        elif mover in _MANHANDLED_WEAPONS:
            # "half infantry speed if man handled"
            rnd = math.floor if ctx.value(errata.MOVE_MANHANDLED_ROUNDING) == "down" else math.ceil
            allowance = int(rnd(allowance / 2))
            if allowance * 2 != base:
                sources.append(ctx.citation(errata.MOVE_MANHANDLED_ROUNDING))
        if veteran or storm or light_tank:
            label = (
                "light tank" if light_tank else ("storm troops (veteran)" if storm else "veteran infantry")
            )
            modifiers.append(Modifier(label, BONUS_CM, playsheet(period)))
            allowance += BONUS_CM
    return MoveRule(
        allowance, crossing, allowance is not None or crossing is not None, tuple(sources), tuple(modifiers)
    )


def _base_allowance(ctx: Context, period: str, column: str, terrain: str, sources: list[str]) -> int | None:
    if terrain in ("shell-torn", "shattered"):
        sources.append(MAIN)
        if column == "motor":
            sources.append(ctx.citation(errata.MOVE_MOTOR_BROKEN_GROUND))
            value: int | None = ctx.value(errata.MOVE_MOTOR_BROKEN_GROUND)
            return value
        return _BASE[terrain][column]
    sources.append(playsheet(period))
    if terrain == "close" and column == "infantry":
        sources.append(ctx.citation(errata.MOVE_CLOSE_INFANTRY))
        close: int = ctx.value(errata.MOVE_CLOSE_INFANTRY)
        return close
    return _BASE[terrain][column]


def move_allowance_cm(
    period: str,
    mover: str,
    terrain: str,
    *,
    veteran: bool = False,
    storm: bool = False,
    light_tank: bool = False,
    variants: Mapping[str, str] | None = None,
) -> int | None:
    """Centimetres one move action carries `mover` over `terrain`; None = may not pass.

    Streams and rivers are crossed by actions, not distance: 0 there means the crossing is possible and
    `crossing_actions()` says how many actions it takes. Raises RulesError (field named) on bad input.
    """
    _check_period(period)
    return move_rule(
        period, mover, terrain, veteran=veteran, storm=storm, light_tank=light_tank, variants=variants
    ).allowance_cm


def crossing_actions(
    period: str, mover: str, terrain: str, variants: Mapping[str, str] | None = None
) -> int | None:
    """Actions needed to cross a stream (1) or river (3: in, across, out); None when it may not pass or the
    terrain needs no crossing action."""
    _check_period(period)
    return move_rule(period, mover, terrain, variants=variants).crossing_actions


def limber_actions(mover: str) -> int | None:
    """Actions to limber/pack (or unlimber/unpack) a weapon; None for troops that have none."""
    return LIMBER_ACTIONS if mover in (*_LIMBERED, *_DEPLOYED) else None


class MoveCell(TypedDict):
    """One mover on one terrain: its allowance (None: may not), the actions to cross, whether it may pass."""

    allowance_cm: int | None
    crossing_actions: int | None
    may_pass: bool


class MovementTable(TypedDict):
    """A period's movement table: each terrain's cell per mover, the bonuses, limbering, notes and sources."""

    period: str
    terrain: dict[str, dict[str, MoveCell]]
    bonuses_cm: dict[str, int]
    limber_actions: dict[str, int]
    notes: list[str]
    sources: list[str]


def movement_table(period: str, variants: Mapping[str, str] | None = None) -> MovementTable:
    """The whole table for a period: allowance per terrain per mover, crossing actions and bonuses."""
    rows: dict[str, dict[str, MoveCell]] = {}
    for terrain in TERRAINS:
        row: dict[str, MoveCell] = {}
        for mover in MOVERS:
            rule = move_rule(period, mover, terrain, variants=variants)
            row[mover] = {
                "allowance_cm": rule.allowance_cm,
                "crossing_actions": rule.crossing_actions,
                "may_pass": rule.may_pass,
            }
        rows[terrain] = row
    return {
        "period": period,
        "terrain": rows,
        "bonuses_cm": {"veteran-infantry": BONUS_CM, "storm-troops": BONUS_CM, "light-tank": BONUS_CM},
        "limber_actions": {m: LIMBER_ACTIONS for m in (*_LIMBERED, *_DEPLOYED)},
        "notes": [
            "Light Tanks and Veteran infantry add 5cm.",
            "Machine Guns and Light Mortars move at Infantry pace if on mule/horse packs, half infantry speed "
            "if man handled.",
            "Machineguns, Light Mortars and Artillery require 1 order to limber or unlimber, pack or unpack.",
            "Artillery being man handled move at 3cm, Heavy and Super heavy artillery may not be man handled.",
            "Road (Troops must be in marching columns).",
            "Rivers – Requires 3 specific orders (One order to get in, one to cross and one to exit).",
            "Cavalry, horse drawn artillery and pack animals may not cross wire except by a cleared path.",
            "it is considered to require 3cm to turn a stand through 180 degrees",
        ],
        "sources": [playsheet(period), MAIN],
    }


@FlandersFields.dataset("movement-table", "Movement distances by mover and terrain", per_period=True)
def _movement_table(period: str | None) -> MovementTable:
    assert period is not None
    return movement_table(period)


class MovementRequest(FFRequest):
    mover: Mover = Field(description="What moves: troop type, or a weapon packed/limbered or manhandled.")
    terrain: Terrain = Field(description="The ground moved over or the obstacle crossed.")
    veteran: bool = Field(default=False, description="Veteran infantry (+5 cm).")
    storm: bool = Field(default=False, description="German storm troops, always veteran (+5 cm), late war.")
    light_tank: bool = Field(default=False, description="A light tank (Whippet, Renault): +5 cm.")


@FlandersFields.resolver
class Movement(Resolver[MovementRequest]):
    id = "movement"
    summary = "Movement allowance by mover and terrain; actions to limber and to cross streams and rivers"
    Request = MovementRequest
    examples = (
        {"period": "early", "mover": "infantry", "terrain": "cross-country", "veteran": True},
        {"period": "late", "mover": "tank", "terrain": "shattered", "light_tank": True},
        {"period": "mid", "mover": "cavalry", "terrain": "river"},
        {"period": "mid", "mover": "mg-manhandled", "terrain": "road"},
    )

    def dice(self, req: MovementRequest, ctx: Context) -> tuple[int, ...]:
        return ()

    def check(self, req: MovementRequest, ctx: Context) -> None:
        _check_flags(req.period, req.mover, req.veteran, req.storm, req.light_tank)

    def evaluate(self, req: MovementRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        rule = move_rule(
            req.period,
            req.mover,
            req.terrain,
            veteran=req.veteran,
            storm=req.storm,
            light_tank=req.light_tank,
            variants=ctx.variants,
        )
        may_not_pass = [
            m for m in MOVERS if not move_rule(req.period, m, req.terrain, variants=ctx.variants).may_pass
        ]
        if not rule.may_pass:
            key = "may-not-pass"
        elif req.terrain in WATER or rule.allowance_cm is None:
            key = "crossing"
        else:
            key = "move"
        outcome = {
            "allowance_cm": rule.allowance_cm,
            "may_pass": rule.may_pass,
            "crossing_actions": rule.crossing_actions,
            "limber_actions": limber_actions(req.mover),
            "may_not_pass": may_not_pass,
        }
        notes = []
        if req.mover in _LIMBERED or req.mover in _DEPLOYED:
            notes.append("1 order to limber or unlimber, pack or unpack")
        if req.terrain == "road":
            notes.append("Troops must be in marching columns to use the road rate")
        if req.terrain == "river" and rule.may_pass:
            notes.append("One order to get in, one to cross and one to exit")
        return Evaluation(
            key,
            outcome,
            rule.modifiers,
            rule.allowance_cm,
            rule.sources,
            {"notes": notes},
        )
