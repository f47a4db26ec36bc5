"""Battle for 2mm Earth 1418 (version 0.8): measured-distance rules with arming pools against resilience."""

from __future__ import annotations

from pydantic import Field

from rules.core.citation import Texts
from rules.core.ruleset import ResolveRequest, RuleSet
from rules.registry import register

RULES = "Battle for 2mm Earth 1418: The Great War (Version 0.8)"


@register
class Earth2mm(RuleSet):
    id = "2mm-earth-1418"
    name = "Battle for 2mm Earth 1418"
    source = f"{RULES}; distances in cm (1 cm = 10 scale metres) and inches for templates, as written"
    version = "0.8"


class EarthRequest(ResolveRequest):
    """The rules have no war periods: a request naming one is refused."""

    period: None = Field(default=None, description="2mm Earth 1418 has no war periods; leave unset.")


cite = Texts(RULES).cite
