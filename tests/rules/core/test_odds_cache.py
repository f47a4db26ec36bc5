"""The exact odds of a resolution are enumerated once per question (rules/core/ruleset.py RuleSet._odds):
the same request with other dice gets the same odds, a different request its own, and a caller changing the
odds it was given changes nobody else's."""

from __future__ import annotations

from fractions import Fraction

from rules.core.dice import exact_distribution
from rules.registry import get_ruleset

ORDER = {"period": "early", "unit": "rifle-company", "quality": "veteran"}


def _resolve(**fields: object) -> dict[str, Fraction]:
    rs = get_ruleset("flanders-fields")
    req = rs.resolvers["order-roll"].Request(**{**ORDER, **fields})
    return rs.resolve("order-roll", req).probabilities


def test_other_dice_same_odds_and_the_odds_are_the_enumeration() -> None:
    rs = get_ruleset("flanders-fields")
    first, second = _resolve(dice=[1]), _resolve(dice=[6])
    assert first == second
    resolver = rs.resolvers["order-roll"]()
    req = resolver.Request(**ORDER)
    ctx = rs.context(req.period, req.variants)
    assert first == exact_distribution(resolver.dice(req, ctx), lambda d: resolver.evaluate(req, ctx, d).key)


def test_a_different_question_gets_its_own_odds() -> None:
    veteran = _resolve(dice=[4])
    suppressed = _resolve(dice=[4], command_suppression=2)
    assert veteran != suppressed
    assert sum(suppressed.values()) == 1


def test_changing_the_odds_one_was_given_changes_no_later_answer() -> None:
    given = _resolve(dice=[3])
    assert isinstance(given, dict)
    kept = dict(given)
    given.clear()
    assert _resolve(dice=[2]) == kept
