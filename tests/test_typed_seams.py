"""The seams between the rules and the wire stay typed (issues 66 and 90): neither of the two counts of what is
left untyped may rise. Each ceiling is the count when it was set; lower it when a change types more.

- Free-form answer fields: the fields, in every model a success answer of any operation in `/openapi.json`
  reaches, whose schema types nothing: an object that names no property (`dict[str, Any]`, an object of any
  keys), a value of no type (`Any`: an empty schema), or a list or a choice holding one (what a client
  generated from the document can only type as "any value"). Two kinds are aside, by name: GeoJSON (the
  geometries the Flanders Fields lookups answer and a game's terrain, a FeatureCollection: GEOJSON), and the
  dataset catalogues (the rows a rule set's dataset serves, the `data_*` operations, and the list of its
  datasets: CATALOGUES). Issue 90's target: at most 10.
- Free-form mappings in app/, rules/ and playsheets/: the lines of their Python that write one in any
  spelling (`dict[str, Any]`, `Mapping[str, Any]`, `dict[str, object]`, `Mapping[str, object]`, the `Json`
  and `JsonObject` aliases), or a name given to one. Issue 90's target: under 300."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from app.main import app

ROOT = Path(__file__).resolve().parents[1]
# 24, then the streams' frames documented (EventFrame and its parts): 27; the app's answers typed: 11; a counter's
# other face named (CountersOut.flipped): 10; issue 90, every operation's answers counted and a value of no type
# (`Any`) with them: 49; a unit's state typed by its rule set's model (Book.unit_state): 36; a bundle's record
# and an event's scoring typed: 35; a campaign's state, legal actions and events as its rule set declares them:
# 27; a counter's count once moved an int (UnitCounted.after): 26; a battle's campaign a Snapshot: 25; an event
# table's offered result and its result a TableResult: 21; a side's own value a JSON scalar or a list (SideSet): 19;
# a card edit's value a flag, a count or a word (EditChoice): 18; a rule set's errata typed, each reading's value
# in the shapes the rule sets give them (rules.core.ruleset.ReadingValue): 17; a campaign log entry's action
# typed (an action as the campaign declares it, a map set, a table-battle note, or none): 16; a unit's field set
# typed as what a unit's field holds (UnitSet.before and .after, app.data.changes.UnitValue): 14; a roll's effect's
# value, which sets a unit's field, typed so too (EffectOut.value): 13; a value the table fills and a card's request
# typed as what a resolver's request field holds (FilledOut.value and .table, CardRollOut.request,
# app.data.schemas.RequestValue), and a map whose keys a pattern names counted by its values: 10
FREE_FORM_CEILING = 10
# Issue 66's count of `dict[str, Any]` alone: 576, 588, 352, 407, 408. Issue 90, every spelling counted: 782,
# 774, 732, 716, 703, 695; with the other helpers' typing as committed at 23:30: 684; the session's end: 683; an
# event table's result a model (TableResult), with the other helpers' typing as committed at 02:30: 670; a rule
# set's errata typed (ErratumOut): 668; a campaign log entry's action typed: 667; a card's request typed
# (CardRollOut.request): 666.
FREE_FORM_MAPPING_CEILING = 666

# GeoJSON, by model and field: a Flanders Fields lookup's geometry (rules/flanders_fields/play/geometry_*.py)
# and a game's terrain, a FeatureCollection.
GEOJSON = {
    "ArcOut.arc",
    "BarrageAdvanceOut.danger_zone",
    "BarrageAdvanceOut.polygon",
    "BarrageAdvanceOut.swept",
    "CoverOut.terrain",
    "CoverageOut.template",
    "GasDriftOut.polygon",
    "GasDriftOut.swept",
    "MGFireOut.lane",
    "MGFireOut.zone",
    "GameDetail.terrain",
    "GameState.terrain",
}
# The dataset catalogues: a rule set's list of its datasets; the rows of each are the `data_*` operations'.
CATALOGUES = {"RuleSetSummary.datasets", "RuleSetOut.datasets"}
DATASET_OPERATION = "data_"


def _reached(schema: Any, components: dict[str, Any], out: set[str]) -> set[str]:
    """The component models `schema` reaches through its references, each once."""
    if isinstance(schema, dict):
        ref = schema.get("$ref")
        if isinstance(ref, str):
            name = ref.rsplit("/", 1)[1]
            if name not in out:
                out.add(name)
                _reached(components[name], components, out)
        for value in schema.values():
            _reached(value, components, out)
    elif isinstance(schema, list):
        for value in schema:
            _reached(value, components, out)
    return out


def free_form(schema: dict[str, Any], components: dict[str, Any], seen: frozenset[str] = frozenset()) -> bool:
    """A value of no type (an empty schema), an object of any keys (no property named; any values, or values
    that are such), a reference to a component that is one (pydantic's `JsonValue`), or a list, a tuple or a
    choice holding one."""

    def inner(s: dict[str, Any]) -> bool:
        return free_form(s, components, seen)

    ref = schema.get("$ref")
    if isinstance(ref, str):
        name = ref.rsplit("/", 1)[1]
        target = components.get(name, {})
        return (
            name not in seen and not target.get("properties") and free_form(target, components, seen | {name})
        )
    choices = schema.get("anyOf") or schema.get("oneOf") or schema.get("allOf")
    if choices:
        return any(inner(s) for s in choices)
    kind = schema.get("type")
    if kind is None:
        return "const" not in schema and "enum" not in schema
    if kind == "array":
        if "prefixItems" in schema:
            return any(inner(s) for s in schema["prefixItems"])
        return inner(schema.get("items") or {})
    if kind == "object" and not schema.get("properties"):
        by_pattern = schema.get("patternProperties")
        if by_pattern:  # a map whose keys a pattern names (pydantic refuses any other key), its values typed
            return any(inner(s) for s in by_pattern.values())
        values = schema.get("additionalProperties")
        if values is False:  # an object that must be empty
            return False
        return not isinstance(values, dict) or not values or inner(values)
    return False


def free_form_fields(spec: dict[str, Any]) -> list[str]:
    """`Model.field` for each free-form field of the models every operation's success answers reach, the
    dataset operations' and the named exceptions aside."""
    components = spec["components"]["schemas"]
    models: set[str] = set()
    for operations in spec["paths"].values():
        for op in operations.values():
            if not op.get("operationId", "").startswith(DATASET_OPERATION):
                for status, answer in op["responses"].items():
                    if status.startswith("2"):
                        _reached(answer.get("content", {}), components, models)
    found = {
        f"{name}.{field}"
        for name in models
        for field, schema in components[name].get("properties", {}).items()
        if free_form(schema, components)
    }
    return sorted(found - GEOJSON - CATALOGUES)


SPELLINGS = r"(?:dict|Mapping)\[str, (?:Any|object)\]"
FREE_FORM = re.compile(rf"{SPELLINGS}|\bJson\b|\bJsonObject\b")
ALIAS = re.compile(rf"^(\w+)(?:: TypeAlias)? = (?:Annotated\[)?{SPELLINGS}", re.MULTILINE)


def free_form_mapping_lines() -> int:
    """The lines that write a free-form mapping in any spelling, or a name given to one (`Row = dict[str,
    Any]`): a name does not type what it names."""
    texts = [
        path.read_text(encoding="utf-8")
        for top in ("app", "rules", "playsheets")
        for path in (ROOT / top).rglob("*.py")
    ]
    names = [rf"\b{name}\b" for name in ALIAS.findall("\n".join(texts))]
    untyped = re.compile("|".join([FREE_FORM.pattern, *names]))
    return sum(bool(untyped.search(line)) for text in texts for line in text.splitlines())


def test_the_free_form_fields_of_the_answers_do_not_rise() -> None:
    found = free_form_fields(app.openapi())
    assert "ChangesOut.changes" not in found  # typed: each change its kind's model (app.data.changes)
    assert len(found) <= FREE_FORM_CEILING, found


def test_free_form_mappings_do_not_rise() -> None:
    assert free_form_mapping_lines() <= FREE_FORM_MAPPING_CEILING


def test_the_counter_sees_each_shape_of_free_form() -> None:
    """The finder itself: an object of any keys, a value of no type (a reference to one too), a list of
    either, a tuple holding one, a choice with one, a map of such maps, a map of untyped values whose keys a
    pattern names are free-form; a model, a closed object, a map of strings, a list of strings, a tuple of
    numbers, a constant, an object that must be empty, a map of typed values whose keys a pattern names are
    not; a dataset's rows and the named exceptions are aside."""
    ok = {"type": "string"}
    spec: dict[str, Any] = {
        "paths": {
            "/x": {"get": {"responses": {"200": {"content": {"j": {"schema": {"$ref": "#/c/A"}}}}}}},
            "/d": {
                "get": {
                    "operationId": "data_x_rows",
                    "responses": {"200": {"content": {"j": {"schema": {"$ref": "#/c/Rows"}}}}},
                }
            },
        },
        "components": {
            "schemas": {
                "A": {
                    "properties": {
                        "any": {"type": "object"},
                        "untyped": {"title": "Untyped"},
                        "open": {"type": "object", "additionalProperties": True},
                        "listed": {"type": "array", "items": {"type": "object"}},
                        "anything": {"type": "array", "items": {}},
                        "pair": {"type": "array", "prefixItems": [ok, {}]},
                        "maybe": {"anyOf": [{"type": "object"}, {"type": "null"}]},
                        "maps": {"type": "object", "additionalProperties": {"type": "object"}},
                        "model": {"$ref": "#/c/B"},
                        "json": {"$ref": "#/c/JsonValue"},
                        "json_list": {"type": "array", "items": {"$ref": "#/c/JsonValue"}},
                        "words": {"type": "object", "additionalProperties": ok},
                        "names": {"type": "array", "items": ok},
                        "point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}]},
                        "fixed": {"const": "x"},
                        "empty": {"type": "object", "additionalProperties": False},
                        "closed": {"type": "object", "properties": {"a": {"type": "integer"}}},
                        "by_hex": {
                            "type": "object",
                            "patternProperties": {"^[0-9]{4}$": {"type": "array", "items": ok}},
                        },
                        "by_hex_any": {"type": "object", "patternProperties": {"^[0-9]{4}$": {}}},
                    }
                },
                "B": {"properties": {"free": {"type": "object"}}},
                "JsonValue": {},
                "GameState": {"properties": {"terrain": {"type": "object"}}},
                "Rows": {"properties": {"free": {"type": "object"}}},
            }
        },
    }
    spec["components"]["schemas"]["A"]["properties"]["state"] = {"$ref": "#/c/GameState"}
    assert free_form_fields(spec) == [
        "A.any",
        "A.anything",
        "A.by_hex_any",
        "A.json",
        "A.json_list",
        "A.listed",
        "A.maps",
        "A.maybe",
        "A.open",
        "A.pair",
        "A.untyped",
        "B.free",
    ]
