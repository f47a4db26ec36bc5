"""One palette (issue 92): no colour is written out in the stylesheets but as a custom property of app.css's theme
blocks, so a page that uses the properties is drawn in both themes. Each stylesheet's declarations are read as
text (tests/palette.py); a template drawn in the app's pages (it extends base.html) writes none in its styles."""

from __future__ import annotations

import re

import pytest

from tests.palette import COLOUR, CSS, ROOT, declarations, in_theme_block, palette

pytestmark = pytest.mark.rules

TEMPLATES = ROOT / "frontend" / "templates"
SET_BY_SCRIPT = re.compile(r"setProperty\(\"(--[\w-]+)\"")
STYLES = re.compile(r"<style>(.*?)</style>|style=\"([^\"]*)\"", re.S)


def test_no_colour_is_written_outside_the_palette() -> None:
    written = [
        f"{d.file}: {d.within[-1]} {{ {d.prop}: {d.value} }}"
        for path in sorted(CSS.glob("*.css"))
        for d in declarations(path)
        if COLOUR.search(d.value) and not in_theme_block(d)
    ]
    assert written == []


def test_no_page_template_writes_a_colour_in_its_styles() -> None:
    """The print views (standalone pages, black on white for paper: no stylesheet of the app) excepted."""
    written = [
        f"{path.name}: {m.group().strip()[:80]}"
        for path in sorted(TEMPLATES.glob("*.html"))
        if '{% extends "base.html" %}' in (text := path.read_text(encoding="utf-8"))
        or path.name.startswith("_")
        for m in STYLES.finditer(text)
        if COLOUR.search(m.group())
    ]
    assert written == []


def test_every_property_used_is_declared() -> None:
    """A var() naming no property of the palette (a typo) would draw nothing: each is declared in :root."""
    declared = set(palette())
    used = {
        name
        for path in sorted(CSS.glob("*.css"))
        for d in declarations(path)
        for name in re.findall(r"var\(\s*(--[\w-]+)", d.value)
    }
    local = {
        d.prop for path in sorted(CSS.glob("*.css")) for d in declarations(path) if d.prop.startswith("--")
    }
    scripted = {  # set on an element by a script (net-status.js: where the notice may sit)
        name
        for js in (ROOT / "frontend/static/js").glob("*.js")
        for name in SET_BY_SCRIPT.findall(js.read_text())
    }
    assert used - declared - local - scripted == set()
