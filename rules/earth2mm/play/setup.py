"""2mm Earth 1418's new games: its force tree (STRATEGIC FORMATIONS: an SF of sub-units (companies) of bases
(platoons)), the kinds a unit may be (the characteristics chart's rows, an SF a formation), the SF qualities,
and the scenario files it ships (data/scenarios/*.json: one demo battle, the book printing none). The book has
no organisation tables (erratum organisation): a force is a scenario's units, or an SF built from the
characteristics chart (`CHART`), as many sub-units and bases as the player gives it."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import JsonValue

from rules.core.forces import ChartKind, ForceChart
from rules.earth2mm.data import UNIT_IDS, UNITS
from rules.earth2mm.play.kit import SRC_FORMATIONS
from rules.earth2mm.play.units import BASE, FORMATION_KIND, ORDINARY_QUALITY, QUALITIES, SUB_UNIT

SCENARIO_DIR = Path(__file__).resolve().parent.parent / "data" / "scenarios"
# The shipped documents by id, as their files write them: golden documents, checked by the importer's checks in
# their test (tests/rules/test_shipped_scenarios.py), not at import.
# JsonValue: a document as its file writes it, not yet parsed (rules.core.scenario checks and reads it).
DOCUMENTS: dict[str, dict[str, JsonValue]] = {
    doc["id"]: doc
    for doc in (json.loads(p.read_text(encoding="utf-8")) for p in sorted(SCENARIO_DIR.glob("*.json")))
}


# "Each Strategic Formation is made up of a number of sub-units (companies). Each sub-unit constitutes a number
# of bases (platoons)": the book gives no numbers (erratum organisation); these bound one SF built in the
# browser, firestep's and not a rule (AFVs "are based as 2-6 vehicles").
MOST_SUB_UNITS = 12
MOST_BASES = 12
CHART = ForceChart(
    title="characteristics chart",
    formation="strategic formation",
    sub_unit="sub-unit",
    base="base",
    formation_level="battalion",  # "The Normal rules have SF's as Battalions"
    formation_kind=FORMATION_KIND,
    sub_unit_level=SUB_UNIT,
    base_level=BASE,
    kinds=tuple(ChartKind(u.id, u.name, u.kind) for u in UNITS.values()),
    qualities=QUALITIES,
    default_quality=ORDINARY_QUALITY,  # "Line/good inf" (erratum sf-quality)
    most_sub_units=MOST_SUB_UNITS,
    most_bases=MOST_BASES,
    source=SRC_FORMATIONS,
)


# A unit's kind: a strategic formation or one of the chart's units.
UNIT_KINDS = (FORMATION_KIND, *UNIT_IDS)
