"""QR codes: inline SVG for the pages and the join-card sheets (zxing-cpp's writer), text for the terminal
(segno)."""

from __future__ import annotations

import io
import re
from html import escape

import segno
import zxingcpp

# What the page's SVG takes of zxing-cpp's (its writer, zint, writes a whole document): the code's size in modules,
# its quiet zone in it, and the one path of its dark modules.
_SIZE = re.compile(r'<svg width="(\d+)" height="(\d+)"')
_DARK = re.compile(r'<path d="([^"]+)"')


def svg(url: str, title: str) -> str:
    """An inline <svg> of `url`, named `title` for screen readers; black on white whatever the theme (a
    camera reads dark modules on a light ground), sized by the page's CSS. Drawn by zxing-cpp: segno took 4 ms a
    code, 1.3 s of CPU for a round's join-card sheet of 200 tables (400 codes; issue 93), zxing-cpp a quarter of
    it; the dark modules its path, set in an SVG of the page's own (a title, a class, no fixed size)."""
    drawn = zxingcpp.create_barcode(url, zxingcpp.BarcodeFormat.QRCode, ec_level="M").to_svg()
    size, dark = _SIZE.search(drawn), _DARK.search(drawn)
    if size is None or dark is None:
        raise RuntimeError("zxing-cpp's SVG is not as this reads it: a size and one path of dark modules")
    width, height = size.groups()
    return (
        f'<svg role="img" class="qr" viewBox="0 0 {width} {height}" shape-rendering="crispEdges" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>'
        f'<rect width="{width}" height="{height}" fill="#fff"/><path fill="#000" d="{dark.group(1)}"/></svg>'
    )


def terminal_qr(url: str) -> str:
    """`url` as a QR code in the terminal (two modules a character), for the laptop's screen at start."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()
