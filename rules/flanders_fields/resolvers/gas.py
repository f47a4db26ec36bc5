"""Flanders Fields gas: the wind that carries a cloud, its movement table and the cloud data.

Angles are in the table frame: degrees counter-clockwise from +x. The text's "right" turn is clockwise, so
it subtracts from the angle. The geometry code imports `Wind`, `initial_wind_distribution`,
`next_wind_distribution` and the template constants from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NotRequired, TypedDict

from pydantic import BaseModel, ConfigDict, Field

from rules.core.dice import convolve, die
from rules.core.errors import RulesError
from rules.core.resolution import Evaluation
from rules.core.ruleset import Context, Resolver
from rules.flanders_fields.book.common import FFRequest
from rules.flanders_fields.errata import GAS_SPEED_BELOW_ZERO, SRC_GAS_MOVEMENT
from rules.flanders_fields.ruleset import FlandersFields, cite

SRC_GAS = cite("GAS")

# "A gas attack is represented by an area 20cm wide by 10cm deep if launched by the attacker, but only
# 10x5 if used by a defender"
TEMPLATE_CM: dict[str, tuple[int, int]] = {"attacker": (20, 10), "defender": (10, 5)}
# "An OFFENSIVE gas attack will continue to move on the wind for 6 turns (after which it has dispersed)"
OFFENSIVE_MAX_TURNS = 6
# "a DENYING gas attack will move for 1 turn before the heavy vapours sink to the ground"
DENYING_MOVE_TURNS = 1
# "Ground projectors must start the gas cloud 10cm in front of the attackers forward trench line"
PROJECTOR_START_CM = 10
# "Any base which is fully covered by the gas cloud will be attacked at full effect, if the cloud only
# partly covers a base the attack is at -2."
PARTIAL_COVER_MODIFIER = -2
# "speed is determined by rolling 2D6 and adding 10"
INITIAL_SPEED_BASE = 10
# "Speed of new direction is 5+2D6cm"
CHANGED_SPEED_BASE = 5
# Table result 5, second D6: 1 = 45 Right ... 6 = 135 Left. Right is clockwise, i.e. negative.
TURN_DEG: dict[int, int] = {1: -45, 2: -90, 3: -135, 4: 45, 5: 90, 6: 135}


class WindDict(TypedDict):
    """The wind as JSON (a gas answer's outcome, the board's wind)."""

    direction_deg: float
    speed_cm: int
    dispersed: bool


@dataclass(frozen=True)
class Wind:
    """The wind carrying every offensive cloud of a game. direction_deg is counter-clockwise from +x."""

    direction_deg: float
    speed_cm: int
    dispersed: bool = False

    def as_dict(self) -> WindDict:
        return {"direction_deg": self.direction_deg, "speed_cm": self.speed_cm, "dispersed": self.dispersed}


def normalise_deg(angle: float) -> float:
    """An angle folded into [0, 360)."""
    return float(angle % 360)


def _two_d6() -> dict[int, Fraction]:
    return convolve([die(6), die(6)])


def initial_wind_distribution(direction_deg: float) -> dict[Wind, Fraction]:
    """The wind after deployment: the stated direction at 2D6+10 cm."""
    direction = normalise_deg(direction_deg)
    return {Wind(direction, INITIAL_SPEED_BASE + s): p for s, p in _two_d6().items()}


def initial_wind(direction_deg: float, d1: int, d2: int) -> Wind:
    return Wind(normalise_deg(direction_deg), INITIAL_SPEED_BASE + d1 + d2)


@dataclass(frozen=True)
class WindStep:
    """One turn of the Gas Movement table for particular dice, with the table line it used."""

    wind: Wind
    result: str
    note: str


def next_wind(wind: Wind, dice: Sequence[int], calm: str = "halt") -> WindStep:
    """One turn of the table. dice[0] is the table roll; dice[1] is the 1D6 of results 3, 4 and 5; dice[2]
    and dice[3] are the 2D6 of the new speed after a change of direction. Unused dice are ignored."""
    if wind.dispersed:
        return WindStep(wind, "dispersed", "The gas has already dispersed: no further effect.")
    table, d, s1, s2 = dice
    if table <= 2:
        return WindStep(wind, "same", "1-2: speed and direction continue as for the previous turn.")
    if table == 3:
        return WindStep(
            Wind(wind.direction_deg, wind.speed_cm + d),
            "speed-up",
            f"3: direction continues, speed increases by 1D6 ({d}) cm.",
        )
    if table == 4:
        speed = wind.speed_cm - d
        if speed > 0:
            return WindStep(
                Wind(wind.direction_deg, speed),
                "speed-down",
                f"4: direction continues, speed decreases by {d} cm.",
            )
        if calm == "disperse":
            return WindStep(
                Wind(wind.direction_deg, 0, dispersed=True),
                "dispersed",
                f"4: speed decreases by {d} cm to nothing; the wind dies and the gas disperses (variant).",
            )
        return WindStep(
            Wind(wind.direction_deg, 0),
            "speed-down",
            f"4: speed decreases by {d} cm to nothing; the cloud hangs where it is at 0 cm.",
        )
    if table == 5:
        turn = TURN_DEG[d]
        side = "right" if turn < 0 else "left"
        return WindStep(
            Wind(normalise_deg(wind.direction_deg + turn), CHANGED_SPEED_BASE + s1 + s2),
            "direction-change",
            f"5: wind changes direction {abs(turn)} degrees {side}; new speed 5+2D6 = {5 + s1 + s2} cm.",
        )
    return WindStep(
        Wind(wind.direction_deg, 0, dispersed=True), "dispersed", "6: gas disperses, no further effect."
    )


def next_wind_distribution(wind: Wind, calm: str = "halt") -> dict[Wind, Fraction]:
    """Exact distribution of the wind after one turn of the Gas Movement table."""
    if wind.dispersed:
        return {wind: Fraction(1)}
    out: dict[Wind, Fraction] = {}

    def add(w: Wind, p: Fraction) -> None:
        out[w] = out.get(w, Fraction(0)) + p

    sixth = Fraction(1, 6)
    add(wind, 2 * sixth)  # 1-2 same
    for d in range(1, 7):
        add(Wind(wind.direction_deg, wind.speed_cm + d), sixth * sixth)  # 3 speed up
        add(next_wind(wind, (4, d, 1, 1), calm).wind, sixth * sixth)  # 4 speed down
        for s, ps in _two_d6().items():  # 5 new direction, speed 5+2D6
            add(
                Wind(normalise_deg(wind.direction_deg + TURN_DEG[d]), CHANGED_SPEED_BASE + s),
                sixth * sixth * ps,
            )
    add(Wind(wind.direction_deg, 0, dispersed=True), sixth)  # 6 disperses
    return out


class GasBand(TypedDict):
    """A line of the Gas Movement table: the faces, the result, its words, and a direction change's turns."""

    roll: list[int]
    result: str
    text: str
    turn_deg: NotRequired[dict[str, int]]


