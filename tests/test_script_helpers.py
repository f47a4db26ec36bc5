"""The page scripts' shared helpers are written once (issue 67): `h` (an element built) and `humanise` (an
identifier in words) in frontend/static/js/dom.js, every other script taking them from `window.firestepDom`; and
the page of counters' script stays a few lines that swap the server's panels (app/pages/counters_panel.py), never
building an element of its own."""

from __future__ import annotations

import re
from pathlib import Path

JS = Path(__file__).resolve().parents[1] / "frontend/static/js"
DEFINED = re.compile(r"\b(?:const|let|var|function)\s+(h|humanise)\b\s*(?:=\s*(?:\([^)]*\)|\w+)\s*=>|\()")


def test_h_and_humanise_are_each_defined_once() -> None:
    found = {(p.name, m) for p in JS.glob("*.js") for m in DEFINED.findall(p.read_text(encoding="utf-8"))}
    assert found == {("dom.js", "h"), ("dom.js", "humanise")}


def test_the_page_of_counters_script_only_swaps_the_server_s_panels() -> None:
    script = (JS / "counter-board.js").read_text(encoding="utf-8")
    assert len(script.splitlines()) <= 120
    assert "createElement(" not in script and "window.firestepDom" not in script
