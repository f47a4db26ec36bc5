"""The seams between the rules and the wire stay typed (issue 66): neither of the two counts of what is left
untyped may rise. Each ceiling is the count when it was set; lower it when a change types more.

- Free-form object fields in the game's answers: the fields, in every model a `/api/v1/games` operation's
  success answer reaches in `/openapi.json`, whose schema is an object that names no property (`dict[str, Any]`,
  an object of any keys), or a list of such (what a client generated from the document types as a bare dict).
- `dict[str, Any]` in app/, rules/ and playsheets/: the lines of their Python that write it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from app.main import app

ROOT = Path(__file__).resolve().parents[1]
# 24, then the streams' frames documented (EventFrame and its parts): 27; the app's answers typed: 11; a counter's
# other face named (CountersOut.flipped): 10
FREE_FORM_CEILING = 10
# 576, then app/openapi.py's schema walk (the schema is JSON): 588 (app 379, rules 207, playsheets 2). The rules'
# and the playsheets' records, tables and answers typed: rules 60, playsheets 0. The app's answers typed, the act
# pipeline's writers answering a Written record and an override an Overridden, the JSON columns read whole typed
# as JSON, an event as read a LoggedEvent, a refusal's body, a roll's words and effects, a plan's summary, the
# ledger, the story, a step's permits and a device TypedDicts, a card's application a CardAppliedOut: app 282.
# Session 13: 352, the new scenario's draft kept on the server (app.services.scenario_drafts, its page and
# DraftParticulars: a scenario document is JSON read key by key, 8) and a roll entered as a count (rules.core.rolls).
# Session 14: counted with the names given to it (`Json`, `JsonObject`: 53 lines a name had hidden), the
# editor's forces on the draft (app.services.scenario_forces) and the score's log read as Event's own JSON
# columns (app.services.score.LogRow): 407. Session 16: 408, the editor's Deploy list drawn by the server from the
# draft's document (app/pages/scenario_forces.py `_document`: a scenario document is JSON; its units read typed).
DICT_STR_ANY_CEILING = 408


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


def free_form(schema: dict[str, Any]) -> bool:
    """An object of any keys (no property named; any values, or values that are such objects), or a list or
    a choice holding one."""
    if "$ref" in schema:
        return False
    choices = schema.get("anyOf") or schema.get("oneOf")
    if choices:
        return any(free_form(s) for s in choices)
    if schema.get("type") == "array":
        return free_form(schema.get("items") or {"type": "object"})
    if schema.get("type") == "object" and not schema.get("properties"):
        values = schema.get("additionalProperties")
        return not isinstance(values, dict) or not values or free_form(values)
    return False


def free_form_fields(spec: dict[str, Any], prefix: str = "/api/v1/games") -> list[str]:
    """`Model.field` for each free-form field of the models the success answers under `prefix` reach."""
    components = spec["components"]["schemas"]
    models: set[str] = set()
    for path, operations in spec["paths"].items():
        if path.startswith(prefix):
            for op in operations.values():
                for status, answer in op["responses"].items():
                    if status.startswith("2"):
                        _reached(answer.get("content", {}), components, models)
    return sorted(
        f"{name}.{field}"
        for name in models
        for field, schema in components[name].get("properties", {}).items()
        if free_form(schema)
    )


ALIAS = re.compile(r"^(\w+) = dict\[str, Any\]$", re.MULTILINE)


def dict_str_any_lines() -> int:
    """The lines that write `dict[str, Any]`, or a name given to it (`Json = dict[str, Any]`): a name does not
    type what it names."""
    texts = [
        path.read_text(encoding="utf-8")
        for top in ("app", "rules", "playsheets")
        for path in (ROOT / top).rglob("*.py")
    ]
    names = [rf"\b{name}\b" for name in ALIAS.findall("\n".join(texts))]
    untyped = re.compile("|".join([re.escape("dict[str, Any]"), *names]))
    return sum(bool(untyped.search(line)) for text in texts for line in text.splitlines())


def test_the_free_form_fields_of_the_games_answers_do_not_rise() -> None:
    found = free_form_fields(app.openapi())
    assert "ChangesOut.changes" not in found  # typed: each change its kind's model (app.data.changes)
    assert len(found) <= FREE_FORM_CEILING, found


def test_dict_str_any_does_not_rise() -> None:
    assert dict_str_any_lines() <= DICT_STR_ANY_CEILING


def test_the_counter_sees_each_shape_of_free_form() -> None:
    """The finder itself: an object of any keys, a list of them, a choice with one, a map of such maps are
    free-form; a model, a closed object, a map of strings, a list of strings are not."""
    spec = {
        "paths": {
            "/api/v1/games/x": {
                "get": {"responses": {"200": {"content": {"j": {"schema": {"$ref": "#/c/A"}}}}}}
            }
        },
        "components": {
            "schemas": {
                "A": {
                    "properties": {
                        "any": {"type": "object"},
                        "open": {"type": "object", "additionalProperties": True},
                        "listed": {"type": "array", "items": {"type": "object"}},
                        "maybe": {"anyOf": [{"type": "object"}, {"type": "null"}]},
                        "maps": {"type": "object", "additionalProperties": {"type": "object"}},
                        "model": {"$ref": "#/c/B"},
                        "words": {"type": "object", "additionalProperties": {"type": "string"}},
                        "names": {"type": "array", "items": {"type": "string"}},
                        "closed": {"type": "object", "properties": {"a": {"type": "integer"}}},
                    }
                },
                "B": {"properties": {"free": {"type": "object"}}},
            }
        },
    }
    assert free_form_fields(spec) == ["A.any", "A.listed", "A.maps", "A.maybe", "A.open", "B.free"]
