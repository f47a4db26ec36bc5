"""Flanders Fields air support (mid 1917 on): the mission roll and the attack on each target."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rules.core.errors import RulesError
from rules.core.resolution import Evaluation, Modifier
from rules.core.ruleset import Context, Resolver
from rules.flanders_fields.book.common import Cover, FFRequest
from rules.flanders_fields.errata import AIR_ATTACK_MACHINE_GUN, AIR_MISSION_ORDER, SRC_AIR
from rules.flanders_fields.ruleset import FlandersFields

AirTarget = Literal["infantry", "machine-gun", "mortar", "artillery"]

# "Only troops in the Open, Soft or Medium Cover may be attacked by aircraft."
# "Aircraft factors: Target is in Open +3, Target is in Soft Cover +2, Target is in Medium Cover +1"
AIRCRAFT_COVER = {"open": 3, "soft": 2, "medium": 1}
# "Target is Artillery or support weapons +2": machine guns count, since an attack is directed "against a
# maximum of three infantry platoons or support weapons" and the NB deals with machine-gun targets.
AIRCRAFT_VS_WEAPONS = {"machine-gun", "mortar", "artillery"}
AIRCRAFT_WEAPON_BONUS = 2
# "Infantry Factors: Target is Machine Gun +2": with the support-weapon +2, an erratum (AIR_ATTACK_MACHINE_GUN).
AIR_PERIODS = ("late",)


def air_result(margin: int) -> str:
    """Aircraft total minus target total -> result. "Draw nothing happens ... Win by 1 or 2 infantry become
    suppressed or aircraft is driven off (in effect suppressed) Win by 3 or more, the looser is destroyed." """
    if margin == 0:
        return "draw"
    if margin >= 3:
        return "destroyed"
    if margin > 0:
        return "suppressed"
    if margin <= -3:
        return "aircraft-destroyed"
    return "aircraft-driven-off"


RESULT_NOTES = {
    "draw": "Draw: nothing happens; the aircraft carries on to the next target.",
    "suppressed": "The aircraft wins by 1 or 2: the target is suppressed.",
    "destroyed": "The aircraft wins by 3 or more: the target is destroyed.",
    "aircraft-driven-off": "The target wins by 1 or 2: the aircraft is driven off (in effect suppressed).",
    "aircraft-destroyed": "The target wins by 3 or more: the aircraft is destroyed.",
}


class AirAttackRequest(FFRequest):
    step: Literal["mission", "attack"] = Field(
        default="attack",
        description="mission: the Regiment/Brigade roll for a direct air support mission (one D6); attack: "
        "the opposed roll against one target (dice: aircraft D6, then target D6).",
    )
    target: AirTarget = Field(default="infantry", description="What the aircraft attacks (attack step).")
    cover: Cover = Field(
        default="open", description="Cover of the target; only open, soft or medium may be attacked."
    )
    target_in_deep_shelter: bool = Field(
        default=False, description="The target shelters in a deep dugout (safe from aircraft)."
    )


@FlandersFields.resolver
class AirAttack(Resolver[AirAttackRequest]):
    id = "air-attack"
    summary = "Air support (mid 1917 on): mission roll, then the aircraft's opposed roll against each target"
    Request = AirAttackRequest
    examples = (
        {"period": "late", "step": "mission", "dice": [5]},
        {"period": "late", "step": "attack", "target": "machine-gun", "cover": "soft", "dice": [4, 3]},
    )

    def check(self, req: AirAttackRequest, ctx: Context) -> None:
        if ctx.period not in AIR_PERIODS:
            raise RulesError("period", "air support is a late-war rule ('By late 1917 ...')", AIR_PERIODS)
        if req.step == "attack" and req.target_in_deep_shelter:
            raise RulesError(
                "target_in_deep_shelter",
                "troops in deep shelters are safe from everything except super heavy artillery",
                [False],
            )
        if req.step == "attack" and req.cover not in AIRCRAFT_COVER:
            raise RulesError(
                "cover",
                "only troops in the open, soft or medium cover may be attacked by aircraft",
                AIRCRAFT_COVER,
            )

    def dice(self, req: AirAttackRequest, ctx: Context) -> tuple[int, ...]:
        return (6,) if req.step == "mission" else (6, 6)

    def evaluate(self, req: AirAttackRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        if req.step == "mission":
            return self.mission(ctx, dice[0])
        aircraft_mods = [
            Modifier(f"Aircraft: target in {req.cover} cover", AIRCRAFT_COVER[req.cover], SRC_AIR)
        ]
        # Against a machine gun both +2 factors are an erratum (AIR_ATTACK_MACHINE_GUN).
        mg = ctx.value(AIR_ATTACK_MACHINE_GUN) if req.target == "machine-gun" else None
        weapon_bonus = mg["aircraft"] if mg else AIRCRAFT_WEAPON_BONUS
        weapon_src = ctx.citation(AIR_ATTACK_MACHINE_GUN) if mg else SRC_AIR
        if req.target in AIRCRAFT_VS_WEAPONS and weapon_bonus:
            aircraft_mods.append(
                Modifier("Aircraft: target is artillery or a support weapon", weapon_bonus, weapon_src)
            )
        target_mods: list[Modifier] = []
        if mg:
            target_mods.append(Modifier("Target: is a machine gun", mg["target"], weapon_src))
        aircraft = dice[0] + sum(m.value for m in aircraft_mods)
        target = dice[1] + sum(m.value for m in target_mods)
        result = air_result(aircraft - target)
        notes = [RESULT_NOTES[result]]
        if req.target == "machine-gun" and result != "destroyed":
            notes.append(
                "The machine gun is not destroyed: its crew realigned it on the aircraft, so it has lost its "
                "firing line, which must be re-ordered as an action in its next turn."
            )
        return Evaluation(
            key=result,
            outcome=result,
            modifiers=(*aircraft_mods, *target_mods),
            total=aircraft - target,
            sources=(SRC_AIR, ctx.citation(AIR_ATTACK_MACHINE_GUN)) if mg else (SRC_AIR,),
            details={"aircraft_total": aircraft, "target_total": target, "notes": notes},
        )

    def mission(self, ctx: Context, face: int) -> Evaluation:
        rule = ctx.value(AIR_MISSION_ORDER)
        mods = (
            (Modifier("Ordering aircraft", rule["modifier"], ctx.citation(AIR_MISSION_ORDER)),)
            if rule["modifier"]
            else ()
        )
        total = face + rule["modifier"]
        arrives = total >= rule["needs"]
        return Evaluation(
            key="arrives" if arrives else "nothing",
            outcome="arrives" if arrives else "nothing",
            modifiers=mods,
            total=total,
            sources=(ctx.citation(AIR_MISSION_ORDER), SRC_AIR),
            details={
                "thresholds": {"arrives": rule["needs"]},
                "notes": [
                    "The aircraft arrives where required: it may attack up to three infantry platoons or "
                    "support weapons in a straight line from and within 5 cm of a chosen point."
                    if arrives
                    else "No effect: the mission does not arrive."
                ],
            },
        )
