"""Every badge reads at WCAG 2.2 AA contrast (4.5:1) in the light theme and the dark: the newcomer pass of session
16 found the fire plan's "arrived" badge #1a1a1a on #2d3a35, 1.46:1 (app.css's .badge took the theme's ink, dark
in the light theme). Read from the stylesheet: a badge's colour and background are fixed where it sets both, each
a property of the palette (tests/palette.py), read in each theme."""

from __future__ import annotations

import re

import pytest

from tests.palette import APP_CSS, VAR, contrast, palette

RULE = re.compile(r"(\.badge[^{]*)\{([^}]*)\}")


@pytest.mark.parametrize("theme", ["day", "night"])
def test_every_badge_with_its_own_background_reads_at_aa_contrast(theme: str) -> None:
    checked = {}
    colours = palette(theme)
    for selector, written in RULE.findall(APP_CSS.read_text(encoding="utf-8")):
        body = VAR.sub(lambda m: colours.get(m[1], m[0]), written)
        background = re.search(r"background:\s*(#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?)\b", body)
        colour = re.search(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?)\b", body)
        if background:
            assert colour, f"{selector.strip()}: a background of its own and the theme's ink"
            checked[selector.strip()] = contrast(colour[1], background[1])
    assert ".badge" in checked and len(checked) >= 4
    assert {s: round(c, 2) for s, c in checked.items() if c < 4.5} == {}
