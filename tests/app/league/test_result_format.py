"""The result bundle's format published (issue 70): firestep-result/3 was defined only by the app's code. Its JSON
Schema is a file of the package, served to anyone; the models that check a bundle at import are held to it;
every bundle the app exports (one table's, an event day's file, each rule set's demo scenario) validates against
it; and a bundle made by another tool from the schema and docs/result-format.md alone (independent_producer,
no app import) is imported and verified, while the same bundle one byte altered, or claimed by another key, is
refused naming the signature."""

from __future__ import annotations

import ast
import json
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi.testclient import TestClient
from jsonschema import Draft202012Validator

from app.data.schemas_league import BUNDLE_SCHEMA, ResultBundle
from app.services.league import ruleset_hash
from tests.app.events.test_event_day import bearer, register
from tests.app.league import independent_producer
from tests.app.league.test_league import new_league
from tests.csrf import form

URL = "/api/v1/leagues/formats/firestep-result-3.schema.json"
DEMOS = [("flanders-fields", "early", "mons-1914"), ("2mm-earth-1418", None, "earth2mm-demo-ferme")]


def published() -> dict[str, Any]:
    return dict(json.loads(files("app.data").joinpath(BUNDLE_SCHEMA).read_text("utf-8")))


def _resolved(node: Any, root: dict[str, Any]) -> Any:
    if isinstance(node, dict) and "$ref" in node:
        return root["$defs"][node["$ref"].removeprefix("#/$defs/")]
    return node


def held_to(model: Any, file: Any, model_root: dict[str, Any], file_root: dict[str, Any], at: str) -> None:
    """Every constraint the model checks is in the file at the same place, with the same value (the file may
    say more: what the models check in code, a signature's hex digits, the record's shape)."""
    model, file = _resolved(model, model_root), _resolved(file, file_root)
    if isinstance(model, dict):
        assert isinstance(file, dict), at
        for key, value in model.items():
            if key in ("title", "description", "$defs"):
                continue
            assert key in file, f"{at}: the schema file has no {key}"
            held_to(value, file[key], model_root, file_root, f"{at}.{key}")
    elif isinstance(model, list) and model and isinstance(model[0], dict):
        assert isinstance(file, list) and len(file) == len(model), at
        for i, (m, f) in enumerate(zip(model, file, strict=True)):
            held_to(m, f, model_root, file_root, f"{at}[{i}]")
    else:
        assert model == file, f"{at}: the model says {model!r}, the schema file {file!r}"


def test_the_schema_is_served_to_anyone_and_the_import_models_hold_to_it(sqlite_client: TestClient) -> None:
    r = sqlite_client.get(URL)
    assert r.status_code == 200 and r.headers["content-type"] == "application/schema+json"
    assert r.headers["cache-control"] == "public, max-age=86400" and "cookie" not in r.headers.get("vary", "")
    schema = r.json()
    assert schema == published()
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["properties"]["format"]["const"] == "firestep-result/3"
    model = ResultBundle.model_json_schema()
    held_to(model, schema, model, schema, "bundle")
    assert set(schema["properties"]) == set(model["properties"]) and schema["required"] == model["required"]


def test_the_independent_producer_imports_nothing_of_firestep() -> None:
    tree = ast.parse(Path(independent_producer.__file__).read_text("utf-8"))
    imported = {
        (n.module or "") if isinstance(n, ast.ImportFrom) else a.name
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in n.names
    }
    assert {m.split(".")[0] for m in imported} == {"__future__", "hashlib", "json", "typing", "cryptography"}


