"""The app is rule-set neutral: no module of app/ or playsheets/ imports a rule set's package (what a rule set
knows reaches them through rules.registry, its game hook, rules.core.game.GameRules, and what it declares: its
lookups, fire plan, campaign, playsheet and datasets). The packages are the registered rule sets', read from the
registry, so a rule set added later is held to it too; the import contracts in pyproject.toml say the same for
`make lint`."""

from __future__ import annotations

import ast
from pathlib import Path

from rules.registry import all_rulesets

ROOT = Path(__file__).resolve().parents[2]


def rule_set_packages() -> set[str]:
    """Each registered rule set's package (rules.<name>), from where its class is defined."""
    return {".".join(type(rs).__module__.split(".")[:2]) for rs in all_rulesets()}


def _import_lines(path: Path, packages: set[str]) -> int:
    """How many import statements of the module name one of `packages` (at any depth: a late import too)."""
    found = 0
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        found += any(n == p or n.startswith(p + ".") for n in names for p in packages)
    return found


def test_the_registry_names_each_rule_sets_own_package() -> None:
    packages = rule_set_packages()
    assert len(packages) == len(all_rulesets()) and "rules.core" not in packages, packages


def test_no_module_of_the_app_or_the_playsheets_imports_a_rule_sets_package() -> None:
    packages = rule_set_packages()
    modules = [p for top in ("app", "playsheets") for p in sorted((ROOT / top).rglob("*.py"))]
    assert len(modules) > 100, "the walk found too few modules"
    found = {str(p.relative_to(ROOT)): n for p in modules if (n := _import_lines(p, packages))}
    assert found == {}, "these import a rule set's package: reach it through rules.registry and its hook"


def test_the_check_catches_an_import(tmp_path: Path) -> None:
    packages = {"rules.flanders_fields"}
    p = tmp_path / "x.py"
    p.write_text("from rules.flanders_fields.play.units import quality_of\n")
    assert _import_lines(p, packages) == 1
    p.write_text("import rules.flanders_fields\nfrom rules.core.game import GameRules\n")
    assert _import_lines(p, packages) == 1
    p.write_text("from rules.core.game import GameRules\nfrom rules.flanders_fieldsx import y\n")
    assert _import_lines(p, packages) == 0
    p.write_text("def f():\n    from rules.flanders_fields import x\n    import rules.flanders_fields.y\n")
    assert _import_lines(p, packages) == 2
