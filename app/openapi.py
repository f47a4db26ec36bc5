"""`/openapi.json` as a generated client reads it (issue 68), made in one place from the routes' own shape:

- each operation's id is its endpoint function's name (`create_game`, not FastAPI's
  `create_game_api_v1_games_post`), checked unique as the app is built (`operation_id`, `check_unique`);
- the statuses the door and the routes' shape decide are declared where they can happen and nowhere else
  (`shaped`): 400 and 413 where a body is read, 404 where the address names a thing that may not exist (a path
  parameter that is no fixed choice), 507 where something may be written (a write that opens the database; a
  token read, its device's last-seen time; a PDF, kept in the data folder), 429 where a token, key or code is
  read (every failed one is counted) besides where a route declares its own limit (a sheet's render budget, a
  rehearsal, a scenario's import); every refusal's answer written once in the components (`REFUSED`);
- the Server-Sent Events streams documented as their frames (`sse`: each frame's `event:` name and what its
  `data:` holds, the frames' models in the components);
- the schema built once per set of routes in the process and kept (`cached`): the served app builds it as it
  starts, in a thread, so the first request for it is answered from the cache; /openapi.json is its JSON kept
  as bytes, made in a thread (`serve`), so no build holds up the event loop."""

from __future__ import annotations

import hashlib
import json
import threading
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import anyio
from fastapi import FastAPI, Request, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel
from pydantic.warnings import UnsupportedFieldAttributeWarning
from starlette.concurrency import run_in_threadpool
from starlette.routing import Route

from app import deps, errors

WRITES = {"post", "put", "patch", "delete"}
# The statuses `shaped` decides for every operation; the others (401, 403, 409, 422, 429, 503) are the routes'.
SHAPED = {400, 404, 413, 507}


def operation_id(route: APIRoute) -> str:
    """The id a generated client names the operation's function by: the endpoint function's name."""
    return route.name


def api_routes(routes: list[Any]) -> list[APIRoute]:
    """Every API route of `routes`, a module's own router included (tests/app/test_documented_statuses.py too)."""
    found: list[APIRoute] = []
    for route in routes:
        if isinstance(route, APIRoute):
            found.append(route)
        included = getattr(route, "original_router", None)  # a module's own router, included
        if included is not None:
            found.extend(api_routes(included.routes))
    return found


def check_unique(app: FastAPI) -> None:
    """Two operations of one id would leave a generated client one function for both: refused as the app is
    built, naming both."""
    seen: dict[str, str] = {}
    for route in api_routes(list(app.routes)):
        if not route.include_in_schema:
            continue
        name = route.operation_id or operation_id(route)
        where = f"{','.join(sorted(route.methods or ()))} {route.path}"
        if seen.setdefault(name, where) != where:
            raise ValueError(
                f"two operations are both {name!r}: {seen[name]} and {where}; rename one's function"
            )


def _error(code: int) -> dict[str, Any]:
    return {
        "description": errors.responses(code)[code]["description"],
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
    }


def _names_a_thing(path: str, operation: dict[str, Any]) -> bool:
    """Whether the address names something that may not exist: a path parameter that is no fixed choice."""
    for parameter in operation.get("parameters", []):
        if parameter.get("in") != "path":
            continue
        schema = parameter.get("schema", {})
        fixed = "enum" in schema or "const" in schema
        if not fixed:
            return True
    return "{" in path and not operation.get("parameters")


def route_calls(route: APIRoute) -> set[Any]:
    """Every function the route's dependencies call, the endpoint's own included."""
    found, stack = set(), [route.dependant]
    while stack:
        dependant = stack.pop()
        if dependant.call is not None:
            found.add(dependant.call)
        stack.extend(dependant.dependencies)
    return found


def stored(app: FastAPI) -> set[tuple[str, str]]:
    """The operations (path, method) that open the database: a write of theirs may find the disk full."""
    opens = {deps.get_session, deps.get_engine}
    return {
        (route.path_format, method.lower())
        for route in api_routes(list(app.routes))
        if route.include_in_schema and opens & route_calls(route)
        for method in route.methods or ()
    }


