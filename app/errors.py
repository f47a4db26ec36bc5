"""The one place where domain errors become HTTP answers. Every refusal's body is `refusal()`'s (ErrorOut):
`detail` one sentence of at most 120 characters that says what to do, the rule and the field beside it, and
`said`, the sentence a player at the table is shown for it (`shown_to_player`), and `said_why`, its reason as
the player's "Why?" opens it (`said_why`)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NotRequired, TypedDict

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import iter_route_contexts
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from app.sentences import (
    MAX_DETAIL,
    ONE_SENTENCE,
    choices,
    error_words,
    field_of,
    is_one_sentence,
    label_of,
    one_sentence,
    sentence,
    short,
)
from rules.core.errors import NotFoundError, RulesError

FIELD_ERRORS_SHOWN = 50  # a body of 130,000 wrong keys was answered field by field: 11.7 MB for 1.7 MB sent


# The most characters of a refusal's reason (`why`): a reason echoes the value it refuses (an unknown period of
# 60,000 characters answered 120 KB), cut here; the longest a rule quotes is under 1,000.
WHY_MAX = 2_000


def cut(text: str, width: int = WHY_MAX) -> str:
    """A reason cut to `width` characters (its words as they are)."""
    return text if len(text) <= width else text[: width - 1] + "…"


class FieldErrorBody(TypedDict):
    """One bad field of a refusal (FieldError's JSON)."""

    loc: list[str | int]
    msg: str
    type: str
    allowed: NotRequired[Any]  # the refusal's own: a literal's values, a number's bounds...


class RefusalBody(TypedDict):
    """Every refusal's body (ErrorOut's JSON; a 503's `print_view`, a lost answer's `carried_out`:
    docs/api-errors.md): a key is there only when given."""

    detail: str
    said: str
    why: str
    said_why: str
    field: NotRequired[str]
    allowed: NotRequired[Any]  # the refusal's own: the values a field allows, in its terms
    source: NotRequired[str]
    errors: NotRequired[list[FieldErrorBody]]
    current: NotRequired[Any]  # a 409's: the state as it stands, whichever resource's
    print_view: NotRequired[str]
    carried_out: NotRequired[bool]


_NOT_GIVEN: Any = object()

# What net-status.js shows a player where the API's sentence (for any client) is not what the table needs.
STALE_PAGE = "Nothing was changed: reload the page and try again, its security token is out of date."
NOT_TAKEN = "Nothing was changed: reload the page and try again, it sent something the server does not take."
LINK_NOT_TAKEN = (
    "That link asks for something the server does not take: check it, or open it again from its page."
)
SHOWN_BY_STATUS = {
    401: "Join again with a code from the referee: this device is not signed in to this game.",
    403: "Your side may not do that.",
    404: "That is no longer there: it may have been removed on another device.",
    409: "Someone changed this on another device: try again if it is still needed, the screen shows it now.",
    413: "That is too much to send at once.",
    422: "That value is not allowed here.",
}
# Some reasons name rows by id ("unit 17"); the people at the table see names, so "this unit".
BY_ID = re.compile(r"\b(unit|stand|item|event|device) [0-9]+\b")


def said_why(why: str) -> str:
    """A refusal's reason (`why`) as a player's "Why?" opens it (net-status.js shows it as it is): a sentence,
    a row named without its id."""
    said = sentence(BY_ID.sub(r"this \1", why))
    return said[:-1] if said.endswith(("!.", "….")) else said


def shown_to_player(status: int, told: str = "", retry_after: int | None = None) -> str:
    """The sentence a player is shown for a refusal of `status`: the API's (`told`) where it says what the
    player can do (a 403's, a 422's), else a fixed one for its status."""
    if status == 429:
        wait = "a few seconds" if retry_after is None else f"{retry_after} seconds"
        return f"Too many tries from this device: wait {wait} and try again."
    if status in (403, 422) and told:
        return told
    fixed = f"The server could not do that (error {status}): try again, and tell the referee if it keeps on."
    return SHOWN_BY_STATUS.get(status, fixed)


def refusal(
    detail: str,
    *,
    status: int,
    retry_after: int | None = None,
    why: str | None = None,
    field: str | None = None,
    allowed: Any = None,
    source: str | None = None,
    errors: list[FieldErrorBody] | None = None,
    current: Any = _NOT_GIVEN,
    print_view: str | None = None,
    carried_out: bool | None = None,
    rule: bool = False,
) -> RefusalBody:
    """Every refusal's body (see ErrorOut) for its `status`: `detail` one sentence saying what to do, `said` the
    player's, the rest beside it (a 409's `current` even when None; a 429's `retry_after` in seconds). `rule`: a
    409 a rule refused (RuleRefused) or the door's own (an Idempotency-Key's), said in its own sentence; else a 409
    is a stale write's."""
    why = cut(why or detail)
    detail = one_sentence(detail, "The request was refused: see why.")
    told = one_sentence(BY_ID.sub(r"this \1", detail), detail)
    if status == 403 and field == "x-csrftoken":  # a page open since before its token changed
        said = STALE_PAGE
    elif status == 409 and rule:
        said = told  # a rule refused it (RuleRefused): its sentence, not a stale write's
    elif status == 422 and any(
        e["type"] != "value_error" or e["loc"][:1] == ["header"] for e in errors or []
    ):
        said = NOT_TAKEN  # not a rule's refusal: the page sent what the player cannot fix but by reloading
    else:
        said = shown_to_player(status, told, retry_after)
    body: RefusalBody = {"detail": detail, "said": said, "why": why, "said_why": said_why(why)}
    if field is not None:
        body["field"] = field
    if allowed is not None:
        body["allowed"] = allowed
    if source is not None:
        body["source"] = source
    if errors is not None:
        body["errors"] = errors
    if current is not _NOT_GIVEN:
        body["current"] = current
    if print_view is not None:
        body["print_view"] = print_view
    if carried_out is not None:
        body["carried_out"] = carried_out
    return body


class Refused(Exception):
    """A refusal of the app: `message` is its sentence, saying what to do; `why`, where given, the reason in
    full (else the message) and `source` the printed rule."""

    def __init__(self, message: str, why: str | None = None, source: str | None = None) -> None:
        self.message = message
        self.why = why or message
        self.source = source
        super().__init__(message)


class Conflict(Refused):
    """A stale write: the client's version is not the current one, or another device's write won the race (HTTP
    409, with the current state). A player is shown a stale write's words ("Someone changed this on another
    device"), so it is raised only where a version conflict happened: a rule's refusal is a `RuleRefused`."""

    def __init__(
        self, message: str, current: Any = None, why: str | None = None, source: str | None = None
    ) -> None:
        self.current = current
        super().__init__(message, why, source)


class RuleRefused(Conflict):
    """A rule refuses this as things stand: the game is over, set-up is past, a round is a draft, a league is
    full (HTTP 409 as a stale write is, with the current state, so a page answering a Conflict answers it too).
    Its sentence names the rule, and it is the sentence the player is shown (`said`) and the API's `detail`,
    never a stale write's words (issue 89; tests/app/test_refusal_kinds.py holds every Conflict to a version's)."""


class Forbidden(Refused):
    pass


class Absent(Refused):
    """What the address asks for does not exist here, and the sentence says why (HTTP 404): a game of a rule
    set without aiming points has no aiming-point cards."""


class Unauthorized(Refused):
    def __init__(
        self,
        message: str = "Send this device's token: Authorization: Bearer or the cookie",
        why: str | None = None,
    ) -> None:
        super().__init__(message, why)


class TooManyRequests(Refused):
    """Too many failed join codes or tokens from one client address, or too many rehearsals at once (HTTP 429
    with Retry-After)."""

    def __init__(self, message: str, retry_after: int) -> None:
        self.retry_after = retry_after
        super().__init__(message)


class Unavailable(Refused):
    """What this server cannot do until something is installed on it (HTTP 503): its PDFs without the PDF
    engine (app/core/pdf_engine.py). `print_view` is where the same sheet prints from the browser."""


class FieldError(BaseModel):
    loc: list[str | int]
    msg: str
    type: str
    allowed: Any = None


class ErrorOut(BaseModel):
    """Every refusal (docs/api-errors.md): `detail` is one sentence of at most 120 characters that says
    what to do; beside it the request `field` it is about, the `allowed` values, `why` (the rule or reason
    in full) and `source` (the printed rule), where there are such; `errors` lists every bad field of a 422;
    `current` is the current state with a 409; `said` is the sentence a player at the table is shown, and
    `said_why` the reason behind its "Why?"."""

    detail: str = Field(max_length=MAX_DETAIL, pattern=ONE_SENTENCE)
    said: str = Field(max_length=MAX_DETAIL, pattern=ONE_SENTENCE)
    why: str
    said_why: str
    field: str | None = None
    allowed: Any = None
    source: str | None = None
    errors: list[FieldError] | None = Field(None, max_length=FIELD_ERRORS_SHOWN)
    current: Any = None


def responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI documentation of the error answers a route can give."""
    text = {
        400: "Malformed request: the body could not be parsed",
        401: "No or unknown bearer token",
        403: "The token may not do this",
        404: "Not found",
        409: "Stale write or not now: `current` has the current state",
        413: "The request body is over the size limit (app/guard/limits.py): `allowed` names it in bytes",
        422: "Invalid input: `field` names the field, `allowed` the allowed values, `errors` every bad field",
        429: "Too many failed attempts from this address, or too much work at once: Retry-After gives the "
        "seconds to wait",
        503: "This server cannot do it until something is installed on it (its PDF engine): `detail` names "
        "what, `print_view` the sheet's print view for the browser's own Print",
        507: "The server's disk is full: nothing was written (app/core/disk.py)",
    }
    return {c: {"model": ErrorOut, "description": text[c]} for c in codes}


def field_error(
    loc: list[str | int], msg: str, kind: str = "value_error", allowed: Any = None
) -> FieldErrorBody:
    err: FieldErrorBody = {"loc": loc, "msg": msg, "type": kind}
    if allowed is not None:
        err["allowed"] = allowed
    return err


def body_model(route: Any) -> Any:
    """The model of a route's JSON body (None: it has none)."""
    body = getattr(route, "body_field", None)
    info = getattr(body, "field_info", None)
    return getattr(info, "annotation", None)


# A rule's refusal that is not one sentence (an echoed long value): the field and the rule are beside it.
RULES_FALLBACK = "The rules refuse this: see why."


def rules_refusal(exc: RulesError) -> RefusalBody:
    """A RulesError's body: its reason as the sentence, naming the allowed values when they fit (never ids)."""
    reason = sentence(exc.reason)
    detail = reason
    if exc.allowed and not exc.ids:
        detail = sentence(f"{exc.reason.rstrip('. ')}: pick {choices(exc.allowed)}")
    if not is_one_sentence(detail):
        detail = one_sentence(reason, RULES_FALLBACK)
    loc: list[str | int] = [
        "body",
        *(int(p) if p.isdecimal() and len(p) < 10 else p for p in exc.field.split(".")),
    ]
    return refusal(
        detail,
        status=422,
        why=exc.message,
        field=exc.field,
        allowed=exc.allowed,
        source=exc.source,
        errors=[field_error(loc, cut(exc.message), allowed=exc.allowed)],
    )


def validation_refusal(errors: list[FieldErrorBody], model: Any = None) -> RefusalBody:
    """A 422 from the request models: the first bad field as the sentence, named in words (`label_of`, from
    the body's `model`), its path in `field`, every one under `errors`."""
    first = errors[0]
    field = field_of(first["loc"])
    label = label_of(first["loc"], model)
    msg = str(first["msg"]).removeprefix("Value error, ")
    # A validator's message that starts with the field's path ("target_in_deep_shelter.0: must be true or
    # false"): the sentence names the field in words instead, the path stays in `why` and `field`.
    head, _, rest = msg.partition(": ")
    told = rest if rest and head.split(".")[0] in [p for p in first["loc"] if isinstance(p, str)] else msg
    if first["type"] == "missing":
        said = f"Give {label}: it is required."
    elif first["type"] == "extra_forbidden":
        said = f"Leave out {label}: it is not a field here."
    elif first["type"] == "json_invalid":
        said = "Send the body as valid JSON."
    else:
        said = f"Fix {label}: {told[:1].lower()}{told[1:]}"
    detail = one_sentence(said, f"Fix {short(label, 40)}: see why it is refused.")
    return refusal(detail, status=422, why=msg, field=field, allowed=first.get("allowed"), errors=errors)


def model_refusal(errors: Sequence[Any], model: Any = None) -> RefusalBody:
    """A request model's errors (pydantic's, each with its `loc` from the request's part) as the 422's body:
    pydantic's list minus the echoed input (which may be large or not JSON-serialisable)."""
    kept = [
        field_error(list(e.get("loc", ())), error_words(e), e.get("type", "value_error"), _allowed(e))
        for e in errors[:FIELD_ERRORS_SHOWN]
    ]
    return validation_refusal(kept, model)


BOUNDS = ("ge", "gt", "le", "lt", "min_length", "max_length")


def _allowed(error: Any) -> Any:
    """What a request model allows, from pydantic's error: a literal's or enum's values, a number's or text's
    bounds."""
    ctx = error.get("ctx") or {}
    if error.get("type") in ("literal_error", "enum") and isinstance(ctx.get("expected"), str):
        return re.findall(r"'([^']*)'", ctx["expected"]) or None
    bounds = {k: v for k, v in ctx.items() if k in BOUNDS and isinstance(v, int | float)}
    return bounds or None


def not_found_refusal(exc: NotFoundError, loc: list[str | int] | None = None) -> RefusalBody:
    """The refusal of a name that names nothing: of the address (404), or with `loc` of a request field (422,
    naming the field)."""
    name = exc.name if exc.name.startswith("(") or exc.name.isdecimal() else repr(short(exc.name))
    said = f"There is no {exc.what} {name}: check it and try again"
    if loc is None:
        detail = one_sentence(said, "Check the address.")
        return refusal(detail, status=404, why=exc.message, field=exc.what, allowed=exc.allowed)
    detail = one_sentence(said, f"Check {short(label_of(loc), 40)}: it names nothing here.")
    errs = [field_error(loc, exc.message, "not_found", exc.allowed)]
    return refusal(detail, status=422, why=exc.message, field=field_of(loc), allowed=exc.allowed, errors=errs)


def _squashed(name: str) -> str:
    return "".join(c for c in name.lower() if c.isalnum())


def reference_field(route: Any, path_params: dict[str, Any], exc: NotFoundError) -> list[str | int] | None:
    """Where a name that names nothing came from, when not from the address: the query parameter or body field
    it names (`loc`, for a 422 naming the field), else None (the address named it: 404). An operation of the
    API only (a page answers its own 404s)."""
    if route is None or not getattr(route, "include_in_schema", False):
        return None
    if exc.name in {str(v) for v in path_params.values()}:
        return None
    dependant = getattr(route, "dependant", None)
    query = [p.alias for p in getattr(dependant, "query_params", [])]
    model = body_model(route)
    fields = list(getattr(model, "model_fields", {}) or {})
    wanted = _squashed(exc.what)
    last = _squashed(exc.what.split()[-1]) if exc.what.split() else wanted
    for where, names in (("query", query), ("body", fields)):
        for candidate in (wanted, last):
            found = next((n for n in names if _squashed(n) == candidate), None)
            if found is not None:
                return [where, found]
    if model is not None:
        return ["body"]
    return ["query", exc.what.replace(" ", "_")] if query else None


HTTP_SENTENCES = {
    400: "Send a well-formed body: this one could not be read.",
    404: "Nothing is at this address: check the link.",
    409: "This changed meanwhile: reload and try again.",
    403: "This device may not do that: ask the referee.",
    401: "Join again: this device's token is not accepted here.",
    413: "Send a smaller request.",
    422: "Check what you sent: see why it is refused.",
    429: "Too many tries at once: wait a little and try again.",
    503: "This server cannot do that yet: see why.",
}


def _said(status: int, message: str) -> str:
    return one_sentence(message, HTTP_SENTENCES.get(status, "The request was refused: see why."))


def refusal_body(exc: RulesError | Refused) -> RefusalBody:
    """The refusal's body as the API answers it (its sentence, the rule in full and its source), for a page
    that shows a refusal before the act is tried (a stand's card greys the act with it)."""
    if isinstance(exc, RulesError):
        return rules_refusal(exc)
    if isinstance(exc, Conflict):
        return conflict_refusal(exc)
    status = 403 if isinstance(exc, Forbidden) else 409
    return refusal(_said(status, exc.message), status=status, why=exc.why, source=exc.source)


def conflict_refusal(exc: Conflict) -> RefusalBody:
    """A 409's body: a rule's refusal (RuleRefused, or one citing its rule) in its own sentence for `detail` and
    `said` alike, a stale write's `said` the fixed words of a write another device overtook."""
    rule = isinstance(exc, RuleRefused)
    said = one_sentence(exc.message, RULES_FALLBACK) if rule or exc.source else _said(409, exc.message)
    return refusal(said, status=409, why=exc.why, source=exc.source, current=exc.current, rule=rule)


def _documented(app: FastAPI) -> None:
    """FastAPI documents every 422 as its own HTTPValidationError; the answer is a refusal (ErrorOut)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            text = json.dumps(generate()).replace(
                '"#/components/schemas/HTTPValidationError"', '"#/components/schemas/ErrorOut"'
            )
            schema = json.loads(text)
            schemas = schema.setdefault("components", {}).setdefault("schemas", {})
            for name in ("HTTPValidationError", "ValidationError"):
                schemas.pop(name, None)
            defs = ErrorOut.model_json_schema(ref_template="#/components/schemas/{model}")
            schemas.update(defs.pop("$defs", {}))
            schemas.setdefault("ErrorOut", defs)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


# A refusal shown as a page: the request, the sentence and the link that offers its remedy (text, address).
RefusalPage = Callable[[Request, int, str, tuple[str, str] | None], Response]


def wants_a_page(req: Request) -> bool:
    """A browser opening the address itself (a link tapped, a form sent), which shows HTML and would show the
    refusal's JSON as raw text; a script's fetch or an API client asks for JSON or anything."""
    # The API answers JSON (its pages' shell, CSRF and all, is not set up).
    if req.url.path.startswith("/api/"):
        return False
    navigates = req.headers.get("sec-fetch-mode") == "navigate"
    return navigates or req.headers.get("accept", "").startswith("text/html")


def as_asked(method: str, body: RefusalBody) -> RefusalBody:
    """A GET changes nothing: what the server does not take in it is its link's, not a page's to reload (the
    handlers here and the door's guards, app.guard.limits, alike)."""
    if method in ("GET", "HEAD") and body["said"] == NOT_TAKEN:
        body["said"] = LINK_NOT_TAKEN
    return body


def install(app: FastAPI, page: RefusalPage) -> None:
    """The refusals' handlers but a 401's (app.guard.signed_out: its sentence names what was asked for); `page`
    renders a refusal a browser opened as a page (the PDF engine's 503, a 403, a 404)."""
    _documented(app)

    @app.exception_handler(RulesError)
    async def _rules_error(_req: Request, exc: RulesError) -> JSONResponse:
        return JSONResponse(status_code=422, content=rules_refusal(exc))

    def shown(
        req: Request, status: int, body: RefusalBody, headers: Mapping[str, str] | None = None
    ) -> Response:
        # A refusal a browser opened itself (a page's address, a link tapped): a page in its one sentence, with
        # the way back to the start page (session 23: a player opening the organiser's sheet, or a mistyped
        # address, got raw JSON: no title, no language); the API and a page's scripts get the JSON.
        if wants_a_page(req):
            return page(req, status, body["detail"], None)
        return JSONResponse(status_code=status, content=body, headers=headers)

    @app.exception_handler(NotFoundError)
    async def _not_found(req: Request, exc: NotFoundError) -> Response:
        # A name in the address that names nothing is a 404; one in the body or the query a 422 naming its field.
        loc = reference_field(req.scope.get("route"), req.path_params, exc)
        body = as_asked(req.method, not_found_refusal(exc, loc))
        if loc is None:
            return shown(req, 404, body)
        return JSONResponse(status_code=422, content=body)

    @app.exception_handler(Conflict)
    async def _conflict(_req: Request, exc: Conflict) -> JSONResponse:
        # A rule's refusal (RuleRefused) is never answered as a stale write.
        return JSONResponse(status_code=409, content=conflict_refusal(exc))

    @app.exception_handler(Forbidden)
    async def _forbidden(req: Request, exc: Forbidden) -> Response:
        return shown(req, 403, refusal(_said(403, exc.message), status=403, why=exc.why, source=exc.source))

    @app.exception_handler(Absent)
    async def _absent(req: Request, exc: Absent) -> Response:
        return shown(req, 404, refusal(_said(404, exc.message), status=404, why=exc.why, source=exc.source))

    @app.exception_handler(TooManyRequests)
    async def _too_many(req: Request, exc: TooManyRequests) -> Response:
        # A sheet's link tapped past the address's budget (the newcomer pass saw its JSON as raw text): a page.
        body = refusal(_said(429, exc.message), status=429, retry_after=exc.retry_after, why=exc.why)
        answered = shown(req, 429, body)
        answered.headers["Retry-After"] = str(exc.retry_after)
        return answered

    @app.exception_handler(Unavailable)
    async def _unavailable(req: Request, exc: Unavailable) -> Response:
        # The same sheet's print view: the address without ".pdf" (a POST's form, the join cards, opens its page).
        view = req.url.path.removesuffix(".pdf") + (f"?{req.url.query}" if req.url.query else "")
        said = _said(503, exc.message)
        if wants_a_page(req):
            return page(req, 503, said, ("Print it from this browser", view))
        body = refusal(said, status=503, why=exc.why, print_view=view)
        return JSONResponse(status_code=503, content=body)

    @app.exception_handler(RequestValidationError)
    async def _validation(req: Request, exc: RequestValidationError) -> Response:
        # A page's address with a query it does not take (a page of tables past 10,000, typed by hand) is a
        # page of its sentence to a browser, as a 404 is; a form's refused field is its own page's (app.pages).
        model = body_model(req.scope.get("route"))
        return shown(req, 422, as_asked(req.method, model_refusal(exc.errors(), model)))

    @app.exception_handler(StarletteHTTPException)
    async def _http(req: Request, exc: StarletteHTTPException) -> Response:
        headers = exc.headers
        detail = _said(exc.status_code, "")
        if exc.status_code == 405:
            allow = _allowed_methods(req)
            headers = {**(headers or {}), "Allow": allow}
            detail = f"Use {allow} at this address, not {short(req.method, 12)}."
        body = refusal(detail, status=exc.status_code, why=str(exc.detail))
        return (
            shown(req, exc.status_code, body, headers)
            if exc.status_code == 404
            else JSONResponse(status_code=exc.status_code, content=body, headers=headers)
        )


def _allowed_methods(req: Request) -> str:
    """Every method of the path: each method of a path is its own route, and Starlette's 405 names only
    the first route that matched the path. A literal path (/campaigns/join) is not also /campaigns/{id}."""
    by_template: dict[str, set[str]] = {}
    for route in iter_route_contexts(req.app.router.routes):
        if route.matches(req.scope)[0] != Match.NONE:
            allows = getattr(route, "methods", None) or ()
            by_template.setdefault(getattr(route, "path", ""), set()).update(allows)
    literal = by_template.get(req.url.path)
    methods = literal if literal is not None else set().union(*by_template.values())
    return ", ".join(sorted(methods))
