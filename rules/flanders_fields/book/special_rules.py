"""The national special rules (TABLES OF ORGANISATION), with their periods, limits and effects.

Each resolver that takes `special_rule` calls check_special_rule() (period check) and then refuses the
rules it has no use for, naming the ones it accepts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal, TypedDict, get_args

from rules.core.errors import RulesError
from rules.flanders_fields.errata import ELAN_IN_ASSAULT, MAD_MINUTE_LIMIT, PRUSSIAN_DISCIPLINE_MORALE
from rules.flanders_fields.ruleset import FlandersFields, cite

ORG = "TABLES OF ORGANISATION"

SpecialRuleId = Literal[
    "long-range-marksmanship",
    "mad-minute",
    "pals",
    "professionalism",
    "elan",
    "stubborn-resistance",
    "mutiny",
    "prussian-discipline",
    "storm-troops",
]


class SpecialRuleRow(TypedDict):
    """A national special rule as JSON: where and when it applies, how often, its effect and modifier, its
    text and rule, the resolvers that take it and the errata on it."""

    id: str
    name: str
    nation: str
    periods: list[str]
    limit: str
    uses_per_game: int | None
    effect: str
    modifier: int
    text: str
    source: str
    resolvers: list[str]
    errata: list[str]


class SpecialRules(TypedDict):
    source: str
    rules: list[SpecialRuleRow]


@dataclass(frozen=True)
class SpecialRule:
    id: str
    name: str
    nation: str
    periods: tuple[str, ...]
    limit: str
    uses_per_game: int | None
    effect: str
    text: str
    source: str
    resolvers: tuple[str, ...]
    modifier: int = 0
    errata: tuple[str, ...] = ()

    def as_dict(self) -> SpecialRuleRow:
        return {
            "id": self.id,
            "name": self.name,
            "nation": self.nation,
            "periods": list(self.periods),
            "limit": self.limit,
            "uses_per_game": self.uses_per_game,
            "effect": self.effect,
            "modifier": self.modifier,
            "text": self.text,
            "source": self.source,
            "resolvers": list(self.resolvers),
            "errata": list(self.errata),
        }


SPECIAL_RULES: dict[str, SpecialRule] = {
    r.id: r
    for r in (
        SpecialRule(
            "long-range-marksmanship",
            "Long Range Marksmanship",
            "British",
            ("early",),
            "whole game (BEF infantry up to Spring 1915)",
            None,
            "Infantry maximum range 60 cm instead of 45 cm.",
            "In 1914 the Veteran Infantry of the BEF had the best weapon skills of any army in the world. BEF "
            "troops up to Spring 1915 have a maximum range of 60cm.",
            cite(f"{ORG}, BRITISH AND EMPIRE DIVISION 1914-15, Special Rules"),
            ("shooting",),
        ),
        SpecialRule(
            "mad-minute",
            "Mad Minute",
            "British",
            ("early",),
            "once per game per infantry company (per battalion in the specimen game: errata)",
            1,
            "Roll twice for effect at the same target for a single successful fire order.",
            "once per game each infantry company may roll twice for effect for a single successful fire "
            "order, NB the two dice rolls must be at the SAME target",
            cite(f"{ORG}, BRITISH AND EMPIRE DIVISION 1914-15, Special Rules"),
            ("shooting",),
            errata=(MAD_MINUTE_LIMIT,),
        ),
        SpecialRule(
            "pals",
            "Pals",
            "British",
            ("mid",),
            "once per game per raw battalion",
            1,
            "+2 to an action roll or a morale test of a raw battalion.",
            "Once per game each raw battalion may invoke the 'Pals Spirit' and add +2 to an action roll OR "
            "moral test.",
            cite(f"{ORG}, BRITISH AND EMPIRE DIVISION LATE 1915 – 1916, Special Rules"),
            ("order-roll", "morale"),
            modifier=2,
        ),
        SpecialRule(
            "professionalism",
            "Professionalism",
            "British",
            ("late",),
            "once per game per infantry battalion and up to four attached tank models",
            1,
            "+2 to an action roll of an infantry battalion or attached tank; a natural 1 still fails.",
            "Once per game every infantry battalion and up to four attached tank models may add two to their "
            "action roll although a natural 1 will still be a failure.",
            cite(f"{ORG}, BRITISH AND EMPIRE DIVISION SPRING 1917 ONWARDS, Special Rules"),
            ("order-roll",),
            modifier=2,
        ),
        SpecialRule(
            "elan",
            "Elan",
            "French",
            ("early", "mid"),
            "every order to advance, in battles set in 1914, 1915 and early 1916",
            None,
            "+1 to the action roll when ordering French troops to move forward; not to fire more often.",
            "For battles set in 1914, 1915 and early 1916 add +1 to the action die roll when ordering French "
            "troops to move forward. Note that they cannot use the extra +1 to increase the number of times "
            "they may fire",
            cite(f"{ORG}, FRENCH INFANTRY DIVISION 1914-15, Special Rules"),
            ("order-roll", "assault"),
            modifier=1,
            errata=(ELAN_IN_ASSAULT,),
        ),
        SpecialRule(
            "stubborn-resistance",
            "Stubborn Resistance",
            "French",
            ("mid", "late"),
            "three times per game, a defending battalion",
            3,
            "A defending French battalion ignores an adverse morale result and remains in place.",
            "Three times in a game a defending French Battalion may ignore any adverse morale result and "
            "remain in place.",
            cite(f"{ORG}, FRENCH INFANTRY DIVISION 1917 ONWARDS, Special Rules"),
            ("morale",),
        ),
        SpecialRule(
            "mutiny",
            "Mutiny",
            "French",
            ("mid", "late"),
            "the German player picks three French battalions per game",
            3,
            "The chosen battalions hold their positions and defend but do not advance.",
            "the German player may pick any three of his opponent's battalions to 'mutiny', the chosen "
            "battalions will stay in their current positions and defend the line but not advance forwards of "
            "their current position.",
            cite(f"{ORG}, FRENCH INFANTRY DIVISION 1917 ONWARDS, Special Rules"),
            (),
        ),
        SpecialRule(
            "prussian-discipline",
            "Prussian Discipline",
            "German",
            ("early", "mid"),
            "three times per game per battalion commander, stated before the die is rolled",
            3,
            "+2 to an action roll (morale too in the specimen game: errata); a natural 1 still fails.",
            "Three times during a game any battalion commander may invoke 'Prussian Discipline' and gain +2 "
            "on any action die roll. The use of 'Prussian Discipline' must be stated before the action die "
            "is rolled and a Natural One is still classed as a failure.",
            cite(f"{ORG}, GERMAN INFANTRY DIVISION 1914-1915, Special Rule"),
            ("order-roll", "morale"),
            modifier=2,
            errata=(PRUSSIAN_DISCIPLINE_MORALE,),
        ),
        SpecialRule(
            "storm-troops",
            "Storm Troops",
            "German",
            ("late",),
            "one extra Storm Troop battalion per regiment when the Germans attack",
            None,
            "Always Veteran: +5 cm movement and +1 in all situations (quality 'storm').",
            "A Storm Troop battalion are always classed as Veteran and as such moves faster (+5cm) and fights "
            "harder (+1 in all situations) than a standard field battalion",
            cite(f"{ORG}, GERMAN INFANTRY DIVISION 1916-1918, Special Rule"),
            ("order-roll", "morale", "assault"),
        ),
    )
}

if set(SPECIAL_RULES) != set(get_args(SpecialRuleId)):
    raise ValueError("SpecialRuleId and SPECIAL_RULES differ")


def check_special_rule(rule_id: str, period: str | None, field: str = "special_rule") -> SpecialRule:
    """The rule, if it exists and applies in the period; else RulesError naming the allowed ids."""
    rule = SPECIAL_RULES.get(rule_id)
    if rule is None:
        raise RulesError(field, f"unknown special rule {rule_id!r}", SPECIAL_RULES)
    if period not in rule.periods:
        allowed = [r.id for r in SPECIAL_RULES.values() if period in r.periods]
        raise RulesError(
            field, f"{rule.name} applies only in the periods {', '.join(rule.periods)}, not {period}", allowed
        )
    return rule


def accept_special_rule(
    rule_id: str | None, period: str | None, resolver_id: str, field: str = "special_rule"
) -> SpecialRule | None:
    """check_special_rule() plus: the rule must have an effect in this resolver."""
    if rule_id is None:
        return None
    rule = check_special_rule(rule_id, period, field)
    if resolver_id not in rule.resolvers:
        raise RulesError(
            field,
            f"{rule.name} has no effect on {resolver_id}",
            rules_for(resolver_id, period),
        )
    return rule


def rules_for(resolver_id: str, period: str | None) -> list[str]:
    return [r.id for r in SPECIAL_RULES.values() if resolver_id in r.resolvers and period in r.periods]


def refuse(rule: SpecialRule, reason: str, allowed: Iterable[Any], field: str = "special_rule") -> RulesError:
    return RulesError(field, f"{rule.name}: {reason}", allowed)


@FlandersFields.dataset("special-rules", "National special rules: periods, limits per game and effects")
def special_rules_dataset(_period: str | None) -> SpecialRules:
    return {
        "source": cite(ORG),
        "rules": [r.as_dict() for r in SPECIAL_RULES.values()],
    }
