"""Flanders Fields' after-action report: a battalion's rifle platoons lost, the men lost bases stand for, and
the story of the game in the book's words (stands suppressed or on the wire, morale tests, assaults, heroic
actions)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.core.game import Casualties, GameRules, Member, leaves_under
from rules.flanders_fields.errata import CASUALTY_ROUNDING, SRC_CASUALTIES
from rules.flanders_fields.play.units import is_rifle_platoon
from rules.flanders_fields.resolvers.assault import RESOLVER as ASSAULT
from rules.flanders_fields.resolvers.casualties import CasualtySplit, casualty_split
from rules.flanders_fields.resolvers.orders import RESOLVER as ORDER_ROLL
from rules.flanders_fields.resolvers.shooting import RESOLVER as SHOOTING
from rules.flanders_fields.ruleset import FlandersFields
from rules.registry import get_ruleset


def _clause(text: str) -> str:
    """A result's printed words as a clause of a sentence: "Retreat 20cm, become Suppressed." -> "retreat
    20cm, become Suppressed"; a consequence's first clause only (what follows a ";" is what may come next)."""
    first = text.split(";")[0].strip().rstrip(".")
    return first[:1].lower() + first[1:]


def roll_told(resolver: str, resolution: Mapping[str, Any], target: str) -> str:
    """A morale test by its band's printed words ("tested its morale: retreat 20cm, become Suppressed,
    abandon crewed weapons"), an assault by its consequence, a heroic action by its result."""
    key = str(resolution.get("outcome_key", "")).replace("-", " ")
    if resolver == "morale":
        return f"tested its morale: {_clause(str(resolution.get('meaning') or key))}"
    if resolver == ASSAULT:
        return f"assaulted {target}: {_clause(str(resolution.get('consequence') or key))}"
    if resolver == "heroic-action":
        return f"attempted a heroic action: {key}"
    return ""


class FlandersCasualties(Casualties, CasualtySplit):
    """The men the stands lost stand for, split by the rule of thumb (bases x 15 men)."""


class FlandersFieldsReport(GameRules):
    """Flanders Fields' after-action report: a battalion's rifle platoons lost, the men lost, and its story."""

    def roll_words(
        self, resolver: str, resolution: Mapping[str, Any], target: str, decisive: bool = False
    ) -> str:
        """A shot and an order roll in the book's words too ("shot at 1/1 Coy Plt 2: suppressed") for a
        decisive moment; else the rolls `roll_told` tells as they are told in a turn."""
        key = str(resolution.get("outcome_key", "")).replace("-", " ")
        if decisive and resolver == SHOOTING:
            return f"shot at {target}: {key}" if target else f"shot: {key}"
        if decisive and resolver == ORDER_ROLL:
            return f"rolled for its orders: {key}"
        return roll_told(resolver, resolution, target)

    @staticmethod
    def losses(formation: Member, units: Sequence[Member]) -> tuple[int, int]:
        """A battalion's rifle platoons, as its morale tests count them: (at the start, destroyed)."""
        rifles = [u for u in leaves_under(formation, units) if is_rifle_platoon(u)]
        return len(rifles), sum(1 for u in rifles if u.killed)

    def casualties(self, period: str | None, variants: Mapping[str, str], bases: int) -> FlandersCasualties:
        """The rule book's rule of thumb (bases x 15 men, split into thirds and sixths), rounded as the game's
        reading of the casualty-rounding erratum says."""
        ctx = get_ruleset(FlandersFields.id).context(period, variants)
        return {
            "bases": bases,
            **casualty_split(bases, str(ctx.value(CASUALTY_ROUNDING))),
            "sources": [SRC_CASUALTIES, ctx.citation(CASUALTY_ROUNDING)],
        }
