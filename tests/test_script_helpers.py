"""The page scripts' shared helpers are written once (issue 67): `humanise` (an identifier in words) and the
fragment readers in frontend/static/js/dom.js, every other script taking them from `window.firestepDom`, and no
helper written again in a second script; no script builds an element (the server draws every card and list);
the page of counters' script stays a few lines that swap the server's panels (app/pages/counters_panel.py)."""

from __future__ import annotations

import re
from pathlib import Path

JS = Path(__file__).resolve().parents[1] / "frontend/static/js"
# A helper: a function declared (`function name(`) or bound to a name (`const name = (...) =>`, `= function`).
HELPER = re.compile(
    r"(?:\bfunction\s+\w+\s*\(|\b(?:const|let|var)\s+\w+\s*=\s*"
    r"(?=(?:async\s*)?(?:function\b|\([^()]*\)\s*=>|\w+\s*=>)))"
)
# An arrow's body goes on past a line ending in one of these.
GOES_ON = re.compile(r"(=>|[?:&|+,(.])\s*$")


def helper_bodies(script: str) -> list[str]:
    """Each helper's parameters and body as written (white space folded), from its name's `=` or `(` to the
    end of its statement: the bracket that closes it, or the line's end outside brackets."""
    found = []
    for m in HELPER.finditer(script):
        i, depth = m.end(), 0
        while i < len(script):
            c = script[i]
            depth += (c in "([{") - (c in ")]}")
            if depth < 0 or (
                depth == 0 and (c == ";" or (c == "\n" and not GOES_ON.search(script[m.end() : i])))
            ):
                break
            i += 1
        found.append(" ".join(script[m.end() : i].split()))
    return found


def test_no_helper_is_written_in_two_scripts() -> None:
    """A helper two scripts need is written once, in dom.js or the script both load (table-drawing.js, the map's
    context): the same body in two scripts (30 characters or more: `(n) => String(n).padStart(2, "0")` was the
    game clock's and the round timer's, now one script) fails here."""
    where: dict[str, set[str]] = {}
    for p in JS.glob("*.js"):
        for body in helper_bodies(p.read_text(encoding="utf-8")):
            if len(body) >= 30:
                where.setdefault(body, set()).add(p.name)
    twice = {body[:80]: sorted(names) for body, names in where.items() if len(names) > 1}
    assert twice == {}
    assert sum(map(len, where.values())) > 250  # the helpers were found (some 300)


def test_the_page_of_counters_script_only_swaps_the_server_s_panels() -> None:
    script = (JS / "counter-board.js").read_text(encoding="utf-8")
    assert len(script.splitlines()) <= 120
    assert "createElement(" not in script and "window.firestepDom." in script
    # Of dom.js it takes `read` alone: the panels are read, never built here.
    assert re.search(r"window\.firestepDom\.(?!read\()", script) is None


def test_each_page_loads_dom_js_before_a_script_that_takes_its_helpers() -> None:
    """dom.js comes with the pages whose scripts take `window.firestepDom`, before them, and not with every page
    (base.html): the lookup's first load stays under its 150 KB bar (tests/frontend/test_lookup.py)."""
    users = {
        p.name for p in JS.glob("*.js") if p.name != "dom.js" and "window.firestepDom" in p.read_text("utf-8")
    }
    loaded = re.compile(r"static_url\('js/([\w.-]+\.js)'\)")
    pages = JS.parents[1] / "templates"
    checked = 0
    for page in pages.glob("*.html"):
        scripts = loaded.findall(page.read_text(encoding="utf-8"))
        for name in users.intersection(scripts):
            assert "dom.js" in scripts[: scripts.index(name)], (page.name, name)
            checked += 1
    assert users and checked >= len(users), (users, checked)
    assert "dom.js" not in loaded.findall((pages / "base.html").read_text(encoding="utf-8"))


def test_a_tap_kept_offline_is_told_by_the_outbox_alone() -> None:
    """outbox.js says a tap is kept and, in that notice's place, what became of it once sent; a script's own "Kept
    on this device" stayed beside the outbox's word that the tap was refused (the newcomer pass, session 16)."""
    own = {p.name for p in JS.glob("*.js") if re.search(r"[\"'`]Kept on this device", p.read_text("utf-8"))}
    assert own == set()


