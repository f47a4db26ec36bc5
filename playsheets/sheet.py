"""A rule set's playsheet as sections of printable blocks: the sections its rule set declares
(`GameRules.playsheet`, rules.core.sheet), each with its own blocks and the engine's registered datasets it names.

A rule set with war periods prints one sheet per period (`period_sheet`); one without prints its own
(playsheets.ruleset_sheet). A dataset is printed by its view below when its shape is the one the view knows, and
by the generic renderer (playsheets.tables.blocks) otherwise, so a reshaped table still prints whole. Nothing
here names or imports a rule set.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from playsheets.tables import Block, Bullets, Group, Note, Table, blocks, fmt, is_flat, label
from rules.core.errors import NotFoundError
from rules.core.ruleset import Erratum, RuleSet
from rules.core.sheet import SheetSection, short_sources
from rules.registry import all_game_rules, get_game_rules, get_ruleset


@dataclass
class VariantNote:
    erratum: str
    topic: str
    text: str
    source: str
    default_text: str


@dataclass
class Section:
    id: str
    title: str
    blocks: list[Block]
    number: str = ""
    sources: list[str] = field(default_factory=list)
    wide: bool = False
    variants: list[VariantNote] = field(default_factory=list)
    resolvers: tuple[str, ...] = ()  # the lookups that read their numbers from it


@dataclass
class PeriodSheet:
    period: str
    period_name: str
    source: str
    pages: list[list[Section]]
    variants: list[VariantNote]  # every non-default reading the game plays in this period
    loose_variants: list[VariantNote]  # those no section claims: printed in the header
    # Datasets the layout asks for that no engine module registers (yet): listed, never faked.
    missing: list[str] = field(default_factory=list)
    name: str = ""  # the rule set's

    @property
    def sections(self) -> list[Section]:
        return [s for page in self.pages for s in page]


View = Callable[[Any, str], list[Block]]


def _sources(data: Any) -> list[str]:
    if not isinstance(data, Mapping):
        return []
    out: list[str] = []
    for key in ("source", "sources", "citation"):
        v = data.get(key)
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, list | tuple):
            out.extend(str(x) for x in v)
    return out


def _strip(data: Mapping[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in {"source", "sources", "citation", "period", *keys}}


# -- views of datasets whose shape is known (each falls back to the generic renderer) -------------------------
def movement_view(data: Any, period: str) -> list[Block]:
    """movement-table: terrain -> mover -> {allowance_cm, crossing_actions, may_pass} as one matrix with a row
    per mover and a column per terrain; "No" where it may not pass, "N orders" where crossing takes orders."""
    terrain: Mapping[str, Mapping[str, Mapping[str, Any]]] = data["terrain"]
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
    rest = _strip(data, "terrain")
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


def movement_cell(cell: Mapping[str, Any]) -> str:
    """How one mover/terrain cell of movement-table prints."""
    if not cell.get("may_pass", True):
        return "No"
    if cell.get("crossing_actions"):
        return f"{fmt(cell['crossing_actions'])} ord."
    return fmt(cell.get("allowance_cm"))


def band_text(bands: list[Mapping[str, Any]]) -> str:
    """An action table's D6 bands on one line: '1: 0 · 2-4: 1 · 5-6: 2 · 7: 3' (roll: actions)."""
    return " · ".join(f"{fmt(b['roll'])}: {fmt(b['actions'])}" for b in bands)


def modifier_text(m: Mapping[str, Any]) -> str:
    """A modifier as printed in a list: '+2 Short Range MGs ...'."""
    value = m["value"]
    return f"{value:+d} {fmt(m['label'])}" if isinstance(value, int) else f"{fmt(value)} {fmt(m['label'])}"


def _modifier_table(mods: list[Mapping[str, Any]], caption: str) -> Table:
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
    units: Mapping[str, Mapping[str, Any]] = data["units"]
    out: list[Block] = [
        Table(["Unit (D6: actions)", ""], [[fmt(u["label"]), band_text(u["bands"])] for u in units.values()])
    ]
    kinds = list(dict.fromkeys(fmt(u["actions_are"]) for u in units.values() if u.get("actions_are")))
    out.append(Bullets([f"Actions are: {k}" for k in kinds]))
    out.append(_modifier_table(data["modifiers"], "Modifiers to order rolls"))
    rest = _strip(data, "units", "modifiers")
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
    cols: list[Mapping[str, Any]] = data["columns"]
    rows = [[fmt(r["label"]), *(cell_text(r["cells"].get(c["id"])) for c in cols)] for r in data["rows"]]
    out: list[Block] = [Table(["Suppress / Kill", *(fmt(c["label"]) for c in cols)], rows)]
    if data.get("modifiers"):
        firing = "firers" in data
        caption = "Direct fire factors" if firing else "Modifiers"
        out.append(
            Bullets([modifier_text(m) for m in data["modifiers"]], caption, columns=2 if firing else 1)
        )
    rest = _strip(data, "columns", "rows", "modifiers", "firers", "target", "three_suppressions")
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
    out.extend(blocks(_strip(data, "when", "results", "modifiers")))
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


def _applies(erratum: Erratum, period: str) -> bool:
    return not erratum.periods or period in erratum.periods


