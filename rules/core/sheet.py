"""A playsheet as its rule set declares it: sections of printable blocks (tables, lists, notes, groups), each with
the printed lines its values come from; `playsheets/` renders them, knowing no rule set (issue 66).

A rule set played as a game answers its sheet from `GameRules.playsheet` (by default, what its book already
declares: its units, its turn's steps, its lookups and how the game is won); a section may also name datasets of
the rule set that the renderer prints whole, and the lookups that read their numbers from it. Plain data, no
I/O: the blocks and the way a value prints (`fmt`, `label`) are the renderer's as well as the rule sets'.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
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
# How a rule set's view prints one of its datasets (its data with the default readings, the period).
View = Callable[[Any, str], list[Block]]


# -- any dataset (JSON-shaped: dicts, lists, scalars) as blocks, knowing no table's layout: a list of flat records
# a table with a column per key, a mapping of flat records a matrix, a flat mapping a two-column table, deeper
# nesting sub-headings; citation keys (source, sources, citation) small source lines.
def is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def is_flat(value: Any) -> bool:
    """A value that fits one table cell: a scalar or a short list of scalars."""
    return is_scalar(value) or (
        isinstance(value, list | tuple) and len(value) <= 6 and all(is_scalar(v) for v in value)
    )


def _sources(value: Any) -> list[Note]:
    if value in (None, "", [], ()):
        return []
    text = "; ".join(fmt(v) for v in value) if isinstance(value, list | tuple) else fmt(value)
    return [Note(text, source=True)]


def _split(data: Mapping[str, Any]) -> tuple[dict[str, Any], list[Note]]:
    body = {k: v for k, v in data.items() if k not in SOURCE_KEYS}
    notes = [n for k in SOURCE_KEYS if k in data for n in _sources(data[k])]
    return body, notes


def _record_table(records: Sequence[Mapping[str, Any]], caption: str) -> tuple[Table, list[Note]]:
    columns: list[str] = []
    for r in records:
        for k in r:
            if k not in columns and k not in SOURCE_KEYS:
                columns.append(k)
    rows = [[fmt(r.get(c)) if c in r else "" for c in columns] for r in records]
    sources: list[str] = []
    for r in records:
        for k in SOURCE_KEYS:
            if k in r:
                for n in _sources(r[k]):
                    if n.text not in sources:
                        sources.append(n.text)
    # A record table reads as a table whose first column names the row when that column is text.
    first_is_name = bool(rows) and not all(cell.lstrip("+-").isdigit() for cell in (row[0] for row in rows))
    return (
        Table([label(c) for c in columns], rows, caption, row_headers=first_is_name),
        [Note(s, source=True) for s in sources],
    )


def blocks(data: Any, caption: str = "") -> list[Block]:
    """Printable blocks for a dataset value, in the data's own order."""
    if is_scalar(data):
        return [Note(fmt(data))]
    if isinstance(data, list | tuple):
        if all(is_scalar(v) for v in data):
            return [Bullets([fmt(v) for v in data], caption)]
        if all(isinstance(v, Mapping) for v in data):
            if all(is_flat(v) for r in data for k, v in r.items() if k not in SOURCE_KEYS):
                table, notes = _record_table(data, caption)
                return [table, *notes]
            # Records with nested parts: one group per record, titled by its first text field.
            out: list[Block] = []
            for i, record in enumerate(data):
                body, notes = _split(record)
                title = next((fmt(v) for v in body.values() if isinstance(v, str)), f"{caption} {i + 1}")
                out.append(Group(title, [*blocks(body), *notes]))
            return [Group(caption, out)] if caption else out
        return [Bullets([fmt(v) for v in data], caption)]
    if isinstance(data, Mapping):
        body, notes = _split(data)
        if not body:
            return list[Block](notes)
        if all(is_flat(v) for v in body.values()):
            rows = [[label(k), fmt(v)] for k, v in body.items()]
            return [Table(["", ""], rows, caption), *notes]
        if all(
            isinstance(v, Mapping) and all(is_flat(x) for x in _split(v)[0].values()) for v in body.values()
        ):
            # A matrix: rows are the outer keys, columns the union of the inner keys.
            columns: list[str] = []
            for v in body.values():
                for k in _split(v)[0]:
                    if k not in columns:
                        columns.append(k)
            rows = []
            inner_notes: list[Note] = []
            for k, v in body.items():
                inner, n = _split(v)
                rows.append([label(k), *(fmt(inner[c]) if c in inner else "" for c in columns)])
                inner_notes.extend(x for x in n if x.text not in {y.text for y in inner_notes})
            return [Table(["", *(label(c) for c in columns)], rows, caption), *inner_notes, *notes]
        # Mixed: flat entries as one table, nested ones as their own titled groups.
        flat = {k: v for k, v in body.items() if is_flat(v)}
        nested = {k: v for k, v in body.items() if not is_flat(v)}
        out = []
        if flat:
            out.append(Table(["", ""], [[label(k), fmt(v)] for k, v in flat.items()], caption))
        for k, v in nested.items():
            out.append(Group(label(k), blocks(v)))
        return [*out, *notes]
    return [Note(fmt(data))]


def without_citations(data: Mapping[str, Any], *keys: str) -> dict[str, Any]:
    """A dataset's entries less its citations, its period and `keys` (those a view has printed)."""
    return {k: v for k, v in data.items() if k not in {"source", "sources", "citation", "period", *keys}}


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
    template kit's pages; `views`: its own views of the datasets its sections name."""

    sections: tuple[SheetSection, ...]
    documents: Mapping[str, str] = field(default_factory=dict)
    # Its area templates printed at 1:1 to cut out (none: the rule set prints no template kit).
    kit: tuple[KitPage, ...] = ()
    # How a dataset a section names prints, by its name (none: whole, by `blocks`).
    views: Mapping[str, View] = field(default_factory=dict)

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
