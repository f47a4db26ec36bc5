"""Flanders Fields heroic actions: once per player per game, 5-6 succeeds, otherwise the platoon is lost."""

from __future__ import annotations

from pydantic import Field

from rules.core.resolution import Evaluation, Modifier
from rules.core.ruleset import Context, Resolver
from rules.flanders_fields.book.common import FFRequest
from rules.flanders_fields.errata import SRC_EVENTS
from rules.flanders_fields.ruleset import FlandersFields, cite

SRC_HEROIC = cite("HEROIC ACTIONS")
# "the attacker rolls a D6, a 5 or 6 indicates success, 1-4 a failure"
HEROIC_NEEDS = 5
# Hearts - Jack "Good day to be a hero" - gain +1 on heroic action roll - must be played BEFORE rolling
HERO_CARD_BONUS = 1


class HeroicActionRequest(FFRequest):
    hero_card: bool = Field(
        default=False,
        description="The Jack of Hearts ('Good day to be a hero', +1) was played before rolling.",
    )


@FlandersFields.resolver
class HeroicAction(Resolver[HeroicActionRequest]):
    id = "heroic-action"
    summary = "Heroic action: 5-6 succeeds, otherwise the platoon is destroyed (once per player per game)"
    Request = HeroicActionRequest
    examples = ({"period": "early", "dice": [5]}, {"period": "late", "hero_card": True, "dice": [4]})

    def evaluate(self, req: HeroicActionRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        mods = (
            (Modifier("Jack of Hearts: Good day to be a hero", HERO_CARD_BONUS, SRC_EVENTS),)
            if req.hero_card
            else ()
        )
        total = dice[0] + sum(m.value for m in mods)
        success = total >= HEROIC_NEEDS
        return Evaluation(
            key="success" if success else "platoon-destroyed",
            outcome="success" if success else "platoon-destroyed",
            modifiers=mods,
            total=total,
            sources=(SRC_HEROIC,),
            details={
                "thresholds": {"success": HEROIC_NEEDS},
                "notes": [
                    "The platoon is moved as needed to have accomplished the action."
                    if success
                    else "The platoon is immediately destroyed and removed from play.",
                    "Once per game each player may attempt a heroic action, by a single platoon stand, agreed "
                    "by both sides as feasible and heroic.",
                ],
            },
        )
