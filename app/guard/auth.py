"""Who is asking: the referee, or the player of one side, as the door reads it from a device's token (a
`Viewer`, app.services.seating). The seats themselves (join codes, tokens as devices, joining, reissuing,
revoking) are app.services.seating, one implementation for games and campaigns; only HMACs of tokens and codes
are stored.

A token is a device: issued once, seen (last use, noted here at most once a minute), revocable by the referee
(or a campaign's organiser) and revoked wholesale when the credentials are reissued. Tokens come in the
Authorization header or the cookie, never in a URL (URLs end up in access logs): the event stream, which
EventSource opens without headers, takes a short-lived signed ticket instead.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from datetime import timedelta
from typing import Annotated, Any, Literal

from fastapi import Depends, Header, Query, Request
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer
from fastapi.security.utils import get_authorization_scheme_param
from itsdangerous import BadData, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import update
from sqlmodel import Session, col

from app.core.db import commit_bookkeeping
from app.data.models import CampaignToken, Token, utcnow
from app.data.schemas import CampaignId
from app.deps import EngineDep, GameId, SessionDep, SettingsDep
from app.errors import Forbidden, Unauthorized
from app.guard import security
from app.services import seating
from app.services.seating import Viewer

COOKIE_NAME = "firestep_token"
# An organiser's cookie keeps 20 "id:token" pairs (app.pages.seats.SEATS_KEPT), each at most 10 + 1 + 43 + 1.
KEYED_COOKIE_CHARS = 2048


# -- admitting a device: game and campaign tokens alike --------------------------------------------------
# Noting every use would turn each read into a write; a minute is fine enough for "last seen".
SEEN_EVERY = timedelta(minutes=1)


class UnknownToken(Unauthorized):
    """A token no device holds: a guess, counted against the address (app/guard/security.py)."""

    def __init__(self) -> None:
        super().__init__("unknown token")


def admit(session: Session, row: Token | CampaignToken) -> None:
    """Refuse a revoked device (401 everywhere at once: API, stream, pages); note when it was last seen."""
    if row.revoked_at is not None:
        # Who gives a new code: a campaign's organiser; a game's referee, or an event table's organiser.
        giver = (
            "the campaign's organiser" if isinstance(row, CampaignToken) else "the referee or event organiser"
        )
        raise Unauthorized(f"this token has been revoked: join again with a new code from {giver}")
    now = utcnow()
    if row.last_seen_at is None or now - row.last_seen_at > SEEN_EVERY:
        model = type(row)
        session.execute(update(model).where(col(model.id) == row.id).values(last_seen_at=now))
        commit_bookkeeping(session)


def seat_viewer(
    session: Session, seats: seating.Seating[Any, Any], secret_key: str, owner_id: int, token: str | None
) -> Viewer:
    """Who holds this token in this game or campaign: 401 without a token, for an unknown one
    (UnknownToken) or a revoked one; 403 for a token of another game or campaign."""
    return viewer_of(seats, seat_row(session, seats, secret_key, token), owner_id)


def seat_row(session: Session, seats: seating.Seating[Any, Any], secret_key: str, token: str | None) -> Any:
    """The device holding `token` in some game or campaign: 401 without a token, for an unknown one
    (UnknownToken) or a revoked one. Asked before what the address names is looked up, a refusal of no seat
    is the same whether that exists or not."""
    if not token:
        raise Unauthorized()
    row = seating.find_device(session, seats, secret_key, token)
    if row is None:
        raise UnknownToken()
    admit(session, row)
    return row


def viewer_of(seats: seating.Seating[Any, Any], row: Any, owner_id: int) -> Viewer:
    """The device `row` as a seat of this game or campaign: 403 for one of another."""
    if seats.owner_of(row) != owner_id:
        raise Forbidden(f"this token belongs to another {seats.what}")
    return Viewer(game_id=owner_id, role=row.role, token_id=row.id)


# -- who may create games and campaigns -----------------------------------------------------------------------
ORGANISER_HEADER = "X-Organiser-Key"


def organiser_key_problem(required: str, presented: str | None) -> Literal["missing", "wrong"] | None:
    """None when creating is open or the key is right. Compared as SHA-256 digests in constant time, so
    neither the content nor the length of the key leaks through timing; wrong keys are counted against the
    address like wrong join codes (TooManyRequests once over the limit, even for the right key)."""
    if not required:
        return None
    if not presented:
        return "missing"
    security.check_guesses(security.ORGANISER_KEYS)
    same = hmac.compare_digest(
        hashlib.sha256(presented.encode()).digest(), hashlib.sha256(required.encode()).digest()
    )
    if not same:
        security.guess_failed(security.ORGANISER_KEYS)
    return None if same else "wrong"


def require_organiser(
    settings: SettingsDep,
    x_organiser_key: Annotated[
        str | None,
        Header(max_length=200, description="The server's organiser key, when it requires one to create."),
    ] = None,
) -> None:
    problem = organiser_key_problem(settings.organiser_key, x_organiser_key)
    if problem == "missing":
        raise Unauthorized(f"this server requires the organiser key to create: send it in {ORGANISER_HEADER}")
    if problem == "wrong":
        raise Forbidden(f"the {ORGANISER_HEADER} header is not this server's organiser key")


# -- stream tickets ---------------------------------------------------------------------------------------
STREAM = "stream"


def _tickets(secret_key: str, purpose: str) -> URLSafeTimedSerializer:
    # The purpose is the signature's salt: a ticket signed for one purpose does not verify for another.
    return URLSafeTimedSerializer(secret_key, salt=f"firestep-ticket-{purpose}")


def issue_ticket(secret_key: str, game_id: int, token_id: int, purpose: str = STREAM) -> str:
    """A signed, short-lived, single-use ticket bound to a game, a device and one purpose; it stops working
    as soon as its device is revoked, since the device is looked up on every use. The nonce makes every
    ticket unique (two asked for in the same second would otherwise be the same string)."""
    payload = {"game": game_id, "token": token_id, "nonce": secrets.token_urlsafe(9)}
    return str(_tickets(secret_key, purpose).dumps(payload))


class UsedTickets:
    """The tickets this process has accepted, each kept until it would have expired anyway: a ticket
    read from a log or a proxy's history cannot open a second stream."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._until: dict[str, float] = {}
        self._order: deque[tuple[float, str]] = deque()  # by expiry: every ticket lives as long

    def first_use(self, ticket: str, max_age: int) -> bool:
        now = time.monotonic()
        with self._lock:
            while self._order and self._order[0][0] < now:
                self._until.pop(self._order.popleft()[1], None)
            if ticket in self._until:
                return False
            expires = now + max_age + 1  # the signature's clock counts whole seconds
            self._until[ticket] = expires
            self._order.append((expires, ticket))
            return True


