"""Every route documents the statuses its dependencies answer: a route that reads the device's token answers
401 (no or unknown token) and 403 (a token of another game or campaign, or a side acting for the other), and
one that needs the organiser key 401 and 403 too (schemathesis found `GET .../units/{id}/acts` answering an
undocumented 403). And no route is registered twice."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from fastapi.routing import iter_route_contexts

from app.guard import auth
from app.main import app
from app.openapi import api_routes, route_calls

# The dependencies that refuse before a route runs, and what they answer.
REFUSING: dict[Callable[..., Any], set[int]] = {
    auth.viewer: {401, 403},
    auth.campaign_viewer: {401, 403},
    auth.stream_viewer: {401, 403},
    auth.require_organiser: {401, 403},
}


def test_every_route_documents_what_its_dependencies_answer() -> None:
    checked, undocumented = 0, []
    for route in api_routes(list(app.routes)):
        if not route.include_in_schema:
            continue
        answers = set().union(*(codes for call, codes in REFUSING.items() if call in route_calls(route)))
        documented = {int(code) for code in route.responses or {} if str(code).isdigit()}
        checked += bool(answers)
        if answers - documented:
            undocumented.append((route.path, sorted(route.methods), sorted(answers - documented)))
    assert checked > 60
    assert undocumented == []


def test_each_method_and_path_is_routed_once() -> None:
    """A router included twice (the event day's pages were) answers from its first copy only: the second is
    dead weight every later route is matched past, and walked twice by the secrets walk."""
    routes = iter_route_contexts(app.router.routes)
    seen = [(route.path_format, method) for route in routes for method in route.methods or ()]
    assert len(seen) > 300
    assert [p for p, n in Counter(seen).items() if n > 1] == []