class GasTemplate(TypedDict):
    width: int
    depth: int


class GasMovementTable(TypedDict):
    source: str
    initial_speed: str
    table: list[GasBand]
    direction_convention: str
    template_cm: dict[str, GasTemplate]
    offensive_max_turns: int
    denying_move_turns: int
    projector_start_cm: int
    partial_cover_modifier: int
    speed_below_zero_erratum: str


def gas_movement_table() -> GasMovementTable:
    return {
        "source": SRC_GAS_MOVEMENT,
        "initial_speed": "2D6 + 10 cm in the direction the controlling player states",
        "table": [
            {
                "roll": [1, 2],
                "result": "same",
                "text": "Speed and direction of gas cloud continues as for previous turn",
            },
            {
                "roll": [3],
                "result": "speed-up",
                "text": "Direction continues as for previous turn, speed increases by 1D6cm",
            },
            {
                "roll": [4],
                "result": "speed-down",
                "text": "Direction continues as for previous turn, speed decreases by 1D6cm",
            },
            {
                "roll": [5],
                "result": "direction-change",
                "text": "Wind changes direction, roll 1D6: 1 = 45 Right, 2 = 90 Right, 3 = 135 Right, 4 = 45 Left, "
                "5 = 90 Left, 6 = 135 Left. Speed of new direction is 5+2D6cm",
                "turn_deg": {str(k): v for k, v in TURN_DEG.items()},
            },
            {"roll": [6], "result": "dispersed", "text": "Gas disperses no further effect."},
        ],
        "direction_convention": "degrees counter-clockwise from +x; right turns are clockwise (negative)",
        "template_cm": {k: {"width": w, "depth": d} for k, (w, d) in TEMPLATE_CM.items()},
        "offensive_max_turns": OFFENSIVE_MAX_TURNS,
        "denying_move_turns": DENYING_MOVE_TURNS,
        "projector_start_cm": PROJECTOR_START_CM,
        "partial_cover_modifier": PARTIAL_COVER_MODIFIER,
        "speed_below_zero_erratum": GAS_SPEED_BELOW_ZERO,
    }


