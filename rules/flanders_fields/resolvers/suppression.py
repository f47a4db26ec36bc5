"""Battle suppression: who else a suppression reaches, when markers kill, and who recovers on his own.

The game layer calls the three plain functions; the `suppression` resolver serves the same answers.
"""

from __future__ import annotations

from typing import Literal, TypedDict, get_args

from pydantic import Field

from rules.core.errors import RulesError
from rules.core.resolution import Evaluation
from rules.core.ruleset import Context, Resolver
from rules.flanders_fields.book.common import FFRequest
from rules.flanders_fields.ruleset import FlandersFields, cite

SRC_BATTLE_SUPPRESSION = cite("SUPPRESSION, BATTLE SUPPRESSION (BS)")
SRC_RECOVERY = cite("SUPPRESSION, RECOVERY FROM BATTLE SUPPRESSION")
SRC_DEATH = cite("RANGED COMBAT, DEATH BY SUPPRESSION")

FireType = Literal[
    "mg",
    "blockhouse",
    "mortar",
    "artillery",
    "rifle",
    "lmg",
    "cavalry",
    "tank",
    "gas",
    "flamethrower",
    "aircraft",
]
FIRE_TYPES: tuple[FireType, ...] = get_args(FireType)
# "if the suppression is caused by MACHINE GUNS, MORTARS OR ARTILLERY the whole company to which the platoon
# belongs is suppressed." Block houses "fire as machineguns" (BLOCK HOUSES).
COMPANY_WIDE_FIRE = frozenset({"mg", "blockhouse", "mortar", "artillery"})

UnitLevel = Literal[
    "platoon",
    "company",
    "support-weapon",
    "tank",
    "specialist-command",
    "battalion-command",
    "regiment-command",
    "brigade-command",
    "division-command",
]
UNIT_LEVELS: tuple[UnitLevel, ...] = (
    "platoon",
    "company",
    "support-weapon",
    "tank",
    "specialist-command",
    "battalion-command",
    "regiment-command",
    "brigade-command",
    "division-command",
)
# "An exception is made in the case of Battalion and higher command stands who recover automatically at the
# end of their turn"
SELF_RECOVERING = frozenset({"battalion-command", "regiment-command", "brigade-command", "division-command"})
# "THREE SUPPRESSIONS ON ANY PLATOON, SUPPORT WEAPON OR TANK IS A KILL"; playsheets: "THREE SUPPRESSIONS ON
# ANY UNIT EQUALS A KILL".
KILLING_MARKERS = 3


def spreads_to_company(fire: str) -> bool:
    """Whether a suppression by this kind of fire suppresses the platoon's whole company."""
    if fire not in FIRE_TYPES:
        raise RulesError("fire", f"unknown fire type {fire!r}", FIRE_TYPES)
    return fire in COMPANY_WIDE_FIRE


def is_killed(markers: int) -> bool:
    """Three suppressions without recovery destroy a platoon, company, support weapon or tank."""
    if markers < 0:
        raise RulesError("markers", f"markers cannot be negative, got {markers}")
    return markers >= KILLING_MARKERS


def recovers_automatically(unit_level: str) -> bool:
    """Battalion and higher command stands recover at the end of their own turn; others need an Action."""
    if unit_level not in UNIT_LEVELS:
        raise RulesError("unit_level", f"unknown unit level {unit_level!r}", UNIT_LEVELS)
    return unit_level in SELF_RECOVERING


class SuppressionDetails(TypedDict):
    """What a suppression answer says: whether it spreads to the company, kills, how it recovers, notes."""

    spreads_to_company: bool
    killed: bool
    markers_to_kill: int
    recovers_automatically: bool
    recovery: str
    notes: list[str]


class SuppressionRequest(FFRequest):
    fire: FireType = Field(description="The kind of fire that caused the suppression.")
    markers: int = Field(
        ge=0, le=50, description="Suppression markers on the unit now, counting the one just inflicted."
    )
    unit_level: UnitLevel = Field(
        default="platoon",
        description="What was suppressed; battalion-command and above recover on their own.",
    )


@FlandersFields.resolver
class Suppression(Resolver[SuppressionRequest]):
    id = "suppression"
    summary = "Battle suppression: spreads to the company?, killed by three markers?, how it recovers"
    Request = SuppressionRequest
    examples = (
        {"period": "mid", "fire": "mg", "markers": 1, "unit_level": "platoon"},
        {"period": "late", "fire": "rifle", "markers": 3},
        {"period": "early", "fire": "artillery", "markers": 2, "unit_level": "battalion-command"},
    )

    def dice(self, req: SuppressionRequest, ctx: Context) -> tuple[int, ...]:
        return ()

    def evaluate(self, req: SuppressionRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        spreads = spreads_to_company(req.fire)
        killed = is_killed(req.markers)
        auto = recovers_automatically(req.unit_level)
        key = "killed" if killed else "suppressed" if req.markers else "not-suppressed"
        notes = []
        if spreads:
            notes.append("Machine gun, mortar or artillery fire: the platoon's whole company is suppressed.")
        if killed:
            notes.append("Three suppressions without recovery: destroyed.")
        recovery = (
            "automatically at the end of its own turn"
            if auto
            else "by one Action in the order phase for each marker removed"
        )
        details: SuppressionDetails = {
            "spreads_to_company": spreads,
            "killed": killed,
            "markers_to_kill": max(KILLING_MARKERS - req.markers, 0),
            "recovers_automatically": auto,
            "recovery": recovery,
            "notes": notes,
        }
        sources = [SRC_BATTLE_SUPPRESSION, SRC_RECOVERY, SRC_DEATH]
        if ctx.period:
            sources.append(cite("THREE SUPPRESSIONS ON ANY UNIT EQUALS A KILL", ctx.period))
        return Evaluation(key, key, sources=tuple(sources), details=details)
