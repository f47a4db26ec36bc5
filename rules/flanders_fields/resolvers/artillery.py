"""Flanders Fields artillery: deep suppression, the indirect-fire action roll, SOS fire and deep shelters."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, NotRequired, TypedDict, cast

from pydantic import Field

from rules.core.errors import RulesError
from rules.core.resolution import Evaluation, Modifier
from rules.core.ruleset import Context, Resolver
from rules.flanders_fields import errata as E
from rules.flanders_fields.book import tables as T
from rules.flanders_fields.book.common import FFRequest, Quality
from rules.flanders_fields.book.sequence import SEQUENCES
from rules.flanders_fields.errata import (
    ARTILLERY_ACTION_MID,
    ARTILLERY_LINE_OF_SIGHT_LATE,
    DEEP_SHELTER_VETERAN,
    SRC_ARTILLERY_ACTION,
    SRC_DEEP_SHELTERS,
)
from rules.flanders_fields.ruleset import FlandersFields, cite

SRC_DEEP_SUPPRESSION = cite("SUPPRESSION, Deep Suppression (DS)")
SRC_SOS = cite("SOS TARGETS")


@dataclass(frozen=True)
class PeriodStep:
    """A step of the order sequence that only some periods' playsheets have. Which periods have it is read
    from the order sequences themselves (rules/flanders_fields/book/sequence.py, which the game and the printed
    playsheet follow): the one place every resolver asks, so that they all refuse it alike."""

    rule: str
    step_id: str
    why: str
    # A rule of only some of the periods whose sequence has the step (the Firewaltz is a late-war
    # bombardment, in the bombardment step every period has): empty means every such period.
    only: tuple[str, ...] = ()

    @property
    def periods(self) -> tuple[str, ...]:
        return tuple(
            p
            for p, seq in SEQUENCES.items()
            if any(s.id == self.step_id for s in seq.steps) and (not self.only or p in self.only)
        )

    def has(self, period: str | None) -> bool:
        return period in self.periods

    def message(self, period: str | None) -> str:
        return f"{self.rule}: not in the {period} period ({self.why})"

    def require_period(self, ctx: Context) -> None:
        """Refuse a request whose period has no such step (HTTP 422 on `period`)."""
        if not self.has(ctx.period):
            raise RulesError("period", self.message(ctx.period), self.periods)

    def refuse_value(self, ctx: Context, field: str, value: Any, allowed: Iterable[Any]) -> None:
        """Refuse a non-zero `value` of `field` (e.g. a penalty) in a period that has no such step."""
        if value and not self.has(ctx.period):
            raise RulesError(field, self.message(ctx.period), allowed)


# Mid and late playsheets: "1 ROLL D6 FOR DEEP SUPPRESSION (DS) FACTOR" opens the order sequence; the
# 1914 to mid 1915 playsheet opens with "1 SUPPORT ORDERS - DIVISION/REGIMENT/BRIGADE" and has no such
# step, and the main text says "Deep Suppression was developed in the latter phase of the war". (The
# early playsheet's SOS paragraph, copied from the main text, still says "adjust for any Deep
# Suppression in effect": with no step to put one in effect, that adjustment is always 0.)
DEEP_SUPPRESSION_STEP = PeriodStep(
    "Deep Suppression",
    "deep-suppression",
    "there is no Deep Suppression before mid 1915: the 1914 to mid 1915 playsheet has no Deep Suppression "
    "step",
)

ArtilleryKind = Literal["field", "heavy", "super-heavy"]
ARTILLERY_KINDS: tuple[ArtilleryKind, ...] = ("field", "heavy", "super-heavy")

# "1-2 No Effective Deep Suppression ... 3- 4 Effective Deep Suppression -1 ... 5 Very Effective
# Suppression -2 ... 6 Extremely Effective Suppression one defending artillery battery is destroyed AND
# -1 Deep Suppression factor." The playsheets agree: "1-2 = No DS ~3-4 = -1 DS ~ 5 = -2 DS ~ 6 = -1 &
# 1 battery lost".
DEEP_SUPPRESSION: dict[int, tuple[int, bool]] = {
    1: (0, False),
    2: (0, False),
    3: (1, False),
    4: (1, False),
    5: (2, False),
    6: (1, True),
}
DS_LABELS = {
    0: "No Effective Deep Suppression",
    1: "Effective Deep Suppression",
    2: "Very Effective Suppression",
}

# Lowest modified roll giving one and two actions: the order tables' Regiment/Brigade artillery rows (the
# main text agrees: "1914 to Early 1915 1 -2 = No Action 3 - 5 = 1 Action 6+ = 2 Actions ... Mid 1917 to end
# of War 1-2 = No Action 3-5 = 1 Action 6+ = 2 Actions"); the mid-war row is an erratum (ARTILLERY_ACTION_MID).
ACTION_THRESHOLDS: dict[str, dict[str, int]] = {
    period: T.action_thresholds(T.ARTILLERY_EARLY_LATE) for period in ("early", "late")
}
ACTION_KEYS = ("no-action", "1-action", "2-actions")

# "Platoons require 4+ to regain their fighting positions, with Experienced have +1 on the die roll and
# Raw -1." Veterans: DEEP_SHELTER_VETERAN.
SHELTER_NEEDS = 4
SHELTER_QUALITY = {"raw": -1, "experienced": 1}
# "safe from everything except Super Heavy artillery which requires a 6 for a kill"
SHELTER_SUPER_HEAVY_KILL = 6

# SOS: "If the result is one or less nothing happens, if the result is two or more the artillery aiming
# point is moved AND one turn of fire arrives."
SOS_NEEDS = 2


def deep_suppression_of(face: int) -> tuple[int, bool]:
    """(penalty, battery destroyed) for a Deep Suppression die."""
    return DEEP_SUPPRESSION[face]


def action_thresholds(ctx: Context) -> dict[str, int]:
    period = ctx.period or "late"
    if period == "mid":
        return dict(ctx.value(ARTILLERY_ACTION_MID))
    return ACTION_THRESHOLDS[period]


def actions_for(total: int, thresholds: dict[str, int]) -> int:
    return 2 if total >= thresholds["two"] else 1 if total >= thresholds["one"] else 0


def check_deep_suppression(ctx: Context, penalty: int, field: str = "deep_suppression") -> None:
    """The one check of a Deep Suppression penalty against the period (order-roll, artillery-action, sos)."""
    DEEP_SUPPRESSION_STEP.refuse_value(ctx, field, penalty, [0])


def open_sights_bonus(ctx: Context) -> int:
    """+1 over open sights / with its own line of sight, as the period's readings give it: the early
    playsheet has none (erratum artillery-line-of-sight-early). artillery-action, order-roll and the
    artillery-action-table dataset all read it here."""
    if ctx.period == "early":
        return int(ctx.value(E.ARTILLERY_LINE_OF_SIGHT_EARLY))
    return 1


def open_sights_source(ctx: Context) -> str:
    if ctx.period == "early":
        return ctx.citation(E.ARTILLERY_LINE_OF_SIGHT_EARLY)
    if ctx.period == "late":
        return ctx.citation(ARTILLERY_LINE_OF_SIGHT_LATE)
    return SRC_ARTILLERY_ACTION


def deep_suppression_field(description: str) -> Any:
    return Field(default=0, ge=0, le=2, description=description)


def ds_modifier(penalty: int) -> tuple[Modifier, ...]:
    if penalty == 0:
        return ()
    return (Modifier("Deep Suppression in effect", -penalty, SRC_DEEP_SUPPRESSION),)


class DeepSuppressionRequest(FFRequest):
    pass


@FlandersFields.resolver
class DeepSuppressionResolver(Resolver[DeepSuppressionRequest]):
    id = "deep-suppression"
    summary = "Deep Suppression: the attacker's D6 at the start of his turn (penalty to defending assets)"
    Request = DeepSuppressionRequest
    examples = ({"period": "late", "dice": [6]}, {"period": "mid"})

    def check(self, req: DeepSuppressionRequest, ctx: Context) -> None:
        DEEP_SUPPRESSION_STEP.require_period(ctx)

    def evaluate(self, req: DeepSuppressionRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        penalty, destroyed = deep_suppression_of(dice[0])
        label = "Extremely Effective Suppression" if destroyed else DS_LABELS[penalty]
        notes = [f"{label}: -{penalty} when ordering all defenders' assets (artillery etc.)."]
        if destroyed:
            notes.append("One defending artillery battery is destroyed.")
        assert ctx.period is not None
        sources = [
            SRC_DEEP_SUPPRESSION,
            cite("ORDER SEQUENCE NOTES, 1 ROLL D6 FOR DEEP SUPPRESSION", ctx.period),
        ]
        return Evaluation(
            key="battery-destroyed" if destroyed else f"penalty-{penalty}",
            outcome={"penalty": penalty, "battery_destroyed": destroyed},
            total=dice[0],
            sources=tuple(sources),
            details={"label": label, "notes": notes},
        )


class ArtilleryActionRequest(FFRequest):
    artillery: ArtilleryKind = Field(default="field", description="Field, heavy or super-heavy artillery.")
    line_of_sight: bool = Field(
        default=False,
        description="Firing over open sights at an enemy it can see (+1; field artillery, and in the late "
        "period any artillery per the playsheet).",
    )
    deep_suppression: int = deep_suppression_field("Deep Suppression penalty in effect (0-2), subtracted.")


@FlandersFields.resolver
class ArtilleryAction(Resolver[ArtilleryActionRequest]):
    id = "artillery-action"
    summary = "Artillery action die roll (indirect shooting): how many actions a battery may take"
    Request = ArtilleryActionRequest
    examples = (
        {"period": "mid", "artillery": "field", "line_of_sight": True, "dice": [5]},
        {"period": "late", "artillery": "heavy", "deep_suppression": 1, "dice": [6]},
    )

    def sight_bonus_allowed(self, req: ArtilleryActionRequest, ctx: Context) -> bool:
        if req.artillery == "field":
            return True
        return ctx.period == "late" and ctx.value(ARTILLERY_LINE_OF_SIGHT_LATE) == "any"

    def check(self, req: ArtilleryActionRequest, ctx: Context) -> None:
        check_deep_suppression(ctx, req.deep_suppression)
        if req.line_of_sight and not self.sight_bonus_allowed(req, ctx):
            raise RulesError(
                "line_of_sight",
                f"only field artillery gets +1 over open sights in the {ctx.period} period "
                f"(artillery is {req.artillery!r})",
                [False],
            )

    def sight_bonus(self, ctx: Context) -> tuple[int, str]:
        return open_sights_bonus(ctx), open_sights_source(ctx)

    def evaluate(self, req: ArtilleryActionRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        mods: list[Modifier] = []
        notes = [
            "Actions: remove a suppression level, redirect a battery aiming point, fire a battery or move."
        ]
        sources = [ctx.citation(ARTILLERY_ACTION_MID) if ctx.period == "mid" else SRC_ARTILLERY_ACTION]
        if req.line_of_sight:
            bonus, src = self.sight_bonus(ctx)
            if bonus:
                mods.append(Modifier("Over open sights at an enemy it can see", bonus, src))
            else:
                sources.append(src)
                notes.append("1914 playsheet: artillery with line of sight uses the same table, no bonus.")
        mods.extend(ds_modifier(req.deep_suppression))
        total = dice[0] + sum(m.value for m in mods)
        thresholds = action_thresholds(ctx)
        actions = actions_for(total, thresholds)
        return Evaluation(
            key=ACTION_KEYS[actions],
            outcome={"actions": actions},
            modifiers=tuple(mods),
            total=total,
            sources=tuple(sources),
            details={"thresholds": thresholds, "notes": notes},
        )


class ArtilleryActionTable(TypedDict):
    """The period's artillery action rolls: what an action is, the open-sights bonus, the deep suppression
    penalty where the period has it, the scores for one and two actions (mid: the erratum's reading in force,
    and each reading's), and the errata on them."""

    period: str
    source: str
    actions: str
    open_sights_bonus: int
    deep_suppression: NotRequired[str]
    open_sights_erratum: NotRequired[str]
    thresholds: NotRequired[dict[str, int]]  # always set; after the notes above, in the printed order
    erratum: NotRequired[str]
    readings: NotRequired[dict[str, dict[str, int]]]  # each reading's thresholds


def artillery_action_table(
    period: str | None, variants: Mapping[str, str] | None = None
) -> ArtilleryActionTable:
    ctx = FlandersFields().context(period, variants)
    assert period is not None
    rows: ArtilleryActionTable = {
        "period": period,
        "source": SRC_ARTILLERY_ACTION,
        "actions": "remove a suppression level, redirect a battery aiming point, fire a battery or move",
        "open_sights_bonus": open_sights_bonus(ctx),
    }
    if DEEP_SUPPRESSION_STEP.has(period):
        rows["deep_suppression"] = "minus the Deep Suppression penalty in effect (0-2)"
    if period == "early":
        rows["open_sights_erratum"] = E.ARTILLERY_LINE_OF_SIGHT_EARLY
    if period == "mid":
        erratum = FlandersFields._errata[ARTILLERY_ACTION_MID]
        rows["thresholds"] = dict(ctx.value(ARTILLERY_ACTION_MID))
        rows["erratum"] = ARTILLERY_ACTION_MID
        # Each of this erratum's readings holds its scores by number of actions ("one", "two").
        rows["readings"] = {r.id: cast("dict[str, int]", r.value) for r in erratum.readings}
    else:
        rows["thresholds"] = ACTION_THRESHOLDS[period]
    if period == "late":
        rows["open_sights_erratum"] = ARTILLERY_LINE_OF_SIGHT_LATE
    return rows


FlandersFields.dataset(
    "artillery-action-table", "Artillery action die rolls (indirect shooting) for the period", per_period=True
)(artillery_action_table)


class SOSRequest(FFRequest):
    deep_suppression: int = deep_suppression_field("Deep Suppression penalty in effect (0-2), subtracted.")


@FlandersFields.resolver
class SOS(Resolver[SOSRequest]):
    id = "sos"
    summary = "SOS fire: does the defending field battery respond (aiming point moved, one turn of fire)?"
    Request = SOSRequest
    examples = ({"period": "mid", "deep_suppression": 1, "dice": [2]}, {"period": "early"})

    def check(self, req: SOSRequest, ctx: Context) -> None:
        check_deep_suppression(ctx, req.deep_suppression)

    def evaluate(self, req: SOSRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        mods = ds_modifier(req.deep_suppression)
        total = dice[0] + sum(m.value for m in mods)
        arrives = total >= SOS_NEEDS
        notes = [
            "The aiming point moves to the SOS point and one turn of fire arrives (area 10 x 5 cm)."
            if arrives
            else "One or less: nothing happens.",
            "Each defending field battery may respond to only one SOS call per turn.",
        ]
        return Evaluation(
            key="fire-arrives" if arrives else "nothing",
            outcome="fire-arrives" if arrives else "nothing",
            modifiers=mods,
            total=total,
            sources=(SRC_SOS, cite("SOS Targets", ctx.period or "early")),
            details={"thresholds": {"fire-arrives": SOS_NEEDS}, "notes": notes},
        )


class DeepShelterRequest(FFRequest):
    action: Literal["regain", "super-heavy"] = Field(
        default="regain",
        description="regain: a sheltering platoon tries to return to its fighting trench; super-heavy: super "
        "heavy artillery fires on sheltering troops.",
    )
    quality: Quality = Field(default="experienced", description="Quality of the sheltering platoon.")


@FlandersFields.resolver
class DeepShelter(Resolver[DeepShelterRequest]):
    id = "deep-shelter"
    summary = "Troops in deep shelters: regaining fighting positions, or super heavy artillery on them"
    Request = DeepShelterRequest
    examples = (
        {"period": "mid", "action": "regain", "quality": "raw", "dice": [4]},
        {"period": "late", "action": "super-heavy", "dice": [6]},
    )

    def evaluate(self, req: DeepShelterRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        if req.action == "super-heavy":
            killed = dice[0] >= SHELTER_SUPER_HEAVY_KILL
            return Evaluation(
                key="killed" if killed else "safe",
                outcome="killed" if killed else "safe",
                total=dice[0],
                sources=(SRC_DEEP_SHELTERS,),
                details={
                    "thresholds": {"killed": SHELTER_SUPER_HEAVY_KILL},
                    "notes": ["Deep shelters are safe from everything except super heavy artillery."],
                },
            )
        mods: list[Modifier] = []
        if req.quality in SHELTER_QUALITY:
            mods.append(Modifier(req.quality.capitalize(), SHELTER_QUALITY[req.quality], SRC_DEEP_SHELTERS))
        else:  # veteran and storm (storm battalions are veteran): the text is silent
            label = f"{req.quality.capitalize()} (veteran)"
            mods.append(
                Modifier(label, int(ctx.value(DEEP_SHELTER_VETERAN)), ctx.citation(DEEP_SHELTER_VETERAN))
            )
        total = dice[0] + sum(m.value for m in mods)
        regained = total >= SHELTER_NEEDS
        notes = (
            ["The platoon is back in its fighting positions."]
            if regained
            else [
                "The platoon must be winkled out: assaulted, it cannot shoot as attackers close and counts "
                "-1 on its combat die."
            ]
        )
        return Evaluation(
            key="regained" if regained else "still-sheltering",
            outcome="regained" if regained else "still-sheltering",
            modifiers=tuple(mods),
            total=total,
            sources=(SRC_DEEP_SHELTERS,),
            details={"thresholds": {"regained": SHELTER_NEEDS}, "notes": notes},
        )
