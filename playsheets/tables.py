"""Turn any dataset (JSON-shaped: dicts, lists, scalars) into printable blocks: tables, lists, notes.

The period sheets print the engine's own datasets, and the engineers who own them may change their
shape. So nothing here knows a table's layout: a list of flat records becomes a table with a column per
key, a mapping of flat records a matrix, a flat mapping a two-column table, and deeper nesting becomes
sub-headings. Citation keys (source, sources, citation) are printed as small source lines. The blocks and the
way a value prints are the rule sets' too (rules.core.sheet), which declare their sheets' sections in them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.core.sheet import SOURCE_KEYS, Block, Bullets, Group, Note, Table, fmt, label

__all__ = [
    "SOURCE_KEYS",
    "Block",
    "Bullets",
    "Group",
    "Note",
    "Table",
    "blocks",
    "cells",
    "fmt",
    "is_flat",
    "label",
]


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


def cells(block_list: Sequence[Block]) -> list[list[str]]:
    """Every table row of the blocks, depth first (the tests compare these rows with the PDF text)."""
    rows: list[list[str]] = []
    for b in block_list:
        if isinstance(b, Table):
            rows.extend(b.rows)
        elif isinstance(b, Group):
            rows.extend(cells(b.blocks))
    return rows
