"""PDF inspection for the sheet tests: poppler's pdftotext, pdfinfo and pdftoppm, and WeasyPrint's boxes."""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from playsheets.render import render_html, ruleset_sheet_html
from tests.conftest import ARTIFACTS

PDFTOTEXT = shutil.which("pdftotext")


def _run(*args: str, stdin: bytes | None = None) -> bytes:
    return subprocess.run(args, input=stdin, capture_output=True, check=True).stdout


# A PDF's text and an HTML's layout are read once per test session (each xdist worker): many tests read the
# same sheet, and reading it again proves nothing new.
@functools.lru_cache(maxsize=64)
def text(pdf: bytes, layout: bool = True) -> str:
    """-layout keeps each table row on its line; otherwise -raw: the order the text was drawn in, which for
    WeasyPrint is the document's order (a wrapped cell reads whole, columns do not interleave)."""
    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(pdf)
        f.flush()
        return _run("pdftotext", "-layout" if layout else "-raw", f.name, "-").decode("utf-8")


def page_count(pdf: bytes) -> int:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(pdf)
        f.flush()
        info = _run("pdfinfo", f.name).decode("utf-8")
    m = re.search(r"^Pages:\s+(\d+)", info, re.M)
    assert m, info
    return int(m.group(1))


def page_size_pt(pdf: bytes) -> list[tuple[float, float]]:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(pdf)
        f.flush()
        info = _run("pdfinfo", "-f", "1", "-l", "99", f.name).decode("utf-8")
    return [(float(w), float(h)) for w, h in re.findall(r"size:\s+([\d.]+) x ([\d.]+) pts", info)]


def rasterise(pdf: bytes, dpi: int, crisp: bool = False) -> list[Image.Image]:
    """Every page as an RGB image at `dpi` (crisp: no anti-aliasing, so colours stay exact)."""
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "in.pdf"
        src.write_bytes(pdf)
        aa = ["-aa", "no", "-aaVector", "no"] if crisp else []
        _run("pdftoppm", "-r", str(dpi), *aa, "-png", str(src), str(Path(d) / "p"))
        return [Image.open(p).convert("RGB") for p in sorted(Path(d).glob("p-*.png"))]


def save_artifacts(pdf: bytes, name: str) -> list[Path]:
    """PNG renders of each page at 60 dpi under tests/artifacts/ for a person to look at."""
    (ARTIFACTS / f"{name}.pdf").write_bytes(pdf)
    out = []
    for i, img in enumerate(rasterise(pdf, 60), start=1):
        path = ARTIFACTS / f"{name}-{i}.png"
        img.save(path)
        out.append(path)
    return out


def font_sizes_pt(html: str) -> set[float]:
    """Font sizes (pt) of every run of text WeasyPrint laid out for this HTML."""
    from weasyprint.formatting_structure import boxes

    return {
        round(box.style["font_size"] * 72 / 96, 2)
        for page in _laid_out(html)
        for box in _walk(page)
        if isinstance(box, boxes.TextBox) and box.text.strip()
    }


def bbox(img: Image.Image, colour: str) -> tuple[int, int, int, int] | None:
    """The bounding box (left, top, right, bottom; right and bottom exclusive) of the pixels of `colour`."""
    target = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)], dtype=np.uint8)
    mask = np.all(np.asarray(img) == target, axis=2)
    ys, xs = np.nonzero(mask)
    if xs.size == 0:
        return None
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


@functools.lru_cache(maxsize=32)
def document(html: str) -> Any:
    """WeasyPrint's laid-out document for this HTML, as playsheets.render prints it (its base URL too): a
    test that checks the layout and one that reads the PDF share one layout."""
    import weasyprint

    from playsheets.render import TEMPLATES_DIR

    return weasyprint.HTML(string=html, base_url=str(TEMPLATES_DIR)).render()


def _laid_out(html: str) -> list[object]:
    """WeasyPrint's page boxes for this HTML (the layout write_pdf prints)."""
    return [page._page_box for page in document(html).pages]