USED_TICKETS = UsedTickets()


def read_ticket(secret_key: str, ticket: str, max_age: int, purpose: str = STREAM) -> tuple[int, int]:
    """(game id, token id) of a valid ticket, used up by this reading; 401 for an expired, forged,
    other-purpose or already used one."""
    try:
        data = _tickets(secret_key, purpose).loads(ticket, max_age=max_age)
    except SignatureExpired:
        raise Unauthorized(f"this {purpose} ticket has expired: ask for a new one") from None
    except BadData:
        raise Unauthorized(f"not a valid {purpose} ticket") from None
    if not isinstance(data, dict) or not all(isinstance(data.get(k), int) for k in ("game", "token")):
        raise Unauthorized(f"not a valid {purpose} ticket")
    if not USED_TICKETS.first_use(f"{purpose}:{ticket}", max_age):
        raise Unauthorized(
            f"this {purpose} ticket has already been used: ask for a new one for every connect"
        )
    return int(data["game"]), int(data["token"])


_bearer = HTTPBearer(
    auto_error=False, description="The token from game creation or from joining with a code."
)
_cookie = APIKeyCookie(name=COOKIE_NAME, auto_error=False, description="Set by POST /api/v1/join.")


def keyed_token(cookie: str | None, key: object) -> str | None:
    """The token an organiser's cookie keeps for event or league `key`: the cookie keeps one per event or
    league this browser made or signed in to ("id:token|id:token", app.pages.seats.remember_seat), so making a
    second one does not sign its organiser out of the first. A cookie of one bare token (before) is that token."""
    if not cookie:
        return None
    if ":" not in cookie and "|" not in cookie:
        return cookie
    for pair in cookie.split("|"):
        k, _, token = pair.partition(":")
        if k == str(key) and token:
            return token
    return None


