"""Flanders Fields artillery: deep suppression, the indirect-fire action roll, SOS fire and deep shelters."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from rules.core.errors import RulesError
from rules.core.resolution import Evaluation, Modifier
from rules.core.ruleset import Context, Resolver
from rules.flanders_fields import errata as E
from rules.flanders_fields.common import FFRequest, Quality
from rules.flanders_fields.errata_engine2 import (
    ARTILLERY_ACTION_MID,
    ARTILLERY_LINE_OF_SIGHT_LATE,
    DEEP_SHELTER_VETERAN,
    SRC_ARTILLERY_ACTION,
    SRC_DEEP_SHELTERS,
    playsheet,
)
from rules.flanders_fields.ruleset import FlandersFields, cite

SRC_DEEP_SUPPRESSION = cite("SUPPRESSION, Deep Suppression (DS)")
SRC_SOS = cite("SOS TARGETS")

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

# Lowest modified roll giving one and two actions. Main text: "1914 to Early 1915 1 -2 = No Action 3 - 5 =
# 1 Action 6+ = 2 Actions ... Mid 1917 to end of War 1-2 = No Action 3-5 = 1 Action 6+ = 2 Actions"; the
# mid-war row is an erratum (ARTILLERY_ACTION_MID).
ACTION_THRESHOLDS: dict[str, dict[str, int]] = {"early": {"one": 3, "two": 6}, "late": {"one": 3, "two": 6}}
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

    def evaluate(self, req: DeepSuppressionRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        penalty, destroyed = deep_suppression_of(dice[0])
        label = "Extremely Effective Suppression" if destroyed else DS_LABELS[penalty]
        notes = [f"{label}: -{penalty} when ordering all defenders' assets (artillery etc.)."]
        if destroyed:
            notes.append("One defending artillery battery is destroyed.")
        if ctx.period == "early":
            notes.append("The 1914 to mid 1915 playsheet's turn sequence has no Deep Suppression step.")
        sources = [SRC_DEEP_SUPPRESSION]
        if ctx.period in ("mid", "late"):
            sources.append(playsheet(ctx.period, "ORDER SEQUENCE NOTES, 1 ROLL D6 FOR DEEP SUPPRESSION"))
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
        if req.line_of_sight and not self.sight_bonus_allowed(req, ctx):
            raise RulesError(
                "line_of_sight",
                f"only field artillery gets +1 over open sights in the {ctx.period} period "
                f"(artillery is {req.artillery!r})",
                [False],
            )

    def sight_bonus(self, ctx: Context) -> tuple[int, str]:
        """The open-sights bonus and its citation: the early playsheet has none (issue 3's erratum)."""
        if ctx.period == "early":
            return int(ctx.value(E.ARTILLERY_LINE_OF_SIGHT_EARLY)), ctx.citation(
                E.ARTILLERY_LINE_OF_SIGHT_EARLY
            )
        if ctx.period == "late":
            return 1, ctx.citation(ARTILLERY_LINE_OF_SIGHT_LATE)
        return 1, SRC_ARTILLERY_ACTION

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


def artillery_action_table(period: str | None) -> dict[str, Any]:
    assert period is not None
    rows: dict[str, Any] = {
        "period": period,
        "source": SRC_ARTILLERY_ACTION,
        "actions": "remove a suppression level, redirect a battery aiming point, fire a battery or move",
        "open_sights_bonus": 1,
        "deep_suppression": "minus the Deep Suppression penalty in effect (0-2)",
    }
    if period == "mid":
        erratum = FlandersFields._errata[ARTILLERY_ACTION_MID]
        rows["thresholds"] = erratum.reading(erratum.default).value
        rows["erratum"] = ARTILLERY_ACTION_MID
        rows["readings"] = {r.id: r.value for r in erratum.readings}
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
            sources=(SRC_SOS, playsheet(ctx.period or "early", "SOS Targets")),
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
