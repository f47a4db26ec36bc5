"""Flanders Fields rolling barrages: effect on defenders, danger to the attackers following it, duration."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from pydantic import Field

from rules.core.resolution import Evaluation, Modifier
from rules.core.ruleset import Context, Resolver
from rules.flanders_fields.book.common import Cover, FFRequest
from rules.flanders_fields.errata import (
    BARRAGE_DANGER_ROW,
    BARRAGE_DURATION,
    ROLLING_BARRAGE_NATURAL_ONE,
    SRC_BARRAGE_DANGER,
    SRC_ROLLING_BARRAGE,
)
from rules.flanders_fields.resolvers.artillery import DEEP_SUPPRESSION_STEP, SRC_DEEP_SHELTERS, PeriodStep
from rules.flanders_fields.resolvers.firewaltz import FIREWALTZ_NATION, FIREWALTZ_SIDE, FIREWALTZ_STEP
from rules.flanders_fields.resolvers.shooting import firing_rows, row_source
from rules.flanders_fields.ruleset import FlandersFields, cite

SRC_DICE = cite("GAME VALUES, DICE")

# Mid and late playsheets: "2 ROLLING BARRAGES - ADVANCE AND ROLL EFFECTS"; the 1914 to mid 1915 playsheet has
# no such step, and the main text says rolling barrages "were developed from late 1916". Effect, danger to
# the attackers and duration all belong to the step.
ROLLING_BARRAGE_STEP = PeriodStep(
    "Rolling barrages",
    "rolling-barrages",
    "there are no rolling barrages before mid 1915: the 1914 to mid 1915 playsheet has no rolling barrage "
    "step",
)

# "1 or 2 No Suppression. 3-5 Platoon is suppressed. 6 Platoon is killed." (trenches / Medium Cover);
# "If the target is in Hard Cover reduce the die roll by 1 ... Soft Cover increase the die roll by 1, if in
# Open increase by 2"; "If the target is in Fortified Positions it is immune".
ROLLING_BARRAGE_SUPPRESS = 3
ROLLING_BARRAGE_KILL = 6
ROLLING_BARRAGE_COVER: dict[str, int | None] = {
    "fortified": None,
    "hard": -1,
    "medium": 0,
    "soft": 1,
    "open": 2,
}

# "There is a danger area 6cm behind the RB"
DANGER_ZONE_CM = 6
# "If the figures are at risk they are attacked by field artillery at a -1 on the die roll."
DANGER_ATTACK_MODIFIER = -1

# "attacked by field artillery": the row (guns or howitzers) is an erratum; its cells come from the period's
# firing table in rules/flanders_fields/resolvers/shooting.py ("Field Artillery – Guns 3 4 4 5 5 6 6 7" and "Field
# Artillery, Howitzers Light Mortars 3 4 3 4 4 6 6 7" on every playsheet).
DANGER_ROWS = {"guns": "field-gun", "howitzers": "field-howitzer"}


def field_artillery_cell(ctx: Context, row: str, cover: str) -> tuple[int, int] | None:
    """(suppress, kill) of the period's field artillery row for an indirect barrage, or None when the
    barrage cannot affect that cover (fortifications need direct sight or are 'No')."""
    cell = firing_rows(ctx)[DANGER_ROWS[row]].cells.get(cover)
    if cell is None or cell.direct or not isinstance(cell.suppress, int):
        return None
    # A kill printed "No" cannot happen: only suppression.
    return cell.suppress, cell.kill if isinstance(cell.kill, int) else 99


# "the duration of any rolling barrage is four plus D3 turns" (template: 3 + D3: BARRAGE_DURATION)
# "When a D3 is referred to roll a D6 but count 1 & 2 as 1, 3 & 4 as 2 and 5 & 6 as 3."


def d3(face: int) -> int:
    """A D6 read as a D3."""
    return (face + 1) // 2


def effect_of(total: int, suppress: int, kill: int) -> str:
    return "killed" if total >= kill else "suppressed" if total >= suppress else "no-effect"


class RollingBarrageRequest(FFRequest):
    cover: Cover = Field(description="Cover of the platoon or crewed weapon under the barrage.")
    target_in_deep_shelter: bool = Field(
        default=False, description="The platoon shelters in a deep dugout (safe from the barrage)."
    )


@FlandersFields.resolver
class RollingBarrage(Resolver[RollingBarrageRequest]):
    id = "rolling-barrage"
    summary = "Rolling barrage: effect on a platoon or crewed weapon as it comes under the barrage"
    Request = RollingBarrageRequest
    examples = ({"period": "late", "cover": "medium", "dice": [4]}, {"period": "mid", "cover": "open"})

    def check(self, req: RollingBarrageRequest, ctx: Context) -> None:
        ROLLING_BARRAGE_STEP.require_period(ctx)

    def dice(self, req: RollingBarrageRequest, ctx: Context) -> tuple[int, ...]:
        return () if ROLLING_BARRAGE_COVER[req.cover] is None or req.target_in_deep_shelter else (6,)

    def evaluate(self, req: RollingBarrageRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        assert ctx.period is not None
        sources = [SRC_ROLLING_BARRAGE, cite("ORDER SEQUENCE NOTES, 2 ROLLING BARRAGES", ctx.period)]
        modifier = ROLLING_BARRAGE_COVER[req.cover]
        thresholds = {"suppressed": ROLLING_BARRAGE_SUPPRESS, "killed": ROLLING_BARRAGE_KILL}
        if modifier is None or req.target_in_deep_shelter:
            immune = (
                "Troops in deep shelters are safe from everything except super heavy artillery."
                if req.target_in_deep_shelter
                else "Fortified positions are immune to the light artillery of a rolling barrage."
            )
            return Evaluation(
                key="no-effect",
                outcome="no-effect",
                sources=(*sources, SRC_DEEP_SHELTERS) if req.target_in_deep_shelter else tuple(sources),
                details={"thresholds": thresholds, "notes": [immune]},
            )
        mods = (Modifier(f"Target in {req.cover} cover", modifier, SRC_ROLLING_BARRAGE),) if modifier else ()
        total = dice[0] + modifier
        outcome = effect_of(total, ROLLING_BARRAGE_SUPPRESS, ROLLING_BARRAGE_KILL)
        notes = [
            "Roll for every platoon or crewed weapon as it comes under the barrage, or at the start of a "
            "turn when the barrage stays in the same place."
        ]
        if dice[0] == 1 and ctx.value(ROLLING_BARRAGE_NATURAL_ONE):
            outcome = "no-effect"
            sources.append(ctx.citation(ROLLING_BARRAGE_NATURAL_ONE))
            notes.append("A natural 1 always fails.")
        return Evaluation(
            key=outcome,
            outcome=outcome,
            modifiers=mods,
            total=total,
            sources=tuple(sources),
            details={"thresholds": thresholds, "notes": notes},
        )


class BarrageBand(TypedDict):
    """A line of the rolling barrage's effect table: the faces, the result and its words."""

    roll: list[int]
    result: str
    text: str


