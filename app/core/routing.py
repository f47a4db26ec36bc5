"""The router every route and page module uses.

FastAPI tries the routes of each included router in turn until one matches (and the routes of the router that
matches twice: once to choose it, once to handle the request), so a request near the end of a long route list
paid for a test of every route before it: ~80 route tests for one order roll, ~230 for any page. A `Router`
knows the part of the path that all of its routes share, and the paths its routes take, all in one pattern: it
answers "no match" for any other path with one string test and one pattern's, so a request pays only for the
routes of the router it belongs to. (The prefix alone let through every path of a game to each of the routers of
/api/v1/games/{game_id}: a marker's path was tested against 60 routes before its own, 50 us of a request.)"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable
from os.path import commonpath
from typing import Any

from fastapi import APIRouter
from starlette._utils import get_route_path
from starlette.concurrency import run_in_threadpool
from starlette.convertors import Convertor, register_url_convertor
from starlette.routing import Match
from starlette.types import Scope


class RowIdConvertor(Convertor[int]):
    """`{name:id}`: a stored row's id in a page's path, at most 2,147,483,647 (PostgreSQL's integer column, as the
    API's ids). Starlette's `int` takes any length: an id past 2^63 reached the database (SQLite: OverflowError, a
    500 on every league and event page, the hostile pass of issue 69), and one past 2^31 PostgreSQL ("integer out
    of range", a 500: a hostile pass of stop 17); such an id names no row, and its path no page (404)."""

    # Nine digits, or ten up to 2147483647 digit by digit.
    regex = (
        "[0-9]{1,9}|1[0-9]{9}|20[0-9]{8}|21[0-3][0-9]{7}|214[0-6][0-9]{6}|2147[0-3][0-9]{5}|21474[0-7][0-9]{4}"
        "|214748[0-2][0-9]{3}|2147483[0-5][0-9]{2}|21474836[0-3][0-9]|214748364[0-7]"
    )

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        return str(int(value))


register_url_convertor("id", RowIdConvertor())


def static_prefix(path: str) -> str:
    """The part of a route path before its first parameter: every URL it matches starts with this."""
    return path.split("{", 1)[0]


def any_of(patterns: list[re.Pattern[str]]) -> re.Pattern[str]:
    """One pattern matching where any of `patterns` matches (each route's path pattern, anchored as it is; its
    named groups unnamed, as two routes may name the same parameter)."""
    return re.compile("|".join(f"(?:{re.sub(r'[(][?]P<[^>]*>', '(?:', p.pattern)})" for p in patterns))


def answered_on_the_loop(endpoint: Callable[..., Any]) -> Callable[..., Any]:
    """A plain (synchronous) endpoint as a coroutine that runs it on the thread pool: its answer is then checked
    against the route's model on the event loop. FastAPI hands a plain endpoint's answer to the thread pool a
    second time to check it (a hop there and back under the GIL, for CPU work that holds the GIL either way:
    1-2% of an act's CPU, measured with the hop and without); a coroutine's it checks where it is. The endpoint
    as written (`__wrapped__`: its signature, annotations and name) is what FastAPI reads the route from. A
    coroutine, and a generator FastAPI streams, are left as written."""
    if (
        inspect.iscoroutinefunction(endpoint)
        or inspect.isgeneratorfunction(endpoint)
        or inspect.isasyncgenfunction(endpoint)
    ):
        return endpoint

    @functools.wraps(endpoint)
    async def run(**values: Any) -> Any:
        return await run_in_threadpool(endpoint, **values)

    return run


class Router(APIRouter):
    """An APIRouter that refuses, with one string test and one pattern's, every path none of its routes takes,
    and answers each plain endpoint with one hop to the thread pool (`answered_on_the_loop`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._gate: tuple[int, str, re.Pattern[str] | None] = (-1, "", None)

    def add_api_route(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        super().add_api_route(path, answered_on_the_loop(endpoint), **kwargs)

    def _gates(self) -> tuple[int, str, re.Pattern[str] | None]:
        """The prefix every route's path shares ("" when a route has no path: it may match anything) and the
        paths they take (None when a route has no path pattern: an included router). Kept until a route is added."""
        if self._gate[0] != len(self.routes):
            paths = [getattr(route, "path", None) for route in self.routes]
            prefixes = [static_prefix(p) for p in paths if p]
            prefix = "" if None in paths or not prefixes else commonpath(prefixes)
            patterns = [p for route in self.routes if (p := getattr(route, "path_regex", None)) is not None]
            taken = any_of(patterns) if patterns and len(patterns) == len(self.routes) else None
            self._gate = (len(self.routes), prefix, taken)
        return self._gate

    def shared_prefix(self) -> str:
        return self._gates()[1]

    def paths_taken(self) -> re.Pattern[str] | None:
        """The pattern of every path one of its routes takes (None: a route of no path pattern)."""
        return self._gates()[2]

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] in ("http", "websocket"):
            _, prefix, taken = self._gates()
            path = get_route_path(scope)
            if not path.startswith(prefix) or (taken is not None and taken.match(path) is None):
                return Match.NONE, {}
        return super().matches(scope)
