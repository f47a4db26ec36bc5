"""FastAPI (0.16x) resolves an included router's routes (each one's fields, dependencies and handler) the first
time an app matches a request or lists its routes, and keeps them on that app's inclusion: ~11% of the API tests'
CPU, each test's new app resolving the same module-level routers again, and about a second of each browser test
server's. A test process resolves a router once and every app that includes it the same way shares the result:
create_app includes the same routers with the same arguments each time, and the one thing an app adds (itself,
as the provider of dependency overrides) is unused: no test overrides a dependency (checked at each resolution).
Used by tests/conftest.py (the TestClient apps) and the browser tests' server maker (tests/frontend/conftest.py),
whose forks inherit what it resolved."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

METHODS = ("effective_candidates", "effective_low_priority_routes")


def shared_resolutions() -> tuple[Any, dict[str, Callable[[Any], Any]]] | None:
    """FastAPI's inclusion class and, by name, its resolving methods made to share their answers; None for a
    FastAPI without them (each app then resolves its own, as the served app does)."""
    try:
        from fastapi.routing import _IncludedRouter
    except ImportError:
        return None
    kept: dict[tuple[str, int], list[tuple[Any, Any, Any]]] = {}

    def shared(method: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def resolved(self: Any) -> Any:
            router, context = self.original_router, self.include_context
            provider = context.dependency_overrides_provider
            assert not getattr(provider, "dependency_overrides", None), "a test overrides a dependency"
            # The same router included the same way (its prefix, dependencies, responses...) but for the app.
            same = (
                dataclasses.replace(context, dependency_overrides_provider=None),
                router._get_routes_version(),
            )
            entries = kept.setdefault((method.__name__, id(router)), [])
            for _router, key, routes in entries:  # the router held, so that its id stays its own
                if key == same:
                    return routes
            routes = method(self)
            entries.append((router, same, routes))
            return routes

        return resolved

    return _IncludedRouter, {name: shared(getattr(_IncludedRouter, name)) for name in METHODS}


def share_for_the_process() -> None:
    """Every app of this process shares its routers' resolutions from now on."""
    if (found := shared_resolutions()) is not None:
        cls, methods = found
        for name, method in methods.items():
            setattr(cls, name, method)


def resolve(routes: list[Any]) -> None:
    """Resolve now every inclusion among `routes` (an app's) and inside them, as a request meets them when it
    matches (the app's listing of its routes does not resolve the inner ones), so a fork finds them done."""
    found = shared_resolutions()
    if found is None:
        return
    cls = found[0]
    for route in routes:
        if isinstance(route, cls):
            route.effective_low_priority_routes()
            resolve(route.effective_candidates())
