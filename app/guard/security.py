"""What every request passes through before a route: CSRF protection of everything a browser's cookie
authorises, and per-address limits on failed join codes and tokens (the security headers of every answer:
app.guard.headers).

CSRF. A page on another port of the same host is the same *site*, so SameSite cookies are sent with its
forms. Two layers refuse such a request when a cookie could authorise it (`_cookie_may_authorise`):
- asgi-csrf (double-submit): the signed `firestep_csrf` cookie must come back as the `csrftoken` form field
  or the `x-csrftoken` header (pages render it in every form, a `<meta>` for scripts, `hx-headers` for htmx).
- a cross-origin check: a page on another port could plant its own signed `firestep_csrf` cookie (cookies
  ignore ports) and send the matching field; `Sec-Fetch-Site` (or `Origin` against `Host`) names the sender.

Rate limits. `limits` (moving window, in memory) counts failed join codes and unknown tokens per address
(behind a proxy: uvicorn --proxy-headers), told by `token_failed()` through a context variable (`ClientLimits`).
"""

from __future__ import annotations

import hashlib
import hmac
import math
import re
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from http.cookies import CookieError, SimpleCookie
from typing import Any
from urllib.parse import urlsplit

from asgi_csrf import asgi_csrf
from fastapi import FastAPI
from fastapi.responses import JSONResponse, Response
from fastapi.security.utils import get_authorization_scheme_param
from fastapi.templating import Jinja2Templates
from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from python_multipart import FormParser
from python_multipart.multipart import parse_options_header
from starlette.requests import Request, cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.config import Settings
from app.errors import TooManyRequests, refusal
from rules.core.errors import NotFoundError

# -- CSRF ---------------------------------------------------------------------------------------------------
CSRF_COOKIE = "firestep_csrf"
CSRF_HEADER = "x-csrftoken"
# asgi-csrf reads multipart bodies for this field name only, so forms use it too.
CSRF_FIELD = "csrftoken"
CSRF_SCOPE_KEY = "csrftoken"  # where asgi-csrf puts the function that gives this device's token
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
# The cookies that seat a device in games, campaigns, events, leagues or a scenario's draft (auth.COOKIE_NAME,
# app.pages.seats' GAMES_ and CAMPAIGNS_COOKIE, tournaments.ORGANISER_COOKIE, league.LEAGUE_COOKIE,
# scenario_drafts.DRAFT_COOKIE): a request without any of them acts for nobody.
SEAT_COOKIES = frozenset(
    f"firestep_{name}" for name in ("token", "games", "campaigns", "organiser", "league", "editor")
)
# API writes that a join code (or nothing) authorises and that never read a cookie: a script that joins
# both sides in turn keeps the first join's cookie in its jar, and needs no token for the second. (A form
# cannot forge them either: FastAPI reads a JSON body only from application/json, which a cross-origin page
# can send only after a CORS preflight this server never grants.)
COOKIE_FREE_WRITES = frozenset(
    {
        ("POST", "/api/v1/join"),
        ("POST", "/api/v1/campaigns/join"),
        ("POST", "/api/v1/games"),
        ("POST", "/api/v1/campaigns"),
        ("POST", "/api/v1/events"),
    }
)
# The pages that seat the browser that posts them, joining or creating (login CSRF: a foreign page that
# auto-posts its own code would seat a victim's browser in the attacker's game), are checked like every
# cookie-authorised form whether or not the browser holds a seat cookie yet. The join APIs take no cookie and
# answer JSON to scripts, but set the seat cookie too: a browser's cross-origin request to them is refused.
SIGN_IN_FORMS = frozenset(
    ("POST", path)
    for path in ("/join", "/campaigns/join", "/games/new", "/campaigns/new", "/events", "/events/rekey")
)
# A join card's page seats (app.pages.join_cards); an organiser signs in, or takes a referee seat
# (app.pages.events); a scenario editor's write may key its browser's draft, and its Start seats a game
# (the hostile pass of session 19: forged from another site, it wiped the browser's seats).
SIGN_IN_PATHS = re.compile(
    r"/games/[^/]+/join/[^/]+|/events/[^/]+/(sign-in|tables/[^/]+/referee)|/scenarios/.+"
)
SIGN_IN_API = frozenset({("POST", "/api/v1/join"), ("POST", "/api/v1/campaigns/join")})
# The forms that set this device's own settings in a cookie it keeps (app.pages.theme: Night or Day, 400 days), seat
# or none: checked like a sign-in's, so that no other site's page chooses them for the device (the hostile pass).
DEVICE_FORMS = frozenset({("POST", "/theme")})
NOTICE_HEADER = "X-Firestep-Notice"  # a plain sentence that net-status.js shows for a refused htmx request

