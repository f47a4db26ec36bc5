"""A rule set's playsheet as sections of printable blocks: the sections its rule set declares
(`GameRules.playsheet`, rules.core.sheet), each with its own blocks and the engine's registered datasets it names.

A rule set with war periods prints one sheet per period (`period_sheet`); one without prints its own
(playsheets.ruleset_sheet). A dataset is printed by the rule set's view of it (`Playsheet.views`) when its shape is
the one the view knows, and by the generic renderer (rules.core.sheet.blocks) otherwise, so a reshaped table still
prints whole. Nothing here names or imports a rule set.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from playsheets.tables import Block, Group, Note, blocks
from rules.core.errors import NotFoundError
from rules.core.readings import in_force, reading_label
from rules.core.ruleset import Context, Erratum, RuleSet
from rules.core.sheet import Playsheet, SheetSection, View, short_sources, without_citations
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
    version: str = ""  # of its book, as printed (rules_version)
    readings: list[str] = field(
        default_factory=list
    )  # the errata's readings its sections use (readings_used)

    @property
    def sections(self) -> list[Section]:
        return [s for page in self.pages for s in page]


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


def with_readings(data: Any, rs: RuleSet, variants: Mapping[str, str] | None = None) -> Any:
    """The data without its erratum references, each line naming an erratum the game plays another reading of
    (`variants`) marked VARIANT on its label: the data is built under the game's readings, so the line prints
    that reading's value, and the section prints each such reading's words."""
    played = {e for e, r in (variants or {}).items() if e in rs.errata and r != rs.errata[e].default}
    if isinstance(data, Mapping):
        kept = {
            k: with_readings(v, rs, variants) for k, v in data.items() if _erratum_ids(str(k), v, rs) is None
        }
        if isinstance(kept.get("label"), str) and played & referenced_errata(
            {k: v for k, v in data.items() if _erratum_ids(str(k), v, rs) is not None}, rs
        ):
            kept["label"] += " (VARIANT)"
        return kept
    if isinstance(data, list):
        return [with_readings(v, rs, variants) for v in data]
    return data


def _dataset_blocks(
    ctx: Context, name: str, views: Mapping[str, View]
) -> tuple[list[Block], list[str], set[str]]:
    """A dataset as its rule set's view prints it under the game's readings, else whole by the generic renderer
    (a view that no longer knows the data's shape too: a reshaped table still prints whole); with the errata its
    values depend on (those its build read and those its lines name)."""
    rs, period = ctx.ruleset, ctx.period
    built, read = rs.built(name, period, ctx.variants)
    depends = set(read) | referenced_errata(built, rs)
    data = with_readings(built, rs, ctx.variants)
    view = views.get(name)
    if view is not None:
        try:
            return view(data, period or ""), _sources(data), depends
        except (KeyError, TypeError, AttributeError):
            pass  # the data changed shape: print it generically, whole
    if isinstance(data, Mapping):
        return blocks(without_citations(data)), _sources(data), depends
    return blocks(data), [], depends


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


def period_rulesets() -> tuple[str, ...]:
    """The rule sets printing a playsheet per war period: those played as a game with periods, in the registry's
    order (read when asked, so a rule set registered later is one)."""
    ids = (rules.book.ruleset_id for rules in all_game_rules())
    return tuple(i for i in ids if get_ruleset(i).periods)


def period_ruleset(ruleset_id: str | None = None) -> RuleSet:
    """The rule set `ruleset_id` when it prints a sheet per war period (404 naming those that do otherwise);
    without one, the first played rule set with periods (the one `/playsheets/{period}` prints)."""
    printed = period_rulesets()
    if ruleset_id is None and printed:
        return get_ruleset(printed[0])
    if ruleset_id is None or ruleset_id not in printed:
        raise NotFoundError("rule set with periods", ruleset_id or "", list(printed))
    return get_ruleset(ruleset_id)


def section(
    ctx: Context,
    spec: SheetSection,
    notes: list[VariantNote],
    declared: Playsheet,
    placed: set[str],
    used: set[str],
) -> tuple[Section | None, list[str]]:
    """A declared section of the sheet `declared` as printed: its blocks, then its datasets (each by the sheet's
    view of it, their citations shortened by the sheet's `documents`), with the game's readings of the errata it names or claims (none placed before); None when
    it prints nothing. Also the datasets it names that no module registers (yet): listed, never faked."""
    rs = ctx.ruleset
    sec_blocks: list[Block] = list(spec.blocks)
    sources: list[str] = []
    named: set[str] = set()
    missing: list[str] = []
    for name in spec.datasets:
        if name not in rs.datasets:
            missing.append(name)
            continue
        b, src, depends = _dataset_blocks(ctx, name, declared.views)
        named |= depends
        sec_blocks.extend(b)
        sources.extend(s for s in src if s not in sources)
    used |= named
    mine = [
        n
        for n in notes
        if (n.erratum in named or rs.errata[n.erratum].section == spec.id) and n.erratum not in placed
    ]
    placed.update(n.erratum for n in mine)
    if spec.datasets:
        sec_blocks = _pull_sources(sec_blocks, sources)
        sources = short_sources([*spec.sources, *sources], declared.documents)
    else:
        sources = list(spec.sources)
    if not sec_blocks:
        return None, missing
    return Section(spec.id, spec.title, sec_blocks, "", sources, spec.wide, mine, spec.resolvers), missing


def rules_version(rs: RuleSet) -> str:
    """The rules a sheet prints, by name and the version of its book (issue 69), or that the book prints none."""
    return f"{rs.name}, version {rs.version}" if rs.version else f"{rs.name} (its book prints no version)"


def readings_used(ctx: Context, used: set[str]) -> list[str]:
    """The reading in force of every erratum a value the sheet prints depends on (`used`: what its datasets'
    builds read and their lines name), a line each ("<short topic>: <reading>", a game's own marked VARIANT; the
    header says whether the others are the defaults). An erratum no printed value depends on is printed only
    where a game plays its variant (the VARIANT notes): the sheet does not use its reading."""
    return [
        f"{u.erratum.short or u.erratum.topic}: {reading_label(u.used)}{' (VARIANT)' if u.variant else ''}"
        for u in in_force(ctx, used)
    ]


def period_sheet(
    period: str, variants: Mapping[str, str] | None = None, ruleset: str | None = None
) -> PeriodSheet:
    """The period's playsheet of the rule set `ruleset` (by default the first with periods: period_ruleset)."""
    rs = period_ruleset(ruleset)
    ctx = rs.context(period, variants or {})  # validates the period and every variant (422 otherwise)
    assert ctx.period is not None
    notes = variant_notes(rs, period, ctx.variants)
    declared = get_game_rules(rs.id).playsheet(period)
    placed: set[str] = set()
    pages: list[list[Section]] = [[], []]
    missing: list[str] = []
    used: set[str] = set()
    for page, specs in enumerate(declared.pages(period)):
        for spec in specs:
            printed, absent = section(ctx, spec, notes, declared, placed, used)
            missing.extend(absent)
            if printed is not None:
                pages[page].append(printed)
    readings = readings_used(ctx, used)
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
        rules_version(rs),
        readings,
    )
