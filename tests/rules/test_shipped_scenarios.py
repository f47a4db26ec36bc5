"""The shipped scenarios are golden documents: every file a playable rule set ships passes the importer's checks
unchanged (rules.core.scenario.validate) and builds its forces within the rule set's cap on a game's units, as
an imported file must. Checked here once, not at every import of the rule set."""

from __future__ import annotations

import copy

import pytest

from rules import registry
from rules.core.scenario import units_in, validate

SHIPPED = [
    (rules.book.ruleset_id, sid)
    for rules in registry.all_game_rules()
    for sid in sorted(rules.book.scenarios)
]


def test_the_rule_sets_ship_scenarios() -> None:
    assert ("flanders-fields", "mons-1914") in SHIPPED


@pytest.mark.parametrize(("ruleset_id", "scenario_id"), SHIPPED, ids=[f"{r}:{s}" for r, s in SHIPPED])
def test_a_shipped_scenario_passes_the_importers_checks_and_builds(ruleset_id: str, scenario_id: str) -> None:
    ruleset, rules = registry.get_ruleset(ruleset_id), registry.get_game_rules(ruleset_id)
    shipped = rules.book.scenarios[scenario_id]
    doc = validate(copy.deepcopy(shipped), {ruleset_id: (ruleset, rules)})
    assert doc == shipped and doc["id"] == scenario_id and doc["ruleset"] == ruleset_id
    made = rules.new_forces(ruleset.context(doc["period"], doc.get("variants", {})), doc)
    units = units_in(*(root for roots in made.forces.values() for root in roots))
    cap = rules.unit_cap()
    assert units > 0 and (cap is None or units <= cap[0])