CSRF_SENTENCE = f"Send the {CSRF_COOKIE} cookie's value in the {CSRF_HEADER} header, or use a bearer token."
CSRF_REFUSED_API = (
    f"missing or invalid CSRF token: a request authorised by a cookie must send the {CSRF_HEADER} header "
    f"(or the {CSRF_FIELD} form field) with the value of the {CSRF_COOKIE} cookie, from a page of this "
    "server; or authenticate with Authorization: Bearer instead of the cookie"
)
CSRF_REFUSED_PAGE = (
    "Reload the page and try again: this form's security token (CSRF token) is missing or out of date."
)


def csrf_token(request: Request) -> str:
    """The token of this device for forms and scripts (sets the cookie on the answer if it is new)."""
    token: str = request.scope[CSRF_SCOPE_KEY]()
    return token


def _headers(scope: Scope) -> dict[bytes, bytes]:
    return {k.lower(): v for k, v in scope.get("headers") or []}


def _without(scope: Scope, *names: bytes) -> list[tuple[bytes, bytes]]:
    return [(k, v) for k, v in scope.get("headers") or [] if k.lower() not in names]


def _cookie_may_authorise(scope: Scope) -> bool:
    """A seat cookie (Starlette's parser, as routes read it), unless a bearer token authorises instead: the API
    reads one first, as HTTPBearer parses it (auth.presented_token); a page reads its cookies only. The two
    headers read in one pass (each the last of its name, as a dict of them keeps it), the others left undecoded."""
    authorization: bytes | None = None
    cookie = b""
    for name, value in scope.get("headers") or []:
        name = name.lower()
        if name == b"authorization":
            authorization = value
        elif name == b"cookie":
            cookie = value
    if scope["path"].startswith("/api/") and authorization is not None:
        scheme, token = get_authorization_scheme_param(authorization.decode("latin-1"))
        if scheme.lower() == "bearer" and token:
            return False
    return not SEAT_COOKIES.isdisjoint(cookie_parser(cookie.decode("latin-1")))


def _route_key(scope: Scope) -> tuple[str, str]:
    return scope["method"], scope["path"].rstrip("/")


def signs_in(scope: Scope) -> bool:
    """A page's form that seats the browser posting it (checked whether or not the browser holds a seat)."""
    method, path = _route_key(scope)
    return (method, path) in SIGN_IN_FORMS or (method == "POST" and SIGN_IN_PATHS.fullmatch(path) is not None)


def _not_cookie_authorised(scope: Scope) -> bool:
    """Needs no CSRF token: nothing a browser sends on its own authorises it, and it seats no browser."""
    if signs_in(scope) or _route_key(scope) in DEVICE_FORMS:
        return False
    if _route_key(scope) in COOKIE_FREE_WRITES:
        return True
    return not _cookie_may_authorise(scope)


def _cross_origin(headers: dict[bytes, bytes]) -> bool:
    site = headers.get(b"sec-fetch-site", b"").decode("latin-1").lower()
    if site:
        # "none": typed in the address bar or a bookmark; "same-site" includes other ports of this host.
        return site not in ("same-origin", "none")
    origin = headers.get(b"origin", b"").decode("latin-1")
    if not origin:
        return False  # not a browser's cross-origin request (browsers send Origin on every cross-origin POST)
    host = headers.get(b"host", b"").decode("latin-1").lower()
    return origin == "null" or urlsplit(origin).netloc.lower() != host


async def _no_body() -> Message:
    return {"type": "http.disconnect"}


