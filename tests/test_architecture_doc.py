"""docs/architecture.md stays a true and readable map: no line over 120 characters; every file, folder and
module it names exists; every module of app/ is on it (with its concern); the import contracts it lists are the
ones `pyproject.toml` holds the build to; the functions it names on an act's path exist. A move, a rename or a
new module shows up here."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "architecture.md").read_text()


def test_every_path_the_doc_names_exists() -> None:
    paths = {p for p in re.findall(r"`([\w./-]+/[\w./-]*)`", DOC) if not p.startswith("/")}
    assert len(paths) > 20
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert missing == []


def _section(title: str) -> str:
    start = DOC.index(f"\n## {title}\n")
    end = DOC.find("\n## ", start + 1)
    return DOC[start : end if end != -1 else len(DOC)]


def _lookup(dotted: str) -> Any:
    """What `dotted` names: a module, or an attribute (a class's method too) of its longest module prefix;
    None when there is none."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name, None)
        return obj
    return None


def test_no_line_of_the_doc_is_over_120_characters() -> None:
    """Read in a terminal or a diff as it is written: a long thought is wrapped, never one line of it."""
    long = [(n, len(line)) for n, line in enumerate(DOC.splitlines(), 1) if len(line) > 120]
    assert long == []


def test_every_app_module_is_on_the_map() -> None:
    """Each module of app/ (a package's `__init__` aside) is named by its path, so a new module is mapped with
    its concern where it is added."""
    named = set(re.findall(r"`(app/[\w/]+\.py)`", DOC))
    modules = {str(p.relative_to(ROOT)) for p in (ROOT / "app").rglob("*.py") if p.name != "__init__.py"}
    assert len(modules) > 100
    assert sorted(modules - named) == []


def test_every_module_the_doc_names_exists() -> None:
    dotted = {n for n in re.findall(r"`((?:app|rules|playsheets|tests)\.[\w.]+)`", DOC)}
    assert len(dotted) > 30
    assert sorted(n for n in dotted if _lookup(n) is None) == []


def test_the_layers_it_lists_are_the_import_contracts() -> None:
    """Each contract of `[tool.importlinter]` is one bullet of "The layers": a forbidden one names its sources
    and forbidden modules, an independence one its modules, a layers one its layers top to bottom (`a > b`);
    and there is one bullet per contract."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    section = _section("The layers")
    listed = section[section.index("The import contracts") :]
    bullets = [" ".join(b.split()) for b in re.split(r"\n- ", listed)[1:]]
    plain = [b.replace("`", "") for b in bullets]
    forbidden = {}
    for b in bullets:
        if "never import" in b:
            before, after = b.split("never import")
            forbidden[b] = (
                set(re.findall(r"`([\w.]+)`", before)),
                set(re.findall(r"`([\w.]+)`", after.split("(")[0])),
            )
    found = 0
    for c in contracts:
        if c["type"] == "forbidden":
            pair = (set(c["source_modules"]), set(c["forbidden_modules"]))
            by = [b for b, named in forbidden.items() if named == pair]
        elif c["type"] == "independence":
            by = [b for b in bullets if all(f"`{m}`" in b for m in c["modules"]) and "independent" in b]
        elif c["type"] == "acyclic_siblings":
            by = [
                b for b in bullets if all(f"`{m}`" in b for m in c["ancestors"]) and "acyclic siblings" in b
            ]
        else:
            chain = " > ".join(" | ".join(x.strip() for x in layer.split("|")) for layer in c["layers"])
            by = [b for b, p in zip(bullets, plain, strict=True) if chain in p]
            by = [b for b in by if all(f"`{m}`" in b for m in c.get("containers", []))]
        assert len(by) == 1, c["name"]
        found += 1
    assert len(bullets) == found == len(contracts)


def test_the_acts_path_names_functions_that_exist() -> None:
    path = _section("One act, from the tap to the database and back")
    named = set(re.findall(r"`((?:app|rules)\.[\w.]+)`", path))
    assert {
        "app.services.acts.play",
        "app.services.markers.apply_changes",
        "app.services.events.record",
        "rules.core.game.GameRules.play",
    } <= named
    assert sorted(n for n in named if not inspect.ismodule(_lookup(n)) and not callable(_lookup(n))) == []


def test_the_steps_of_adding_a_rule_set_name_what_exists() -> None:
    """Every class, function, method or attribute "Adding a rule set" names is one of the rule sets' hook (the
    modules its steps point to), so a rename there shows up here."""
    steps = _section("Adding a rule set")
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
            "rules.core.sheet",
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
    assert {"RuleSet", "GameRules", "Book", "register_game", "registered"} <= names
    assert sorted(names - known) == []


def _member(owner: Any, name: str) -> Any:
    """`owner.name` as the hook has it: an attribute of the class, else a field of the record it is (the book
    is a frozen dataclass whose fields a class does not carry), typed by its annotation; None if it has none."""
    if hasattr(owner, name):
        return getattr(owner, name)
    if inspect.isclass(owner) and dataclasses.is_dataclass(owner):
        fields = {f.name: f for f in dataclasses.fields(owner)}
        if name in fields:
            return fields[name].type
    return None


def test_every_member_of_the_game_hook_named_in_the_docs_and_code_exists() -> None:
    """`GameRules.book.kit`, `GameRules.new_forces`...: a name in the docs, a docstring or a comment that the hook
    no longer has (issue 66: `GameRules.setup.new_forces` outlived its part) sends a reader nowhere."""
    from rules.core.game import Book, GameRules

    files = [*ROOT.joinpath("docs").glob("*.md")]
    files += [p for d in ("rules", "app", "playsheets") for p in ROOT.joinpath(d).rglob("*.py")]
    named: dict[str, str] = {}
    for path in files:
        for chain in re.findall(r"GameRules((?:\.[A-Za-z_]\w*)+)", path.read_text()):
            named.setdefault(chain, str(path.relative_to(ROOT)))
    assert len(named) > 10
    missing = []
    for chain, where in sorted(named.items()):
        owner: Any = GameRules
        for name in chain.strip(".").split("."):
            owner = Book if name == "book" and owner is GameRules else _member(owner, name)
            if owner is None:
                missing.append(f"{where}: GameRules{chain}")
                break
    assert missing == []
