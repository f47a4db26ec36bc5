"""Flanders Fields' views of its datasets on the period sheets (`Playsheet.views`): each one's shape as the period
playsheets print it (a matrix by mover and terrain, an action table's D6 bands on one line, the firing table's
'suppress / kill' cells, the morale results, this period's wire crossing); whatever a view does not name prints
by the generic renderer (rules.core.sheet.blocks), and a view that no longer knows its data's shape gives way to
it whole."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.resolution import PrintedModifier
from rules.core.sheet import Block, Bullets, Note, Table, View, blocks, fmt, is_flat, label, without_citations
from rules.flanders_fields.resolvers.movement import MoveCell
from rules.flanders_fields.resolvers.orders import OrderBandRow, OrderTableRow
from rules.flanders_fields.resolvers.shooting import Column


def movement_view(data: Any, period: str) -> list[Block]:
    """movement-table: terrain -> mover -> {allowance_cm, crossing_actions, may_pass} as one matrix with a row
    per mover and a column per terrain; "No" where it may not pass, "N orders" where crossing takes orders."""
    terrain: Mapping[str, Mapping[str, MoveCell]] = data["terrain"]
    movers: list[str] = []
    for row in terrain.values():
        for m in row:
            if m not in movers:
                movers.append(m)
    rows = []
    for m in movers:
        cells = [label(m)]
        for t in terrain:
            c = terrain[t].get(m)
            cells.append(movement_cell(c) if c is not None else "")
        rows.append(cells)
    out: list[Block] = [Table(["cm", *(label(t) for t in terrain)], rows)]
    rest = without_citations(data, "terrain")
    notes = rest.pop("notes", [])
    # Small per-mover extras (bonuses_cm, limber_actions) as one line each rather than a sparse matrix.
    for k, v in rest.items():
        if isinstance(v, Mapping) and all(is_flat(x) for x in v.values()):
            out.append(Note(f"{label(k)}: " + ", ".join(f"{label(m)} {fmt(x)}" for m, x in v.items())))
        else:
            out.extend(blocks({k: v}))
    if notes:
        out.append(Bullets([fmt(n) for n in notes], columns=2))
    return out


def movement_cell(cell: MoveCell) -> str:
    """How one mover/terrain cell of movement-table prints."""
    if not cell.get("may_pass", True):
        return "No"
    if cell.get("crossing_actions"):
        return f"{fmt(cell['crossing_actions'])} ord."
    return fmt(cell.get("allowance_cm"))


def band_text(bands: list[OrderBandRow]) -> str:
    """An action table's D6 bands on one line: '1: 0 · 2-4: 1 · 5-6: 2 · 7: 3' (roll: actions)."""
    return " · ".join(f"{fmt(b['roll'])}: {fmt(b['actions'])}" for b in bands)


def modifier_text(m: PrintedModifier) -> str:
    """A modifier as printed in a list: '+2 Short Range MGs ...'."""
    value = m["value"]
    return f"{value:+d} {fmt(m['label'])}" if isinstance(value, int) else f"{fmt(value)} {fmt(m['label'])}"


def _modifier_table(mods: list[PrintedModifier], caption: str) -> Table:
    return Table(
        ["", ""],
        [
            [f"{m['value']:+d}" if isinstance(m["value"], int) else fmt(m["value"]), fmt(m["label"])]
            for m in mods
        ],
        caption,
        row_headers=True,
    )


def order_view(data: Any, period: str) -> list[Block]:
    """order-tables: one row per unit with its D6 bands (roll: actions), then the order-roll modifiers."""
    units: Mapping[str, OrderTableRow] = data["units"]
    out: list[Block] = [
        Table(["Unit (D6: actions)", ""], [[fmt(u["label"]), band_text(u["bands"])] for u in units.values()])
    ]
    kinds = list(dict.fromkeys(fmt(u["actions_are"]) for u in units.values() if u.get("actions_are")))
    out.append(Bullets([f"Actions are: {k}" for k in kinds]))
    out.append(_modifier_table(data["modifiers"], "Modifiers to order rolls"))
    rest = without_citations(data, "units", "modifiers")
    out.extend(blocks(rest))
    return out


def cell_text(cell: Any) -> str:
    """A firing or armour table cell: 'suppress / kill', extra results after, (D) when direct sight is needed."""
    if not isinstance(cell, Mapping):
        return fmt(cell)
    text = f"{fmt(cell['suppress'])} / {fmt(cell['kill'])}"
    extra = {k: v for k, v in cell.items() if k not in ("suppress", "kill", "direct")}
    for k, v in extra.items():
        text += f" ({label(k).lower()} {fmt(v)})"
    return text + (" (D)" if cell.get("direct") else "")


def matrix_view(data: Any, period: str) -> list[Block]:
    """firing-table and armour-table: rows by firer, columns by cover, each cell 'suppress / kill'."""
    cols: list[Column] = data["columns"]
    rows = [[fmt(r["label"]), *(cell_text(r["cells"].get(c["id"])) for c in cols)] for r in data["rows"]]
    out: list[Block] = [Table(["Suppress / Kill", *(fmt(c["label"]) for c in cols)], rows)]
    if data.get("modifiers"):
        firing = "firers" in data
        caption = "Direct fire factors" if firing else "Modifiers"
        out.append(
            Bullets([modifier_text(m) for m in data["modifiers"]], caption, columns=2 if firing else 1)
        )
    rest = without_citations(data, "columns", "rows", "modifiers", "firers", "target", "three_suppressions")
    for k, v in rest.items():
        if isinstance(v, Mapping) and all(is_flat(x) for x in v.values()):
            out.append(Note(f"{label(k)}: " + "; ".join(f"{label(m)} = {fmt(x)}" for m, x in v.items())))
        else:
            out.extend(blocks({k: v}))
    return out


def morale_view(data: Any, period: str) -> list[Block]:
    """morale-table: when to test, the D6 results as printed, the modifiers and the notes."""
    out: list[Block] = [Note(fmt(data["when"]))]
    out.append(Table(["D6", "Result"], [[fmt(r["roll"]), fmt(r["text"])] for r in data["results"]]))
    out.append(_modifier_table(data["modifiers"], "Modifiers"))
    out.extend(blocks(without_citations(data, "when", "results", "modifiers")))
    return out


def wire_view(data: Any, period: str) -> list[Block]:
    """wire-rules: this period's crossing roll, the procedure and (early) the playsheet's -2."""
    need = next(n for n in data["needs"] if n["period"] == period)
    out: list[Block] = [
        Table(
            ["", ""],
            [
                ["Crossing roll (each platoon, per belt)", f"{fmt(need['needs'])}+"],
                ["Belt depth", f"{fmt(data['belt_cm'])} cm"],
            ],
        )
    ]
    if need.get("reading"):
        out.append(Note(fmt(need["reading"])))
    out.append(Bullets([fmt(p) for p in data["procedure"]]))
    if period == "early" and data.get("early_playsheet"):
        out.append(Note(fmt(data["early_playsheet"])))
    return out


VIEWS: dict[str, View] = {
    "movement-table": movement_view,
    "order-tables": order_view,
    "firing-table": matrix_view,
    "armour-table": matrix_view,
    "morale-table": morale_view,
    "wire-rules": wire_view,
}
