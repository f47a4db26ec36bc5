"""Every act on a game goes through the act pipeline (app.services.acts.play): no route or page logs an event,
asks the rules of play or records the referee's override itself, by any name it imports them under."""

from __future__ import annotations

import ast
from pathlib import Path

from rules.core.game import GameRules

APP = Path(__file__).resolve().parents[2] / "app"
PIPELINE_ONLY = {"record", "rules_of_play", "with_override"}


def _calls(path: Path) -> list[str]:
    """The pipeline-only functions the module calls, as `line: name`, through a module or a from-import."""
    tree = ast.parse(path.read_text(), str(path))
    imported = {
        (a.asname or a.name): a.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("app.services")
        for a in node.names
    }
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr in PIPELINE_ONLY:
            found.append(f"{node.lineno}: {f.attr}")
        elif isinstance(f, ast.Name) and imported.get(f.id) in PIPELINE_ONLY:
            found.append(f"{node.lineno}: {f.id}")
    return found


def test_routes_and_pages_play_acts_only_through_the_pipeline() -> None:
    modules = sorted([*(APP / "routes").glob("*.py"), *(APP / "pages").glob("*.py")])
    assert len(modules) > 20
    calling = {p.relative_to(APP).as_posix(): c for p in modules if (c := _calls(p))}
    assert calling == {}, "play the act through app.services.acts.play"


def test_the_walk_finds_a_call_by_either_name(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from app.services.turns import rules_of_play as asked\n"
        "from app.services import events\n"
        "asked(1)\nevents.record(2)\n"
    )
    assert _calls(module) == ["3: asked", "4: record"]


def _parts_reached(path: Path) -> list[str]:
    """Where a module reaches past `GameRules.play` into an act's parts: a protected member of the hook
    (`._consequences`, `._arrival`) or the roll worked out by hand (rules.core.rolls.work_out)."""
    parts = {n for n in vars(GameRules) if n.startswith("_") and not n.startswith("__")}
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in parts:
            found.append(f"{node.lineno}: {node.attr}")
        elif isinstance(node, ast.ImportFrom) and any(a.name == "work_out" for a in node.names):
            found.append(f"{node.lineno}: work_out")
    return found


def test_the_app_plays_rolls_and_fire_through_the_rule_sets_play() -> None:
    # Issue 54: a roll, arrived fire, an item landing, a plan item, a rehearsal and a draw taken back are acts
    # answered by GameRules.play; the app never works them out through the parts' own steps.
    modules = sorted(APP.rglob("*.py"))
    reaching = {p.relative_to(APP).as_posix(): c for p in modules if (c := _parts_reached(p))}
    assert reaching == {}


def test_the_parts_walk_finds_a_step_and_work_out(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("from rules.core.rolls import work_out\ngame._arrival(s, i)\n")
    assert _parts_reached(module) == ["1: work_out", "2: _arrival"]
