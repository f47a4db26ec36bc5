"""PDF inspection for the sheet tests: poppler's pdftotext, pdfinfo and pdftoppm, and WeasyPrint's boxes."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
PDFTOTEXT = shutil.which("pdftotext")


def _run(*args: str, stdin: bytes | None = None) -> bytes:
    return subprocess.run(args, input=stdin, capture_output=True, check=True).stdout


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
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"{name}.pdf").write_bytes(pdf)
    out = []
    for i, img in enumerate(rasterise(pdf, 60), start=1):
        path = ARTIFACTS / f"{name}-{i}.png"
        img.save(path)
        out.append(path)
    return out


def font_sizes_pt(html: str) -> set[float]:
    """Font sizes (pt) of every run of text WeasyPrint laid out for this HTML."""
    import weasyprint
    from weasyprint.formatting_structure import boxes

    doc = weasyprint.HTML(string=html).render()
    sizes: set[float] = set()

    def walk(box: object) -> None:
        if isinstance(box, boxes.TextBox) and box.text.strip():
            sizes.add(round(box.style["font_size"] * 72 / 96, 2))
        for child in getattr(box, "children", []) or []:
            walk(child)

    for page in doc.pages:
        walk(page._page_box)
    return sizes


def bbox(img: Image.Image, colour: str) -> tuple[int, int, int, int] | None:
    """The bounding box (left, top, right, bottom; right and bottom exclusive) of the pixels of `colour`."""
    target = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)], dtype=np.uint8)
    mask = np.all(np.asarray(img) == target, axis=2)
    ys, xs = np.nonzero(mask)
    if xs.size == 0:
        return None
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1
