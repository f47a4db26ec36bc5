"""Flanders Fields hurricane bombardment, the German Firewaltz (late war): what it hits, how hard, and how it
is planned.

"In a late war game when the Germans are attacking each enemy trench system is hit simultaneously by Heavy
and Super heavy Artillery ... In game terms at the start of the game:~ Roll for Deep Suppression at the start
of every turn. Each Strong Point will be attacked once by Super Heavy Artillery, normal trench lines by Heavy.
... The German infantry will be covered by the German equivalent of the rolling barrage."
The fire plan holds it: "Duration and movement of Firewalz attacks i.e. when it will roll over and back
against any particular place. Once planned it is not possible to change the schedule of a Firewaltz".
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from pydantic import Field

from rules.core.errors import RulesError
from rules.core.resolution import Evaluation
from rules.core.ruleset import Context, Resolver
from rules.flanders_fields.book import tables as T
from rules.flanders_fields.book.common import FFRequest
from rules.flanders_fields.book.organisation import NATIONS
from rules.flanders_fields.errata import FIREWALTZ_STRONG_POINT_COVER
from rules.flanders_fields.resolvers.artillery import PeriodStep
from rules.flanders_fields.resolvers.shooting import (
    SRC_COVER,
    CellShown,
    Shooting,
    ShootingRequest,
    Thresholds,
    firing_rows,
    row_source,
)
from rules.flanders_fields.resolvers.suppression import spreads_to_company
from rules.flanders_fields.ruleset import FlandersFields, cite

SRC_FIREWALTZ = cite("HURRICANE BOMBARDMENT (FIREWALTZ)")
SRC_FIREWALTZ_PLAN = cite("ARTILLERY FIRE PLANS")

# It lands in the step every sheet has for pre-planned fire ("4 BARRAGES AND BOMBARDMENTS DEPLOY PRE-PLANNED
# BARRAGES AND BOMBARDMENTS - ROLL EFFECTS"), but only in a late war game: it was "developed in late 1917 and
# perfected for the 1918 Spring (Kaiserschlacht) Offensive".
FIREWALTZ_STEP = PeriodStep(
    "The Firewaltz (hurricane bombardment)",
    "barrages-and-bombardments",
    "it is a late-war rule: 'In a late war game when the Germans are attacking'",
    only=("late",),
)

# "In a late war game when the Germans are attacking": who fires it (the fire plan checks the same pair).
FIREWALTZ_SIDE = "attacker"
FIREWALTZ_NATION = "german"

FirewaltzTarget = Literal["strong-point", "trench-line"]
Nation = Literal[NATIONS]  # type: ignore[valid-type]
FirewaltzCover = Literal["medium", "hard", "fortified"]

# "Each Strong Point will be attacked once by Super Heavy Artillery, normal trench lines by Heavy."
FIREWALTZ_ARTILLERY: dict[str, T.Firer] = {
    "strong-point": "super-heavy-artillery",
    "trench-line": "heavy-artillery",
}
FIREWALTZ_ARTILLERY_NAMES = {"strong-point": "Super Heavy Artillery", "trench-line": "Heavy Artillery"}
# Their cover (TYPES OF COVER): trenches are Medium Cover ("Med Cover (Trenches)" on the late playsheet);
# "a trench in a wood is classed as Hard Cover"; Hard Cover is "Particularly well made sections of trench
# and/or strong points built up with extra sandbags"; "trenches and strong points dug into villages are
# classed as fortified". A trench line's first is the default; a strong point's is the erratum
# FIREWALTZ_STRONG_POINT_COVER (Hard, or Fortified).
FIREWALTZ_COVERS: dict[str, tuple[FirewaltzCover, ...]] = {
    "trench-line": ("medium", "hard", "fortified"),
    "strong-point": ("hard", "fortified"),
}
FIREWALTZ_NOTES = (
    "Roll for Deep Suppression at the start of every turn.",
    "Each strong point is attacked once by super heavy artillery, normal trench lines by heavy.",
    "The German infantry is covered by the German equivalent of the rolling barrage.",
    "Once planned, the Firewaltz's schedule cannot be changed.",
)


class FirewaltzDetails(TypedDict):
    """What a Firewaltz attack says besides its result: the artillery and cover it reads as, the scores it
    needs, the cell, the notes, and whether a suppression spreads to the company."""

    artillery: str
    cover: str
    thresholds: Thresholds
    cell: CellShown
    notes: list[str]
    spreads_to_company: NotRequired[bool]


class FirewaltzRequest(FFRequest):
    target: FirewaltzTarget = Field(
        default="trench-line",
        description="strong-point (attacked once by super heavy artillery) or trench-line (by heavy).",
    )
    cover: FirewaltzCover | None = Field(
        default=None,
        description="The target's cover; omit for a trench line's medium cover or a strong point's cover "
        "(hard, or fortified: erratum firewaltz-strong-point-cover); in a wood or a village they count as "
        "hard or fortified.",
    )
    attacker_nation: Nation = Field(
        default=FIREWALTZ_NATION,
        description="The attacking nation: only a German attack has a Firewaltz.",
    )


def default_cover(target: str, ctx: Context) -> FirewaltzCover:
    """The cover of a trench line (medium) or a strong point (the erratum's reading) when none is given."""
    if target == "strong-point":
        return ctx.value(FIREWALTZ_STRONG_POINT_COVER)
    return FIREWALTZ_COVERS[target][0]


def cover_of(req: FirewaltzRequest, ctx: Context) -> FirewaltzCover:
    return req.cover or default_cover(req.target, ctx)


@FlandersFields.resolver
class Firewaltz(Resolver[FirewaltzRequest]):
    id = "firewaltz"
    summary = (
        "Hurricane bombardment (Firewaltz, late war): super heavy on each strong point, heavy on trenches"
    )
    Request = FirewaltzRequest
    examples = (
        {"period": "late", "target": "trench-line", "dice": [4]},
        {"period": "late", "target": "strong-point", "cover": "fortified"},
    )

    def check(self, req: FirewaltzRequest, ctx: Context) -> None:
        FIREWALTZ_STEP.require_period(ctx)
        if req.attacker_nation != FIREWALTZ_NATION:
            raise RulesError(
                "attacker_nation",
                "only a German attack has a Firewaltz: 'In a late war game when the Germans are attacking'",
                [FIREWALTZ_NATION],
            )
        allowed = FIREWALTZ_COVERS[req.target]
        if cover_of(req, ctx) not in allowed:
            raise RulesError(
                "cover", f"a {req.target.replace('-', ' ')} is in {' or '.join(allowed)} cover", allowed
            )

    def dice(self, req: FirewaltzRequest, ctx: Context) -> tuple[int, ...]:
        return (6,)

    def shot(self, req: FirewaltzRequest, ctx: Context) -> ShootingRequest:
        """The attack as the firing table reads it: the artillery fires indirectly, off table."""
        return ShootingRequest(
            period=ctx.period,
            firer=FIREWALTZ_ARTILLERY[req.target],
            cover=cover_of(req, ctx),
            range_cm=0,
            indirect=True,
            direct_line_of_sight=False,
        )

    def evaluate(self, req: FirewaltzRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        shooting = Shooting()
        shot = self.shot(req, ctx)
        s = shooting.situation(shot, ctx)
        outcome, total = shooting.result(s, dice[0])
        notes = [*s.notes, *FIREWALTZ_NOTES]
        if dice[0] == 1:
            notes.append("A roll of 1 is always a failure.")
        details: FirewaltzDetails = {
            "artillery": shot.firer,
            "cover": shot.cover,
            "thresholds": {"suppress": s.suppress, "kill": s.kill},
            "cell": s.cell,
            "notes": notes,
        }
        if outcome == "suppressed":
            details["spreads_to_company"] = spreads_to_company("artillery")
        return Evaluation(
            outcome,
            outcome,
            tuple(s.modifiers),
            total,
            tuple(dict.fromkeys((SRC_FIREWALTZ, *s.sources))),
            details,
        )


class FirewaltzAttack(TypedDict):
    """One of the Firewaltz's two attacks as the playsheet prints it: its target, the artillery, the cover,
    the late firing table's cell."""

    target: str
    artillery: str
    cover: str
    suppress: T.Printed
    kill: T.Printed


class FirewaltzRules(TypedDict):
    source: str
    sources: list[str]
    when: str
    deep_suppression: str
    attacks: list[FirewaltzAttack]
    infantry: str


def firewaltz_rules(period: str | None) -> FirewaltzRules:
    """The playsheet's Firewaltz lines: what it does, and the late firing table's cells for its two attacks."""
    ctx = FlandersFields().context("late", {})
    rows = firing_rows(ctx)
    attacks: list[FirewaltzAttack] = []
    for target, firer in FIREWALTZ_ARTILLERY.items():
        row_id = T.FIRER_SPECS[firer].row
        cover = default_cover(target, ctx)
        cell = rows[row_id].cells[cover]
        attacks.append(
            {
                "target": target.replace("-", " "),
                "artillery": FIREWALTZ_ARTILLERY_NAMES[target],
                "cover": T.COLUMN_LABELS[cover],
                "suppress": cell.suppress,
                "kill": cell.kill,
            }
        )
    return {
        "source": SRC_FIREWALTZ,
        "sources": [row_source("heavy-artillery", ctx), SRC_COVER],
        "when": "Germans attacking: planned in the fire plan, where and when it rolls over and back; "
        "its schedule cannot be changed",
        "deep_suppression": "rolled at the start of every turn",
        "attacks": attacks,
        "infantry": "covered by the German equivalent of the rolling barrage",
    }


FlandersFields.dataset("firewaltz-rules", "Hurricane bombardment (Firewaltz): what it hits and how hard")(
    firewaltz_rules
)
