"""Reinforcements diced for, as the Mons specimen game has it: "Reinforcements arrive on the table at the start
of turn two if a 6 is rolled on a die, on the next turn the roll is reduced to a 5, then a 4 etc. until they
arrive." (SPECIMEN GAMES, GERMAN ATTACK ON THE BEF SOMEWHERE NEAR MONS, AUTUMN 1914). A scenario says which
formations start off the table as reinforcements and the turn they are first diced for."""

from __future__ import annotations

from pydantic import Field

from rules.core.resolution import Evaluation
from rules.core.ruleset import Context, Resolver
from rules.flanders_fields.book.common import FFRequest
from rules.flanders_fields.ruleset import FlandersFields, cite

RESOLVER = "reinforcements"
SRC_REINFORCEMENTS = cite("SPECIMEN GAMES, GERMAN ATTACK ON THE BEF SOMEWHERE NEAR MONS, AUTUMN 1914")
FIRST_ROLL = 6  # "if a 6 is rolled on a die, on the next turn the roll is reduced to a 5, then a 4 etc."


class ReinforcementsRequest(FFRequest):
    turns_diced: int = Field(
        ge=1, le=100, description="The turns they have been diced for, this one included (1: the first)."
    )


def needed(turns_diced: int) -> int:
    """The least die that brings them: a 6 the first turn, one less each turn after (a 1 at the last)."""
    return max(FIRST_ROLL - (turns_diced - 1), 1)


@FlandersFields.resolver
class Reinforcements(Resolver[ReinforcementsRequest]):
    id = RESOLVER
    summary = (
        "Reinforcements: do they arrive this turn (a 6 the first turn diced, a 5 the next, then a 4 ...)"
    )
    Request = ReinforcementsRequest
    examples = ({"period": "early", "turns_diced": 1, "dice": [6]},)

    def evaluate(self, req: ReinforcementsRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        need = needed(req.turns_diced)
        key = "arrive" if dice[0] >= need else "not-yet"
        return Evaluation(key, key, (), dice[0], (SRC_REINFORCEMENTS,), {"needs": need})