def test_the_score_s_script_only_asks_for_the_server_s_panels() -> None:
    """The score's chip, dashboard, objective cards and end list are the server's (app/pages/score_panel.py):
    game-score.js builds none of them, reads no JSON, and stays a few lines saying when to read them."""
    script = (JS / "game-score.js").read_text(encoding="utf-8")
    assert len(script.splitlines()) <= 60
    assert not any(s in script for s in ("createElement(", "window.firestepDom", "fetch(", ".json()"))


# Issue 67: the hand-written scripts keep only what needs the browser, 4,000 lines at most in the end. Until then no
# change may add to them: the ceilings are today's counts, lowered as each panel goes to the server (a change that
# cuts a script lowers them with it). An element built in a script (h("...") or createElement) is a card or list
# drawn from JSON where the server could draw it.
SCRIPT_LINES_GOAL = 4_000
# 5,952 (session 13): the editor offers the objectives' new kinds and a secret objective's side (+4).
# 5,927 (session 14): the map and the editor draw the table with one frame (table-drawing.js), and a stand's
# "Move its company" and the turn's chip are the server's (app/pages/map_cards.py).
# Counted at the project's width from session 14 (lines run together had made the count fall while the
# scripts did not): 6,524 at the session's start; 6,327 once the editor's forces panel is the server's
# (scenario-forces.js, 236 lines and 19 elements built, gone); 6,312 once the editor's Export and Print are the
# page's links (scenario-file.js: no blob, no built anchor; 2 elements built fewer); 6,309 once the objectives
# are the draft's too (posted as they change, drawn again from its island; comments over the width rewrapped);
# 6,127 once the counter editor's form is read back and saved by the server (app/pages/club_save.py:
# counter-editor.js 246 -> 60 lines, 2 elements built gone); 6,124 with the deploy buttons named by side.
# 6,111 (session 15): the outbox's `now`, called by no script, gone; a play begun of the step its acts were read in.
# 6,000 (session 15): the scripts' comments cut to what they do and why (history dropped, blocks rewrapped).
# 5,525 (session 16): one fragment read (dom.js), the seal's check, the organiser's rows and the referee board's
# swaps and filters the server's, refusals worded by the server, one label placer and one override confirm;
# 5,447 and 13 elements built once the editor's file scripts share their words and its deploy list is the server's;
# 5,397 and 12 with the terrain kind's card the server's (app/pages/terrain_kinds.py).
# 5,317 (session 17): section banners and comments that restated their line gone (code unchanged, checked token
# by token), one "kept" notice (the outbox's) where five scripts each said it. 5,306 (session 18): the editor's
# map labels are the server's names (scenario-deploy.js's copy of app.pages.scenario_forces._labelled gone).
# 5,305 (session 19): a seat's event table page follows its result live (+2), the round timer's stop in a line.
# 5,154 (session 19, d67): the map's one read of the table for load and read-back, one write path each for a
# template and a stand, one ask of the server's cards, the model's one test of a template's version, the stands
# on an objective named by the server (app/pages/score_panel.py) rather than by table-objectives.js.
# 5,107 and 10 (session 19, c67): the stand's card carries its play (each roll's button its resolver, roller,
# target, order and step: no JSON island), its head greys Move and the formations' moves, holds the play's places.
# 4,866 (session 19, e67): the scenario editor's draft on the server is its document (readForm/writeForm, Save,
# Import and Start gone from scenario-editor.js and scenario-file.js: app/pages/scenario_saving.py).
# 4,840 and 9 (session 19, m67): the clock's panel read again by htmx (its hx-get), its "out of time" the
# server's, the lookup's resolver named by its link.
# 4,689 and 5 (session 19, o67): the editor's objectives' list and form and its Lay out the server's.
# 4,612 (session 20, form67): the deployment's counts and stands outside their zone the server's; the
# formation's handles placed with the map's shared boxes.
# 4,521 and 3 (session 20, ed67): the editor's terrain list, a piece's problem and the rules and readings
# offered the server's (and insideZone, unused once form67's counts were the server's, dropped).
# 4,431 (session 20, act67): the stand card's play state the server's, each control its next ask.
# 4,329 and 2 (session 20, panel67): a game's table saved by the server (app/pages/game_table_save.py), not
# the script; counter-board.js's morph gone (the changed panels swapped by htmx, typing kept by hx-preserve), the
# referee's counter entry the server's (app/pages/counter_entry.py), the club's place boxes grown by CSS, the
# objectives' tappable section and a template card's coverage heading CSS, the editor's prompts the page's.
# 4,245 (session 20, map67): the map's turn chip read by htmx, the tools it allows by map.css, a template's
# Turn and removal the server's writes, the model's state read-back judged by the server and its applies in one.
# 4,236 (session 20, arr2): the arrivals' shots laid the server's (each tap carrying the query it reads next,
# its apply the body it sends), the referee board's Undo a new roll ends deleted by the changes out of band; the
# map's frames that change no turn read no turn chip, and no coverage is read while no template is laid.
# 4,169 (session 20, net2): a refusal's "Why?" worded by the server (app/errors.py: `said_why`), the
# outbox's answer read in one place, a live frame parsed once, the lookup's stored sheet read once.
# 4,151 (session 20, ed2): the editor's piece panel (name, card, rename box, class) and its Line tool the
# server's.
# 4,100 (session 21, act67): the map's Draw and Enter a card (offered by map.css) and a stand's markers the
# page's writes (api-action.js); a roll's claim told by the live frame (app/pages/claim_notice.py).
# 4,082 (session 21, ed67): a terrain piece drawn, renamed, reclassed or deleted made by the server's terrain post.
# 4,043 (session 22, map67): the map's scripts' comments cut to fewer lines, one undraw/clear of a thing's layers.
# 4,026 and 0 (session 22): the round timer a face of game-clock.js (its `pad` and face were written twice), the
# referee board's fragment read dom.js's `readText`, a board label's words escaped markup, and `h` gone (unused).
# 3,996 (session 23, map26): the map's unit names its units list's (no island), a template's words the server's,
# the map's scripts started at once (firestep:map-ready was never heard), data nothing read gone.
# 3,963 (session 23, race67): ed67's cut again (the editor's terrain and objectives one set of drawing tools),
# the objectives' posts the script's from their section (ci149: a tap in the list lost behind a field's post).
# 3,959 (session 24, kbd92): the scenario editor's piece prompts the page's (each button's data-prompt), the map's
# scripts told through the page's one notice (table-act.js's own `say` gone).
# 3,955 (session 24, kbd92): the map by keyboard (+81), paid for by the map's scripts' bodies not wrapped in a
# start() called at once, their one card panel, a coverage tap told by the notice, the clock form the server's.
# 3,953 (session 25): a Move or a company's move armed ends as its card greys it (+3), paid for by the map's mode
# reading its card's Move once and a stand's formation found by one recursive test.
# 3,953 (stop 117): the whole table fitted beside a card stays fitted while a notice's row comes and goes (+8), a
# company's handles off every stand's tap target where they can be (+4), paid for by the table's box made by
# L.bounds, the map's toScreen (the tests' alone) made theirs (PAGE_POINT, IN_SIGHT), its drawnFor one expression.
WIDTH = 110
SCRIPT_LINES_CEILING = 3_953
ELEMENTS_BUILT_CEILING = 0
BUILT = re.compile(r"""\bh\(\s*["']|createElement\(""")


def lines_at_width(script: str) -> int:
    """A script's lines as written at the project's width (ruff's line-length, 110): a line of 300 characters
    counts as three, so no script shrinks toward its goal by lines run together."""
    return sum(max(1, -(-len(line) // WIDTH)) for line in script.splitlines())


def test_the_scripts_only_shrink_toward_their_goal() -> None:
    scripts = {p.name: p.read_text(encoding="utf-8") for p in JS.glob("*.js")}
    lines = sum(lines_at_width(s) for s in scripts.values())
    built = {name: len(BUILT.findall(s)) for name, s in scripts.items()}
    assert lines <= SCRIPT_LINES_CEILING, f"{lines} lines of script (goal {SCRIPT_LINES_GOAL})"
    assert sum(built.values()) <= ELEMENTS_BUILT_CEILING, sorted(built.items(), key=lambda x: -x[1])[:5]
