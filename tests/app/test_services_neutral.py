"""The services are rule-set neutral: no module of app/services imports rules.flanders_fields (what a rule set
knows reaches them through its game hook, rules.core.game.GameRules). The modules not yet moved behind the
hook are listed here; the list only shrinks. The rest of the app names Flanders Fields only where a route or
page is about that rule set's own lookups, in a handful of import lines."""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"
SERVICES = APP / "services"
# The one route left about Flanders Fields' own printables (its organisation tables and its periods' address,
# /playsheets/{period}): its geometry lookups, fire plan and scenario example are declared by the rule set and
# served by the generic routes, as the import contract in pyproject.toml says. Everything else reaches it
# through rules.registry and the hook.
ITS_OWN_LOOKUPS = {"routes/playsheets.py": 2}
RULE_SET = "rules.flanders_fields"
NOT_YET: set[str] = set()


def _import_lines(path: Path) -> int:
    """How many import statements of the module name rules.flanders_fields (at any depth: a late import too)."""
    found = 0
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        found += any(n == RULE_SET or n.startswith(RULE_SET + ".") for n in names)
    return found


def _names_rule_set(path: Path) -> bool:
    return _import_lines(path) > 0


def test_no_service_imports_flanders_fields() -> None:
    files = sorted(SERVICES.glob("*.py"))
    assert files, "app/services has no modules"
    naming = {p.name for p in files if _names_rule_set(p)}
    assert naming - NOT_YET == set(), "these services import rules.flanders_fields: call the game hook"
    assert NOT_YET - naming == set(), "these no longer import it: take them off NOT_YET"


def test_the_app_names_flanders_fields_only_for_its_own_lookups() -> None:
    found = {str(p.relative_to(APP)): n for p in sorted(APP.rglob("*.py")) if (n := _import_lines(p)) > 0}
    assert found == ITS_OWN_LOOKUPS
    assert sum(found.values()) <= 2


def test_the_check_catches_an_import(tmp_path: Path) -> None:
    p = tmp_path / "x.py"
    p.write_text("from rules.flanders_fields.play.units import quality_of\n")
    assert _names_rule_set(p)
    p.write_text("import rules.flanders_fields\nfrom rules.core.game import GameRules\n")
    assert _names_rule_set(p)
    p.write_text("from rules.core.game import GameRules\nfrom rules.flanders_fieldsx import y\n")
    assert not _names_rule_set(p)
    p.write_text("def f():\n    from rules.flanders_fields import x\n    import rules.flanders_fields.y\n")
    assert _import_lines(p) == 2
