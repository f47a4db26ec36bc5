"""One registry of rule sets, each one object owning its game rules where it is played as a game; a test adds its
own for a block's time through `registered`, never through the registry's dicts."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from rules import registry
from rules.core.errors import NotFoundError, RulesError
from rules.core.ruleset import RuleSet
from tests.skirmish import SKIRMISH_GAME, Skirmish

ROOT = Path(__file__).resolve().parents[3]
RULES = ROOT / "rules"


def test_a_rule_set_owns_its_game_rules() -> None:
    """Each registered rule set played as a game owns its game rules, in the registry's order; one of lookups
    only has none (the lists derived from the registry, not pinned: a fifth rule set needs no edit here)."""
    rulesets = registry.all_rulesets()
    played = [rs.id for rs in rulesets if rs.game is not None]
    lookups_only = [rs.id for rs in rulesets if rs.game is None]
    assert len(played) >= 3 and lookups_only
    for rid in played:
        assert registry.get_game_rules(rid) is registry.get_ruleset(rid).game
    assert [g.book.ruleset_id for g in registry.all_game_rules()] == played
    for rid in lookups_only:
        with pytest.raises(RulesError) as e:
            registry.get_game_rules(rid)
        assert e.value.field == "ruleset" and e.value.allowed == sorted(played)
        assert registry.game_rules_or_none(rid) is registry.NO_RULES


def test_every_rule_set_package_is_registered_and_forbidden_to_the_generic_code() -> None:
    """The registry's packages are the folders of rules/ that define a rule set (a `ruleset.py` beside no other
    floor's), and each import contract keeping rule sets out of code that knows none (the table's geometry, the
    playsheets) forbids every one: a package added to the registry and not to those contracts fails here."""
    folders = {f"rules.{p.parent.name}" for p in RULES.glob("*/ruleset.py") if p.parent.name != "core"}
    assert set(registry.RULESET_MODULES) == folders
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    keeping_out = {
        c["source_modules"][0]: set(c["forbidden_modules"])
        for c in contracts
        if c["type"] == "forbidden" and c["source_modules"] in (["rules.table"], ["playsheets"])
    }
    assert {source: folders - forbidden for source, forbidden in keeping_out.items()} == {
        "rules.table": set(),
        "playsheets": set(),
    }


def test_a_rule_set_is_registered_for_the_blocks_time_only() -> None:
    with registry.registered(Skirmish) as rs:
        assert registry.get_ruleset(Skirmish.id) is rs
        assert registry.get_game_rules(Skirmish.id) is Skirmish.game
        assert Skirmish.game in registry.all_game_rules()
        assert "rally" in rs.resolvers
    with pytest.raises(NotFoundError):
        registry.get_ruleset(Skirmish.id)
    with pytest.raises(RulesError):
        registry.get_game_rules(Skirmish.id)


def test_an_id_registered_twice_or_a_game_of_another_rule_set_is_refused() -> None:
    class Again(RuleSet):
        id = "flanders-fields"
        name = "Flanders Fields again"

    class Mismatched(RuleSet):
        id = "mismatched"
        name = "Mismatched"
        game = SKIRMISH_GAME  # the skirmish's, not its own

    with pytest.raises(ValueError, match="registered twice"), registry.registered(Again):
        pass
    with (
        pytest.raises(ValueError, match="must be the GameRules of mismatched"),
        registry.registered(Mismatched),
    ):
        pass
    with pytest.raises(NotFoundError):
        registry.get_ruleset("mismatched")


def test_the_rule_sets_come_in_the_registrys_order_whichever_package_was_imported_first() -> None:
    """The first rule set is firestep's default (a new game's, a fresh device's lookup): a process that happened
    to import another rule set's package first must not change it."""
    import subprocess
    import sys

    script = (
        "import rules.vimy_ridge, rules.earth2mm\n"
        "from rules.registry import RULESET_MODULES, all_rulesets\n"
        "print([type(r).__module__.split('.')[1] for r in all_rulesets()])\n"
        "print([m.split('.')[1] for m in RULESET_MODULES])\n"
    )
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    got, expected = ran.stdout.splitlines()
    assert got == expected
