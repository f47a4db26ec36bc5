"""The router every route and page module uses.

FastAPI tries the routes of each included router in turn until one matches (and the routes of the router that
matches twice: once to choose it, once to handle the request), so a request near the end of a long route list
paid for a test of every route before it: ~80 route tests for one order roll, ~230 for any page. A `Router`
knows the part of the path that all of its routes share, and answers "no match" for any other path with one
string test, so a request pays only for the routes of the router it belongs to."""

from __future__ import annotations

from os.path import commonpath
from typing import Any

from fastapi import APIRouter
from starlette._utils import get_route_path
from starlette.convertors import Convertor, register_url_convertor
from starlette.routing import Match
from starlette.types import Scope


class RowIdConvertor(Convertor[int]):
    """`{name:id}`: a stored row's id in a page's path, at most ten digits. Starlette's `int` takes any length, and
    an id past 2^63 reached the database (SQLite: OverflowError, a 500 on every league and event page, the hostile
    pass of issue 69); such an id names no row, and its path no page (404)."""

    regex = "[0-9]{1,10}"

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        return str(int(value))


register_url_convertor("id", RowIdConvertor())


def static_prefix(path: str) -> str:
    """The part of a route path before its first parameter: every URL it matches starts with this."""
    return path.split("{", 1)[0]


class Router(APIRouter):
    """An APIRouter that refuses, with one string test, every path outside the prefix all its routes share."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._gate: tuple[int, str] = (-1, "")

    def shared_prefix(self) -> str:
        """The longest start every route's path shares ("" when a route has no path: it may match anything).
        Kept until a route is added."""
        if self._gate[0] != len(self.routes):
            paths = [getattr(route, "path", None) for route in self.routes]
            prefixes = [static_prefix(p) for p in paths if p]
            prefix = "" if None in paths or not prefixes else commonpath(prefixes)
            self._gate = (len(self.routes), prefix)
        return self._gate[1]

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] in ("http", "websocket") and not get_route_path(scope).startswith(
            self.shared_prefix()
        ):
            return Match.NONE, {}
        return super().matches(scope)
