"""Flanders Fields deviation of an artillery aiming point: the appendix D6 method or a deviation die.

The direction is a clock face relative to the rolling player's base table edge (12 straight ahead); the
table geometry turns it into a bearing.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from pydantic import Field

from rules.core.errors import RulesError
from rules.core.resolution import Evaluation
from rules.core.ruleset import Context, Resolver
from rules.flanders_fields.book.common import FFRequest
from rules.flanders_fields.ruleset import FlandersFields, cite

SRC_DEVIATION = cite("APPENDIXES, DEVIATION DICE")
SRC_AIMING_POINT = cite("ARTILLERY AIMING POINT - DEVIATION")

# "Roll a D6 if the result is a 5 or 6 then there is no deviation"
NO_DEVIATION_FROM = 5
CLOCK = tuple(range(1, 13))


def clock_of(first: int, second: int) -> int:
    """ "if the first is 1-3 add nothing to the second dice roll, if it is 4-6 add six" -> 1 to 12."""
    return second + (6 if first >= 4 else 0)


class DeviationRequest(FFRequest):
    method: Literal["d6", "deviation-die"] = Field(
        default="d6",
        description="d6: the appendix method, dice [check, direction 1st, direction 2nd, distance, distance]; "
        "deviation-die: a commercial deviation die gave `direction`, dice are the 2D6 distance.",
    )
    direction: int | None = Field(
        default=None,
        ge=1,
        le=12,
        description="deviation-die only: the clock direction it shows (12 = ahead).",
    )


@FlandersFields.resolver
class Deviation(Resolver[DeviationRequest]):
    id = "deviation"
    summary = "Deviation of an artillery aiming point: clock direction and 2D6 cm"
    Request = DeviationRequest
    examples = (
        {"period": "mid", "method": "d6", "dice": [2, 4, 3, 2, 5]},
        {"period": "late", "method": "deviation-die", "direction": 3, "dice": [6, 1]},
    )

    def check(self, req: DeviationRequest, ctx: Context) -> None:
        if req.method == "deviation-die" and req.direction is None:
            raise RulesError("direction", "a deviation die's clock direction is required", CLOCK)
        if req.method == "d6" and req.direction is not None:
            raise RulesError("direction", "the d6 method rolls its own direction; omit direction", ["null"])

    def dice(self, req: DeviationRequest, ctx: Context) -> tuple[int, ...]:
        return (6, 6, 6, 6, 6) if req.method == "d6" else (6, 6)

    def evaluate(self, req: DeviationRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        sources = (SRC_DEVIATION, SRC_AIMING_POINT)
        if req.method == "d6":
            if dice[0] >= NO_DEVIATION_FROM:
                return Evaluation(
                    key="no-deviation",
                    outcome={"deviates": False, "clock": None, "distance_cm": 0},
                    total=0,
                    sources=sources,
                    details={"notes": [f"{dice[0]}: a 5 or 6, no deviation; the other dice are not used."]},
                )
            clock = clock_of(dice[1], dice[2])
            distance = dice[3] + dice[4]
            note = (
                f"Direction {dice[2]}{' + 6' if dice[1] >= 4 else ''} = {clock} o'clock; 2D6 = {distance} cm."
            )
        else:
            assert req.direction is not None
            clock = req.direction
            distance = dice[0] + dice[1]
            note = f"Deviation die: {clock} o'clock; 2D6 = {distance} cm."
        return Evaluation(
            key=f"{distance}cm",
            outcome={"deviates": True, "clock": clock, "distance_cm": distance},
            total=distance,
            sources=sources,
            details={
                "notes": [note, "12 o'clock is straight ahead of the rolling player's base table edge."]
            },
        )


class DeviationTable(TypedDict):
    source: str
    applies_to: str
    no_deviation: list[int]
    direction: str
    distance: str
    deviation_die: str


def deviation_table() -> DeviationTable:
    return {
        "source": SRC_DEVIATION,
        "applies_to": "unobserved off-table artillery and any artillery delivered gas attack",
        "no_deviation": [5, 6],
        "direction": "two D6: the second, plus 6 if the first is 4-6: 1 to 12 on a clock face, 12 straight "
        "ahead of the rolling player's base table edge",
        "distance": "2D6 cm",
        "deviation_die": "a commercial deviation die gives the direction; 2D6 cm for distance",
    }


FlandersFields.dataset("deviation", "Deviation of artillery aiming points (appendix method)")(
    lambda _period: deviation_table()
)