def _walk(box: object) -> Iterator[object]:
    yield box
    for child in getattr(box, "children", []) or []:
        yield from _walk(child)


def split_tables(html: str) -> list[str]:
    """Tables laid out in more than one piece (a column or page break inside them), named by their first cell.

    A table broken across columns or pages is laid out as one box per piece, all for the same element."""
    from weasyprint.formatting_structure import boxes

    pieces: dict[int, list[Any]] = {}
    for page in _laid_out(html):
        for box in _walk(page):
            if isinstance(box, boxes.TableBox):
                pieces.setdefault(id(box.element), []).append(box.element)
    split = [elements[0] for elements in pieces.values() if len(elements) > 1]
    return ["".join(next(e for e in t.iter() if e.tag in ("th", "td")).itertext()).strip() for t in split]


def column_bottoms(html: str, page: int = 0) -> list[tuple[float, list[float]]]:
    """For each two-column run (`div.cols`) on a page: the page's height and where each column used ends (the
    bottom of the lowest section piece laid out in it), left to right, in CSS px."""
    from weasyprint.formatting_structure import boxes

    page_box = _laid_out(html)[page]
    out = []
    runs: set[int] = set()
    for box in _walk(page_box):
        element = getattr(box, "element", None)
        if (
            not isinstance(box, boxes.BlockBox)
            or element is None
            or "cols" not in element.get("class", "").split()
        ):
            continue
        if id(element) in runs:
            continue  # one of its columns: a box of the same element inside the run's box
        runs.add(id(element))
        bottoms: dict[float, float] = {}
        for inner in _walk(box):
            if isinstance(inner, boxes.BlockBox) and inner.element_tag == "section":
                x = round(inner.position_x)
                bottoms[x] = max(bottoms.get(x, 0.0), inner.position_y + inner.margin_height())
        out.append((page_box.height, [bottoms[x] for x in sorted(bottoms)]))  # type: ignore[attr-defined]
    return out


@functools.cache
def _sheet_html(period: str, paper: str, variants: tuple[tuple[str, str], ...]) -> str:
    return render_html(period, paper, dict(variants))


def sheet_html(period: str, paper: str, variants: Mapping[str, str] | None = None) -> str:
    return _sheet_html(period, paper, tuple(sorted((variants or {}).items())))


@functools.cache
def _sheet_pdf(period: str, paper: str, variants: tuple[tuple[str, str], ...]) -> bytes:
    # render_pdf's own steps (render_html, then WeasyPrint's layout and write_pdf), the layout shared with the
    # layout checks; tests/playsheets/test_routes.py reads render_pdf's answer over HTTP.
    data = document(_sheet_html(period, paper, variants)).write_pdf()
    assert isinstance(data, bytes)
    return data


def sheet_pdf(period: str, paper: str, variants: Mapping[str, str] | None = None) -> bytes:
    """The period's sheet as a PDF, rendered once per test session for each paper and set of readings."""
    return _sheet_pdf(period, paper, tuple(sorted((variants or {}).items())))


@functools.cache
def _ruleset_html(ruleset: str, paper: str, variants: tuple[tuple[str, str], ...]) -> str:
    return ruleset_sheet_html(ruleset, paper, dict(variants))


def ruleset_html(ruleset: str, paper: str, variants: Mapping[str, str] | None = None) -> str:
    return _ruleset_html(ruleset, paper, tuple(sorted((variants or {}).items())))


@functools.cache
def _ruleset_pdf(ruleset: str, paper: str, variants: tuple[tuple[str, str], ...]) -> bytes:
    data = document(_ruleset_html(ruleset, paper, variants)).write_pdf()
    assert isinstance(data, bytes)
    return data


def ruleset_pdf(ruleset: str, paper: str, variants: Mapping[str, str] | None = None) -> bytes:
    """A rule set's own sheet as a PDF, rendered once per test session for each paper and set of readings."""
    return _ruleset_pdf(ruleset, paper, tuple(sorted((variants or {}).items())))
