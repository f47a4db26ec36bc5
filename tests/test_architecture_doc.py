"""docs/architecture.md stays true: every file or folder it names exists, and every service module it lists is
a module of app/services (and the other way round), so a move or a new concern shows up here."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "architecture.md").read_text()


def test_every_path_the_doc_names_exists() -> None:
    paths = {p for p in re.findall(r"`([\w./-]+/[\w./-]*)`", DOC) if not p.startswith("/")}
    assert len(paths) > 20
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert missing == []


def test_the_doc_lists_every_service_module() -> None:
    section = DOC[DOC.index("## app/services/") : DOC.index("## app/routes/")]
    named = set(re.findall(r"`(\w+)`", section))
    modules = {p.stem for p in (ROOT / "app" / "services").glob("*.py") if p.stem != "__init__"}
    assert modules - named == set()


def test_the_steps_of_adding_a_rule_set_name_what_exists() -> None:
    """Every class, function, method or attribute "Adding a rule set" names is one of the rule sets' hook (the
    modules its steps point to), so a rename there shows up here."""
    steps = DOC[DOC.index("## Adding a rule set") :]
    numbered = re.findall(r"^\d+\. ", steps, re.MULTILINE)
    assert [n.strip() for n in numbered] == [f"{i}." for i in range(1, len(numbered) + 1)]
    assert len(numbered) >= 5
    modules = [
        importlib.import_module(m)
        for m in (
            "rules.core.ruleset",
            "rules.core.game",
            "rules.core.turn",
            "rules.core.kit",
            "rules.core.records",
            "rules.core.resolution",
            "rules.registry",
            "rules.table.bases",
            "rules.table.templates",
        )
    ]
    known: set[str] = set()
    for module in modules:
        for name, value in vars(module).items():
            known.add(name)
            if inspect.isclass(value):
                # Its methods and class attributes, its annotated ones (a resolver's `Request`) and fields.
                members = {*dir(value), *inspect.get_annotations(value)}
                if dataclasses.is_dataclass(value):
                    members.update(f.name for f in dataclasses.fields(value))
                known.update(members, (f"{name}.{m}" for m in members))
    names = {n for n in re.findall(r"`([\w.]+)`", steps) if "/" not in n and not n.endswith(".py")}
    assert {"RuleSet", "GameRules", "TurnModel", "register_game", "registered"} <= names
    assert sorted(names - known) == []
