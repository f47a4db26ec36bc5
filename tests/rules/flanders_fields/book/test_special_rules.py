"""National special rules: data, periods and the check the resolvers use."""

from __future__ import annotations

import pytest

from rules.core.errors import RulesError
from rules.flanders_fields.book.special_rules import SPECIAL_RULES, check_special_rule
from tests.rules.flanders_fields import FF

# Periods from the sections the rules are printed in and their own words.
PERIODS = {
    "long-range-marksmanship": ("early",),  # "BEF troops up to Spring 1915"
    "mad-minute": ("early",),  # BRITISH AND EMPIRE DIVISION 1914-15
    "pals": ("mid",),  # BRITISH AND EMPIRE DIVISION LATE 1915 – 1916
    "professionalism": ("late",),  # "From mid 1917"
    "elan": ("early", "mid"),  # "For battles set in 1914, 1915 and early 1916"
    "stubborn-resistance": ("mid", "late"),  # FRENCH INFANTRY DIVISION 1917 ONWARDS
    "mutiny": ("mid", "late"),
    "prussian-discipline": ("early", "mid"),  # GERMAN INFANTRY DIVISION 1914-1915
    "storm-troops": ("late",),  # "In 1918"
}
# Limits: "Once per game each raw battalion" (Pals), "Three times in a game" (Stubborn Resistance), "Three
# times during a game" (Prussian Discipline), "Once per game every infantry battalion" (Professionalism).
USES = {
    "pals": 1,
    "professionalism": 1,
    "mad-minute": 1,
    "stubborn-resistance": 3,
    "mutiny": 3,
    "prussian-discipline": 3,
}


@pytest.mark.parametrize("rule_id", sorted(PERIODS))
@pytest.mark.parametrize("period", ["early", "mid", "late"])
def test_check_special_rule_by_period(rule_id: str, period: str) -> None:
    if period in PERIODS[rule_id]:
        assert check_special_rule(rule_id, period).id == rule_id
    else:
        with pytest.raises(RulesError) as err:
            check_special_rule(rule_id, period, field="attacker.special_rule")
        assert err.value.field == "attacker.special_rule"
        assert rule_id not in (err.value.allowed or []) and err.value.allowed


def test_rule_data() -> None:
    assert set(SPECIAL_RULES) == set(PERIODS)
    for rule_id, rule in SPECIAL_RULES.items():
        assert rule.periods == PERIODS[rule_id]
        assert rule.uses_per_game == USES.get(rule_id)
        assert rule.source.startswith("Flanders Fields rule book: TABLES OF ORGANISATION")
    assert SPECIAL_RULES["pals"].modifier == 2 and SPECIAL_RULES["elan"].modifier == 1
    with pytest.raises(RulesError) as err:
        check_special_rule("berserk", "late")
    assert err.value.allowed and "pals" in err.value.allowed


def test_special_rules_dataset() -> None:
    data = FF.data("special-rules")
    assert [r["id"] for r in data["rules"]] == list(SPECIAL_RULES) and data["source"]