class DangerAttack(TypedDict):
    by: str
    modifier: int


class RollingBarrageTable(TypedDict):
    """ROLLING BARRAGES: the effect table in medium cover, the modifier of each cover (or immune), the width,
    advance, danger zone and its attack, the duration, and the errata on them."""

    source: str
    medium_cover: list[BarrageBand]
    cover_modifiers: dict[str, int | Literal["immune"]]
    width_cm: int
    advance: str
    danger_zone_cm: int
    danger_attack: DangerAttack
    duration: str
    duration_erratum: str
    natural_one_erratum: str


class DangerThresholds(TypedDict):
    suppressed: int
    killed: int


class DangerDetails(TypedDict):
    """What a roll for the danger of one's own barrage says: safe or not, the danger zone, and when the field
    artillery attacks, the scores it needs; the notes."""

    safe: bool
    danger_zone_cm: int
    thresholds: NotRequired[DangerThresholds]
    notes: NotRequired[list[str]]


def rolling_barrage_table() -> RollingBarrageTable:
    return {
        "source": SRC_ROLLING_BARRAGE,
        "medium_cover": [
            {"roll": [1, 2], "result": "no-effect", "text": "No Suppression."},
            {"roll": [3, 4, 5], "result": "suppressed", "text": "Platoon is suppressed."},
            {"roll": [6], "result": "killed", "text": "Platoon is killed."},
        ],
        "cover_modifiers": {k: ("immune" if v is None else v) for k, v in ROLLING_BARRAGE_COVER.items()},
        "width_cm": 20,
        "advance": "its own width at the start of the attacking side's turn; may halt for a turn",
        "danger_zone_cm": DANGER_ZONE_CM,
        "danger_attack": {"by": "field artillery", "modifier": DANGER_ATTACK_MODIFIER},
        "duration": "4 + D3 turns (main text); the fire-plan template says 3 + D3",
        "duration_erratum": BARRAGE_DURATION,
        "natural_one_erratum": ROLLING_BARRAGE_NATURAL_ONE,
    }


FlandersFields.dataset(
    "rolling-barrage-table", "Rolling barrage: effect table, cover modifiers, danger zone"
)(lambda _period: rolling_barrage_table())


class BarrageDangerRequest(FFRequest):
    distance_cm: float = Field(
        ge=0,
        le=DANGER_ZONE_CM,
        allow_inf_nan=False,
        description="How far (cm) the attacking figures are behind their own rolling barrage (danger area 6 cm).",
    )
    cover: Cover = Field(
        default="open", description="Cover of the attacking troops, for the field artillery attack."
    )
    resolve_attack: bool = Field(
        default=True,
        description="Also resolve the field artillery attack when at risk: a second die. false: one die only.",
    )


