"""The scenario files Flanders Fields ships (data/scenarios/*.json, in the format of docs/scenario-format.md),
read as data below the play code: each is a golden document, checked by the importer's checks in its test
(tests/rules/test_shipped_scenarios.py), not at import."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import JsonValue

SCENARIO_DIR = Path(__file__).resolve().parent / "data" / "scenarios"

# The shipped documents by id, as their files write them (the game hook offers them: Book.scenarios).
# JsonValue: a document as its file writes it, not yet parsed (rules.core.scenario checks and reads it).
DOCUMENTS: dict[str, dict[str, JsonValue]] = {
    doc["id"]: doc
    for doc in (json.loads(p.read_text(encoding="utf-8")) for p in sorted(SCENARIO_DIR.glob("*.json")))
}