def _refusal_sender(templates: Jinja2Templates) -> Callable[[Scope, Send], Awaitable[None]]:
    async def send_refusal(scope: Scope, send: Send) -> None:
        response: Response
        if scope["path"].startswith("/api/"):
            response = JSONResponse(
                refusal(CSRF_SENTENCE, status=403, why=CSRF_REFUSED_API, field=CSRF_HEADER), status_code=403
            )
        else:
            context = {"title": "Not accepted", "message": CSRF_REFUSED_PAGE}
            response = templates.TemplateResponse(
                Request(scope),
                "error.html",
                context,
                status_code=403,
                headers={NOTICE_HEADER: CSRF_REFUSED_PAGE},
            )
        await response(scope, _no_body, send)

    return send_refusal


class CrossOriginRefusal:
    """Refuses a state-changing request that a cookie could authorise when the browser says another origin
    sent it (runs inside asgi-csrf, so the refusal page can render this device's token)."""

    def __init__(self, app: ASGIApp, send_refusal: Callable[[Scope, Send], Awaitable[None]]) -> None:
        self.app = app
        self.send_refusal = send_refusal

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] not in SAFE_METHODS
            and (_route_key(scope) in SIGN_IN_API or not _not_cookie_authorised(scope))
            and _cross_origin(_headers(scope))
        ):
            await self.send_refusal(scope, send)
            return
        await self.app(scope, receive, send)


# -- rate limits ---------------------------------------------------------------------------------------------
@dataclass
class RateLimits:
    """One app's counters (in memory, so a test's app starts with none)."""

    join_attempt: RateLimitItem
    token_failure: RateLimitItem
    scenario_import: RateLimitItem
    sheet_render: RateLimitItem  # in tenths of a second of CPU
    limiter: MovingWindowRateLimiter

    @classmethod
    def from_settings(cls, settings: Settings) -> RateLimits:
        return cls(
            join_attempt=parse(settings.join_attempt_limit),
            token_failure=parse(settings.token_failure_limit),
            scenario_import=parse(settings.scenario_import_limit),
            sheet_render=parse(settings.sheet_render_limit),
            limiter=MovingWindowRateLimiter(MemoryStorage()),
        )

    def retry_after(self, item: RateLimitItem, *key: str) -> int:
        reset = self.limiter.get_window_stats(item, *key).reset_time
        return max(1, math.ceil(reset - time.time()))


@dataclass(frozen=True)
class Client:
    limits: RateLimits
    address: str


_client: ContextVar[Client | None] = ContextVar("firestep_client", default=None)


