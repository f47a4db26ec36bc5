"""Tests of the Flanders Fields rules engine. `resolve()` runs a resolver as the service does."""

from __future__ import annotations

from typing import Any

from rules.core.resolution import Resolution
from rules.registry import get_ruleset

FF = get_ruleset("flanders-fields")


def resolve(resolver_id: str, **body: Any) -> Resolution:
    request = FF.resolvers[resolver_id].Request.model_validate(body)
    return FF.resolve(resolver_id, request)
