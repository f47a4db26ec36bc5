"""Flanders Fields' after-action report: a battalion's rifle platoons lost, and the men lost bases stand for."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.core.game import Member, Report
from rules.flanders_fields.errata import CASUALTY_ROUNDING, SRC_CASUALTIES
from rules.flanders_fields.play.units import rifle_losses
from rules.flanders_fields.resolvers.casualties import casualty_split
from rules.flanders_fields.ruleset import FlandersFields
from rules.registry import get_ruleset


def losses(battalion: Member, units: Sequence[Member]) -> tuple[int, int]:
    """A battalion's rifle platoons, as its morale tests count them: (at the start, destroyed)."""
    return rifle_losses(battalion, units)


def casualties(period: str | None, variants: Mapping[str, str], bases: int) -> dict[str, Any]:
    """The rule book's rule of thumb (bases x 15 men, split into thirds and sixths), rounded as the game's
    reading of the casualty-rounding erratum says."""
    ctx = get_ruleset(FlandersFields.id).context(period, variants)
    return {
        "bases": bases,
        **casualty_split(bases, str(ctx.value(CASUALTY_ROUNDING))),
        "sources": [SRC_CASUALTIES, ctx.citation(CASUALTY_ROUNDING)],
    }


class FlandersFieldsReport(Report):
    """Flanders Fields' after-action report: a battalion's rifle platoons lost, and the men lost."""

    losses_counted = "rifle platoons"

    def losses(self, formation: Member, units: Sequence[Member]) -> tuple[int, int]:
        return losses(formation, units)

    def casualties(self, period: str | None, variants: Mapping[str, str], bases: int) -> dict[str, Any]:
        return casualties(period, variants, bases)