FlandersFields.dataset("gas-movement-table", "Gas: wind speed, the Gas Movement table and cloud templates")(
    lambda _period: gas_movement_table()
)


class WindModel(BaseModel):
    """The wind as it blew last turn (the `outcome` of the previous gas-wind answer)."""

    model_config = ConfigDict(extra="forbid")

    direction_deg: float = Field(
        ge=-360,
        le=360,
        allow_inf_nan=False,
        description="Degrees counter-clockwise from the table's +x axis.",
    )
    speed_cm: int = Field(ge=0, le=100, description="Wind speed: cm the cloud moves per turn.")
    dispersed: bool = False


class GasWindRequest(FFRequest):
    direction_deg: float | None = Field(
        default=None,
        ge=-360,
        le=360,
        allow_inf_nan=False,
        description="First turn only: the wind direction the controlling player states (degrees "
        "counter-clockwise from +x). Dice: 2D6 for the speed.",
    )
    wind: WindModel | None = Field(
        default=None,
        description="Later turns: the current wind. Dice: the table D6, then a D6 (speed change or new "
        "direction), then 2D6 for the new speed after a change of direction; unused dice are ignored.",
    )


@FlandersFields.resolver
class GasWind(Resolver[GasWindRequest]):
    id = "gas-wind"
    summary = "Gas: the initial wind (2D6+10 cm) or one turn of the Gas Movement table"
    Request = GasWindRequest
    examples = (
        {"period": "mid", "direction_deg": 90, "dice": [3, 4]},
        {"period": "mid", "wind": {"direction_deg": 90, "speed_cm": 17}, "dice": [5, 2, 3, 3]},
    )

    def check(self, req: GasWindRequest, ctx: Context) -> None:
        if (req.direction_deg is None) == (req.wind is None):
            raise RulesError(
                "wind",
                "give the wind's direction for the first turn or the wind for a later turn, not both and not neither",
                ["direction_deg", "wind"],
            )

    def dice(self, req: GasWindRequest, ctx: Context) -> tuple[int, ...]:
        if req.wind is None:
            return (6, 6)
        if req.wind.dispersed:
            return ()
        return (6, 6, 6, 6)

    def evaluate(self, req: GasWindRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        lifetimes = {
            "offensive_max_turns": OFFENSIVE_MAX_TURNS,
            "denying_move_turns": DENYING_MOVE_TURNS,
        }
        if req.wind is None:
            assert req.direction_deg is not None
            wind = initial_wind(req.direction_deg, dice[0], dice[1])
            return Evaluation(
                key=f"{wind.speed_cm}cm",
                outcome=wind.as_dict(),
                total=wind.speed_cm,
                sources=(SRC_GAS,),
                details={
                    "result": "initial",
                    "notes": [f"Speed 2D6+10 = {dice[0]}+{dice[1]}+10 = {wind.speed_cm} cm."],
                    **lifetimes,
                },
            )
        current = Wind(normalise_deg(req.wind.direction_deg), req.wind.speed_cm, req.wind.dispersed)
        calm = str(ctx.value(GAS_SPEED_BELOW_ZERO))
        step = next_wind(current, dice, calm)
        sources = [SRC_GAS_MOVEMENT]
        if not current.dispersed and dice[0] == 4 and current.speed_cm - dice[1] <= 0:
            sources.append(ctx.citation(GAS_SPEED_BELOW_ZERO))
        return Evaluation(
            key=step.result,
            outcome=step.wind.as_dict(),
            total=step.wind.speed_cm,
            sources=tuple(sources),
            details={"result": step.result, "notes": [step.note], **lifetimes},
        )
