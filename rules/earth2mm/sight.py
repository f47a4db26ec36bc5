"""2mm Earth 1418: line of sight and overwatch (OVERWATCH, SHOOTING THROUGH TERRAIN), smoke and gas in the
way of it, and a gas cloud's effect, drift and duration (SMOKE SCREENS & POISON GAS, the gas row of the
characteristics chart)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rules.core.errors import RulesError
from rules.core.resolution import Evaluation, Modifier
from rules.core.ruleset import Context, Erratum, Reading, Resolver
from rules.earth2mm.data import (
    CORDON_DRIFT_IN,
    GAS_ARMING,
    GAS_RESILIENCE,
    SRC_ORDER,
    SRC_SMOKE,
    SRC_UNITS,
    UNITS,
)
from rules.earth2mm.resolvers import UnitId
from rules.earth2mm.ruleset import Earth2mm, EarthRequest, cite

SRC_OVERWATCH = cite("OVERWATCH")
SRC_THROUGH_TERRAIN = cite("SHOOTING THROUGH TERRAIN")
SRC_OVERWATCH_LINE = cite("OVERWATCH (line 210)")
SRC_THROUGH_TERRAIN_LINE = cite("SHOOTING THROUGH TERRAIN (line 210)")
GAS_BOUNDS_READING = 3  # "(3 + Wind)" read as a duration in bounds

Earth2mm.add_errata(
    Erratum(
        "gas-duration",
        "How long short-term gas lasts: 'Short-term Gas (3 + Wind)'",
        (
            Reading(
                "drifts-until-off-table",
                "'(3 + Wind)' stands in the chart's SPEED column: the cloud moves 3\" downwind at the end of "
                "each bound ('will travel 3\" in that direction at the end of each bound'); the text gives it no "
                "other end, so it lasts until it drifts off the table.",
                f"{SRC_UNITS}; {SRC_SMOKE}",
                None,
            ),
            Reading(
                "three-bounds",
                "'(3 + Wind)' read as a duration: the gas lasts 3 bounds (the bound it is laid and the next two), "
                'drifting 3" with the wind at the end of each.',
                SRC_UNITS,
                GAS_BOUNDS_READING,
            ),
        ),
        default="drifts-until-off-table",
        note="The chart's columns are SPEED ARMING m/r RESILIENCE RANGE; the gas row reads '(3 + Wind) | "
        "Target suffers -1A -1R | Special'.",
    ),
    Erratum(
        "overwatch-who",
        "Who may overwatch a target its line cannot reach: 'the firer can always use overwatch'",
        (
            Reading(
                "stationary-only",
                "'OVERWATCH Sub-units who have remained stationary (but not those who are digging in while "
                "stationary)': only they overwatch, line or no line; a moving or digging firer may not.",
                SRC_OVERWATCH_LINE,
                ("stationary",),
            ),
            Reading(
                "always-when-blocked",
                "'If the marker cannot touch because of a slope or intervening terrain then the target cannot "
                "be hit, but the firer can always use overwatch': when no base's line gets past slope or "
                "terrain, any firer may overwatch, moving or digging in too; otherwise only stationary ones.",
                SRC_THROUGH_TERRAIN_LINE,
                ("stationary", "moving", "digging"),
            ),
        ),
        default="stationary-only",
        note="OVERWATCH says who may overwatch, in a section of its own, and singles out digging in; "
        "'always' in SHOOTING THROUGH TERRAIN is read as 'a blocked line never stops an eligible firer'; "
        "read as 'any firer', it would undo the digging-in exception exactly where overwatch is used.",
    ),
)

Cloud = Literal["none", "smoke", "immediate-gas", "long-delayed-gas", "transparent-gas"]


class SightRequest(EarthRequest):
    shooter: UnitId
    bases: int = Field(ge=1, le=30, description="Bases in the shooting sub-unit.")
    bases_with_direct_line: int = Field(
        ge=0,
        le=30,
        description="Bases whose marker or rod touches the enemy base, not stopped by a slope or terrain.",
    )
    cloud_across_lines: Cloud = Field(
        default="none", description="Smoke or gas lying across every one of those lines."
    )
    shooter_partly_in_that_cloud: bool = Field(
        default=False, description="The shooter is itself partly in that smoke or gas."
    )
    target_resilience: int = Field(ge=0, le=12, description="The target's Resilience in its cover.")
    posture: Literal["stationary", "digging", "moving"] = Field(
        default="stationary", description="The shooting sub-unit this bound."
    )
    overwatch: bool = Field(
        default=False,
        description="The player orders the sub-unit to shoot at the target as it becomes available.",
    )


def may_overwatch(req: SightRequest, ctx: Context) -> tuple[str, ...]:
    """The postures that may overwatch here; the reading 'always-when-blocked' opens overwatch to every
    firer only when no base's line gets past slope or terrain."""
    if req.bases_with_direct_line == 0:
        return tuple(ctx.value("overwatch-who"))
    return ("stationary",)


