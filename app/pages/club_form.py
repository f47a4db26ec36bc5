"""The counter editor's form as the server renders it (issue 67): the club's data filled in as a scenario or a
game keeps it (`_club_data.html`), and the order of battle, each side's counters with their printed values
(`_club_order.html`), from the typed records here. The page's script (frontend/static/js/counter-editor.js)
builds no element: a counter added is a copy of its side's blank row, rendered here too (`<template>`, its ids
numbered by the script), and what is saved is read back from the form. The fields a rule set's club data and
counters have come from app.pages.counter_editor (`club_fields`, `counter_fields`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from app.data.models import Unit
from app.pages.templates import humanise

# A blank row's number in its inputs' ids and names, which the script replaces with the row's own.
BLANK = "__N__"
# A number field with no printed maximum is bounded by the form (an entry slip, not a rule).
MOST = 999


@dataclass(frozen=True)
class Cell:
    """One printed value of a counter: its state field, how it is entered and what it holds."""

    name: str
    label: str
    edit: str  # "number" or "word"
    maximum: int
    value: str
    choices: tuple[str, ...] = ()  # the words the book names for it on this side (a select), else typed


@dataclass(frozen=True)
class CounterRow:
    """A counter of the order of battle: its inputs (ids `club-c{n}-…`), and, read from a game, its id and the
    version it was read at (saved over it; such a counter is not removed here)."""

    side: str
    n: str
    name: str
    cells: tuple[Cell, ...]
    unit_id: int | None = None
    version: int | None = None


@dataclass(frozen=True)
class ClubSide:
    side: str
    legend: str
    rows: tuple[CounterRow, ...]
    blank: CounterRow


@dataclass(frozen=True)
class OrderOfBattle:
    """`_club_order.html`'s context: each side's counters and its blank row."""

    sides: tuple[ClubSide, ...]

    def context(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class Filled:
    """One club field as the form shows it: the text of a list (places, pairs, a number), the places of each
    kind, a sequence's words, rows of numbers (an empty string where none is given)."""

    text: str = ""
    by_kind: Mapping[str, str] = field(default_factory=dict)
    cells: tuple[str, ...] = ()
    grid: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class ClubData:
    """`_club_data.html`'s context: the club's fields as the rule set declares them, and each one's values."""

    fields: Sequence[Mapping[str, Any]]
    filled: Mapping[str, Filled]

    def context(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _text(value: object) -> str:
    return "" if value is None else str(value)


def filled(spec: Mapping[str, Any], value: object) -> Filled:
    """A club field's stored value as its widget shows it (the script reads it back as the document keeps it)."""
    kind = spec["kind"]
    if value is None:
        return Filled()
    if kind == "places" and isinstance(value, list):
        return Filled(text=" ".join(map(str, value)))
    if kind == "pairs" and isinstance(value, list):
        return Filled(text=" ".join("-".join(map(str, pair)) for pair in value))
    if kind == "places_by_kind" and isinstance(value, dict):
        return Filled(
            by_kind={
                k["value"]: " ".join(p for p, ks in value.items() if k["value"] in ks) for k in spec["kinds"]
            }
        )
    if kind == "sequence" and isinstance(value, list):
        return Filled(cells=tuple(_text(value[i]) if i < len(value) else "" for i in range(spec["length"])))
    if kind == "rows" and isinstance(value, list):
        width = len(spec["columns"])
        rows = [r if isinstance(r, list) else [] for r in value]
        return Filled(
            grid=tuple(
                tuple(_text(rows[i][c]) if i < len(rows) and c < len(rows[i]) else "" for c in range(width))
                for i in range(spec["length"])
            )
        )
    if kind == "number":
        return Filled(text=_text(value))
    return Filled()


def club_data(specs: Sequence[Mapping[str, Any]], board: Mapping[str, object] | None) -> ClubData:
    board = board or {}
    return ClubData(specs, {s["name"]: filled(s, board.get(s["name"])) for s in specs})


def _row(
    side: str,
    n: str,
    specs: Sequence[Mapping[str, Any]],
    name: str = "",
    state: Mapping[str, object] | None = None,
    unit: Unit | None = None,
    words: Mapping[str, Sequence[str]] | None = None,
) -> CounterRow:
    state = state or {}
    cells = tuple(
        Cell(
            f["name"],
            f["label"],
            "number" if f["edit"] == "number" else "word",
            f["maximum"] if f["maximum"] is not None else MOST,
            _text(state.get(f["name"])),
            tuple((words or {}).get(f["name"]) or ()),
        )
        for f in specs
    )
    if unit is None:
        return CounterRow(side, n, name, cells)
    return CounterRow(side, n, name, cells, unit.id, unit.version)


@dataclass(frozen=True)
class Counter:
    """A counter as read for the form: its side, name and printed values, and its unit if a game's."""

    side: str
    name: str
    state: Mapping[str, object]
    unit: Unit | None = None


def order_of_battle(
    sides: Sequence[Mapping[str, str]],
    specs: Sequence[Mapping[str, Any]],
    counters: Sequence[Counter],
    words: Mapping[str, Mapping[str, Sequence[str]]] | None = None,
) -> OrderOfBattle:
    """Each side's counters numbered in the order read (1, 2, … across the sides), and its blank row; `words`:
    by side, the words the book names for a field (its groups: a select, not typed)."""
    numbered = list(enumerate(counters, start=1))
    words = words or {}
    return OrderOfBattle(
        tuple(
            ClubSide(
                s["side"],
                humanise(s["nation"] or s["side"]),
                tuple(
                    _row(s["side"], str(i), specs, c.name, c.state, c.unit, words.get(s["side"]))
                    for i, c in numbered
                    if c.side == s["side"]
                ),
                _row(s["side"], BLANK, specs, words=words.get(s["side"])),
            )
            for s in sides
        )
    )


def scenario_counters(document: Mapping[str, Any]) -> list[Counter]:
    """A scenario document's counters, side by side as it keeps them."""
    sides = document.get("sides") or {}
    return [
        Counter(side, str(u.get("name") or ""), dict(u.get("state") or {}))
        for side, kept in sides.items()
        for u in (kept or {}).get("forces") or []
    ]


def game_counters(units: Sequence[Unit], names: Sequence[str]) -> list[Counter]:
    """A game's counters still in play, each with the printed values the form edits (`names`)."""
    return [
        Counter(u.side, u.name, {n: u.state[n] for n in names if n in u.state}, u)
        for u in units
        if not u.killed
    ]
