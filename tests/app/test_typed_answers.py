"""Every answer is typed (issue 54): `/openapi.json` gives each operation a response schema for its success
status that says what the answer holds (not `{}`, nor an object of any keys), and no JSON handler in
`app/routes` is annotated as answering a bare `dict[str, Any]` (read from its source)."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from fastapi.routing import APIRoute

from app.main import app
from app.openapi import api_routes

UNTYPED_ANNOTATIONS = {"dict[str, Any]", "list[dict[str, Any]]"}
NO_BODY = {"204", "304"}


def _resolved(schema: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = components[schema["$ref"].rsplit("/", 1)[1]]
    return schema


def _untyped(schema: dict[str, Any], components: dict[str, Any]) -> bool:
    """A schema that says nothing of the answer: `{}` (any value), an object of any keys, or a list of such."""
    schema = _resolved(schema, components)
    if schema.get("type") == "array":
        return _untyped(schema.get("items", {}), components)
    if "anyOf" in schema or "oneOf" in schema:
        return any(_untyped(s, components) for s in schema.get("anyOf", schema.get("oneOf", [])))
    if schema.get("type") == "object":
        return not schema.get("properties") and not isinstance(schema.get("additionalProperties"), dict)
    return "type" not in schema and "const" not in schema and "enum" not in schema


def _success_schemas(spec: dict[str, Any]) -> Iterator[tuple[str, str, str, dict[str, Any] | None]]:
    for path, operations in spec["paths"].items():
        for method, op in operations.items():
            for status, answer in op["responses"].items():
                if not status.startswith("2") or status in NO_BODY:
                    continue
                contents = answer.get("content") or {None: {}}
                for media, content in contents.items():
                    yield f"{method.upper()} {path}", status, str(media), content.get("schema")


def test_every_operation_has_a_response_schema_for_its_success_status() -> None:
    spec = app.openapi()
    components = spec["components"]["schemas"]
    operations = {f"{m.upper()} {p}" for p, ops in spec["paths"].items() for m in ops}
    answers = list(_success_schemas(spec))
    untyped = [
        (op, status, media)
        for op, status, media, schema in answers
        if schema is None or _untyped(schema, components)
    ]
    assert not untyped, f"{len(untyped)} operation(s) without a typed success answer, e.g. {untyped[:5]}"
    assert {op for op, *_ in answers} | _bodiless(spec) == operations


def _bodiless(spec: dict[str, Any]) -> set[str]:
    """Operations whose only success is an answer without a body (204: deleted)."""
    return {
        f"{m.upper()} {p}"
        for p, ops in spec["paths"].items()
        for m, op in ops.items()
        if {s for s in op["responses"] if s.startswith("2")} <= NO_BODY
    }


@cache
def _functions(filename: str) -> dict[int, ast.FunctionDef | ast.AsyncFunctionDef]:
    tree = ast.parse(Path(filename).read_text(encoding="utf-8"))
    return {n.lineno: n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}


def test_no_handler_in_app_routes_answers_an_untyped_dict() -> None:
    routes_dir = (Path(__file__).parents[2] / "app" / "routes").resolve()
    handlers = [  # each as written (a plain one is run through app.core.routing.answered_on_the_loop)
        inspect.unwrap(r.endpoint)
        for r in api_routes(app.routes)
        if isinstance(r, APIRoute)
        and Path(inspect.getsourcefile(inspect.unwrap(r.endpoint)) or "").parent == routes_dir
    ]
    assert len(handlers) > 100  # every module's, the rule sets' generated routes among them
    found = []
    for handler in handlers:
        code = handler.__code__
        # Its code starts at its first decorator's line, its `def` below it.
        defs = _functions(code.co_filename)
        node = defs[min(line for line in defs if line >= code.co_firstlineno)]
        assert node.name == handler.__name__
        if node.returns is not None and ast.unparse(node.returns) in UNTYPED_ANNOTATIONS:
            found.append(f"{Path(code.co_filename).name}:{node.lineno} {node.name}")
    assert not found, f"handlers answering an untyped dict: {found}"
