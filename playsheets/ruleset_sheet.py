"""A rule set's own playsheet: the sections its rule set says the sheet holds, built from its own data objects,
with the errata readings a game plays; printed by the same renderer and PDF pipeline as the period sheets.

Flanders Fields prints one sheet per war period (playsheets.sheet); a rule set without periods registers its
sheet's pages here, under its id.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from playsheets import earth2mm_sheet, vimy_sheet
from playsheets.sheet import Section, VariantNote, variant_notes
from playsheets.tables import Bullets
from rules.core.errors import NotFoundError
from rules.core.ruleset import RuleSet
from rules.earth2mm.ruleset import Earth2mm
from rules.registry import get_ruleset
from rules.vimy_ridge.ruleset import VimyRidge

Pages = Callable[[], list[list[Section]]]

# The rule sets that print their own sheet, each with the builder of its pages (two at most).
SHEETS: dict[str, Pages] = {Earth2mm.id: earth2mm_sheet.pages, VimyRidge.id: vimy_sheet.pages}


@dataclass
class RuleSetSheet:
    ruleset: str
    name: str
    source: str
    pages: list[list[Section]]
    variants: list[VariantNote]  # every non-default reading the game plays

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
    """The rule set's playsheet with a game's readings; 404 for a rule set that prints none."""
    if ruleset_id not in SHEETS:
        raise NotFoundError("rule set playsheet", ruleset_id, sorted(SHEETS))
    rs = get_ruleset(ruleset_id)
    ctx = rs.context(None, variants or {})  # validates every variant (422 naming it otherwise)
    pages = SHEETS[ruleset_id]()
    readings = readings_section(rs, ctx.variants)
    pages[-1].append(readings)
    return RuleSetSheet(rs.id, rs.name, rs.source, pages, readings.variants)
