"""A force built from a rule set's chart of troops rather than from organisation tables: a formation of
sub-units, each of a number of bases of one kind of the chart, the formation graded with one of the rule set's
qualities. The rule set gives its chart (`ForceChart`, its `Book.force_chart`); building an entry from it is
the same for every rule set (`build_force`), and its unit tree is a scenario document's units."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from rules.core.errors import RulesError
from rules.core.scenario import ForceUnit


@dataclass(frozen=True)
class ChartKind:
    """A row of the chart: what a sub-unit and its bases may be, with the chart's class of it."""

    id: str
    name: str
    what: str


@dataclass(frozen=True)
class ForceChart:
    """What a rule set builds a force from: its chart's kinds and the levels and words of its force tree. The
    most sub-units and bases are firestep's bounds on one entry where the book prints none."""

    title: str  # the chart's name in the book
    formation: str  # the rule set's words for the three levels, in the singular
    sub_unit: str
    base: str
    formation_level: str  # the unit levels a game stores them at
    formation_kind: str
    sub_unit_level: str
    base_level: str
    kinds: tuple[ChartKind, ...]
    qualities: tuple[str, ...]
    default_quality: str | None  # the chart's ordinary troops', offered first
    most_sub_units: int
    most_bases: int
    source: str  # the printed line the force tree comes from


def base_of(chart: ForceChart, level: str, kind: str) -> str | None:
    """The base a unit of this level and kind stands on: a base-level unit of a chart kind is a base of its
    kind (the table kit's base of that name); anything else stands on none."""
    return kind if level == chart.base_level and any(k.id == kind for k in chart.kinds) else None


class ChartWords(TypedDict):
    formation: str
    sub_unit: str
    base: str


class ChartKindRow(TypedDict):
    id: str
    name: str
    what: str


class ChartDict(TypedDict):
    """The chart as JSON: its title, its words for the three levels, its kinds and qualities, how many
    sub-units and bases a formation may have at most, and the printed line."""

    title: str
    words: ChartWords
    kinds: list[ChartKindRow]
    qualities: list[str]
    default_quality: str | None
    most_sub_units: int
    most_bases: int
    source: str


class DocumentUnit(TypedDict):
    """A unit as a scenario document writes it (docs/scenario-format.md), its children the same."""

    id: str
    name: str
    level: str
    kind: str
    base: str | None
    quality: str | None
    source: str
    children: list[DocumentUnit]


def chart_dict(chart: ForceChart) -> ChartDict:
    """The chart as the API and the scenario editor show it."""
    return {
        "title": chart.title,
        "words": {"formation": chart.formation, "sub_unit": chart.sub_unit, "base": chart.base},
        "kinds": [{"id": k.id, "name": k.name, "what": k.what} for k in chart.kinds],
        "qualities": list(chart.qualities),
        "default_quality": chart.default_quality,
        "most_sub_units": chart.most_sub_units,
        "most_bases": chart.most_bases,
        "source": chart.source,
    }


def build_force(chart: ForceChart, entry: Mapping[str, Any], field: str, id_prefix: str) -> ForceUnit:
    """A formation from an entry ({name?, quality?, sub_units: [{kind, bases, name?}]}): a RulesError names
    `<field>.sub_units.<i>.kind` and the like. Unit ids are `<id_prefix>/<sub-unit>/<base>`."""
    at = f"{field}." if field else ""
    quality = entry.get("quality")
    if quality is not None and quality not in chart.qualities:
        raise RulesError(
            f"{at}quality", f"{quality!r} is not a quality of the {chart.title}", chart.qualities
        )
    subs: Sequence[Mapping[str, Any]] = entry.get("sub_units") or ()
    if not 1 <= len(subs) <= chart.most_sub_units:
        raise RulesError(
            f"{at}sub_units",
            f"a {chart.formation} has 1 to {chart.most_sub_units} {chart.sub_unit}s",
            [f"1..{chart.most_sub_units}"],
        )
    kinds = {k.id: k for k in chart.kinds}
    children = []
    for i, sub in enumerate(subs, 1):
        where = f"{at}sub_units.{i - 1}"
        kind = kinds.get(sub.get("kind", ""))
        if kind is None:
            raise RulesError(f"{where}.kind", f"name a row of the {chart.title}", sorted(kinds))
        bases = sub.get("bases")
        if isinstance(bases, bool) or not isinstance(bases, int) or not 1 <= bases <= chart.most_bases:
            raise RulesError(
                f"{where}.bases",
                f"a {chart.sub_unit} has 1 to {chart.most_bases} {chart.base}s",
                [f"1..{chart.most_bases}"],
            )
        name = sub.get("name") or f"{kind.name} ({chart.sub_unit} {i})"
        sub_id = f"{id_prefix}/{i}"
        source = f"{chart.source}; {chart.title}: {kind.name}"
        children.append(
            ForceUnit(
                sub_id,
                name,
                chart.sub_unit_level,
                kind.id,
                None,
                None,
                0,
                tuple(
                    ForceUnit(
                        f"{sub_id}/{n}",
                        f"{name}, {chart.base_level} {n}",
                        chart.base_level,
                        kind.id,
                        kind.id,
                        None,
                        0,
                        (),
                        source,
                    )
                    for n in range(1, bases + 1)
                ),
                source,
            )
        )
    name = entry.get("name") or chart.formation.capitalize()
    return ForceUnit(
        id_prefix,
        name,
        chart.formation_level,
        chart.formation_kind,
        None,
        quality,
        0,
        tuple(children),
        chart.source,
    )


def document_units(node: ForceUnit) -> DocumentUnit:
    """A built formation as a scenario document writes its units (docs/scenario-format.md)."""
    return {
        "id": node.id,
        "name": node.name,
        "level": node.level,
        "kind": node.kind,
        "base": node.base,
        "quality": node.quality,
        "source": node.source,
        "children": [document_units(c) for c in node.children if isinstance(c, ForceUnit)],
    }