def variant_notes(rs: RuleSet, period: str, variants: Mapping[str, str]) -> list[VariantNote]:
    """The game's non-default readings that matter in this period, as printable notes."""
    out = []
    for eid, rid in variants.items():
        e = rs.errata[eid]
        if rid == e.default or not _applies(e, period):
            continue
        r = e.reading(rid)
        out.append(VariantNote(eid, e.topic, r.text, r.source, e.reading(e.default).text))
    return out


def _erratum_ids(key: str, value: Any, rs: RuleSet) -> list[str] | None:
    """The erratum ids an entry names (a key ending in 'erratum', or an 'errata' list), else None."""
    ids = (
        value if key == "errata" and isinstance(value, list) else [value] if key.endswith("erratum") else None
    )
    if ids is not None and all(isinstance(x, str) and x in rs.errata for x in ids):
        return list(ids)
    return None


def referenced_errata(data: Any, rs: RuleSet) -> set[str]:
    """Every erratum a dataset says its values depend on."""
    found: set[str] = set()
    if isinstance(data, Mapping):
        for k, v in data.items():
            ids = _erratum_ids(str(k), v, rs)
            found.update(ids if ids is not None else referenced_errata(v, rs))
    elif isinstance(data, list):
        for v in data:
            found |= referenced_errata(v, rs)
    return found


def with_readings(data: Any, rs: RuleSet) -> Any:
    """The data without its erratum references: the tables show the default readings, and the section that
    prints a dataset prints, marked VARIANT, every other reading the game plays of the errata it names."""
    if isinstance(data, Mapping):
        return {k: with_readings(v, rs) for k, v in data.items() if _erratum_ids(str(k), v, rs) is None}
    if isinstance(data, list):
        return [with_readings(v, rs) for v in data]
    return data


def _dataset_blocks(rs: RuleSet, name: str, period: str | None) -> tuple[list[Block], list[str]]:
    data = with_readings(rs.data(name, period), rs)
    view = VIEWS.get(name)
    if view is not None:
        try:
            return view(data, period or ""), _sources(data)
        except (KeyError, TypeError, AttributeError):
            pass  # the data changed shape: print it generically, whole
    if isinstance(data, Mapping):
        return blocks(_strip(data)), _sources(data)
    return blocks(data), []


def _pull_sources(block_list: list[Block], into: list[str]) -> list[Block]:
    """The blocks without their source lines, which go (once each) to the section's source list."""
    kept: list[Block] = []
    for b in block_list:
        if isinstance(b, Note) and b.source:
            if b.text not in into:
                into.append(b.text)
            continue
        if isinstance(b, Group):
            b.blocks = _pull_sources(b.blocks, into)
        kept.append(b)
    return kept


def period_ruleset() -> RuleSet:
    """The rule set whose playsheet is printed per war period: the first played rule set with periods."""
    for rules in all_game_rules():
        rs = get_ruleset(rules.book.ruleset_id)
        if rs.periods:
            return rs
    raise NotFoundError("rule set with periods", "", [])


def section(
    rs: RuleSet,
    spec: SheetSection,
    period: str | None,
    notes: list[VariantNote],
    documents: Mapping[str, str],
    placed: set[str],
) -> tuple[Section | None, list[str]]:
    """A declared section as printed: its blocks, then its datasets (their citations shortened by the sheet's
    `documents`), with the game's readings of the errata it names or claims (none placed before); None when
    it prints nothing. Also the datasets it names that no module registers (yet): listed, never faked."""
    sec_blocks: list[Block] = list(spec.blocks)
    sources: list[str] = []
    named: set[str] = set()
    missing: list[str] = []
    for name in spec.datasets:
        if name not in rs.datasets:
            missing.append(name)
            continue
        named |= referenced_errata(rs.data(name, period), rs)
        b, src = _dataset_blocks(rs, name, period)
        sec_blocks.extend(b)
        sources.extend(s for s in src if s not in sources)
    mine = [
        n
        for n in notes
        if (n.erratum in named or rs.errata[n.erratum].section == spec.id) and n.erratum not in placed
    ]
    placed.update(n.erratum for n in mine)
    if spec.datasets:
        sec_blocks = _pull_sources(sec_blocks, sources)
        sources = short_sources([*spec.sources, *sources], documents)
    else:
        sources = list(spec.sources)
    if not sec_blocks:
        return None, missing
    return Section(spec.id, spec.title, sec_blocks, "", sources, spec.wide, mine, spec.resolvers), missing


def period_sheet(period: str, variants: Mapping[str, str] | None = None) -> PeriodSheet:
    rs = period_ruleset()
    ctx = rs.context(period, variants or {})  # validates the period and every variant (422 otherwise)
    assert ctx.period is not None
    notes = variant_notes(rs, period, ctx.variants)
    declared = get_game_rules(rs.id).playsheet(period)
    placed: set[str] = set()
    pages: list[list[Section]] = [[], []]
    missing: list[str] = []
    for page, specs in enumerate(declared.pages(period)):
        for spec in specs:
            printed, absent = section(rs, spec, period, notes, declared.documents, placed)
            missing.extend(absent)
            if printed is not None:
                pages[page].append(printed)
    period_obj = next(p for p in rs.periods if p.id == period)
    return PeriodSheet(
        period,
        period_obj.name,
        period_obj.source,
        pages,
        notes,
        [n for n in notes if n.erratum not in placed],
        missing,
        rs.name,
    )
