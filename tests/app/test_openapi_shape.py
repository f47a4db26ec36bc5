"""`/openapi.json` made in one place from the routes' shape (app/openapi.py, issue 68): each door status declared
where the operation can meet it and nowhere else, the refusals written once in the components, the streams
documented as their frames, ids unique by construction, and the schema built once per process."""

from __future__ import annotations

import asyncio
import threading
import warnings
from pathlib import Path
from typing import Annotated, Any

import httpx
import pytest
from fastapi import FastAPI, Query
from fastapi.testclient import TestClient
from pydantic import TypeAdapter
from pydantic.warnings import UnsupportedFieldAttributeWarning

from app import openapi as api_schema
from app.core.config import Settings
from app.core.db import migrate
from app.core.routing import Router
from app.main import app, create_app


def _statuses(path: str, method: str) -> set[int]:
    return {int(s) for s in app.openapi()["paths"][path][method]["responses"]}


def test_each_door_status_is_declared_where_the_operation_can_meet_it() -> None:
    door = {400, 404, 413, 429, 507}
    # A lookup of no address, no body and no token: none of them.
    assert _statuses("/api/v1/rulesets", "get") & door == set()
    # A pure computation on a body: the body's 400 and 413, nothing stored, no token.
    assert _statuses("/api/v1/rulesets/flanders-fields/lookups/distance", "post") & door == {400, 413}
    # A game made from a body: written (507), the organiser key read (429); its address names no thing.
    assert _statuses("/api/v1/games", "post") & door == {400, 413, 429, 507}
    # A game's units: an address naming a game, a token read (its last-seen time written, failures counted).
    assert _statuses("/api/v1/games/{game_id}/units", "get") & door == {404, 429, 507}
    # A side's fire-plan form: the side is a fixed choice, so the address names nothing that may be missing.
    assert 404 not in _statuses("/playsheets/fire-plan/{side}", "get")
    # A join: every wrong code is counted (429), declared by the route itself.
    assert _statuses("/api/v1/join", "post") & door == {400, 413, 429, 507}


def test_the_refusals_are_written_once_and_referred_to() -> None:
    spec = app.openapi()
    shared = spec["components"]["responses"]
    assert shared["NotFound"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ErrorOut"
    }
    answers = [a for ops in spec["paths"].values() for op in ops.values() for a in op["responses"].values()]
    refs = [a for a in answers if "$ref" in a]
    assert len(refs) > 900
    assert all(a["$ref"].removeprefix("#/components/responses/") in shared for a in refs)


def test_the_streams_are_documented_as_their_frames() -> None:
    spec = app.openapi()
    schemas = spec["components"]["schemas"]
    game = spec["paths"]["/api/v1/games/{game_id}/stream"]["get"]["responses"]["200"]["content"]
    frames = game["text/event-stream"]["x-sse-frames"]
    assert frames["aside"] == {"$ref": "#/components/schemas/AsideFrame"}
    assert {"as_of_event", "refetch", "kind", "payload"} <= set(schemas["EventFrame"]["properties"])
    assert "aside" in game["text/event-stream"]["schema"]["description"]
    club = spec["paths"]["/api/v1/events/{event_id}/stream"]["get"]["responses"]["200"]["content"]
    assert club["text/event-stream"]["x-sse-frames"] == {"board": {"$ref": "#/components/schemas/BoardOut"}}


def test_two_operations_of_one_id_are_refused_as_the_app_is_built() -> None:
    first, second = Router(), Router()

    @first.get("/a")
    def same() -> dict[str, Any]:
        return {}

    @second.get("/b", name="same")
    def other() -> dict[str, Any]:
        return {}

    doubled = FastAPI(generate_unique_id_function=api_schema.operation_id)
    doubled.include_router(first)
    doubled.include_router(second)
    with pytest.raises(ValueError, match="two operations are both 'same'"):
        api_schema.check_unique(doubled)


def test_the_schema_is_built_once_for_every_app_of_the_same_routes(tmp_path: Path) -> None:
    """Two apps made here, not the module's, whose schema a test before this one in the worker may have had built
    otherwise (ci67 failed once so, in a full run: equal schemas, not one object; not reproduced alone)."""
    first, second = (create_app(Settings(database_url="sqlite://", var_dir=tmp_path)) for _ in range(2))
    assert api_schema._routes_key(first) == api_schema._routes_key(second)
    assert second.openapi() is first.openapi()


