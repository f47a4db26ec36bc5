"""The pages' palette as the tests read it (issue 92): every colour is a custom property declared in app.css's
theme blocks (`:root`, and the dark palette's), and every other rule names one with var(). Plain parsing of the
stylesheets, no browser: each declaration with the selectors and at-rules it sits in."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CSS = ROOT / "frontend" / "static" / "css"
APP_CSS = CSS / "app.css"
NIGHT_CSS = CSS / "night.css"  # the night palette: the same names, their values for a dim room
# A colour written out: hex, a colour function, or a named colour standing alone (not white-space, blackout...).
NAMED = (
    "white|black|red|green|blue|yellow|orange|purple|gray|grey|silver|maroon|navy|teal|olive|lime|aqua|fuchsia"
    "|magenta|cyan|pink|brown|gold"
)
COLOUR = re.compile(
    rf"#[0-9a-fA-F]{{3,8}}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(|(?<![-\w])(?:{NAMED})(?![-\w])",
    re.I,
)
VAR = re.compile(r"var\(\s*(--[\w-]+)\s*\)")


@dataclass(frozen=True)
class Declaration:
    file: str
    within: tuple[str, ...]  # the at-rules and the selector, outermost first
    prop: str
    value: str


def declarations(path: Path) -> list[Declaration]:
    text = re.sub(r"/\*.*?\*/", " ", path.read_text(encoding="utf-8"), flags=re.S)
    found: list[Declaration] = []
    stack: list[str] = []
    start = 0
    for at, c in enumerate(text):
        if c not in "{};":
            continue
        piece = " ".join(text[start:at].split())
        if c == "{":
            stack.append(piece)
        elif ":" in piece and stack:
            prop, value = piece.split(":", 1)
            found.append(Declaration(path.name, tuple(stack), prop.strip(), value.strip()))
        if c == "}" and stack:
            stack.pop()
        start = at + 1
    return found


def in_theme_block(d: Declaration) -> bool:
    """A property of a palette: declared on the root of app.css (the day's) or of night.css (the night's)."""
    return d.file in (APP_CSS.name, NIGHT_CSS.name) and d.prop.startswith("--") and d.within == (":root",)


def palette(theme: str = "day") -> dict[str, str]:
    """The palette's properties in `theme` ("day": app.css's root; "night": those night.css's root gives other
    values), each var() resolved."""
    values: dict[str, str] = {}
    for path in (APP_CSS, NIGHT_CSS) if theme == "night" else (APP_CSS,):
        values |= {
            d.prop: d.value for d in declarations(path) if d.within == (":root",) and d.prop.startswith("--")
        }
    return {name: resolved(value, values) for name, value in values.items()}


def resolved(value: str, values: dict[str, str]) -> str:
    """`value` with each var() naming one of `values` replaced by what it names (a property of a property too)."""
    for _ in range(4):
        value = VAR.sub(lambda m: values.get(m[1], m[0]), value)
    return value


def luminance(hex_colour: str) -> float:
    if len(hex_colour) == 4:  # #fff
        hex_colour = "#" + "".join(c * 2 for c in hex_colour[1:])
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)
