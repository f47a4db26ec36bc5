"""Printable blocks (tables, lists, notes, groups) and the generic renderer that turns any dataset into them,
knowing no table's layout (rules.core.sheet, where the rule sets declare their sheets' sections in the same
blocks); here for the playsheets, with `cells`, every table row of some blocks (the tests compare these rows with
the PDF text)."""

from __future__ import annotations

from collections.abc import Sequence

from rules.core.sheet import (
    SOURCE_KEYS,
    Block,
    Bullets,
    Group,
    Note,
    Table,
    blocks,
    fmt,
    is_flat,
    is_scalar,
    label,
)

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
    "is_scalar",
    "label",
]


def cells(block_list: Sequence[Block]) -> list[list[str]]:
    """Every table row of the blocks, depth first (the tests compare these rows with the PDF text)."""
    rows: list[list[str]] = []
    for b in block_list:
        if isinstance(b, Table):
            rows.extend(b.rows)
        elif isinstance(b, Group):
            rows.extend(cells(b.blocks))
    return rows
