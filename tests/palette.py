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


THEME_SELECTORS = (":root", ".theme-dark")


def in_theme_block(d: Declaration) -> bool:
    """A custom property of app.css's palette: declared on the root (or the referee's .theme-dark), perhaps
    within a media query."""
    return d.file == "app.css" and d.prop.startswith("--") and d.within[-1].startswith(THEME_SELECTORS)


def palette(*within: str) -> dict[str, str]:
    """The properties app.css's root declares outside any media query (and, with `within`, those the named
    block adds: a selector or an at-rule), each var() resolved."""
    values: dict[str, str] = {}
    for d in declarations(APP_CSS):
        if not d.prop.startswith("--"):
            continue
        if d.within == (":root",) or (within and d.within == within):
            values[d.prop] = d.value
    return {name: resolved(value, values) for name, value in values.items()}


def resolved(value: str, values: dict[str, str]) -> str:
    """`value` with each var() naming one of `values` replaced by what it names (a property of a property too)."""
    for _ in range(4):
        value = VAR.sub(lambda m: values.get(m[1], m[0]), value)
    return value