def bearer_else_keyed(request: Request, presented: str | None, cookie: str | None, key: object) -> str | None:
    """An organiser's token (an event's, a league's): Authorization: Bearer (`presented`), else the one the
    organiser's cookie keeps for `key`, else the seat's cookie. Only a Bearer token masks the cookie: a browser
    behind a proxy may send Authorization: Basic, which is no token of ours (as the CSRF check reads it)."""
    scheme, credentials = get_authorization_scheme_param(request.headers.get("authorization"))
    if scheme.lower() == "bearer" and credentials:
        return presented
    return keyed_token(cookie, key) or presented


async def presented_token(
    request: Request,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    cookie: Annotated[str | None, Depends(_cookie)],
) -> str | None:
    """Authorization: Bearer, else the cookie (a coroutine: it reads only the request, app.deps). A token in
    the query string is refused, not ignored: it has already been written to some access log, and the client
    should hear why it does not work."""
    if "token" in request.query_params:
        raise Unauthorized(
            "Send the token as Authorization: Bearer or the cookie, never in the query string",
            why="tokens are not accepted in the query string (URLs end up in logs): send Authorization: Bearer "
            "or the cookie; the event stream takes ?ticket= from GET /api/v1/games/{game_id}/stream-ticket",
        )
    if bearer is not None and bearer.credentials:
        return bearer.credentials
    return cookie or None


def _counted_viewer(
    session: Session, seats: seating.Seating[Any, Any], secret_key: str, owner_id: int, token: str | None
) -> Viewer:
    try:
        return seat_viewer(session, seats, secret_key, owner_id, token)
    except UnknownToken:
        security.token_failed()  # 429 once this address is over its limit of unknown tokens
        raise


def viewer(
    game_id: GameId,
    token: Annotated[str | None, Depends(presented_token)],
    session: SessionDep,
    settings: SettingsDep,
) -> Viewer:
    return _counted_viewer(session, seating.GAME, settings.secret_key, game_id, token)


ViewerDep = Annotated[Viewer, Depends(viewer)]


def campaign_viewer(
    campaign_id: CampaignId,
    token: Annotated[str | None, Depends(presented_token)],
    session: SessionDep,
    settings: SettingsDep,
) -> Viewer:
    """Who holds this token in this campaign: 401 without a known token, 403 for another campaign's."""
    return _counted_viewer(session, seating.CAMPAIGN, settings.secret_key, campaign_id, token)


CampaignViewerDep = Annotated[Viewer, Depends(campaign_viewer)]


def stream_viewer(
    game_id: GameId,
    token: Annotated[str | None, Depends(presented_token)],
    engine: EngineDep,
    settings: SettingsDep,
    ticket: Annotated[
        str | None,
        Query(
            max_length=300, description="From GET .../stream-ticket, for EventSource (it sends no header)."
        ),
    ] = None,
) -> Viewer:
    """The event stream's reader: a ticket from the query string, else a token as everywhere else. With a
    session of its own, closed here: a stream holding the request's session (a generator dependency) would
    close it at its end in a thread of its own, and thousands of streams dropped at once would leave as
    many idle threads behind."""
    with Session(engine) as session:
        if ticket is None:
            return viewer(game_id, token, session, settings)
        ticket_game, token_id = read_ticket(settings.secret_key, ticket, settings.stream_ticket_seconds)
        row = session.get(Token, token_id)
        if row is None:
            raise Unauthorized("the device of this ticket is no longer known")
        admit(session, row)
        if ticket_game != game_id or row.game_id != game_id:
            raise Forbidden("this ticket is for another game")
        return Viewer(game_id=game_id, role=row.role, token_id=row.id)


StreamViewerDep = Annotated[Viewer, Depends(stream_viewer)]


def device_is_active(session: Session, token_id: int | None) -> bool:
    """For a stream already open: is its device still allowed (not revoked, not deleted with its game)?"""
    if token_id is None:
        return False
    row = session.get(Token, token_id)
    return row is not None and row.revoked_at is None
