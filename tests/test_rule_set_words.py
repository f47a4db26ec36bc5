"""The app is every rule set's: no module of `app/` or `frontend/` names Flanders Fields' own things outside its
comments (issue 36), nor 2mm Earth 1418's identifiers (issue 39). What a game of a rule set needs (its board
keys, plan kinds, qualities, unit levels, bases and templates) comes from the rule set's object, so these words
may reach a page only as data."""

from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
from pathlib import Path
from typing import get_args

from rules.earth2mm import data as earth
from rules.earth2mm.play.table import TERRAIN_CLASSES
from rules.earth2mm.ruleset import Earth2mm
from rules.registry import all_game_rules, get_game_rules

ROOT = Path(__file__).resolve().parents[1]
WORDS = ("deep_suppression", "NEW_GAME_RULESET", "'flanders-fields'", '"flanders-fields"', "rolling-barrage")
WORDS += ("aiming-point",)
SOURCES = (".py", ".js", ".html", ".css")


def _docstrings(text: str) -> set[tuple[int, int]]:
    """Where a module's docstrings start (line, column), as its string tokens start."""
    return {
        (n.body[0].value.lineno, n.body[0].value.col_offset)
        for n in ast.walk(ast.parse(text))
        if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and n.body
        and isinstance(n.body[0], ast.Expr)
        and isinstance(n.body[0].value, ast.Constant)
        and isinstance(n.body[0].value.value, str)
    }


def _python_code(text: str) -> str:
    """The module less its comments and docstrings."""
    docstrings = _docstrings(text)
    kept = [
        t
        for t in tokenize.generate_tokens(io.StringIO(text).readline)
        if t.type != tokenize.COMMENT and not (t.type == tokenize.STRING and t.start in docstrings)
    ]
    return tokenize.untokenize(kept)