def test_a_schema_being_built_holds_up_no_other_request(tmp_path: Path) -> None:
    """/openapi.json is made in a thread: while its build runs, the event loop answers everyone else (FastAPI's
    own route built it in the event loop: /healthz waited 3.2 s behind a first /openapi.json)."""
    served = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'f.db'}", var_dir=tmp_path))
    migrate(f"sqlite:///{tmp_path / 'f.db'}")
    entered, release, finished = threading.Event(), threading.Event(), threading.Event()
    built = served.openapi

    def slow_build() -> dict[str, Any]:
        entered.set()
        release.wait(60)  # released below once /healthz has answered; at the latest after a minute
        finished.set()
        return built()

    served.openapi = slow_build  # type: ignore[method-assign]
    with TestClient(served) as c:
        answers: list[int] = []
        asking = threading.Thread(target=lambda: answers.append(c.get("/openapi.json").status_code))
        asking.start()
        assert entered.wait(60)
        assert c.get("/healthz").status_code == 200
        assert not finished.is_set(), "/healthz waited for the schema's build"
        release.set()
        asking.join(60)
    assert answers == [200]


def test_requests_waiting_for_the_build_hold_no_thread_and_a_kept_schema_is_not_sent_again(
    tmp_path: Path,
) -> None:
    """The hostile pass: 45 first requests of /openapi.json each held one of the 40 threads the sync routes
    answer in while the schema was built, so /api/v1/scenarios went unanswered until the build was done. They
    wait in the event loop now; and a client holding the schema (its ETag) is answered 304, not 618 KB again."""
    url = f"sqlite:///{tmp_path / 'f.db'}"
    migrate(url)
    served = create_app(Settings(database_url=url, var_dir=tmp_path))
    entered, release = threading.Event(), threading.Event()
    held_too_long: list[bool] = []
    built = served.openapi

    def slow_build() -> dict[str, Any]:
        entered.set()
        # Released below once the sync route has answered; at the latest after a minute, which fails the test.
        held_too_long.append(not release.wait(60))
        return built()

    served.openapi = slow_build  # type: ignore[method-assign]

    async def run() -> tuple[int, list[httpx.Response]]:
        transport = httpx.ASGITransport(app=served)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            waiting = [asyncio.create_task(c.get("/openapi.json")) for _ in range(45)]
            while (
                not entered.is_set()
            ):  # the first request's build has its thread (the others were asked first)
                await asyncio.sleep(0.01)
            try:
                answered = await c.get("/api/v1/scenarios")
            finally:
                release.set()
            return answered.status_code, await asyncio.gather(*waiting)

    # In a thread of its own: a worker that ran a browser test before has Playwright's loop on this thread.
    ran: list[tuple[int, list[httpx.Response]]] = []
    asking = threading.Thread(target=lambda: ran.append(asyncio.run(run())))
    asking.start()
    asking.join(120)
    status, schemas = ran[0]
    assert status == 200 and {r.status_code for r in schemas} == {200}
    assert not any(held_too_long), "the sync route waited for the schema's build"
    etag = schemas[0].headers["etag"]
    with TestClient(served) as c:
        again = c.get("/openapi.json", headers={"If-None-Match": etag})
        assert again.status_code == 304 and again.content == b""


def test_the_schema_built_in_its_thread_lets_no_parameter_warning_reach_the_organiser(tmp_path: Path) -> None:
    """FastAPI hides pydantic's warning of a parameter's alias in `warnings.catch_warnings()`, whose filters are
    the process's: a request thread's own catch_warnings ending while the warm thread built a field put the
    warning back in force, and an installed server printed it (a loaded run of tests/app/test_install.py).
    Once a served app warms its schema, building such a field outside FastAPI's catch_warnings (as a request
    thread's restored filters leave it) warns nothing."""
    served = create_app(Settings(database_url="sqlite://", var_dir=tmp_path))
    api_schema.warm(served).join(60)
    with warnings.catch_warnings(record=True) as seen:
        TypeAdapter(Annotated[str | None, Query(alias="ruleset")])
    assert [str(w.message) for w in seen] == []
    # And whatever this process has warned before (a warning shown once is not shown again): the first of the
    # process's filters that matches pydantic's warning ignores it.
    text, module = (
        "The 'alias' attribute with value 'ruleset' was provided",
        "pydantic._internal._generate_schema",
    )
    first = next(
        (
            action
            for action, message, category, of_module, _line in warnings.filters
            if (message is None or message.match(text))
            and issubclass(UnsupportedFieldAttributeWarning, category)
            and (of_module is None or of_module.match(module))
        ),
        "none: shown",
    )
    assert first == "ignore"
