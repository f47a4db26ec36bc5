"""A rule set's data table as a JSON answer (`GET /api/v1/rulesets/{id}/...`), documented by the shape of its
readings so a generated client types every row."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import ConfigDict, RootModel

# -- a rule set's data tables -----------------------------------------------------------------------------------
_JSON_TYPES: tuple[tuple[type, str], ...] = (
    (bool, "boolean"),
    (int, "number"),
    (float, "number"),
    (str, "string"),
    (type(None), "null"),
    (dict, "object"),
    (list, "array"),
    (tuple, "array"),
)


def _shape(value: Any, depth: int) -> dict[str, Any]:
    """The JSON schema `value` has, its keys and items described `depth` levels down (below, their types)."""
    kind = next(name for t, name in _JSON_TYPES if isinstance(value, t))
    out: dict[str, Any] = {"type": kind}
    if depth and kind == "object" and value:
        out["properties"] = {str(k): _shape(v, depth - 1) for k, v in value.items()}
    if kind == "array":
        # Every array says what its items are (a generated client drops an answer with an array of no item
        # type): its rows' shape merged, or any value where it is empty or deeper than `depth`.
        items: dict[str, Any] = _shape(value[0], depth - 1) if depth and value else {}
        for v in value[1:] if depth else ():
            items = _merged(items, _shape(v, depth - 1))
        out["items"] = items
    return out


def _merged(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """A schema both `a` and `b` meet: an object's keys and an array's items merged, other kinds any of."""
    if a == b:
        return a
    if a.get("type") == b.get("type") == "object":
        props = dict(a.get("properties", {}))
        for k, v in b.get("properties", {}).items():
            props[k] = _merged(props[k], v) if k in props else v
        return {"type": "object", **({"properties": props} if props else {})}
    if a.get("type") == b.get("type") == "array":
        # An empty array's items ({}: any) say nothing of the other's.
        items = _merged(a["items"], b["items"]) if a["items"] and b["items"] else a["items"] or b["items"]
        return {"type": "array", "items": items}
    branches = [*a.get("anyOf", [a]), *b.get("anyOf", [b])]
    distinct = [s for i, s in enumerate(branches) if s not in branches[:i]]
    return {"anyOf": distinct}


# How deep a data table's shape is documented (the deepest table nests 12 levels of lists and objects).
TABLE_DEPTH = 16


def dataset_model(title: str, readings: Callable[[], list[Any]]) -> type[RootModel[Any]]:
    """A rule set's data table as an answer: served as it is built, documented by the shape of every reading
    of it (one per period where it differs by period), every row typed (`TABLE_DEPTH` levels down, far below
    the deepest table); read when the schema is first asked for, not as the app starts."""

    def documented(schema: dict[str, Any]) -> None:
        first, *others = readings()
        shape = _shape(first, TABLE_DEPTH)
        for other in others:
            shape = _merged(shape, _shape(other, TABLE_DEPTH))
        schema.update(shape)

    config = ConfigDict(json_schema_extra=documented)
    model: type[RootModel[Any]] = type(
        title, (RootModel[Any],), {"model_config": config, "__module__": __name__}
    )
    return model
