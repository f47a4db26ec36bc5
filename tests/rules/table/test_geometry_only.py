"""rules/table is geometry only: the bases and templates it shapes are each rule set's (its table kit's), so none
of its modules names one."""

from __future__ import annotations

import ast
from pathlib import Path

import rules.table
from rules.registry import all_game_rules

# Words of other vocabularies that share a base's or template's name: movers of the movement table (which may
# cross wire) and a kind of firer of the arcs of fire; neither names a base or a template.
OTHER_WORDS = {("move.py", "field-artillery"), ("move.py", "tank"), ("arcs.py", "artillery")}


def test_rules_table_names_no_base_or_template_of_any_rule_set() -> None:
    kinds = {k for r in all_game_rules() for k in (*r.book.kit.bases, *r.book.kit.templates)}
    assert "infantry-platoon" in kinds and "rolling-barrage" in kinds  # the kits are read
    named = {
        (path.name, node.value)
        for path in Path(rules.table.__file__).parent.glob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and node.value in kinds
    }
    assert named == OTHER_WORDS
