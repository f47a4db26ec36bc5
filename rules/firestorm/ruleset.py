"""Firestorm: Villers-Bretonneux, a four-turn campaign (24-27 April 1918) for Great War games."""

from __future__ import annotations

from pydantic import Field

from rules.core.citation import Texts
from rules.core.ruleset import ResolveRequest, RuleSet
from rules.registry import register

RULES = "Firestorm: Villers-Bretonneux"


@register
class Firestorm(RuleSet):
    id = "firestorm-villers-bretonneux"
    name = "Firestorm: Villers-Bretonneux"
    source = f"{RULES} (Jökull Gislason): campaign map, Firestorm Troops, the General's Wargame"


class FirestormRequest(ResolveRequest):
    """The campaign has no war periods: a request naming one is refused."""

    period: None = Field(default=None, description="Firestorm has no war periods; leave unset.")


cite = Texts(RULES).cite