def cloud_blocks(cloud: Cloud, shooter_inside: bool) -> bool:
    # "some gas is transparent and won't block line of sight"; "Troops partially in smoke can shoot out freely".
    return cloud not in ("none", "transparent-gas") and not shooter_inside


@Earth2mm.resolver
class LineOfSight(Resolver[SightRequest]):
    id = "line-of-sight"
    summary = (
        "Can a sub-unit shoot its target now, or hold it on overwatch? Terrain, smoke and gas in the way"
    )
    Request = SightRequest
    examples = (
        {"shooter": "line-inf", "bases": 3, "bases_with_direct_line": 2, "target_resilience": 4},
        {
            "shooter": "machineguns",
            "bases": 2,
            "bases_with_direct_line": 2,
            "cloud_across_lines": "smoke",
            "target_resilience": 3,
            "overwatch": True,
        },
    )

    def dice(self, req: SightRequest, ctx: Context) -> tuple[int, ...]:
        return ()

    def check(self, req: SightRequest, ctx: Context) -> None:
        if req.bases_with_direct_line > req.bases:
            raise RulesError(
                "bases_with_direct_line", f"the sub-unit has {req.bases} bases", range(0, req.bases + 1)
            )
        if req.overwatch and req.posture not in may_overwatch(req, ctx):
            raise RulesError(
                "overwatch",
                "only sub-units that remained stationary (and are not digging in) may overwatch"
                + (" a target their line reaches" if req.bases_with_direct_line else ""),
                [False],
            )
        if UNITS[req.shooter].ranged.dice == 0:
            raise RulesError(
                "shooter",
                f"{UNITS[req.shooter].name} has no ranged Arming",
                [u for u, t in UNITS.items() if t.ranged.dice],
            )

    def evaluate(self, req: SightRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        blocked_by_cloud = req.bases_with_direct_line > 0 and cloud_blocks(
            req.cloud_across_lines, req.shooter_partly_in_that_cloud
        )
        has_line = req.bases_with_direct_line > 0 and not blocked_by_cloud
        # A target is "vulnerable" when one die (6, plus the + bonus) can reach its Resilience.
        bonus = UNITS[req.shooter].ranged.bonus
        can_hurt = 6 + bonus >= req.target_resilience
        sources = [SRC_THROUGH_TERRAIN, SRC_OVERWATCH]
        if req.overwatch:
            sources.append(ctx.citation("overwatch-who"))
        if req.cloud_across_lines != "none":
            sources.append(SRC_SMOKE)
        if not can_hurt:
            sources.append(SRC_UNITS)
        if has_line and can_hurt:
            key, outcome = "shoot", "shoot now: at least one base has a line to the target"
        elif req.overwatch:
            key = "overwatch"
            outcome = (
                "overwatch: work the shots out only once the target is no longer blocked and can be hurt"
            )
        else:
            key, outcome = "cannot shoot", "no shot: the target cannot be hit now"
        reasons = []
        if req.bases_with_direct_line == 0:
            reasons.append("no base can draw a direct line past slope or terrain")
        if blocked_by_cloud:
            reasons.append(f"{req.cloud_across_lines.replace('-', ' ')} blocks the line of sight")
        if not can_hurt:
            reasons.append(
                f"R{req.target_resilience} is beyond 6{f' + {bonus}' if bonus else ''}: it cannot be hurt"
            )
        return Evaluation(
            key=key,
            outcome={"answer": outcome, "line_of_sight": has_line, "can_hurt": can_hurt, "why_not": reasons},
            sources=tuple(sources),
            details={
                "notes": [
                    "The firer can always use overwatch when the marker cannot touch (SHOOTING THROUGH TERRAIN).",
                    "A sub-unit digging in while stationary may not overwatch (OVERWATCH); erratum "
                    "overwatch-who reads whether a moving or digging firer may when its line is blocked.",
                ]
            },
        )


# -- gas clouds ----------------------------------------------------------------------------------------------
class GasRequest(EarthRequest):
    gas: Literal["short-term", "long-delayed", "smoke"] = Field(
        default="short-term",
        description="Short-term (immediate effect) gas, long-delayed gas, or ordinary smoke.",
    )
    transparent: bool = Field(default=False, description="This gas is transparent (it does not block sight).")
    bounds_since_laid: int = Field(
        default=0, ge=0, le=50, description="Ends of bound passed since the cloud was laid (0: this bound)."
    )
    troops_outside_it: bool = Field(
        default=False,
        description="The troops asked about are outside the cloud (only those under it suffer).",
    )


@Earth2mm.resolver
class GasCloud(Resolver[GasRequest]):
    id = "gas-cloud"
    summary = "A smoke or gas cloud: is it still there, how far it has drifted, its effect and whether it blocks sight"
    Request = GasRequest
    examples = (
        {"gas": "short-term", "bounds_since_laid": 1},
        {"gas": "long-delayed", "bounds_since_laid": 2},
    )

    def dice(self, req: GasRequest, ctx: Context) -> tuple[int, ...]:
        return ()

    def check(self, req: GasRequest, ctx: Context) -> None:
        if req.transparent and req.gas == "smoke":
            raise RulesError(
                "transparent", "smoke always blocks sight; only some gas is transparent", [False]
            )

    def evaluate(self, req: GasRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        sources = [SRC_SMOKE, SRC_ORDER]
        limit = ctx.value("gas-duration") if req.gas == "short-term" else None
        if req.gas == "short-term":
            sources.append(ctx.citation("gas-duration"))
        gone = limit is not None and req.bounds_since_laid >= limit
        mods: list[Modifier] = []
        if req.gas == "short-term" and not req.troops_outside_it and not gone:
            mods = [
                Modifier("troops under short-term gas: Arming", GAS_ARMING, SRC_UNITS),
                Modifier("troops under short-term gas: Resilience", GAS_RESILIENCE, SRC_UNITS),
            ]
        drift_in = CORDON_DRIFT_IN * req.bounds_since_laid
        return Evaluation(
            key="dispersed" if gone else "present",
            outcome={
                "present": not gone,
                "drifted_in": drift_in,
                "blocks_line_of_sight": not gone and not req.transparent,
                "effect_on_troops": [m.as_dict() for m in mods]
                if mods
                else "none"
                if req.gas != "short-term"
                else "none now",
                "bounds_left": None if limit is None else max(0, limit - req.bounds_since_laid),
            },
            modifiers=tuple(mods),
            sources=tuple(sources),
            details={
                "notes": [
                    'The cordon moves 3" downwind at the end of each bound, after melee and casualties.',
                    "Long-delayed gas has no effect on troops in play but blocks sight like smoke.",
                    "Troops partly in smoke can shoot out freely.",
                ]
            },
        )