def settled_day(c: TestClient, ruleset: str, period: str | None, scenario: str) -> tuple[int, dict[str, str]]:
    """An event of one round, two tables: table 1 played to its end and confirmed by both seats, table 2's
    result typed from paper (set by the organiser)."""
    made = c.post(
        "/api/v1/events", json={"name": "Demo day", "ruleset": ruleset, "period": period, "rounds": 1}
    )
    assert made.status_code == 201, made.text
    event_id, organiser = made.json()["event"]["id"], bearer(made.json()["organiser_token"])
    register(c, event_id, organiser, n=4)
    url = f"/api/v1/events/{event_id}"
    assert c.post(f"{url}/rounds", headers=organiser, json={"scenario": scenario}).is_success
    played, paper = c.post(f"{url}/rounds/1/commit", headers=organiser).json()["seats"]
    game, referee = f"/api/v1/games/{played['game_id']}", bearer(played["referee_token"])
    for call in ("turn/advance", "finish"):
        version = c.get(f"{game}/turn", headers=referee).json()["version"]
        assert c.post(f"{game}/{call}", headers=referee, json={"version": version}).status_code == 200
    for side in ("attacker", "defender"):
        token = c.post("/api/v1/join", json={"code": played["join_codes"][side]}).json()["token"]
        assert c.post(f"{url}/tables/{played['table_id']}/confirm", headers=bearer(token)).is_success
    result = {"winner": "b", "a_points": 1, "b_points": 4}
    assert (
        c.put(f"{url}/tables/{paper['table_id']}/result", headers=organiser, json=result).status_code == 200
    )
    c.cookies.clear()
    return event_id, organiser


@pytest.mark.parametrize(("ruleset", "period", "scenario"), DEMOS)
def test_every_bundle_the_app_exports_validates_against_the_schema(
    sqlite_client: TestClient, ruleset: str, period: str | None, scenario: str
) -> None:
    c = sqlite_client
    validator = Draft202012Validator(published())
    event_id, organiser = settled_day(c, ruleset, period, scenario)
    tables = c.get(f"/api/v1/events/{event_id}/rounds/1", headers=organiser).json()["tables"]
    one = c.post(
        f"/api/v1/events/{event_id}/tables/{tables[0]['id']}/bundle",
        headers=organiser,
        json={"club": "Ypres"},
    )
    assert one.status_code == 200, one.text
    c.cookies.set("firestep_organiser", organiser["Authorization"].removeprefix("Bearer "))
    day = c.post(f"/events/{event_id}/bundles", data=form(c, {"club": "Ypres", "part": "1"}))
    assert day.status_code == 200, day.text
    bundles = [one.json(), *day.json()]
    assert [(b["ruleset"], b["scenario"], b["settled"]) for b in bundles] == [
        (ruleset, scenario, "confirmed"),
        (ruleset, scenario, "confirmed"),
        (ruleset, scenario, "altered"),
    ]
    assert bundles[0]["record"]["log"][-1][4] == "game-finished"
    for bundle in bundles:
        errors = [f"{list(e.absolute_path)}: {e.message[:120]}" for e in validator.iter_errors(bundle)]
        assert not errors, errors


def test_a_bundle_another_tool_makes_from_the_schema_is_imported_and_verified(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    schema = c.get(URL).json()  # the tool reads the schema as served, not the app's files
    key = Ed25519PrivateKey.generate()
    bundle = independent_producer.produce(schema, key, "flanders-fields", ruleset_hash("flanders-fields"))
    assert not list(Draft202012Validator(schema).iter_errors(bundle))
    league_id, organiser = new_league(c)
    results = f"/api/v1/leagues/{league_id}/results"
    text = json.dumps(bundle, ensure_ascii=False)  # as the tool writes its file: spaced, keys in its order

    def imported(body: str) -> Any:
        return c.post(
            results,
            headers={**organiser, "Content-Type": "application/json"},
            content=f'{{"bundle": {body}}}',
        )

    # One byte altered (the event's name, a signed field): the signature no longer holds.
    altered = text.replace('round two"', 'round twO"')
    assert len(altered.encode()) == len(text.encode()) and altered != text
    refused = imported(altered)
    assert refused.status_code == 422 and refused.json()["field"] == "bundle.signature", refused.text
    assert refused.json()["detail"] == "The bundle was changed after its club signed it: refused."
    # Claimed by another club's key: not that key's signature.
    stranger = Ed25519PrivateKey.generate().public_key().public_bytes_raw().hex()
    claimed = imported(text.replace(bundle["public_key"], stranger))
    assert claimed.status_code == 422 and claimed.json()["field"] == "bundle.signature", claimed.text

    kept = imported(text)
    assert kept.status_code == 201, kept.text
    assert kept.json()["checked"].startswith("Signature, hashes and the game's record checked: the result is")
    # Verified, and waiting for the league's organiser to trust the club's key.
    assert kept.json()["status"] == "pending"
    assert (kept.json()["event"], kept.json()["round"], kept.json()["table"]) == (bundle["event"], 2, 3)
    assert kept.json()["players"] == {"attacker": ["Zoë", "Mons"], "defender": ["Bob", "Arras"]}
