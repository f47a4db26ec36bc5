"""Crossing barbed wire: one D6 per platoon per 2 cm belt, each needing the period's score."""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import NotRequired, TypedDict

from pydantic import Field

from rules.core.errors import RulesError
from rules.core.resolution import Evaluation
from rules.core.ruleset import Context, Resolver
from rules.flanders_fields import errata as E
from rules.flanders_fields.book import tables as T
from rules.flanders_fields.book.common import FFRequest
from rules.flanders_fields.ruleset import FlandersFields, cite

RESOLVER = "wire-crossing"
MAX_PLATOONS = 24
MAX_BELTS = 10


class WireRequest(FFRequest):
    platoons: int = Field(ge=1, le=MAX_PLATOONS, description="Platoon stands trying to cross.")
    belts: int = Field(
        default=1, ge=1, le=MAX_BELTS, description="Belts of wire to cross (each 2 cm of depth is a belt)."
    )


class WireDetails(TypedDict):
    """What a wire roll says besides its result: the score each belt needs, a belt's depth, the chance a
    platoon crosses (a fraction), and the notes."""

    needs: int
    belt_cm: int
    chance_per_platoon: str
    notes: list[str]


class WireNeeds(TypedDict):
    """A period's crossing roll as printed, and the erratum that disputes it where one does."""

    period: str
    printed: str
    needs: int
    erratum: NotRequired[str]


class WireExtraRules(TypedDict):
    source: str
    rules: list[str]


class WireRules(TypedDict):
    source: str
    belt_cm: int
    needs: list[WireNeeds]
    procedure: list[str]
    early_playsheet: str
    extra_rules: WireExtraRules


def wire_needs(ctx: Context) -> int | None:
    """The score each platoon needs per belt, or None where the period's reading has no platoon roll."""
    if ctx.period == "early" and not ctx.value(E.EARLY_WIRE_CROSSING)["platoon_roll"]:
        return None
    return T.WIRE_NEEDS[ctx.period or "late"]


def platoon_crosses(needs: int, belts: int) -> Fraction:
    """Chance one platoon passes every belt: each belt is an independent D6 needing `needs`+."""
    return Fraction(7 - needs, 6) ** belts


def _source(ctx: Context) -> str:
    if ctx.period == "early":
        return ctx.citation(E.EARLY_WIRE_CROSSING)
    return f"{T.SRC_WIRE}; {cite('ORDER SEQUENCE NOTES, Crossing barbed wire', ctx.period)}"


@FlandersFields.resolver
class WireCrossing(Resolver[WireRequest]):
    id = RESOLVER
    summary = "Crossing barbed wire: which platoons get through"
    Request = WireRequest
    examples = (
        {"period": "late", "platoons": 4, "belts": 1, "dice": [1, 3, 5, 5]},
        {"period": "mid", "platoons": 2, "belts": 2, "dice": [5, 6, 6, 2]},
        {"period": "early", "platoons": 3, "variants": {E.EARLY_WIRE_CROSSING: "platoon-roll"}},
    )

    def dice(self, req: WireRequest, ctx: Context) -> tuple[int, ...]:
        return (6,) * (req.platoons * req.belts)

    def check(self, req: WireRequest, ctx: Context) -> None:
        if wire_needs(ctx) is None:
            raise RulesError(
                "period",
                f"in 1914 wire is -2 on the order roll: pick variant {E.EARLY_WIRE_CROSSING}=platoon-roll to roll here",
                ["mid", "late"],
                why="the 1914 to mid 1915 playsheet puts companies through wire with -2 on their order roll "
                f"(order-roll through_wire); choose variant {E.EARLY_WIRE_CROSSING}=platoon-roll for the main "
                "text's roll by platoons",
            )

    def evaluate(self, req: WireRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        needs = wire_needs(ctx)
        assert needs is not None
        platoons = []
        for i in range(req.platoons):
            rolls = dice[i * req.belts : (i + 1) * req.belts]
            passed = 0
            while passed < req.belts and rolls[passed] >= needs:
                passed += 1
            platoons.append(
                {
                    "platoon": i + 1,
                    "result": "crossed" if passed == req.belts else "stuck",
                    "belts_crossed": passed,
                    "dice": list(rolls),
                }
            )
        crossed = sum(p["result"] == "crossed" for p in platoons)
        details: WireDetails = {
            "needs": needs,
            "belt_cm": T.WIRE_BELT_CM,
            "chance_per_platoon": str(platoon_crosses(needs, req.belts)),
            "notes": [
                f"Each platoon rolls a D6 per {T.WIRE_BELT_CM} cm belt and needs {needs}+; dice after a failed "
                "belt are not used.",
                f"Platoons that cross may move up to {T.WIRE_BEYOND_CM} cm beyond the rear edge of the wire, "
                "which may include an assault move.",
                "Platoons that fail are stuck on the wire and count as in the open; they need another Action "
                "and a successful roll in a later turn.",
            ],
        }
        outcome = {"platoons": platoons, "crossed": crossed, "stuck": req.platoons - crossed}
        return Evaluation(f"{crossed}-crossed", outcome, (), None, (_source(ctx),), details)

    def probabilities(self, req: WireRequest, ctx: Context) -> dict[str, Fraction]:
        needs = wire_needs(ctx)
        assert needs is not None
        p = platoon_crosses(needs, req.belts)
        n = req.platoons
        return {f"{k}-crossed": comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def wire_rules_dataset(_period: str | None) -> WireRules:
    return {
        "source": T.SRC_WIRE,
        "belt_cm": T.WIRE_BELT_CM,
        "needs": [
            {
                "period": "early",
                "printed": "1914 to Early 1915 = 3+",
                "needs": T.WIRE_NEEDS["early"],
                "erratum": E.EARLY_WIRE_CROSSING,
            },
            {"period": "mid", "printed": "Mid 1915 to Mid1917 = 5+", "needs": T.WIRE_NEEDS["mid"]},
            {"period": "late", "printed": "Mid 1917 onwards = 3+", "needs": T.WIRE_NEEDS["late"]},
        ],
        "procedure": [
            "One Action moves the figures up to the wire; a separate Action is needed to attempt the crossing.",
            "Roll platoon by platoon; the rules apply to every 2cm depth of wire.",
            f"Passed: move on up to {T.WIRE_BEYOND_CM}cm beyond the rear edge of the wire (may include an assault).",
            "Failed: the platoon may not cross and counts as being in the open.",
        ],
        "early_playsheet": "If some of a battalion's companies are trying to pass through wire apply extra -2 to "
        "die result for them.",
        "extra_rules": {
            "source": cite("MOVEMENT, EXTRA BARBED WIRE RULES"),
            "rules": list(T.WIRE_EXTRA_RULES),
        },
    }


FlandersFields.dataset("wire-rules", "Barbed wire: crossing rolls per period and extra wire rules")(
    wire_rules_dataset
)
