"""Helpers of the Flanders Fields resolver tests: resolve a request and read the answer as JSON, or its odds."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rules.core.ruleset import RuleSet
from rules.flanders_fields import FlandersFields

# The resolvers of fire support (artillery, barrages, SOS, gas, air) and of the special rules (deep shelters,
# deviation, heroic actions, visibility, random events, casualties).
SUPPORT_AND_SPECIAL_RESOLVERS = (
    "deep-suppression",
    "artillery-action",
    "rolling-barrage",
    "barrage-danger",
    "barrage-duration",
    "sos",
    "deep-shelter",
    "deviation",
    "gas-wind",
    "air-attack",
    "heroic-action",
    "visibility",
    "random-event",
    "casualties",
)


def ff() -> RuleSet:
    # The class itself, not the registry: other rule sets' imports do not concern these tests.
    return FlandersFields()


def resolve(resolver_id: str, **body: Any) -> dict[str, Any]:
    rs = ff()
    req = rs.resolvers[resolver_id].Request(**body)
    return rs.resolve(resolver_id, req).as_dict()


def odds(resolver_id: str, **body: Any) -> dict[str, Fraction]:
    rs = ff()
    resolver = rs.resolvers[resolver_id]()
    req = resolver.Request(**body)
    ctx = rs.context(req.period, req.variants)
    return resolver.probabilities(req, ctx)
