"""A playsheet as its rule set declares it: sections of printable blocks (tables, lists, notes, groups), each with
the printed lines its values come from; `playsheets/` renders them, knowing no rule set (issue 66).

A rule set played as a game answers its sheet from `GameRules.playsheet` (by default, what its book already
declares: its units, its turn's steps, its lookups and how the game is won); a section may also name datasets of
the rule set that the renderer prints whole, and the lookups that read their numbers from it. Plain data, no
I/O: the blocks and the way a value prints (`fmt`, `label`) are the renderer's as well as the rule sets'.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

SOURCE_KEYS = frozenset({"source", "sources", "citation", "citations", "cite"})


def fmt(value: Any) -> str:
    """How a data value is printed. Every cell of every table goes through here (tests use it too)."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, Mapping):
        return "; ".join(f"{label(k)}: {fmt(v)}" for k, v in value.items() if k not in SOURCE_KEYS)
    if isinstance(value, list | tuple):
        return ", ".join(fmt(v) for v in value)
    return str(value)


def label(key: Any) -> str:
    """A data key as a heading: 'rifle-company' -> 'Rifle company'. Keys already in capitals stay."""
    text = str(key).replace("_", " ").replace("-", " ").strip()
    if not text or text != text.lower():
        return text
    return text[0].upper() + text[1:]


@dataclass
class Table:
    columns: list[str]
    rows: list[list[str]]
    caption: str = ""
    # The first column names the row (printed bold); False for plain record tables.
    row_headers: bool = True

    kind: str = "table"


@dataclass
class Bullets:
    items: list[str]
    caption: str = ""
    columns: int = 1  # printed in this many columns (long lists in full-width sections)
    kind: str = "bullets"


@dataclass
class Note:
    text: str
    source: bool = False
    kind: str = "note"


@dataclass
class Group:
    title: str
    blocks: list[Block] = field(default_factory=list)
    kind: str = "group"


Block = Table | Bullets | Note | Group


@dataclass(frozen=True)
class SheetSection:
    """A section of the sheet: its blocks (each value with its printed line in `sources`), on page `page` (0 or
    1), full width when `wide`. `datasets`: the rule set's datasets printed after the blocks, whole, their
    citations joining `sources`; `periods`: the war periods whose sheet holds it (none: every sheet);
    `resolvers`: the lookups that read their numbers from it (the lookup sheet shows it beside them)."""

    id: str
    title: str
    blocks: Sequence[Block] = ()
    sources: Sequence[str] = ()
    wide: bool = False
    page: int = 0
    datasets: tuple[str, ...] = ()
    periods: tuple[str, ...] = ()
    resolvers: tuple[str, ...] = ()


# -- a printed template kit (`Playsheet.kit`): pieces at 1:1 on the printable area both papers share --------------
Orientation = Literal["portrait", "landscape"]

# The printable area shared by both papers: Letter is 215.9 x 279.4 mm, A4 210 x 297, margins 8 mm.
MARGIN_MM = 8.0
AREA_PORTRAIT_MM = (210.0 - 2 * MARGIN_MM, 279.4 - 2 * MARGIN_MM)
AREA_LANDSCAPE_MM = (279.4 - 2 * MARGIN_MM, 210.0 - 2 * MARGIN_MM)
TOP_MM = 26.0  # below the page title and the calibration bar


@dataclass(frozen=True)
class KitPiece:
    id: str
    title: str
    size_text: str
    x_mm: float
    y_mm: float
    w_mm: float
    h_mm: float
    colour: str  # the cut line; the fill is a pale tint of it
    tint: str
    source: str
    note: str = ""
    # Marks across a long strip: (offset from its left end in mm, label).
    marks: tuple[tuple[float, str], ...] = ()
    # A dashed area printed against the piece's left edge but not part of it (the barrage's danger area
    # behind the band): (depth in mm, label).
    apron: tuple[float, str] | None = None
    note_w_mm: float = 60.0  # width of the source note printed under the piece


@dataclass(frozen=True)
class KitPage:
    orientation: Orientation
    title: str
    pieces: tuple[KitPiece, ...]

    @property
    def area_mm(self) -> tuple[float, float]:
        return AREA_PORTRAIT_MM if self.orientation == "portrait" else AREA_LANDSCAPE_MM


@dataclass(frozen=True)
class Playsheet:
    """A rule set's sheet, its sections in print order. `documents`: a cited text's short name on the sheet
        (`"Rule book"` for the rule book's full title), which merges a section's citations per document; `kit`: its
    template kit's pages."""

    sections: tuple[SheetSection, ...]
    documents: Mapping[str, str] = field(default_factory=dict)
    # Its area templates printed at 1:1 to cut out (none: the rule set prints no template kit).
    kit: tuple[KitPage, ...] = ()

    def pages(self, period: str | None = None) -> list[list[SheetSection]]:
        """The sections of `period`'s sheet by page (two at most)."""
        pages: list[list[SheetSection]] = [[], []]
        for s in self.sections:
            if not s.periods or period in s.periods:
                pages[s.page].append(s)
        return pages


def short_sources(sources: list[str], documents: Mapping[str, str]) -> list[str]:
    """Citations shortened for print by `documents` ('Playsheet: X', 'Rule book: X'), merged per document."""
    by_doc: dict[str, list[str]] = {}
    for src in sources:
        for part in src.split("; "):
            doc, _, where = part.partition(": ")
            entries = by_doc.setdefault(documents.get(doc, doc), [])
            if where and where not in entries:
                entries.append(where)
    return [f"{doc}: {'; '.join(w)}" if w else doc for doc, w in by_doc.items()]
