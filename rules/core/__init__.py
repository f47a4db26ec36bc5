"""The interface every rule set plugs into: errors, dice, resolutions, errata and the registry."""

from rules.core.dice import DiceSource, all_rolls, exact_distribution
from rules.core.errors import NotFoundError, RulesError
from rules.core.resolution import Evaluation, Modifier, Resolution
from rules.core.ruleset import (
    Context,
    Dataset,
    Erratum,
    Period,
    Reading,
    Resolver,
    ResolveRequest,
    RuleSet,
)

__all__ = [
    "Context",
    "Dataset",
    "DiceSource",
    "Erratum",
    "Evaluation",
    "Modifier",
    "NotFoundError",
    "Period",
    "Reading",
    "Resolution",
    "ResolveRequest",
    "Resolver",
    "RuleSet",
    "RulesError",
    "all_rolls",
    "exact_distribution",
]
