"""The app is every rule set's: no module of `app/` or `frontend/` names Flanders Fields' own things outside its
comments (issue 36). What a game of a rule set needs (its board keys, plan kinds, qualities, unit levels,
bases and templates) comes from the rule set's object, so these words may reach a page only as data."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

from rules.registry import all_game_rules

ROOT = Path(__file__).resolve().parents[1]
WORDS = ("deep_suppression", "NEW_GAME_RULESET", "'flanders-fields'", '"flanders-fields"', "rolling-barrage")
WORDS += ("aiming-point",)
SOURCES = (".py", ".js", ".html", ".css")


def _python_code(text: str) -> str:
    """The module less its comments and docstrings."""
    docstrings = {
        (n.body[0].value.lineno, n.body[0].value.col_offset)
        for n in ast.walk(ast.parse(text))
        if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and n.body
        and isinstance(n.body[0], ast.Expr)
        and isinstance(n.body[0].value, ast.Constant)
        and isinstance(n.body[0].value.value, str)
    }
    kept = [
        t
        for t in tokenize.generate_tokens(io.StringIO(text).readline)
        if t.type != tokenize.COMMENT and not (t.type == tokenize.STRING and t.start in docstrings)
    ]
    return tokenize.untokenize(kept)


_WEB_COMMENTS = re.compile(r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*|<!--.*?-->|\{#.*?#\}", re.S)


def code_of(path: Path) -> str:
    text = path.read_text()
    return _python_code(text) if path.suffix == ".py" else _WEB_COMMENTS.sub("", text)


def _modules() -> list[Path]:
    return sorted(
        p
        for folder in ("app", "frontend")
        for p in (ROOT / folder).rglob("*")
        if p.suffix in SOURCES and ".min." not in p.name and "vendor" not in p.parts
    )


def test_no_module_of_the_app_names_flanders_fields_things() -> None:
    found = {
        str(p.relative_to(ROOT)): [w for w in WORDS if w in code] for p in _modules() if (code := code_of(p))
    }
    assert {k: v for k, v in found.items() if v} == {}


def test_no_literal_of_the_app_spells_a_rule_sets_qualities_or_unit_levels() -> None:
    vocabulary = {w for rules in all_game_rules() for w in (*rules.setup.qualities, *rules.setup.unit_levels)}
    found = {}
    for p in _modules():
        if p.suffix != ".py":
            continue
        for n in ast.walk(ast.parse(p.read_text())):
            if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == "Literal":
                words = {c.value for c in ast.walk(n.slice) if isinstance(c, ast.Constant)} & vocabulary
                if words:
                    found[f"{p.relative_to(ROOT)}:{n.lineno}"] = sorted(words)
    assert found == {}


def test_the_walk_sees_code_and_not_comments(tmp_path: Path) -> None:
    py = tmp_path / "m.py"
    py.write_text('"""A rolling-barrage."""\n# deep_suppression\nx = "aiming-point"  # NEW_GAME_RULESET\n')
    js = tmp_path / "m.js"
    js.write_text(
        "// rolling-barrage\n/* deep_suppression */\nconst url = 'http://x'; draw('aiming-point');\n"
    )
    assert [w for w in WORDS if w in code_of(py)] == ["aiming-point"]
    assert [w for w in WORDS if w in code_of(js)] == ["aiming-point"]


def test_the_map_draws_a_board_naming_none_of_its_keys() -> None:
    """The map draws what the rule set draws of its board (rules.core.kit `BoardKey.draw`): its script names
    no board key of any rule set, as a word of its code."""
    code = code_of(ROOT / "frontend/static/js/table-board.js")
    keys = {k.name for rules in all_game_rules() for k in rules.kit.board_keys}
    assert {"fire", "clouds", "barrages"} <= keys  # the walk sees the keys the map once drew by name
    assert {k for k in keys if re.search(rf"(?<![\w-]){re.escape(k)}(?![\w-])", code)} == set()
