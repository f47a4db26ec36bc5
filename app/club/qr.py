"""QR codes: inline SVG for the pages and the join-card sheets (zxing-cpp's writer), text for the terminal
(segno)."""

from __future__ import annotations

import io
from html import escape

import numpy as np
import segno
import zxingcpp

QUIET = 4  # modules of light margin round the code, as the QR standard asks for a camera to find it
_DECIMAL = tuple(str(i) for i in range(177 + 2 * QUIET + 1))  # up to the largest code's width (version 40)


def svg(url: str, title: str) -> str:
    """An inline <svg> of `url`, named `title` for screen readers; black on white whatever the theme (a
    camera reads dark modules on a light ground), sized by the page's CSS. Encoded by zxing-cpp (segno took 4 ms
    a code, 1.3 s of CPU for a round's join-card sheet of 200 tables: issue 93), its modules drawn here as one
    path of each row's dark runs: zxing-cpp's own SVG (zint's document, then read apart) took twice as long as
    this, and 800 codes, a sheet of 400 tables, were 1.1 s of CPU with it."""
    code = zxingcpp.create_barcode(url, zxingcpp.BarcodeFormat.QRCode, ec_level="M")
    dark = np.asarray(code.to_image(scale=1, add_quiet_zones=False)) == 0
    size = dark.shape[1] + 2 * QUIET
    # Each row's dark runs, from where a light module turns dark to where it turns light again (the row padded
    # light at both ends), in reading order.
    edges = np.diff(np.pad(dark, ((0, 0), (1, 1))).astype(np.int8), axis=1)
    rows, starts = np.nonzero(edges == 1)
    runs = (np.nonzero(edges == -1)[1] - starts).tolist()
    d = _DECIMAL  # the numbers as text, looked up: each formatted anew was half the path's time
    path = "".join(
        [
            f"M{d[x]} {d[y]}h{d[n]}v1h-{d[n]}Z"
            for y, x, n in zip((rows + QUIET).tolist(), (starts + QUIET).tolist(), runs, strict=True)
        ]
    )
    return (
        f'<svg role="img" class="qr" viewBox="0 0 {size} {size}" shape-rendering="crispEdges" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>'
        f'<rect width="{size}" height="{size}" fill="#fff"/><path fill="#000" d="{path}"/></svg>'
    )


def terminal_qr(url: str) -> str:
    """`url` as a QR code in the terminal (two modules a character), for the laptop's screen at start."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()
