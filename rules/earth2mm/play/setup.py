"""2mm Earth 1418's new games: its force tree (STRATEGIC FORMATIONS: an SF of sub-units (companies) of bases
(platoons)), the kinds a unit may be (the characteristics chart's rows, an SF a formation), the SF qualities,
and the scenario files it ships (data/scenarios/*.json: one demo battle, the book printing none). The book has
no organisation tables (erratum organisation): forces come as a scenario's units, never from a table."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rules.core.game import Setup
from rules.earth2mm.data import UNIT_IDS
from rules.earth2mm.play.units import FORMATION_KIND, LEVELS, QUALITIES

SCENARIO_DIR = Path(__file__).resolve().parent.parent / "data" / "scenarios"
# The shipped documents by id, as their files write them: golden documents, checked by the importer's checks in
# their test (tests/rules/test_shipped_scenarios.py), not at import.
DOCUMENTS: dict[str, dict[str, Any]] = {
    doc["id"]: doc
    for doc in (json.loads(p.read_text(encoding="utf-8")) for p in sorted(SCENARIO_DIR.glob("*.json")))
}


class EarthSetup(Setup):
    unit_levels = LEVELS
    unit_kinds = (FORMATION_KIND, *UNIT_IDS)
    qualities = QUALITIES

    def shipped_scenarios(self) -> Mapping[str, Mapping[str, Any]]:
        return DOCUMENTS