class CsrfUnlessApiToken:
    """asgi-csrf for every request a cookie may authorise and every page (it may render a form's token); an API
    call no cookie authorises skips it (minting and signing an unused token: a tenth of a resolve's time)."""

    def __init__(self, app: ASGIApp, /, **csrf_options: Any) -> None:
        self.app = app
        self.checked = asgi_csrf(_multipart_restored(app), **csrf_options)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        http = scope["type"] == "http"
        api = http and scope["path"].startswith("/api/")
        if http and not api and scope["method"] not in SAFE_METHODS:
            # A page reads no bearer token, and asgi-csrf lets any "Authorization: Bearer" past: not sent on.
            scope = {**scope, "headers": _without(scope, b"authorization")}
        if http and api and _not_cookie_authorised(scope):
            await self.app(scope, receive, send)
        elif http and not _readable_cookies(scope):
            # asgi-csrf reads the Cookie header with http.cookies, which raises on one it cannot parse ("$;").
            why = "the Cookie header is not name=value pairs (RFC 6265)"
            said = refusal("Send a Cookie header of name=value pairs.", status=422, why=why, field="cookie")
            await JSONResponse(said, status_code=422)(scope, receive, send)
        elif _multipart_checked(scope):
            await self._multipart(scope, receive, send)
        else:
            await self.checked(scope, receive, send)

    async def _multipart(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A form with a file (the league's import): its token field handed to asgi-csrf as its header, under a type
        it never reads (its multipart reader fails on python-multipart: a 500); the app gets the form's type back."""
        messages: list[Message] = []
        more = True
        while more:  # the door (app.guard.limits) has bounded and buffered the body already
            message = await receive()
            messages.append(message)
            more = message.get("type") == "http.request" and bool(message.get("more_body"))
        body = b"".join(m.get("body", b"") for m in messages)
        token = _multipart_token(body, _headers(scope).get(b"content-type", b"").decode("latin-1"))

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        headers = _without(scope, CSRF_HEADER.encode(), b"content-type")
        headers += [(b"content-type", b"application/x-firestep-multipart")]
        headers += [(CSRF_HEADER.encode(), token.encode())] if token is not None else []
        original = _headers(scope)[b"content-type"]
        await self.checked({**scope, "headers": headers, MULTIPART_TYPE: original}, replay, send)


MULTIPART_TYPE = "firestep.multipart_content_type"  # a multipart form's own type, while asgi-csrf checks it


def _multipart_restored(app: ASGIApp) -> ASGIApp:
    """The app behind asgi-csrf, given back a checked multipart form's own content type."""

    async def restored(scope: Scope, receive: Receive, send: Send) -> None:
        if (original := scope.get(MULTIPART_TYPE)) is not None:
            kept = [(k, v) for k, v in scope["headers"] if k.lower() != b"content-type"]
            scope = {**scope, "headers": [*kept, (b"content-type", original)]}
        await app(scope, receive, send)

    return restored


class _TokenFound(Exception):
    pass


def _multipart_checked(scope: Scope) -> bool:
    """A multipart write that asgi-csrf would check by reading its body (no token in the header)."""
    headers = _headers(scope)
    return (
        scope["type"] == "http"
        and scope["method"] not in SAFE_METHODS
        and headers.get(b"content-type", b"").split(b";", 1)[0].strip().lower() == b"multipart/form-data"
        and CSRF_HEADER.encode() not in headers
        and not _not_cookie_authorised(scope)
    )


def _multipart_token(body: bytes, content_type: str) -> str | None:
    """The CSRF field of a multipart body when it comes before any file (None otherwise, or unreadable)."""

    def on_field(field: Any) -> None:
        if field.field_name == CSRF_FIELD.encode():
            raise _TokenFound((field.value or b"").decode("utf-8", "replace"))

    def on_file(_file: Any) -> None:
        raise _TokenFound("")  # a file before the token

    boundary = parse_options_header(content_type)[1].get(b"boundary")
    try:  # no boundary, or a body python-multipart cannot read: no token
        parser = FormParser(
            "multipart/form-data",
            on_field,
            on_file,
            boundary=boundary,
            config={"MAX_MEMORY_FILE_SIZE": len(body) + 1},
        )
        parser.write(body)
        parser.finalize()
    except _TokenFound as found:
        return found.args[0] or None
    except Exception:  # not a multipart body python-multipart can read: no token
        return None
    return None


def _readable_cookies(scope: Scope) -> bool:
    """Whether the request's Cookie header (if any) parses as asgi-csrf parses it."""
    raw = dict(scope.get("headers") or {}).get(b"cookie")
    if not raw:
        return True
    try:
        SimpleCookie().load(raw.decode("utf8"))
    except (CookieError, UnicodeDecodeError):
        return False
    return True


class ClientLimits:
    """Makes this app's limits and the client's address known to the code that counts failures."""

    def __init__(self, app: ASGIApp, limits: RateLimits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        address = scope["client"][0] if scope.get("client") else "unknown"
        reset = _client.set(Client(self.limits, address))
        try:
            await self.app(scope, receive, send)
        finally:
            _client.reset(reset)


def _too_many(client: Client, item: RateLimitItem, what: str, *key: str) -> TooManyRequests:
    wait = client.limits.retry_after(item, *key)
    return TooManyRequests(f"too many {what} from this address: wait {wait} s before trying again", wait)


# What a guess is counted under, per address: join codes (games and campaigns alike) and organiser keys each
# have their own count, at the same limit (join_attempt_limit).
JOIN_CODES = "firestep"
ORGANISER_KEYS = "firestep-organiser-key"
_GUESSED = {JOIN_CODES: "failed join codes", ORGANISER_KEYS: "wrong organiser keys"}


def check_guesses(kind: str = JOIN_CODES) -> None:
    """Before a join code or an organiser key is compared: refuse while this address is over its limit of
    wrong ones, so that guessing stops even for one that would be right."""
    client = _client.get()
    if client is not None:
        item = client.limits.join_attempt
        if not client.limits.limiter.test(item, kind, client.address):
            raise _too_many(client, item, _GUESSED[kind], kind, client.address)


def guess_failed(kind: str = JOIN_CODES) -> None:
    client = _client.get()
    if client is not None:
        client.limits.limiter.hit(client.limits.join_attempt, kind, client.address)


@contextmanager
def guessing_a_code(*wrong: type[Exception]) -> Iterator[None]:
    """Around a join (or rekey) code's look-up, or an organiser's token's: refused while this address is over its
    limit of wrong codes (check_guesses), and a code no one holds counted (`wrong`: the refusals that say so,
    NotFoundError by default; raised once the work inside is rolled back)."""
    counted = wrong or (NotFoundError,)
    check_guesses()
    try:
        yield
    except counted:
        guess_failed()
        raise


def token_failed() -> None:
    """An unknown (or revoked) token was presented: count it, and answer 429 once over the limit. A known
    token is never refused here: tokens are 256 bits, so the limit only stops an address from hammering."""
    _count(lambda limits: limits.token_failure, "firestep", "unknown tokens")


def scenario_imported() -> None:
    """A scenario file is about to be checked and stored: count it, and answer 429 once over the limit."""
    _count(lambda limits: limits.scenario_import, "firestep-scenario", "scenario imports")


def _count(limit_of: Callable[[RateLimits], RateLimitItem], key: str, what: str) -> None:
    """One more of `what` from the asking address, counted under `key` at its limit (`limit_of` the app's):
    429 once over it; nothing outside a request."""
    client = _client.get()
    if client is None:
        return
    item = limit_of(client.limits)
    if not client.limits.limiter.hit(item, key, client.address):
        raise _too_many(client, item, what, key, client.address)


SHEETS = "firestep-sheet"


@dataclass(frozen=True)
class SheetBudget:
    """The asking address's budget for new sheets, as app.services.sheets.pdf spends it (its `Budget`): one
    render at a time for every address; `charged` (an asker without a token), its CPU too (sheet_render_limit):
    a new render refused (429) once it is spent, and charged its CPU, a tenth of a second at least."""

    charged: bool
    client: Client | None = field(default_factory=_client.get)  # the request's; None outside one

    @property
    def address(self) -> str:
        return self.client.address if self.client is not None else "unknown"

    def check(self) -> None:
        if self.charged and self.client is not None:
            item = self.client.limits.sheet_render
            if not self.client.limits.limiter.test(item, SHEETS, self.client.address):
                raise _too_many(self.client, item, "new sheets", SHEETS, self.client.address)

    def charge(self, cpu_seconds: float) -> None:
        if self.charged and self.client is not None:
            limits, item = self.client.limits, self.client.limits.sheet_render
            left = limits.limiter.get_window_stats(item, SHEETS, self.client.address).remaining
            if (cost := min(left, max(1, round(cpu_seconds * 10)))) > 0:
                limits.limiter.hit(item, SHEETS, self.client.address, cost=cost)


def page_wait_message(e: TooManyRequests, what: str) -> str:
    """The plain sentence a page shows for a 429."""
    seconds = "1 second" if e.retry_after == 1 else f"{e.retry_after} seconds"
    return f"Too many {what} from this device: Wait {seconds} and try again."


# -- wiring -----------------------------------------------------------------------------------------------------
def install(app: FastAPI, settings: Settings, templates: Jinja2Templates) -> None:
    """Add the CSRF checks and the rate limits' context (the last added runs first; the headers: app.guard.headers)."""
    send_refusal = _refusal_sender(templates)

    async def csrf_failed(scope: Scope, send: Send, _reason: Any) -> None:
        await send_refusal(scope, send)

    templates.env.globals["csrf_token"] = csrf_token
    app.add_middleware(CrossOriginRefusal, send_refusal=send_refusal)
    app.add_middleware(
        CsrfUnlessApiToken,
        cookie_name=CSRF_COOKIE,
        http_header=CSRF_HEADER,
        # Its own key, derived from the app's: a CSRF cookie can never be mistaken for a token digest.
        signing_secret=hmac.new(settings.secret_key.encode(), b"csrf", hashlib.sha256).hexdigest(),
        send_csrf_failed=csrf_failed,
        skip_if_scope=_not_cookie_authorised,
    )
    app.add_middleware(ClientLimits, limits=RateLimits.from_settings(settings))
