"""QR codes (segno): inline SVG for the pages and the join-card sheet, text for the terminal."""

from __future__ import annotations

import io

import segno

# The data mask every code is drawn with: any of the eight is read by every reader, and trying each to keep
# the one the standard's penalty prefers was four fifths of the time (5 ms a code: a round's join-card sheet of
# 200 tables, 400 codes, took 2 s of CPU; issue 63).
MASK = 0


def svg(url: str, title: str, scale: int = 6) -> str:
    """An inline <svg> of `url`, named `title` for screen readers; black on white whatever the theme (a
    camera reads dark modules on a light ground)."""
    code = segno.make(url, error="m", mask=MASK)
    inline = code.svg_inline(
        scale=scale, title=title, dark="#000", light="#fff", svgclass="qr", lineclass=None, omitsize=True
    )
    return str(inline).replace("<svg ", '<svg role="img" ', 1)


def terminal_qr(url: str) -> str:
    """`url` as a QR code in the terminal (two modules a character), for the laptop's screen at start."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()