def shaped(spec: dict[str, Any], database: set[tuple[str, str]]) -> None:
    """Each operation's 400, 404, 413, 429 and 507 declared from its shape (see the module's docstring);
    `database`: the operations that open the database (`stored`)."""
    for path, operations in spec.get("paths", {}).items():
        for method, operation in operations.items():
            answers: dict[str, Any] = operation.setdefault("responses", {})
            for code in SHAPED:
                answers.pop(str(code), None)
            reads_token = "401" in answers  # its device's last-seen time is written as it is read
            kept = "application/pdf" in answers.get("200", {}).get("content", {})  # kept in the data folder
            wanted = set()
            if "requestBody" in operation:
                wanted |= {400, 413}
            if _names_a_thing(path, operation):
                wanted.add(404)
            if ((path, method) in database and method in WRITES) or reads_token or kept:
                wanted.add(507)
            if reads_token:
                wanted.add(429)
            for code in sorted(wanted):
                answers.setdefault(str(code), _error(code))
            operation["responses"] = {code: _shared(spec, code, a) for code, a in sorted(answers.items())}


# The refusals' answers by status, each written once in the components and referred to (a fifth of the schema's
# size was the same few refusals written out under every operation).
REFUSED = {
    400: "BadRequest",
    401: "Unauthorized",
    403: "Forbidden",
    404: "NotFound",
    409: "Conflict",
    413: "TooLarge",
    422: "Invalid",
    429: "TooMany",
    503: "Unavailable",
    507: "DiskFull",
}
ERROR_OUT = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}}


def _shared(spec: dict[str, Any], code: str, answer: dict[str, Any]) -> dict[str, Any]:
    """A refusal's answer as a $ref to the components' one of the same words (one per status and words)."""
    if not code.isdecimal() or int(code) not in REFUSED or set(answer) != {"description", "content"}:
        return answer
    if answer["content"] != ERROR_OUT:
        return answer
    shared = spec.setdefault("components", {}).setdefault("responses", {})
    base = REFUSED[int(code)]
    name, n = base, 1
    while name in shared and shared[name] != answer:
        n += 1
        name = f"{base}{n}"
    shared.setdefault(name, answer)
    return {"$ref": f"#/components/responses/{name}"}


@dataclass(frozen=True)
class Frame:
    """One kind of a stream's frames: its `event:` name and the model of its `data:` (JSON on one line)."""

    event: str
    data: type[BaseModel] | None
    says: str


# The frames' models by name: no answer refers to them, so `_frames_documented` puts them in the components.
_FRAME_MODELS: dict[str, type[BaseModel]] = {}


def sse(summary: str, frames: list[Frame]) -> dict[int | str, dict[str, Any]]:
    """A stream's 200 as `text/event-stream`: the frames it sends in words, and as `x-sse-frames` (each frame's
    `event:` name to the schema of its `data:`), their models in the components."""
    said = "; ".join(f"`{f.event}`: {f.says}" for f in frames)
    schema = {
        "type": "string",
        "description": f"{summary} Frames (`event:` name, then what `data:` holds, JSON on one line): {said}. "
        "Also `retry:` as it opens and `: keep-alive` comments while nothing happens.",
    }
    kinds: dict[str, Any] = {}
    for f in frames:
        if f.data is not None:
            _FRAME_MODELS[f.data.__name__] = f.data
        kinds[f.event] = {"$ref": f"#/components/schemas/{f.data.__name__}"} if f.data else {"type": "string"}
    return {
        200: {
            "description": "A Server-Sent Events stream",
            "content": {"text/event-stream": {"schema": schema, "x-sse-frames": kinds}},
        }
    }


