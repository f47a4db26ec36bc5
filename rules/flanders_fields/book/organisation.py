"""Tables of organisation as data that builds a force: division (or battalion, regiment) down to stands.

Each table is a JSON file in data/organisation/, validated at import. A node is one box of the chart with
`count` copies; `template` reuses a named subtree (the battalion drawn once and repeated). Where the chart
draws no number, or a range ("MMG Company 2-4 Maxim"), the erratum named on the node picks the count.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from itertools import product
from pathlib import Path
from typing import TypedDict

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules.core.errors import NotFoundError, RulesError
from rules.core.ruleset import Context
from rules.flanders_fields import errata
from rules.flanders_fields.book.artillery_tables import GUNS
from rules.flanders_fields.book.common import PERIODS, QUALITIES
from rules.flanders_fields.book.table_sizes import BASES
from rules.flanders_fields.ruleset import FlandersFields, cite

DATA_DIR = Path(__file__).parents[1] / "data" / "organisation"
LEVELS: tuple[str, ...] = (
    "division",
    "brigade",
    "regiment",
    "battalion",
    "company",
    "battery",
    "section",
    "platoon",
    "stand",
)
NATIONS: tuple[str, ...] = ("british", "french", "german")
# TROOP QUALITY: "Crewed Weapons such as artillery, machineguns and mortars are always classed as Experienced"
CREWED_QUALITY = "experienced"
# Node.count_erratum values -> the erratum that decides them.
COUNT_ERRATA = {"infantry-formations": errata.ORG_INFANTRY_FORMATIONS_PER_DIVISION}


class UnitRow(TypedDict):
    """A unit of a built force as JSON: its name, level and kind, its stand's base and quality, its models and
    gun, the rule, and the units under it."""

    id: str
    name: str
    level: str
    kind: str
    base: str | None
    quality: str | None
    models: int
    gun: str | None
    source: str
    children: list[UnitRow]


class TemplateRow(TypedDict):
    id: str
    name: str | None
    level: str | None


class TableMetadata(TypedDict):
    """A table of organisation: its nation, years, title, periods, qualities and their rule, special rules,
    the subtrees a force may be built from alone, and its rule."""

    id: str
    nation: str
    years: str
    title: str
    periods: list[str]
    default_quality: str
    qualities: list[str]
    quality_rule: str
    special_rules: list[str]
    templates: list[TemplateRow]
    source: str


class TableListed(TableMetadata):
    """A table as the list of tables serves it: with its dataset and the units it builds by level and kind."""

    dataset: str
    counts: dict[str, dict[str, int]]


class TableWithForce(TableMetadata):
    force: UnitRow


@dataclass(frozen=True)
class Unit:
    """One unit of a built force. A unit with a `base` is a stand on the table; `models` counts the
    figures or weapon models on it (0 for formations)."""

    id: str
    name: str
    level: str
    kind: str
    base: str | None
    quality: str | None
    models: int
    children: tuple[Unit, ...]
    source: str
    gun: str | None = field(default=None)  # key of artillery_tables.GUNS for gun models

    def walk(self) -> Iterator[Unit]:
        yield self
        for c in self.children:
            yield from c.walk()

    def stands(self) -> list[Unit]:
        return [u for u in self.walk() if u.base is not None]

    def as_dict(self) -> UnitRow:
        return {
            "id": self.id,
            "name": self.name,
            "level": self.level,
            "kind": self.kind,
            "base": self.base,
            "quality": self.quality,
            "models": self.models,
            "gun": self.gun,
            "source": self.source,
            "children": [c.as_dict() for c in self.children],
        }


class Node(BaseModel):
    """One box of a chart, as stored in the JSON files."""

    model_config = ConfigDict(extra="forbid")

    template: str | None = None
    name: str | None = None
    level: str | None = None
    kind: str | None = None
    base: str | None = None
    models: int = Field(default=0, ge=0)
    models_range: tuple[int, int] | None = None
    count: int = Field(default=1, ge=1)
    count_range: tuple[int, int] | None = None
    count_by_quality: dict[str, int] = Field(default_factory=dict)
    count_erratum: str | None = None
    drawn: int | None = Field(default=None, ge=1)
    crewed: bool = False
    gun: str | None = None
    source: str
    children: list[Node] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> Node:
        if self.template is None and (self.name is None or self.level is None or self.kind is None):
            raise ValueError("a node needs name, level and kind unless it names a template")
        if self.level is not None and self.level not in LEVELS:
            raise ValueError(f"level {self.level!r} not in {LEVELS}")
        if self.base is not None and self.base not in BASES:
            raise ValueError(f"base {self.base!r} not in Flanders Fields' bases (book.table_sizes)")
        if self.gun is not None and self.gun not in GUNS:
            raise ValueError(f"gun {self.gun!r} not in the artillery tables")
        if self.count_erratum is not None and (self.count_erratum not in COUNT_ERRATA or self.drawn is None):
            raise ValueError(f"count_erratum must be one of {sorted(COUNT_ERRATA)} with `drawn`")
        for rng in (self.models_range, self.count_range):
            if rng is not None and not 1 <= rng[0] <= rng[1]:
                raise ValueError(f"bad range {rng}")
        if not set(self.count_by_quality) <= set(QUALITIES):
            raise ValueError(f"count_by_quality keys must be qualities {QUALITIES}")
        return self


class Table(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    nation: str
    years: str
    title: str
    section: str
    periods: list[str]
    default_quality: str
    qualities: list[str]
    quality_source: str
    special_rules: list[str]
    templates: dict[str, Node]
    root: Node

    @model_validator(mode="after")
    def _consistent(self) -> Table:
        if self.nation not in NATIONS:
            raise ValueError(f"nation {self.nation!r} not in {NATIONS}")
        if not set(self.periods) <= set(PERIODS):
            raise ValueError(f"periods must be among {PERIODS}")
        if not set(self.qualities) <= set(QUALITIES) or self.default_quality not in self.qualities:
            raise ValueError("qualities must be known and include the default")

        def check(node: Node) -> None:
            if node.template is not None and node.template not in self.templates:
                raise ValueError(f"{self.id}: unknown template {node.template!r}")
            for c in node.children:
                check(c)

        for t in self.templates.values():
            check(t)
        check(self.root)
        return self

    @property
    def source(self) -> str:
        return cite(f"TABLES OF ORGANISATION, {self.section}")

    def metadata(self) -> TableMetadata:
        return {
            "id": self.id,
            "nation": self.nation,
            "years": self.years,
            "title": self.title,
            "periods": self.periods,
            "default_quality": self.default_quality,
            "qualities": self.qualities,
            "quality_rule": self.quality_source,
            "special_rules": self.special_rules,
            # The named subtrees a force may be built from alone (ForceIn.template), e.g. one "battalion".
            "templates": [{"id": k, "name": t.name, "level": t.level} for k, t in self.templates.items()],
            "source": self.source,
        }


def _load() -> dict[str, Table]:
    tables: dict[str, Table] = {}
    for path in sorted(DATA_DIR.glob("*.json")):
        table = Table.model_validate(json.loads(path.read_text(encoding="utf-8")))
        if table.id != path.stem:
            raise ValueError(f"{path.name}: id {table.id!r} must match the file name")
        tables[table.id] = table
    return tables


TABLES: dict[str, Table] = _load()
# id -> metadata (nation, years, title, source, qualities, special rules, periods)
ORGANISATION_TABLES: dict[str, TableMetadata] = {t.id: t.metadata() for t in TABLES.values()}


def _table(table_id: str) -> Table:
    if table_id not in TABLES:
        raise NotFoundError("organisation table", table_id, TABLES)
    return TABLES[table_id]


class _Builder:
    def __init__(self, table: Table, quality: str, ctx: Context, counts: Mapping[str, int]) -> None:
        self.table = table
        self.quality = quality
        self.ctx = ctx
        self.counts = counts  # kind -> fewer copies of each box of that kind than the chart draws

    def _pick(self, rng: tuple[int, int]) -> int:
        return rng[1] if self.ctx.value(errata.ORG_CHART_MULTIPLES) == "high" else rng[0]

    def count(self, node: Node) -> int:
        if node.count_erratum is not None:
            value = self.ctx.value(COUNT_ERRATA[node.count_erratum])
            assert node.drawn is not None
            return int(value) if value is not None else node.drawn
        if self.quality in node.count_by_quality:
            return node.count_by_quality[self.quality]
        if node.count_range is not None:
            return self._pick(node.count_range)
        return node.count

    def resolve(self, node: Node) -> Node:
        """A template reference merged with the template (the reference's own fields win)."""
        if node.template is None:
            return node
        base = self.table.templates[node.template]
        own = node.model_dump(exclude_unset=True, exclude={"template", "count", "source"})
        return base.model_copy(update={**own, "template": None, "source": node.source})

    def build(self, node: Node, unit_id: str, name: str) -> Unit:
        node = self.resolve(node)
        assert node.level is not None and node.kind is not None
        children: list[Unit] = []
        seen: Counter[str] = Counter()
        for child in node.children:
            n = self.count(child)
            resolved = self.resolve(child)
            assert resolved.kind is not None and resolved.name is not None
            if resolved.kind in self.counts:
                if self.counts[resolved.kind] > n:
                    raise RulesError(
                        f"counts.{resolved.kind}", f"at most the {n} the chart draws", list(range(1, n + 1))
                    )
                n = self.counts[resolved.kind]
            for _ in range(n):
                seen[resolved.kind] += 1
                i = seen[resolved.kind]
                child_name = f"{resolved.name} {i}" if n > 1 or seen[resolved.kind] > 1 else resolved.name
                children.append(self.build(child, f"{unit_id}/{resolved.kind}-{i}", child_name))
        models = self._pick(node.models_range) if node.models_range is not None else node.models
        return Unit(
            id=unit_id,
            name=name,
            level=node.level,
            kind=node.kind,
            base=node.base,
            quality=CREWED_QUALITY if node.crewed else self.quality,
            models=models,
            children=tuple(children),
            source=f"{self.table.source}: {node.source}",
            gun=node.gun,
        )


def _builder(
    table_id: str,
    quality: str | None,
    variants: Mapping[str, str] | None,
    counts: Mapping[str, int] | None = None,
) -> _Builder:
    table = _table(table_id)
    q = table.default_quality if quality is None else quality
    if q not in table.qualities:
        raise RulesError("quality", f"{table.title} may not be graded {q!r}", table.qualities)
    kinds = sorted({n.kind for n in _nodes(table) if n.kind is not None})
    for kind, n in (counts or {}).items():
        if kind not in kinds:
            raise RulesError("counts", f"{table.title} draws no box of kind {kind!r}", kinds)
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise RulesError(f"counts.{kind}", "a whole number of boxes, at least 1")
    return _Builder(table, q, FlandersFields().context(table.periods[0], variants), dict(counts or {}))


def _nodes(table: Table) -> Iterator[Node]:
    def walk(node: Node) -> Iterator[Node]:
        yield node
        for c in node.children:
            yield from walk(c)

    for t in (*table.templates.values(), table.root):
        yield from walk(t)


# The unit kinds the organisation tables draw: the kinds a scenario's units may be (docs/scenario-format.md).
KINDS: tuple[str, ...] = tuple(sorted({n.kind for t in TABLES.values() for n in _nodes(t) if n.kind}))


def build_force(
    table_id: str,
    *,
    quality: str | None = None,
    name: str | None = None,
    variants: Mapping[str, str] | None = None,
    id_prefix: str | None = None,
    counts: Mapping[str, int] | None = None,
) -> Unit:
    """Build the whole force a table describes. `quality` grades its troops (crewed weapons are always
    Experienced); unit ids are paths under `id_prefix` (default the table id) and unique in the force.
    `counts` (kind -> n) keeps only n of each box of that kind under its parent: a force under strength."""
    b = _builder(table_id, quality, variants, counts)
    return b.build(b.table.root, id_prefix or table_id, name or b.table.root.name or table_id)


def build_template(
    table_id: str,
    template: str,
    *,
    id_prefix: str,
    quality: str | None = None,
    name: str | None = None,
    variants: Mapping[str, str] | None = None,
    counts: Mapping[str, int] | None = None,
) -> Unit:
    """Build one named subtree of a table (e.g. a single "battalion"), for scenarios and attachments;
    `counts` as build_force's."""
    b = _builder(table_id, quality, variants, counts)
    if template not in b.table.templates:
        raise RulesError("template", f"{b.table.title} has no template {template!r}", b.table.templates)
    node = b.table.templates[template]
    return b.build(node, id_prefix, name or node.name or template)


def count_units(unit: Unit) -> dict[str, dict[str, int]]:
    """level -> kind -> how many units of that kind the tree holds."""
    out: dict[str, Counter[str]] = {}
    for u in unit.walk():
        out.setdefault(u.level, Counter())[u.kind] += 1
    return {level: dict(c) for level, c in out.items()}


@FlandersFields.dataset("organisation-tables", "Tables of organisation that build a force (list)")
def _organisation_tables(period: str | None) -> list[TableListed]:
    return [
        {**meta, "dataset": f"organisation-{tid}", "counts": count_units(build_force(tid))}
        for tid, meta in ORGANISATION_TABLES.items()
    ]


def _register_table(table_id: str) -> None:
    def build(period: str | None) -> TableWithForce:
        return {**ORGANISATION_TABLES[table_id], "force": build_force(table_id).as_dict()}

    FlandersFields.dataset(f"organisation-{table_id}", f"Organisation: {TABLES[table_id].title}")(build)


for _tid in TABLES:
    _register_table(_tid)


# -- the largest game the book describes ------------------------------------------------------------------------
# ORGANISATION: a regiment is "comprising 2-4 (normally 3) battalions", a division "Comprising 2-4 (normally 3)
# regiments". The tables build the normal three of each; the largest division the book describes has four of four.
FORMATIONS_NORMALLY, FORMATIONS_AT_MOST = 3, 4
ORG_ERRATA = (errata.ORG_INFANTRY_FORMATIONS_PER_DIVISION, errata.ORG_CHART_MULTIPLES)


def largest_side_units() -> int:
    """Units (formations and stands) one side fields at most in the largest game the book describes, "a
    division a side": the largest force any table builds under every reading of the organisation errata,
    scaled from three regiments of three battalions to four of four (support included, so an upper bound),
    with every table that is not a division (tanks, cavalry, storm troops) attached to it as well."""
    readings = [[r.id for r in FlandersFields().errata[e].readings] for e in ORG_ERRATA]
    sizes: dict[str, int] = {}
    for chosen in product(*readings):
        variants = dict(zip(ORG_ERRATA, chosen, strict=True))
        for tid in TABLES:
            units = sum(1 for _ in build_force(tid, variants=variants).walk())
            sizes[tid] = max(sizes.get(tid, 0), units)
    divisions = [n for tid, n in sizes.items() if TABLES[tid].root.level == "division"]
    attached = sum(n for tid, n in sizes.items() if TABLES[tid].root.level != "division")
    scale = (FORMATIONS_AT_MOST / FORMATIONS_NORMALLY) ** 2
    return math.ceil(max(divisions) * scale) + attached


@cache
def max_units_per_game() -> int:
    """A game holds at most this many units: two sides of the largest game the book describes, rounded up to
    the hundred. Far above any table of the books, far below what floods a game's reads (40 forces made
    11,997 units, an 11 MB /units answer). Worked out on first use (it builds every table under every
    reading: ~80 ms), not at every import."""
    return math.ceil(2 * largest_side_units() / 100) * 100
