"""Flanders Fields casualties in a campaign: men lost per base killed and the after-battle quality roll."""

from __future__ import annotations

from fractions import Fraction
from typing import NotRequired, TypedDict

from pydantic import Field

from rules.core.resolution import Evaluation
from rules.core.ruleset import Context, Resolver
from rules.flanders_fields.book.common import FFRequest, Quality
from rules.flanders_fields.errata import CASUALTY_ROUNDING, SRC_CASUALTIES
from rules.flanders_fields.ruleset import FlandersFields

# "Multiply the number of playing bases ... "killed" during the game by 15"
MEN_PER_BASE = 15
# "one third will be dead, one third lightly wounded ..., one sixth crippled ... and one sixth badly
# wounded"
SHARES: dict[str, Fraction] = {
    "killed": Fraction(1, 3),
    "lightly_wounded": Fraction(1, 3),
    "crippled": Fraction(1, 6),
    "badly_wounded": Fraction(1, 6),
}
# "If a 12 is rolled the battalion is upgraded to Veteran."
UPGRADE_ROLL = 12


class CasualtySplit(TypedDict):
    """The men the bases killed stand for, split as the rule splits them."""

    men: int
    killed: int
    lightly_wounded: int
    crippled: int
    badly_wounded: int


def casualty_split(bases_killed: int, rounded_up: str = "badly-wounded") -> CasualtySplit:
    """Men killed and wounded; the half man of an odd number of bases' sixths goes to `rounded_up`
    ("badly-wounded" or "crippled", erratum CASUALTY_ROUNDING). The parts always add up to the total."""
    men = bases_killed * MEN_PER_BASE
    exact = {k: share * men for k, share in SHARES.items()}
    out = {k: int(v) for k, v in exact.items()}  # floors: only the sixths can be fractional (halves)
    if exact["crippled"].denominator != 1:
        out["badly_wounded" if rounded_up == "badly-wounded" else "crippled"] += 1
    return {
        "men": men,
        "killed": out["killed"],
        "lightly_wounded": out["lightly_wounded"],
        "crippled": out["crippled"],
        "badly_wounded": out["badly_wounded"],
    }


def quality_after(quality: str, drafts: int, roll: int) -> tuple[str, str]:
    """(result key, new quality). "roll 2D6 if this number is above the number of platoons brought in as
    drafts the battalion retains it's old status, otherwise it is reduced to Raw."""
    if roll == UPGRADE_ROLL:
        # Storm battalions are already veteran ("All Storm troop battalions are veteran").
        return "upgraded-to-veteran", "storm" if quality == "storm" else "veteran"
    if roll > drafts:
        return "retains", quality
    return "reduced-to-raw", "raw"


class CasualtiesOutcome(CasualtySplit):
    """The men the bases killed stand for, split as the rule splits them, and with drafts, the battalion's
    quality after them."""

    quality: NotRequired[str]


class CasualtiesRequest(FFRequest):
    bases_killed: int = Field(
        ge=0, le=10000, description="Playing bases (platoons, support weapons ...) killed."
    )
    drafts: int | None = Field(
        default=None,
        ge=0,
        le=100,
        description="Campaign: platoons needed to bring the battalion up to strength; given, 2D6 are rolled "
        "for the battalion's quality.",
    )
    quality: Quality = Field(default="experienced", description="The battalion's quality before the roll.")


@FlandersFields.resolver
class Casualties(Resolver[CasualtiesRequest]):
    id = "casualties"
    summary = "Casualties: 15 men a base killed, split 1/3 dead, 1/3 light, 1/6 crippled, 1/6 badly wounded"
    Request = CasualtiesRequest
    examples = (
        {"period": "early", "bases_killed": 40},
        {"period": "mid", "bases_killed": 7, "drafts": 5, "quality": "experienced", "dice": [3, 4]},
    )

    def dice(self, req: CasualtiesRequest, ctx: Context) -> tuple[int, ...]:
        return () if req.drafts is None else (6, 6)

    def evaluate(self, req: CasualtiesRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        split = casualty_split(req.bases_killed, str(ctx.value(CASUALTY_ROUNDING)))
        men = split["men"]
        exact = {k: str(share * men) for k, share in SHARES.items()}
        sources = [SRC_CASUALTIES]
        if Fraction(men, 6).denominator != 1:
            sources.append(ctx.citation(CASUALTY_ROUNDING))
        outcome: CasualtiesOutcome = {
            "men": split["men"],
            "killed": split["killed"],
            "lightly_wounded": split["lightly_wounded"],
            "crippled": split["crippled"],
            "badly_wounded": split["badly_wounded"],
        }
        key = "casualties"
        notes = [f"{req.bases_killed} bases x {MEN_PER_BASE} = {men} men."]
        total = None
        if req.drafts is not None:
            total = dice[0] + dice[1]
            key, quality = quality_after(req.quality, req.drafts, total)
            outcome["quality"] = quality
            notes.append(
                f"2D6 = {total} against {req.drafts} platoons of drafts: "
                + {
                    "upgraded-to-veteran": "a 12, upgraded to veteran.",
                    "retains": "above the drafts, the battalion keeps its status.",
                    "reduced-to-raw": "not above the drafts, reduced to raw.",
                }[key]
            )
        return Evaluation(
            key=key,
            outcome=outcome,
            total=total,
            sources=tuple(sources),
            details={"exact": exact, "notes": notes},
        )