@FlandersFields.resolver
class BarrageDanger(Resolver[BarrageDangerRequest]):
    id = "barrage-danger"
    summary = "Risk to attacking troops from their own barrage: safe below the distance, else attacked at -1"
    Request = BarrageDangerRequest
    examples = (
        {"period": "late", "distance_cm": 5, "dice": [5, 6]},
        {"period": "late", "distance_cm": 3, "resolve_attack": False, "dice": [2]},
    )

    def check(self, req: BarrageDangerRequest, ctx: Context) -> None:
        ROLLING_BARRAGE_STEP.require_period(ctx)

    def dice(self, req: BarrageDangerRequest, ctx: Context) -> tuple[int, ...]:
        return (6, 6) if req.resolve_attack else (6,)

    def evaluate(self, req: BarrageDangerRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        # "to be safe from the barrage the result must be less than the number of centimetres the figures
        # are from the barrage"
        safe = dice[0] < req.distance_cm
        details: DangerDetails = {"safe": safe, "danger_zone_cm": DANGER_ZONE_CM}
        if safe:
            return Evaluation(
                key="safe",
                outcome="safe",
                total=dice[0],
                sources=(SRC_BARRAGE_DANGER,),
                details={**details, "notes": [f"{dice[0]} is less than {req.distance_cm} cm: safe."]},
            )
        if not req.resolve_attack:
            return Evaluation(
                key="at-risk",
                outcome="at-risk",
                total=dice[0],
                sources=(SRC_BARRAGE_DANGER,),
                details={**details, "notes": ["At risk: attacked by field artillery at -1 (roll again)."]},
            )
        row = str(ctx.value(BARRAGE_DANGER_ROW))
        thresholds = field_artillery_cell(ctx, row, req.cover)
        mod = Modifier("Own barrage (field artillery)", DANGER_ATTACK_MODIFIER, SRC_BARRAGE_DANGER)
        total = dice[1] + DANGER_ATTACK_MODIFIER
        sources = (SRC_BARRAGE_DANGER, ctx.citation(BARRAGE_DANGER_ROW), row_source(DANGER_ROWS[row], ctx))
        if thresholds is None:
            outcome = "no-effect"
            notes = ["Fortifications cannot be hit by indirect field artillery."]
        else:
            outcome = effect_of(total, *thresholds)
            notes = [
                f"At risk: field artillery ({row}) attacks at -1, suppress {thresholds[0]}, kill {thresholds[1]}."
            ]
            details["thresholds"] = {"suppressed": thresholds[0], "killed": thresholds[1]}
        return Evaluation(
            key=outcome,
            outcome=outcome,
            modifiers=(mod,),
            total=total,
            sources=sources,
            details={**details, "notes": notes},
        )


class BarrageDurationRequest(FFRequest):
    pass


@FlandersFields.resolver
class BarrageDuration(Resolver[BarrageDurationRequest]):
    id = "barrage-duration"
    summary = "Rolling barrage duration: 4 + D3 turns (fire-plan template: 3 + D3)"
    Request = BarrageDurationRequest
    examples = (
        {"period": "late", "dice": [5]},
        {"period": "mid", "variants": {BARRAGE_DURATION: "fire-plan-template"}},
    )

    def check(self, req: BarrageDurationRequest, ctx: Context) -> None:
        ROLLING_BARRAGE_STEP.require_period(ctx)

    def evaluate(self, req: BarrageDurationRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        base = int(ctx.value(BARRAGE_DURATION))
        turns = base + d3(dice[0])
        return Evaluation(
            key=f"{turns}-turns",
            outcome={"turns": turns},
            total=turns,
            sources=(ctx.citation(BARRAGE_DURATION), SRC_DICE),
            details={
                "notes": [
                    f"{base} + D3 (the D6 {dice[0]} counts as {d3(dice[0])}) = {turns} turns; then the "
                    "barrage lifts."
                ]
            },
        )


# Fire-plan items that stand for a step of the order sequence: a plan holds them only in the periods that
# have the step, or the item would wait for a step the game never reaches.
PLAN_ITEM_STEPS: dict[str, PeriodStep] = {
    "deep-suppression": DEEP_SUPPRESSION_STEP,
    "rolling-barrage": ROLLING_BARRAGE_STEP,
    "firewaltz": FIREWALTZ_STEP,
}
# Items only one side, of one nation, plans: "In a late war game when the Germans are attacking" (HURRICANE
# BOMBARDMENT (FIREWALTZ)).
PLAN_ITEM_SIDES: dict[str, tuple[str, str]] = {"firewaltz": (FIREWALTZ_SIDE, FIREWALTZ_NATION)}
