"""The one place where domain errors become HTTP answers. Every error body is {"detail": ...}."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

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
        422: "Invalid input: names the field and the allowed values",
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

    @app.exception_handler(RequestValidationError)
    async def _validation(_req: Request, exc: RequestValidationError) -> JSONResponse:
        # Same shape as FastAPI's, minus the echoed input (which may be large or not JSON-serialisable).
        detail = [
            {"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "value_error")}
            for e in exc.errors()
        ]
        return JSONResponse(status_code=422, content={"detail": detail})

    @app.exception_handler(StarletteHTTPException)
    async def _http(_req: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse(status_code=exc.status_code, content={"detail": exc.detail}, headers=exc.headers)