def _frames_documented(spec: dict[str, Any]) -> None:
    """The models of the frames a stream documents into the components (no answer refers to them)."""
    schemas = spec.setdefault("components", {}).setdefault("schemas", {})
    for operations in spec.get("paths", {}).values():
        for operation in operations.values():
            for answer in operation.get("responses", {}).values():
                stream = answer.get("content", {}).get("text/event-stream", {})
                for ref in stream.get("x-sse-frames", {}).values():
                    name = ref.get("$ref", "").rsplit("/", 1)[-1]
                    if name in _FRAME_MODELS and name not in schemas:
                        defs = _FRAME_MODELS[name].model_json_schema(
                            ref_template="#/components/schemas/{model}"
                        )
                        for sub, sub_schema in defs.pop("$defs", {}).items():
                            schemas.setdefault(sub, sub_schema)
                        schemas[name] = defs


# -- built once ---------------------------------------------------------------------------------------------------
_built: dict[tuple[Any, ...], dict[str, Any]] = {}
_lock = threading.Lock()


def _routes_key(app: FastAPI) -> tuple[Any, ...]:
    """What the schema is made of: the app's operations (every app of the process has the same, but a test
    may register a rule set of its own), its title and version."""
    routes = tuple(
        (r.path, tuple(sorted(r.methods or ())), r.name, repr(r.response_model))
        for r in api_routes(list(app.routes))
        if r.include_in_schema
    )
    return (app.title, app.version, routes)


def cached(app: FastAPI, build: Callable[[], dict[str, Any]]) -> Callable[[], dict[str, Any]]:
    """`app.openapi`: the schema `build` makes, post-processed here, built once per set of routes in the
    process (~2.5 s of CPU for ~270 operations) and kept."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            key = _routes_key(app)
            with _lock:
                if key not in _built:
                    spec = build()
                    shaped(spec, stored(app))
                    _frames_documented(spec)
                    _built[key] = spec
            app.openapi_schema = _built[key]
        return app.openapi_schema

    return openapi


def serve(app: FastAPI) -> None:
    """/openapi.json answered from the schema's JSON kept as bytes, built (or waited for) in a thread: its
    build never holds up the event loop, and so every other client's request, as FastAPI's own route did."""
    url = app.openapi_url
    if url is None:
        return
    encoded: dict[int, tuple[bytes, str]] = {}
    one_at_a_time: list[anyio.Lock] = []  # made in the server's event loop, at the first request

    def body() -> tuple[bytes, str]:
        spec = app.openapi()
        if id(spec) not in encoded:
            encoded.clear()
            text = json.dumps(spec, separators=(",", ":")).encode()
            encoded[id(spec)] = (text, f'"{hashlib.sha256(text).hexdigest()[:32]}"')
        return encoded[id(spec)]

    async def openapi_json(request: Request) -> Response:
        kept = encoded.get(id(app.openapi_schema))
        if kept is None:
            # One request builds (or waits for the start's build) in a thread; the others wait here, in the
            # event loop, holding no thread of the pool the sync routes answer in (the hostile pass: 45 waiting
            # requests held up every other request until the build was done).
            if not one_at_a_time:
                one_at_a_time.append(anyio.Lock())
            async with one_at_a_time[0]:
                kept = await run_in_threadpool(body)  # kept by the request before: at once
        text, etag = kept
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers={"ETag": etag})
        return Response(text, media_type="application/json", headers={"ETag": etag})

    app.router.routes[:] = [r for r in app.router.routes if getattr(r, "path", None) != url]
    app.router.routes.insert(0, Route(url, openapi_json, include_in_schema=False))


def warm(app: FastAPI) -> threading.Thread:
    """The schema built in a thread of its own, as a served app starts: its first request is then answered
    from the cache, and no request waits behind its build in the event loop.

    FastAPI hides pydantic's UnsupportedFieldAttributeWarning (a parameter's alias, meaningless where it builds
    the parameter's type adapter) inside `warnings.catch_warnings()`, whose filters are the whole process's: a
    request thread leaving its own catch_warnings (FastAPI's, on every answer) while this thread built the
    schema's fields put the warning back in force, and an installed server printed it to the organiser (a loaded
    run of tests/app/test_install.py). The same ignore, for the process, from before the thread starts."""
    warnings.filterwarnings("ignore", category=UnsupportedFieldAttributeWarning)
    thread = threading.Thread(target=app.openapi, name="openapi-warm", daemon=True)
    thread.start()
    return thread
