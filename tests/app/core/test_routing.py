"""The router gate (app/core/routing.py): a router answers "no match" for a path outside the prefix all its
routes share, or inside it but taken by none of its routes, without testing its routes, and never hides one of
its own routes."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.routing import Match

from app.core.routing import Router, static_prefix


def _scope(path: str, method: str = "GET") -> dict[str, Any]:
    return {"type": "http", "path": path, "method": method, "root_path": "", "headers": []}


def _router(*paths: str) -> Router:
    router = Router()
    for path in paths:
        router.add_api_route(path, lambda: {}, methods=["GET"])
    return router


def test_static_prefix_stops_at_the_first_parameter() -> None:
    assert static_prefix("/api/v1/games/{game_id}/units") == "/api/v1/games/"
    assert static_prefix("/healthz") == "/healthz"


def test_a_path_outside_the_shared_prefix_is_refused_without_testing_a_route(monkeypatch: Any) -> None:
    import fastapi.routing

    games = _router("/api/v1/games", "/api/v1/games/{game_id}/units", "/api/v1/games/{game_id}/turn")
    lookup = _router("/lookup", "/lookup/{resolver}")
    app = FastAPI()
    app.include_router(games)
    app.include_router(lookup)
    tested: list[str] = []
    # FastAPI tests each route through its effective-route context (fastapi 0.165): count those tests.
    context = fastapi.routing._EffectiveRouteContext
    original = context.matches

    def counting(self: Any, scope: Any) -> Any:
        tested.append(self.original_route.path)
        return original(self, scope)

    monkeypatch.setattr(context, "matches", counting)
    assert games.shared_prefix() == "/api/v1/games"
    assert games.matches(_scope("/lookup"))[0] == Match.NONE
    with TestClient(app) as client:
        assert client.get("/lookup/order-roll").status_code == 200
    assert tested and not [p for p in tested if p.startswith("/api/v1/games")]


def test_a_path_inside_the_prefix_that_no_route_takes_is_refused_without_testing_a_route(
    monkeypatch: Any,
) -> None:
    """Every router of a game's paths shares /api/v1/games/: a path of one is refused by the others' patterns."""
    import fastapi.routing

    forces = _router("/api/v1/games/{game_id}/units", "/api/v1/games/{game_id}/units/{unit_id}/markers")
    clock = _router("/api/v1/games/{game_id}/clock", "/api/v1/games/{game_id}/clock/{action}")
    app = FastAPI()
    app.include_router(forces)
    app.include_router(clock)
    tested: list[str] = []
    context = fastapi.routing._EffectiveRouteContext
    original = context.matches

    def counting(self: Any, scope: Any) -> Any:
        tested.append(self.original_route.path)
        return original(self, scope)

    monkeypatch.setattr(context, "matches", counting)
    assert forces.matches(_scope("/api/v1/games/3/clock/start"))[0] == Match.NONE
    assert forces.matches(_scope("/api/v1/games/3/units/4/markers/5"))[0] == Match.NONE
    with TestClient(app) as client:
        assert client.get("/api/v1/games/3/units/9/markers").status_code == 200
        tested.clear()
        assert client.get("/api/v1/games/3/clock/start").status_code == 200
    assert tested and all(p.startswith("/api/v1/games/{game_id}/clock") for p in tested)


def _taken_by(path: str) -> str:
    """A path the route of `path` takes: each parameter a value its convertor reads."""
    values = {
        "int": "7",
        "id": "7",
        "path": "a/b",
        "float": "1.5",
        "uuid": "12345678-1234-1234-1234-123456789abc",
    }
    return re.sub(r"{[^}:]+(?::(\w+))?}", lambda m: values.get(m.group(1) or "", "x"), path)


def test_every_route_of_the_app_is_inside_its_routers_pattern() -> None:
    """Each router's pattern takes a path of every one of its routes (and each route that path), so the gate
    never refuses a request one of its routes would take."""
    from app import pages
    from app.routes import api_routers

    routers = [*api_routers(), *pages.page_routers()]
    patterned = 0
    for router in routers:
        taken = router.paths_taken()
        patterned += taken is not None
        for route in router.routes:
            path = getattr(route, "path", None)
            if path is not None and taken is not None:
                sample = _taken_by(path)
                assert route.path_regex.match(sample), (path, sample)
                assert taken.match(sample), (path, sample)
    assert patterned >= len(routers) - 2  # the docs', the lookup's (which holds the lookup sheet's)


def test_the_prefix_follows_the_routes_added() -> None:
    router = _router("/api/v1/games/{game_id}")
    assert router.shared_prefix() == "/api/v1/games"
    router.add_api_route("/api/v1/join", lambda: {}, methods=["POST"])
    assert router.shared_prefix() == "/api/v1"


def test_every_route_of_the_app_is_inside_its_routers_gate() -> None:
    """Each route module's and rule set's router: every one of its paths starts with its gate, so the gate
    never refuses a path one of its routes would take."""
    from app import pages
    from app.routes import api_routers

    routers = [*api_routers(), *pages.page_routers()]
    assert all(isinstance(r, Router) for r in routers)
    gated = 0
    for router in routers:
        prefix = router.shared_prefix()
        for route in router.routes:
            path = getattr(route, "path", None)
            if path is not None:
                assert static_prefix(path).startswith(prefix), (path, prefix)
        gated += bool(prefix)
    assert gated >= len(routers) - 2  # all but the docs' and the lookup's (which holds the lookup sheet's)


def test_requests_still_reach_routes_in_every_router(client: TestClient) -> None:
    assert client.get("/healthz").status_code == 200
    assert client.get("/api/v1/rulesets/flanders-fields").status_code == 200
    order = {"period": "early", "unit": "rifle-company", "quality": "veteran", "dice": [4]}
    assert client.post("/api/v1/rulesets/flanders-fields/order-roll", json=order).json()["total"] == 5
    assert client.get("/lookup").status_code == 200
    # A wrong method is still found through the gate (a partial match: 405); an unknown path is a 404.
    assert client.get("/api/v1/rulesets/flanders-fields/order-roll").status_code == 405
    assert client.get("/api/v1/rulesets/flanders-fields/no-such-resolver").status_code == 404


def test_an_endpoint_that_streams_is_answered_as_it_streams() -> None:
    """Only a plain function is run as a coroutine on the thread pool (answered_on_the_loop): an async
    generator endpoint FastAPI streams itself, each item a line (as wrapped, its body was empty: the coroutine
    that would have made the generator was never awaited)."""
    router = Router(prefix="/t")

    @router.get("/lines")
    async def lines() -> AsyncIterator[dict[str, int]]:
        for n in range(2):
            yield {"n": n}

    app = FastAPI()
    app.include_router(router)
    with TestClient(app) as client:
        answer = client.get("/t/lines")
    assert answer.status_code == 200
    assert answer.text.splitlines() == ['{"n":0}', '{"n":1}']
