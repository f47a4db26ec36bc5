"""A period's playsheet as sections of printable blocks, built from the engine's registered datasets.

The layout follows the period playsheets of the rule book: page 1 holds the numbered order sequence with
its action tables, order-roll modifiers, wire and SOS fire; page 2 the movement distances, firing table,
direct fire factors, armour, the three-suppressions rule and the morale table. Each section names the
datasets it prints; a dataset is printed by its view below when its shape is the one the view knows, and
by the generic renderer (playsheets.tables.blocks) otherwise, so a reshaped table still prints whole.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from playsheets.tables import Block, Bullets, Group, Note, Table, blocks, fmt, is_flat, label
from rules.core.ruleset import Erratum, RuleSet
from rules.flanders_fields.book.common import PERIODS
from rules.flanders_fields.book.sequence import SEQUENCES, OrderSequence
from rules.registry import get_ruleset

RULESET = "flanders-fields"


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


@dataclass(frozen=True)
class SectionSpec:
    # A game's variant of an erratum prints in the section its `section` names, or in the one whose
    # datasets name the erratum.
    id: str
    title: str
    datasets: tuple[str, ...]
    wide: bool = False
    page: int = 0
    periods: tuple[str, ...] = PERIODS


# Which printed section a resolver reads its numbers from (section ids of SECTIONS and its
# SOS and suppression sections). A resolver not named here has no table of its own on the sheet: the
# fallback then shows the whole sheet.
RESOLVER_SECTIONS: dict[str, tuple[str, ...]] = {
    "order-roll": ("actions",),
    "artillery-action": ("artillery",),
    "deep-suppression": ("artillery",),
    "rolling-barrage": ("barrage",),
    "barrage-danger": ("barrage",),
    "barrage-duration": ("barrage",),
    "wire-crossing": ("wire",),
    "sos": ("sos",),
    "movement": ("movement",),
    "shooting": ("firing", "armour", "suppression"),
    "suppression": ("suppression",),
    "morale": ("morale",),
}


SECTIONS: tuple[SectionSpec, ...] = (
    SectionSpec(
        "actions",
        "Action tables and order-roll modifiers",
        ("order-tables",),
        page=0,
    ),
    SectionSpec(
        "artillery",
        "Deep suppression and artillery actions",
        ("artillery-action-table",),
        page=0,
    ),
    # Rolling barrages are on the mid and late playsheets only (step 2 of their order sequence).
    SectionSpec(
        "barrage",
        "Rolling barrage",
        ("rolling-barrage-table",),
        page=0,
        periods=("mid", "late"),
    ),
    # The German hurricane bombardment is a late-war rule of the main text (HURRICANE BOMBARDMENT (FIREWALTZ)),
    # not printed on the playsheet: firestep's late sheet carries it beside the barrage it belongs with.
    SectionSpec(
        "firewaltz",
        "Hurricane bombardment (Firewaltz)",
        ("firewaltz-rules",),
        page=0,
        periods=("late",),
    ),
    SectionSpec("wire", "Barbed wire", ("wire-rules",), page=0),
    SectionSpec("movement", "Movement distances", ("movement-table",), wide=True, page=1),
    SectionSpec(
        "firing",
        "Firing table and direct fire factors",
        ("firing-table",),
        wide=True,
        page=1,
    ),
    SectionSpec("armour", "Armour", ("armour-table",), page=1),
    SectionSpec("morale", "Morale", ("morale-table",), page=1),
)


def _playsheet(period: str) -> str:
    from rules.flanders_fields.ruleset import PLAYSHEETS

    return PLAYSHEETS[period]


def order_sequence(period: str) -> OrderSequence:
    """The numbered order sequence of the period's playsheet: the one the game follows."""
    return SEQUENCES[period]  # type: ignore[index]


def _sequence_section(period: str) -> Section:
    seq = order_sequence(period)
    out: list[Block] = []
    for s in seq.steps:
        out.append(Group(f"{s.number}. {s.title}", [Bullets(list(s.parts))] if s.parts else []))
        if s.note:
            out.append(Note(s.note))
    return Section("sequence", "Order sequence", out, sources=[seq.source])


def _sos_section(period: str) -> Section:
    """SOS fire from the engine's own SOS resolver constant and the SOS template."""
    from rules.flanders_fields.resolvers.artillery import SOS_NEEDS, SRC_SOS
    from rules.table.templates import TEMPLATES

    sos = TEMPLATES["sos"]
    rows = [
        ["Area", f"{fmt(sos.width_cm)} cm wide × {fmt(sos.depth_cm)} cm deep"],
        ["Centre", "within 5 cm of a defended position, trench, block house etc."],
        ["Roll D6 − Deep Suppression", f"{SOS_NEEDS}+: aiming point moved AND one turn of fire arrives"],
        ["Limit", "each defending field battery answers one SOS call per turn"],
    ]
    return Section(
        "sos", "SOS fire", [Table(["", ""], rows)], sources=_short_sources([SRC_SOS, sos.source], period)
    )


# "THREE SUPPRESSIONS ON ANY UNIT EQUALS A KILL" (every period playsheet, above the morale table).
THREE_SUPPRESSIONS = "THREE SUPPRESSIONS ON ANY UNIT EQUALS A KILL"


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


def _dataset_blocks(rs: RuleSet, name: str, period: str) -> tuple[list[Block], list[str]]:
    data = with_readings(rs.data(name, period), rs)
    view = VIEWS.get(name)
    if view is not None:
        try:
            return view(data, period), _sources(data)
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


def _short_sources(sources: list[str], period: str) -> list[str]:
    """Citations shortened for print: 'Playsheet: X' and 'Rule book: X', merged per document."""
    from rules.flanders_fields.ruleset import BOOK

    by_doc: dict[str, list[str]] = {}
    for src in sources:
        for part in src.split("; "):
            doc, _, where = part.partition(": ")
            name = {_playsheet(period): "Playsheet", BOOK: "Rule book"}.get(doc, doc)
            entries = by_doc.setdefault(name, [])
            if where and where not in entries:
                entries.append(where)
    return [f"{doc}: {'; '.join(w)}" if w else doc for doc, w in by_doc.items()]


def period_sheet(period: str, variants: Mapping[str, str] | None = None) -> PeriodSheet:
    rs = get_ruleset(RULESET)
    ctx = rs.context(period, variants or {})  # validates the period and every variant (422 otherwise)
    assert ctx.period is not None
    notes = variant_notes(rs, period, ctx.variants)
    placed: set[str] = set()
    pages: list[list[Section]] = [[_sequence_section(period)], []]
    missing: list[str] = []
    for spec in SECTIONS:
        if period not in spec.periods:
            continue
        sec_blocks: list[Block] = []
        sources: list[str] = []
        named: set[str] = set()
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
        sec_blocks = _pull_sources(sec_blocks, sources)
        if sec_blocks:
            pages[spec.page].append(
                Section(spec.id, spec.title, sec_blocks, "", _short_sources(sources, period), spec.wide, mine)
            )
        if spec.id == "wire":
            pages[0].append(_sos_section(period))
        if spec.id == "armour":
            pages[1].append(
                Section("suppression", "Suppression", [Note(THREE_SUPPRESSIONS)], sources=["Playsheet"])
            )
    period_obj = next(p for p in rs.periods if p.id == period)
    return PeriodSheet(
        period,
        period_obj.name,
        period_obj.source,
        pages,
        notes,
        [n for n in notes if n.erratum not in placed],
        missing,
    )