_WEB_COMMENTS = re.compile(r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*|<!--.*?-->|\{#.*?#\}", re.S)


# Read once a process: the checks below each walk every module of the app and the frontend.
@functools.cache
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
    vocabulary = {w for rules in all_game_rules() for w in (*rules.book.qualities, *rules.book.unit_levels)}
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
    keys = {k.name for rules in all_game_rules() for k in rules.book.kit.board_keys}
    assert {"fire", "clouds", "barrages"} <= keys  # the walk sees the keys the map once drew by name
    assert {k for k in keys if re.search(rf"(?<![\w-]){re.escape(k)}(?![\w-])", code)} == set()


# -- 2mm Earth 1418's identifiers (issue 39) ----------------------------------------------------------------
_QUOTED = re.compile(r"([\"'`])((?:(?!\1)[^\\\n])*)\1")
_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)


@functools.cache
def identifiers(path: Path) -> frozenset[str]:
    """The whole-word identifiers of a module outside its comments: Python's names and string literals (not
    its docstrings), a script's names and literals, a template's literals and the names in its tags, a
    stylesheet's classes and ids. Prose (a docstring, a page's text) is not an identifier."""
    text = path.read_text()
    if path.suffix == ".py":
        docstrings = _docstrings(text)
        found = set()
        for t in tokenize.generate_tokens(io.StringIO(text).readline):
            if t.type == tokenize.NAME:
                found.add(t.string)
            elif t.type == tokenize.STRING and t.start not in docstrings and t.string[-1] in "'\"":
                value = ast.literal_eval(t.string) if t.string[0] in "'\"" else None
                found |= {value} if isinstance(value, str) else set()
        return frozenset(found)
    code = code_of(path)
    if path.suffix == ".css":
        return frozenset(re.findall(r"[.#]([A-Za-z_][\w-]*)", _QUOTED.sub(" ", code)))
    if path.suffix == ".html":  # a template's code: its tags and its attributes' values
        code = " ".join([*_JINJA.findall(code), *(m.group(0) for m in _QUOTED.finditer(code))])
    return frozenset(
        {m.group(2) for m in _QUOTED.finditer(code)} | set(_NAME.findall(_QUOTED.sub(" ", code)))
    )


def earth_words() -> set[str]:
    """2mm Earth 1418's identifiers, read from the rule set's own objects: its units' state fields, its high
    commands, its sub-units' plans and its artillery plans' kinds, its terrain classes (cover and movement)
    and its postures."""
    game = get_game_rules(Earth2mm.id)
    fields = {f.name for f in game.book.state_fields}
    artillery = {k for p in game.book.kit.plan_kinds for k in get_args(p.model_fields["kind"].annotation)}
    words = {*earth.COMMANDS, *get_args(earth.Plan), *earth.TERRAINS, *TERRAIN_CLASSES, *earth.POSTURES}
    return fields | artillery | words


# Generic words 2mm shares with the app, each where the app uses it in a meaning of its own: (module, word).
APP_OWN_MEANINGS = {
    (
        "app/core/datafolder.py",
        "open",
    ): "os.open, creating a private file (the club keys, the secret key, the database)",
    ("app/core/platform.py", "open"): "os.open, a file made owner-only",
    ("app/core/touched.py", "move"): "the log's event kind of a stand moved",
    ("app/data/models.py", "open"): "a campaign battle's status, not yet settled",
    ("app/guard/headers.py", "hold"): "the middleware's send wrapper holding a docs page to hash its script",
    (
        "app/data/schemas_answers.py",
        "advance",
    ): "the turn's advance (the answer saying what advancing does next)",
    ("app/pages/campaigns.py", "advance"): "a campaign's action type (Firestorm: an army advances)",
    ("app/pages/campaigns.py", "retreat"): "a campaign's action type (Firestorm: an army retreats)",
    ("app/pages/game_record.py", "move"): "the log's event kind of a stand moved",
    ("app/pages/lookup.py", "open"): "the lookup form's errata panel left open",
    ("app/pages/scenario_editor.py", "move"): "rules.table.move, and a terrain card's movement entry",
    ("app/pages/terrain_kinds.py", "move"): "a terrain card's movement entry (app.pages.scenario_editor's)",
    ("app/data/schemas_campaign.py", "open"): "a campaign battle's status, not yet settled",
    ("app/core/backup.py", "open"): "ZipFile.open, a backup's database zipped and unzipped a piece at a time",
    (
        "app/services/site_folder.py",
        "open",
    ): "os.open, a published site's manifest read without following a link",
    ("app/routes/forces.py", "advance"): "the name of a stand move's example in the API's documentation",
    ("app/routes/games.py", "advance"): "the turn's advance (route and its example)",
    ("app/routes/games.py", "open"): "Flanders Fields' cover in a lookup's documented example",
    ("app/services/acts.py", "advance"): "the turn's advance",
    ("app/services/acts.py", "moving"): "a table template being moved",
    ("app/services/campaign_battles.py", "open"): "a campaign battle's status, not yet settled",
    ("app/services/templates.py", "moving"): "a table template being moved",
    ("app/services/turns.py", "advance"): "the turn's advance",
    ("app/services/undo.py", "move"): "the log's event kind of a stand moved",
    ("frontend/static/js/board-filters.js", "open"): "a details element opened",
    ("frontend/static/js/board-live.js", "open"): "a details element kept open through a live swap",
    ("frontend/static/js/net-status.js", "open"): "a details element opened",
    ("frontend/static/js/org-tables.js", "open"): "a details element opened",
    ("frontend/static/js/scenario-deploy.js", "open"): "a details element opened",
    ("frontend/static/js/counter-board.js", "open"): "a details element left open as a panel is read anew",
    (
        "frontend/static/js/scenario-editor.js",
        "move",
    ): "the editor's move action, and a terrain card's movement",
    ("frontend/static/js/table-formation.js", "move"): "the log's event kind of a stand moved",
    ("frontend/static/js/table-formation.js", "moving"): "the formation being moved",
    ("frontend/static/js/table-map.js", "move"): "the map's move mode and the log's event kind",
    ("frontend/templates/_stand_head.html", "move"): "the map's move mode, its button on a stand's card",
    ("app/services/card.py", "move"): "a stand card's act kind: a stand moved",
    ("frontend/static/sw.js", "open"): "caches.open, the offline cache",
    ("frontend/templates/_campaign_action.html", "advance"): "a campaign's action type",
    ("frontend/templates/_campaign_action.html", "retreat"): "a campaign's action type",
    ("frontend/templates/_campaign_battle_banner.html", "open"): "a campaign battle's status",
    ("frontend/templates/_campaign_table_battle.html", "open"): "a campaign battle's status",
    ("frontend/templates/_lookup_errata.html", "open"): "the lookup form's errata panel left open",
    ("frontend/templates/scenario_editor.html", "move"): "the editor's move action",
}


def test_no_module_of_the_app_names_2mm_earth_1418s_identifiers() -> None:
    """Its state fields, commands, plans, terrain classes and postures reach the app only as data; a word the
    app uses in a meaning of its own is listed above with its place, and the list holds no stale entry."""
    words = earth_words()
    assert {
        "high_command",
        "base_injury",
        "stay put",
        "fortification",
        "dug-in",
        "smoke-cordon",
    } <= words  # the walk is not blind
    found = {(str(p.relative_to(ROOT)), w) for p in _modules() for w in identifiers(p) & words}
    assert found == set(APP_OWN_MEANINGS)


def test_the_identifier_walk_sees_names_and_literals_not_prose(tmp_path: Path) -> None:
    py = tmp_path / "m.py"
    py.write_text(
        '"""high_command in a docstring."""\n# sub_plan\nx = "stay put"\nmsg = "the hold is full"\n'
    )
    js = tmp_path / "m.js"
    js.write_text("// rough\nconst s = u.base_injury; say('dug in the open');\n")
    html = tmp_path / "m.html"
    html.write_text('<p>hold the line</p>{{ unit.under_fire }}<b class="road">x</b>\n')
    assert identifiers(py) & earth_words() == {"stay put"}
    assert identifiers(js) & earth_words() == {"base_injury"}
    assert identifiers(html) & earth_words() == {"under_fire", "road"}


# -- Vimy Ridge's words (issue 56) ----------------------------------------------------------------------------
# Words Vimy Ridge shares with the app, each where the app uses it in a meaning of its own: (module, word).
VIMY_APP_OWN_MEANINGS = {
    ("app/club/authority.py", "hex"): "a certificate fingerprint written as hex digits",
    ("app/club/signing.py", "hex"): "a signing key and a signature written as hex digits",
    ("app/pages/campaigns.py", "attack"): "a campaign's action type (Firestorm: an army attacks)",
    ("frontend/templates/_campaign_action.html", "attack"): "a campaign's action type",
    ("app/services/unit_names.py", "division"): "a force tree's level, as the organisation tables name it",
    ("app/data/score_state.py", "tally"): "the score's tally of points (rules.core.score.Replay)",
}


def vimy_words() -> set[str]:
    """Vimy Ridge's identifiers, read from its own objects: its counters' state fields, the club's entries and
    the board keys its game keeps, its resolvers, its acts and its id."""
    from rules.vimy_ridge import VimyRidge
    from rules.vimy_ridge.play import game
    from rules.vimy_ridge.play.club import CLUB_KEYS

    rules = get_game_rules(VimyRidge.id)
    fields = {f.name for f in rules.book.state_fields}
    kept = {"markers_spent", "bombarded", "replacements", "holders", "vimy_entered", "tally"}
    acts = {game.MOVE_ACT, game.RESULT_ACT}
    return fields | set(CLUB_KEYS) | kept | acts | {"club-data", "bombardment", "attack"} | {VimyRidge.id}


def test_no_module_of_the_app_or_frontend_names_vimy_ridge_things() -> None:
    words = vimy_words()
    assert {"hex", "peaks", "artillery_track", "club-data", "vimy-ridge"} <= words
    found = {
        (str(p.relative_to(ROOT)), w)
        for p in _modules()
        for w in words & identifiers(p)
        if (str(p.relative_to(ROOT)), w) not in VIMY_APP_OWN_MEANINGS
    }
    assert found == set()
    assert [str(p.relative_to(ROOT)) for p in _modules() if re.search(r"vimy|1534", code_of(p), re.I)] == []


def test_the_fire_plan_page_and_route_import_and_name_no_rule_sets_things() -> None:
    """The fire plan's terms, its rehearsal's request and limits and its drawing on the page are the rule set's
    declaration (rules.core.game.FirePlanTerms: `rehearsal`, `marks`): the page and the routes import no rule
    set's package, and no string of their code is a plan kind, a template kind or a field of a plan item or of
    a rehearsal's request (the grid reference aside, rules.core.kit.Grid)."""
    packages = {p.name for p in (ROOT / "rules").iterdir() if (p / "ruleset.py").exists()} - {"core"}
    words: set[str] = set()
    for rules in all_game_rules():
        words |= set(rules.book.kit.templates)
        for model in rules.book.kit.plan_kinds:
            words |= set(get_args(model.model_fields["kind"].annotation)) | set(model.model_fields)
        if rules.book.plan_terms.rehearsal is not None:
            words |= set(rules.book.plan_terms.rehearsal.model_fields)
    words -= {"kind", "grid", "turns", "seed", "samples", "variants"}  # the core's (Grid, RehearsalRequest)
    found = {}
    for path in ("app/pages/fire_plan.py", "app/routes/fireplans.py"):
        tree = ast.parse(code_of(ROOT / path))
        modules = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        modules += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        imported = {m.split(".")[1] for m in modules if m.startswith("rules.")}
        strings = {
            n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
        }
        found[path] = sorted((imported & packages) | (strings & words))
    assert len(packages) >= 4 and {"battery", "gas-attacker", "halts"} <= words
    assert found == {"app/pages/fire_plan.py": [], "app/routes/fireplans.py": []}
