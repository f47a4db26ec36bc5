"""The one place where domain errors become HTTP answers. Every error body is {"detail": ...}."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import iter_route_contexts
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from rules.core.errors import NotFoundError, RulesError


class Conflict(Exception):
    """A stale write: the client's version is not the current one (HTTP 409, with the current state)."""

    def __init__(self, message: str, current: Any = None) -> None:
        self.message = message
        self.current = current
        super().__init__(message)


class Forbidden(Exception):
    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


class Unauthorized(Exception):
    def __init__(self, message: str = "a bearer token is required") -> None:
        self.message = message
        super().__init__(message)


class TooManyRequests(Exception):
    """Too many failed join codes or tokens from one client address, or too many rehearsals at once (HTTP 429
    with Retry-After)."""

    def __init__(self, message: str, retry_after: int) -> None:
        self.message = message
        self.retry_after = retry_after
        super().__init__(message)


class ErrorOut(BaseModel):
    """Every error answer: `detail` is a message, or a list of {loc, msg, type, allowed?} for bad fields."""

    detail: Any


def responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI documentation of the error answers a route can give."""
    text = {
        400: "Malformed request: the body could not be parsed",
        401: "No or unknown bearer token",
        403: "The token may not do this",
        404: "Not found",
        409: "Stale write: the body has the current state",
        413: "The request body is over the size limit (app/guard/limits.py): names the limit in bytes",
        422: "Invalid input: names the field and the allowed values",
        429: "Too many failed attempts from this address, or too much work at once: Retry-After gives the "
        "seconds to wait",
    }
    return {c: {"model": ErrorOut, "description": text[c]} for c in codes}


def _field_error(loc: list[str | int], msg: str, allowed: list[Any] | None = None) -> dict[str, Any]:
    err: dict[str, Any] = {"loc": loc, "msg": msg, "type": "value_error"}
    if allowed is not None:
        err["allowed"] = allowed
    return err


def install(app: FastAPI) -> None:
    @app.exception_handler(RulesError)
    async def _rules_error(_req: Request, exc: RulesError) -> JSONResponse:
        loc: list[str | int] = ["body", *(int(p) if p.isdigit() else p for p in exc.field.split("."))]
        return JSONResponse(
            status_code=422, content={"detail": [_field_error(loc, exc.message, exc.allowed)]}
        )

    @app.exception_handler(NotFoundError)
    async def _not_found(_req: Request, exc: NotFoundError) -> JSONResponse:
        return JSONResponse(status_code=404, content={"detail": exc.message})

    @app.exception_handler(Conflict)
    async def _conflict(_req: Request, exc: Conflict) -> JSONResponse:
        return JSONResponse(status_code=409, content={"detail": exc.message, "current": exc.current})

    @app.exception_handler(Forbidden)
    async def _forbidden(_req: Request, exc: Forbidden) -> JSONResponse:
        return JSONResponse(status_code=403, content={"detail": exc.message})

    @app.exception_handler(Unauthorized)
    async def _unauthorized(_req: Request, exc: Unauthorized) -> JSONResponse:
        return JSONResponse(
            status_code=401, content={"detail": exc.message}, headers={"WWW-Authenticate": "Bearer"}
        )

    @app.exception_handler(TooManyRequests)
    async def _too_many(_req: Request, exc: TooManyRequests) -> JSONResponse:
        return JSONResponse(
            status_code=429, content={"detail": exc.message}, headers={"Retry-After": str(exc.retry_after)}
        )

    @app.exception_handler(RequestValidationError)
    async def _validation(_req: Request, exc: RequestValidationError) -> JSONResponse:
        # Same shape as FastAPI's, minus the echoed input (which may be large or not JSON-serialisable).
        detail = [
            {"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "value_error")}
            for e in exc.errors()
        ]
        return JSONResponse(status_code=422, content={"detail": detail})

    @app.exception_handler(StarletteHTTPException)
    async def _http(req: Request, exc: StarletteHTTPException) -> JSONResponse:
        headers = exc.headers
        if exc.status_code == 405:
            headers = {**(headers or {}), "Allow": _allowed_methods(req)}
        return JSONResponse(status_code=exc.status_code, content={"detail": exc.detail}, headers=headers)


def _allowed_methods(req: Request) -> str:
    """Every method of the path: each method of a path is its own route, and Starlette's 405 names only
    the first route that matched the path. A literal path (/campaigns/join) is not also /campaigns/{id}."""
    by_template: dict[str, set[str]] = {}
    for route in iter_route_contexts(req.app.router.routes):
        match, _ = route.matches(req.scope)
        if match != Match.NONE:
            by_template.setdefault(getattr(route, "path", ""), set()).update(
                getattr(route, "methods", None) or ()
            )
    literal = by_template.get(req.url.path)
    methods = literal if literal is not None else set().union(*by_template.values())
    return ", ".join(sorted(methods))
