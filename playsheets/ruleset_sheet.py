"""A rule set's own playsheet: the sections its game rules declare (`GameRules.playsheet`: a rule set printing its
own tables declares them, each value with its printed line; one that declares none prints what its book already
holds), with the errata readings a game plays; printed by the same renderer and PDF pipeline as the period sheets.

A rule set with war periods prints one sheet per period (playsheets.sheet); every other rule set played as a game
prints its own, here, under its id.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from playsheets.sheet import Section, VariantNote, rules_version, section, variant_notes
from playsheets.tables import Bullets
from rules.core.errors import NotFoundError
from rules.core.ruleset import RuleSet
from rules.registry import all_game_rules, get_game_rules, get_ruleset


def own_sheets() -> tuple[str, ...]:
    """The rule sets printing a playsheet of their own: those played as a game without war periods, in the
    registry's order."""
    ids = (rules.book.ruleset_id for rules in all_game_rules())
    return tuple(i for i in ids if not get_ruleset(i).periods)


@dataclass
class RuleSetSheet:
    ruleset: str
    name: str
    source: str
    pages: list[list[Section]]
    variants: list[VariantNote]  # every non-default reading the game plays
    version: str = ""  # of its book, as printed (playsheets.sheet.rules_version)

    @property
    def sections(self) -> list[Section]:
        return [s for page in self.pages for s in page]


def readings_section(rs: RuleSet, variants: Mapping[str, str]) -> Section:
    """Every erratum with the reading in force: the default, or the game's own marked VARIANT in full."""
    played = variant_notes(rs, "", variants)
    chosen = {n.erratum for n in played}
    lines = [f"{e.topic}: {e.default}" for e in rs.errata.values() if e.id not in chosen]
    return Section(
        "readings",
        "Readings in force (where the text is silent or ambiguous)",
        [Bullets(lines, columns=2)],
        wide=True,
        variants=played,
    )


def ruleset_sheet(ruleset_id: str, variants: Mapping[str, str] | None = None) -> RuleSetSheet:
    """The rule set's playsheet with a game's readings; 404 for a rule set that prints none of its own."""
    printed = own_sheets()
    if ruleset_id not in printed:
        raise NotFoundError("rule set playsheet", ruleset_id, sorted(printed))
    rs = get_ruleset(ruleset_id)
    ctx = rs.context(None, variants or {})  # validates every variant (422 naming it otherwise)
    declared = get_game_rules(ruleset_id).playsheet(None)
    pages: list[list[Section]] = []
    for specs in declared.pages():
        # The readings are printed whole in their own section: no section claims one.
        built = [section(ctx, spec, [], declared, set(), set())[0] for spec in specs]
        if printed_page := [s for s in built if s is not None]:
            pages.append(printed_page)
    readings = readings_section(rs, ctx.variants)
    if not pages:
        pages.append([])
    if rs.errata:  # a rule set with no erratum has no reading to print
        pages[-1].append(readings)
    return RuleSetSheet(rs.id, rs.name, rs.source, pages, readings.variants, rules_version(rs))
