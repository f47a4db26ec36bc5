"""One palette (issue 92): no colour is written out in the stylesheets but as a custom property of app.css's theme
blocks, so a page that uses the properties is drawn in both themes. Each stylesheet's declarations are read as
text (tests/palette.py); a template drawn in the app's pages (it extends base.html) writes none in its styles."""

from __future__ import annotations

import re

import pytest

from tests.palette import COLOUR, CSS, ROOT, contrast, declarations, in_theme_block, palette, resolved

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
        for path in sorted(TEMPLATES.rglob("*.html"))
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


def test_the_night_palette_names_only_the_day_s_properties() -> None:
    """night.css gives the day's names other values; a name of its own would be a colour no day page has."""
    assert set(palette("night")) == set(palette("day"))


# A die's face and a lookup's result, as each rule draws it (its colour on its background; what it leaves is the
# page's ink on its card), read at WCAG's enhanced contrast, 7:1, in both themes (issue 92).
DICE_AND_RESULTS = {
    "app.css": (".face span", ".face input:checked + span", ".outcome", ".outcome .kv dt"),
    "map.css": (".play-dice button", '.play-dice button[aria-pressed="true"]'),
    "counters.css": (".counter-card .die", '.counter-card .die[aria-pressed="true"]'),
}


@pytest.mark.parametrize("theme", ["day", "night"])
def test_dice_faces_and_results_read_at_7_to_1(theme: str) -> None:
    colours = palette(theme)
    drawn = {}
    for file, selectors in DICE_AND_RESULTS.items():
        rules = declarations(CSS / file)
        for selector in selectors:
            said = {d.prop: d.value for d in rules if d.within == (selector,)}
            assert said or selector == ".outcome", f"{file}: no rule {selector}"
            ink = resolved(said.get("color", "var(--ink)"), colours)
            ground = resolved(said.get("background", "var(--card)"), colours)
            drawn[selector] = round(contrast(ink, ground), 2)
    assert {s: c for s, c in drawn.items() if c < 7} == {}, drawn


# What is drawn on a ground that is the same in both themes (a join card's paper, the table's cloth), with the
# contrast WCAG 2.2 asks of it: 4.5:1 for words, 3:1 for a component's state (the table's active stand's ring).
ON_FIXED_GROUNDS = (
    ("club.css", ".join-card", "color", "var(--qr-paper)", 4.5),
    ("map.css", ".table-map:focus-visible .map-stand[data-active]", "outline", "var(--table-cloth)", 3.0),
)


@pytest.mark.parametrize("theme", ["day", "night"])
def test_what_is_drawn_on_the_paper_and_the_cloth_reads_in_both_themes(theme: str) -> None:
    """The newcomer's pass at night: a join card's words were the night's light ink on its white paper, the active
    stand's ring the night's light ink on the light cloth (1.9:1)."""
    colours = palette(theme)
    drawn = {}
    for file, selector, prop, ground, least in ON_FIXED_GROUNDS:
        (value,) = [d.value for d in declarations(CSS / file) if d.within == (selector,) and d.prop == prop]
        ink = resolved(value, colours).split()[-1]  # an outline's colour is its last word
        drawn[selector] = round(contrast(ink, resolved(ground, colours)), 2), least
    assert {s: c for s, (c, least) in drawn.items() if c < least} == {}, drawn


def test_a_playsheet_at_night_is_in_the_night_palette() -> None:
    """A playsheet's print view is a page of its own (playsheets/templates/print.css: served and kept offline
    whole, with no stylesheet of the app): its night on a screen names night.css's properties, value for value,
    so a change to the palette that leaves it behind fails here."""
    text = (ROOT / "playsheets" / "templates" / "print.css").read_text(encoding="utf-8")
    block = re.search(r"@media screen and \(prefers-color-scheme: dark\) \{\s*:root \{(.*?)\}", text, re.S)
    assert block is not None, "print.css has no night for the screen"
    own = dict(re.findall(r"(--[\w-]+):\s*([^;]+);", block[1]))
    night = palette("night")
    assert own and {name: night.get(name) for name in own} == own
