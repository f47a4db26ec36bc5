"""Vimy Ridge: Arras Diversion (Fire & Movement folio game): a hex board game served as lookups and dice."""

from __future__ import annotations

from pydantic import Field

from rules.core.citation import Texts
from rules.core.ruleset import ResolveRequest, RuleSet
from rules.registry import register

RULES = "Vimy Ridge: Arras Diversion, exclusive rules"


@register
class VimyRidge(RuleSet):
    id = "vimy-ridge"
    name = "Vimy Ridge: Arras Diversion"
    source = "Fire & Movement folio game, exclusive rules 10.0 to 22.0 (hex board game, 9-12 April 1917)"


class VimyRequest(ResolveRequest):
    """The game has no war periods: a request naming one is refused."""

    period: None = Field(default=None, description="Vimy Ridge has no war periods; leave unset.")


cite = Texts(RULES).cite
