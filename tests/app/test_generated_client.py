"""A client generated from `/openapi.json` by openapi-python-client, a tool nobody here wrote (issue 68): it
keeps every answer (a response the generator cannot type is dropped from the client with a warning: the rule
tables' arrays with no item type and the PDFs were), its functions are named by the operations' short ids, and
the models whose fields it can only type as "any value" are a known list (`KNOWN_UNTYPED`) that may shrink,
never grow. Generated once for the module (a few seconds)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.main import app
from tests.conftest import require

# The generator in its own environment (the Makefile's TOOLS): it holds typer below the version firestep runs on.
TOOL = Path(sys.prefix) / "tools" / "bin" / "openapi-python-client"
# A PDF is `application/pdf` (what the server sends); a generator that reads bytes only as
# `application/octet-stream` is told they are the same (openapi-python-client's `content_type_overrides`).
GENERATOR = {"post_hooks": [], "content_type_overrides": {"application/pdf": "application/octet-stream"}}

# The models with fields a generated client can type only as "any value" (an object of any keys, a list of
# anything), by model and field. It may shrink, never grow. The acts' changes and answers (ChangesOut,
# ResolvedOut, AskedOut, FormationMovedOut, LogEntry, StandActsOut...) are typed by issue 66's discriminated
# union; the rest are open by design (a rule set's own state, a scenario's free-form terrain, GeoJSON).
KNOWN_UNTYPED: dict[str, set[str]] = {
    # a change of the game as the log keeps it (app/data/changes.py): a board key's value or the game's whole board,
    # so any JSON value (a unit's is what a unit's field holds, UnitSet typed; a side's own value is a scalar or a
    # list of them, SideSet typed)
    "GameSet": {"before", "after"},
    # an outcome: the rule set's own record (an effect's value is what a unit's field holds, a card's request
    # what a resolver's request field holds: typed)
    "RolledResolutionOut": {"outcome"},
    # the act pipeline: its answers are typed (ChangesOut, ResolvedOut, AskedOut, StandActsOut...); left are a
    # roll's outcome (the rule set's own record) and a logged event's payload (each act's own, issue 66)
    "ResolutionOut": {"outcome"},
    "EventOut": {"payload"},
    "EventFrame": {"payload"},
    "ArrivalApplyIn": {"dice", "measured", "shots"},
    "AskIn": {"fields"},
    "ResolveIn": {"fields"},
    "ActionIn": {"action"},
    # the campaign: an action sent (its log's actions, legal actions, events and state typed as its rule set
    # declares them, rules.core.campaign.Campaign)
    "ApplyIn": {"action"},
    # a rule set's own values, a game's club data
    "GameDetail": {"terrain", "board"},
    "GameState": {"terrain", "board"},
    "GameNowOut": {"board"},
    "GamePatch": {"club"},
    "ClubData": {"hex_terrain"},
    # a unit's state as its rule set types it (Book.unit_state): the aiming point a pair of numbers, which the
    # generator reads as a list of anything (as Drawn.point)
    "FlandersFieldsUnit": {"aiming_point"},
    # scenarios: the free-form document (docs/scenario-format.md)
    "ScenarioIn": {"fire_plan", "board"},
    "ScenarioSide": {"forces"},
    "TerrainFeature": {"properties"},
    # the league: a signed record as the bundle carries it
    "GameRecord": {"log"},  # its entries arrays of fixed places (prefixItems), as Players' pairs
    "Players": {"attacker", "defender"},
    # the table's geometry: GeoJSON coordinates and points
    "BarrageIn": {"center"},
    "CircleRequest": {"center"},
    "CloudIn": {"center"},
    "CordonRequest": {"center"},
    "CoverOut": {"terrain"},
    "CoverStandIn": {"center"},
    "DeviateIn": {"aim"},
    "Drawn": {"polygon", "point"},
    "GunIn": {"center"},
    "LineStringIn": {"coordinates"},
    "MoveIn": {"path"},
    "MultiPolygonIn": {"coordinates"},
    "PlacedBaseIn": {"center"},
    "PolygonIn": {"coordinates"},
    "StandIn": {"center"},
    "TablePointIn": {"point"},
    "TemplateIn": {"center"},
    # every refusal: the allowed values and the current state are the refusal's own
    "ErrorOut": {"allowed", "current"},
    "FieldError": {"allowed"},
    "FilledOut": {"value", "table"},
    # two organisation tables list no special rules (an empty list types nothing)
    "FlandersFieldsOrganisationGbCavalryRegiment": {"special_rules", "templates"},
    "FlandersFieldsOrganisationGbTankBattalion": {"special_rules", "templates"},
}


def _untyped(schema: dict[str, Any]) -> bool:
    """Says nothing of the value beyond "any" or "an object of any keys" (a list of such too)."""
    if "$ref" in schema or "allOf" in schema:
        return False
    if schema.get("type") == "array":
        return _untyped(schema.get("items", {}))
    for union in ("anyOf", "oneOf"):
        if union in schema:
            return any(_untyped(s) for s in schema[union] if s.get("type") != "null")
    if schema.get("type") == "object":
        return not schema.get("properties") and not isinstance(schema.get("additionalProperties"), dict)
    return "type" not in schema and "const" not in schema and "enum" not in schema


def untyped_fields(spec: dict[str, Any]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for name, schema in spec["components"]["schemas"].items():
        fields = {field for field, sub in schema.get("properties", {}).items() if _untyped(sub)}
        if not schema.get("properties") and (_untyped(schema) or schema.get("additionalProperties") is True):
            fields.add("(open)")
        if fields:
            found[name] = fields
    return found


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, list[Any]]]:
    require(TOOL.exists(), f"openapi-python-client at {TOOL} (make .venv/.installed-test)")
    folder = tmp_path_factory.mktemp("client")
    document = folder / "openapi.json"
    document.write_text(json.dumps(app.openapi()))
    config = folder / "config.json"  # YAML's superset: JSON is read as it is
    config.write_text(json.dumps(GENERATOR))
    made = subprocess.run(
        [
            TOOL,
            "generate",
            "--path",
            document,
            "--config",
            config,
            "--meta",
            "none",
            "--output-path",
            folder / "out",
        ],
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    # Each part it drops is a warning: "Warning(s) encountered while generating", then a block per part.
    said = made.stdout.split("Warning(s) encountered while generating")[1:]
    yield folder / "out", [block.strip() for block in said]


def test_the_generated_client_keeps_every_answer(generated: tuple[Path, list[Any]]) -> None:
    out, said = generated
    assert said == [], f"{len(said)} part(s) of the API dropped by the generator, e.g. {said[:3]}"
    # Every operation is a module of the client, named by its short id.
    operations = [op for ops in app.openapi()["paths"].values() for op in ops.values()]
    modules = {p.stem for p in (out / "api").rglob("*.py")} - {"__init__"}
    assert {op["operationId"] for op in operations} <= modules
    assert len(operations) > 250


def test_the_pdfs_are_read_as_files(generated: tuple[Path, list[Any]]) -> None:
    out, _ = generated
    code = (out / "api" / "playsheets" / "playsheet_pdf.py").read_text()
    assert re.search(r"response_200 = File\(\s*payload\s*=\s*BytesIO\(response\.content\)", code)


def test_operation_ids_are_short_and_unique() -> None:
    ids = [op["operationId"] for ops in app.openapi()["paths"].values() for op in ops.values()]
    assert len(ids) == len(set(ids))
    assert [i for i in ids if re.search(r"_api_v1_|_(get|post|put|patch|delete)$", i)] == []
    assert "create_game" in ids and "list_club_events" in ids and "list_game_events" in ids


def test_the_untyped_models_are_a_known_list_that_does_not_grow() -> None:
    found = untyped_fields(app.openapi())
    new = {name: sorted(fields - KNOWN_UNTYPED.get(name, set())) for name, fields in found.items()}
    new = {name: fields for name, fields in new.items() if fields}
    assert new == {}, (
        f"models newly typed only as 'any value' (type them, or say why in KNOWN_UNTYPED): {new}"
    )
    # ...and the list says no more than is so: a model typed since leaves it.
    stale = {name: sorted(fields - found.get(name, set())) for name, fields in KNOWN_UNTYPED.items()}
    assert {name: fields for name, fields in stale.items() if fields} == {}, (
        "typed now: strike from KNOWN_UNTYPED"
    )
