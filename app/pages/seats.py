"""The device's seats: which games and campaigns this device has joined, kept as "id:token" pairs in one
cookie per kind, and who the device is in one of them."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from fastapi import Request
from fastapi.responses import Response
from itsdangerous import BadData, URLSafeTimedSerializer
from sqlmodel import Session

from app.core.config import Settings
from app.data.models import Game
from app.data.numbers import whole_number
from app.errors import Conflict, Forbidden, RuleRefused, TooManyRequests, Unauthorized
from app.guard import auth, security
from app.guard.notice import notice_words
from app.guard.security import NOTICE_HEADER
from app.pages.common import error_message, is_htmx, not_found, page_or_fragment, too_many
from app.pages.templates import humanise, rule_state, templates
from app.services import campaign_battles, event_seats, games, score, seating, tournaments
from app.services.seating import Viewer
from rules.core.errors import NotFoundError, RulesError
from rules.core.vocabulary import SIDES

# The device keeps the token of each game it has joined (cookie `firestep_games`) and of each campaign
# (`firestep_campaigns`) as "id:token" pairs, the newest 20 of each. It also keeps the current game's token in
# `firestep_token`, the cookie the API reads, so the page's own API calls (htmx, fetch, the event stream) are
# authorised with no token in the page; the campaigns' cookie leaves the games' cookies alone.
GAMES_COOKIE = "firestep_games"
CAMPAIGNS_COOKIE = "firestep_campaigns"
COOKIE_AGE = 60 * 60 * 24 * 30
SEATS_KEPT = 20


def device_seats(request: Request, cookie: str) -> dict[int, str]:
    """The tokens this device holds in the seat cookie `cookie`, by game or campaign id."""
    out: dict[int, str] = {}
    for pair in request.cookies.get(cookie, "").split("|"):
        key, _, token = pair.partition(":")
        number = whole_number(key, 10**9)
        if number is not None and token:
            out[number] = token
    return out


def remember_seat(request: Request, response: Response, cookie: str, key: int, token: str) -> None:
    seats = {**device_seats(request, cookie), key: token}
    value = "|".join(f"{k}:{tok}" for k, tok in list(seats.items())[-SEATS_KEPT:])
    response.set_cookie(cookie, value, httponly=True, samesite="lax", max_age=COOKIE_AGE)


def device_games(request: Request) -> dict[int, str]:
    return device_seats(request, GAMES_COOKIE)


def remember_game(request: Request, response: Response, game_id: int, token: str) -> None:
    remember_seat(request, response, GAMES_COOKIE, game_id, token)
    response.set_cookie(auth.COOKIE_NAME, token, httponly=True, samesite="lax", max_age=COOKIE_AGE)


def device_campaigns(request: Request) -> dict[int, str]:
    return device_seats(request, CAMPAIGNS_COOKIE)


def remember_campaign(request: Request, response: Response, campaign_id: int, token: str) -> None:
    remember_seat(request, response, CAMPAIGNS_COOKIE, campaign_id, token)


def campaign_seat(request: Request, session: Session, settings: Settings, campaign_id: int) -> Viewer | None:
    """Who this device is in a campaign; None when it holds no token the campaign knows."""
    token = device_campaigns(request).get(campaign_id)
    try:
        return auth.seat_viewer(session, seating.CAMPAIGN, settings.secret_key, campaign_id, token)
    except (Unauthorized, Forbidden):
        return None


@dataclass
class Seat:
    """Who this device is in a game, and the token that says so."""

    viewer: Viewer
    token: str


def game_seat(request: Request, session: Session, settings: Settings, game_id: int) -> Seat | None:
    for token in (request.cookies.get(auth.COOKIE_NAME), device_games(request).get(game_id)):
        if not token:
            continue
        try:
            return Seat(auth.viewer(game_id, token, session, settings), token)
        except (Unauthorized, Forbidden):
            continue
    return None


class Refused(NamedTuple):
    clause: str  # what is refused and why, as a clause the caller words
    status: int


def table_editor(
    request: Request, session: Session, settings: Settings, game_id: int
) -> tuple[Game, Seat] | Refused:
    """The game whose table this device's seat may edit, and the seat (its referee's, before it starts: the
    editor's terrain, objectives and Save have this one gate), or the refusal (403 who, 409 when)."""
    game = session.get(Game, game_id)
    seat = game_seat(request, session, settings, game_id) if game else None
    if game is None or seat is None or not seat.viewer.is_referee:
        return Refused("only the game's referee edits its table", 403)
    return (game, seat) if game.status == "setup" else Refused(score.STARTED, 409)


def _moved_by(request: Request, session: Session, settings: Settings, game_id: int) -> str | None:
    """Who gave this device's seat in the game to another device (its token revoked): the event's organiser
    for an event table's game, else the referee; None when this device never held a seat here."""
    for token in (request.cookies.get(auth.COOKIE_NAME), device_games(request).get(game_id)):
        row = seating.find_device(session, seating.GAME, settings.secret_key, token) if token else None
        if row is not None and row.game_id == game_id and row.revoked_at is not None:
            return "organiser" if games.table_of_game(session, game_id) else "referee"
    return None


def seat_view(game_id: int, seat: Seat) -> str:
    """The name this seat's pages are kept under for offline use (frontend/static/sw.js keeps each seat's copies
    apart and drops them when the device changes seat): the game, the role and a digest of the token, which
    tells two devices' seats apart without being usable as the token."""
    digest = hashlib.sha256(b"firestep-seat-view:" + seat.token.encode()).hexdigest()[:16]
    return f"{game_id}-{seat.viewer.role}-{digest}"


def game_page(
    request: Request,
    session: Session,
    settings: Settings,
    game_id: int,
    full: str,
    fragment: str,
    build: Callable[[Game, Seat], dict[str, Any]],
) -> Response:
    """A page of one game: 404 for no such game, the join form when this device has no seat in it."""
    try:
        game = games.get_game(session, game_id)
    except NotFoundError as e:
        return not_found(request, e)
    try:
        seat = game_seat(request, session, settings, game_id)
    except TooManyRequests as e:
        message = security.page_wait_message(e, "unknown tokens")
        page = templates.TemplateResponse(
            request, "error.html", {"game": game, "title": "Too many tries", "message": message}
        )
        return too_many(page, e)
    if seat is None:
        # An event table's game has no referee handing out codes: its players hold the organiser's printed cards.
        context = {"game": game, "title": "Join this game", "error": None,
                   "moved_by": _moved_by(request, session, settings, game_id),
                   "at_event": games.table_of_game(session, game_id) is not None}  # fmt: skip
        return templates.TemplateResponse(request, "join.html", context, status_code=401)
    told = ""  # a rule's refusal, said in the notice as it is on the page (not a stale write's words)
    # A page of its own, not a partial (a template named "_...", which never extends the page's base): its
    # banner and its round's line. A partial never shows them, and partials are most of a table's requests.
    whole = not (fragment if is_htmx(request) else full).startswith("_")
    joined = request.cookies.get(JOINED_COOKIE) == str(game_id)  # just joined: said once, on this page
    try:
        context = {
            "game": game,
            "seat": seat,
            "role": seat.viewer.role,
            "seat_view": seat_view(game_id, seat),
            # The link back to its campaign (issue 17), an event table's round (issue 57).
            "campaign_battle": campaign_battles.game_link(session, game_id) if whole else None,
            "round_timer": tournaments.round_timer(session, game_id) if whole else None,
            "event_table": tournaments.table_link(session, game_id),  # its result, one tap away (issue 63)
            "joined": joined_words(session, game, seat.viewer.role) if whole and joined else "",
            **build(game, seat),
        }
        status = 200
    except Forbidden as e:
        context = {"game": game, "title": "Not for your eyes", "message": e.message}
        full = fragment = "error.html"
        status = 403
    except Conflict as e:
        context = {"game": game, "title": "Not now", "message": e.message}
        full = fragment = "error.html"
        status = 409
        told = notice_words(e.message, status) if isinstance(e, RuleRefused) else ""
    except NotFoundError as e:
        context = {"game": game, "title": "Not found", "message": e.message}
        full = fragment = "error.html"
        status = 404
    except RulesError as e:
        context = {"game": game, "title": "Not possible", "message": error_message(e)}
        full = fragment = "error.html"
        status = 422
    response = page_or_fragment(request, full, fragment, context, status)
    if told:
        response.headers[NOTICE_HEADER] = told
    if request.cookies.get(auth.COOKIE_NAME) != seat.token:
        remember_game(request, response, game_id, seat.token)
    if joined and whole:
        response.delete_cookie(JOINED_COOKIE, path="/games", httponly=True, samesite="lax")
    return response


# A token (secrets.token_urlsafe(32): 43 characters of A-Z, a-z, 0-9, - and _) is told from a join code (10
# letters and digits, typed with or without the dash) by its length and alphabet.
TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{32,128}$")


def seat_named(session: Session, secret_key: str, entered: str) -> tuple[int, str]:
    """(game id, role) that what a player typed into a game's join form seats a device as, seating nobody. A
    join code names its side. A game's token (the referee's, which `make run` prints) names that token's role,
    so the referee signs in on a device of its own and can revoke each device alone. 404 for neither (the
    caller counts it against the rate limit), 401 for a revoked token."""
    if not TOKEN_SHAPE.fullmatch(entered):
        return seating.side_of_code(session, seating.GAME, secret_key, entered)
    row = seating.find_device(session, seating.GAME, secret_key, entered)
    if row is None:
        raise NotFoundError("token", "(not shown)")
    if row.revoked_at is not None:
        raise Unauthorized(
            "That token has been withdrawn: ask the referee for a new one (firestep credentials GAME_ID)."
        )
    return row.game_id, row.role


def sign_in(session: Session, secret_key: str, game_id: int, role: str, code: str = "") -> str:
    """This device's new token for the seat `seat_named` found with `code` (an event's printed card is spent)."""
    event_seats.take_card(session, secret_key, game_id, role, code)
    token = seating.issue(session, seating.GAME, secret_key, game_id, role)
    session.flush()
    return token


def seat_words(game: Game, seat: str) -> str:
    """A seat as the join button names it: 'the referee', 'the attacker (German)', or in the book's name for
    the side where it names one ('the attacker (Canadian)', `Book.side_names`)."""
    if seat not in SIDES:
        return f"the {seat}"
    nation = getattr(game, f"{seat}_nation", "")
    name = rule_state(game.ruleset).side_name(seat, humanise(nation) if nation else "")
    return f"the {seat}" + (f" ({name})" if name else "")


# -- who the device now is, said once on the page a join leads to ---------------------------------------------
JOINED_COOKIE = "firestep_joined"
JOINED_SECONDS = 2 * 60  # the redirect's page reads it at once; a join left unfollowed says nothing later


def tell_joined(response: Response, game_id: int) -> None:
    """The page this join leads to says once whom the device now plays as (the newcomer pass: after Join,
    nothing said it was Ann's seat at table 1)."""
    response.set_cookie(
        JOINED_COOKIE,
        str(game_id),
        max_age=JOINED_SECONDS,
        path="/games",  # one cookie, whichever game: the next join's replaces it
        httponly=True,
        samesite="lax",
    )


def joined_words(session: Session, game: Game, role: str) -> str:
    """Whom this device now plays as: at an event's table its player and the table, elsewhere its seat."""
    words = seat_words(game, role)
    held = event_seats.holder(session, game.pk, role)
    if held is not None:
        return f"You are {held.name}, table {held.table}, {words}."
    return f"You are {words} on this device."


# -- a new game's credentials, between creating it and showing them (POST/redirect/GET) ------------------------
CREATED_COOKIE = "firestep_created"
CREATED_SECONDS = 10 * 60  # long enough to follow the redirect on a slow wifi, short enough to go stale


@dataclass(frozen=True)
class Created:
    referee_token: str
    join_codes: dict[str, str]


def _created_serializer(secret_key: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret_key, salt="firestep-created-game")


def _created_path(owner: str, owner_id: int) -> str:
    return f"/{owner}s/{owner_id}/created"


def keep_created(
    response: Response,
    secret_key: str,
    owner_id: int,
    referee_token: str,
    join_codes: dict[str, str],
    owner: str = "game",
) -> None:
    """Hand a new game's (or campaign's) credentials to its "created" page on this device only: a signed cookie
    sent to that one path, which the page deletes once it has shown them. The device already holds the referee's
    (the organiser's) token."""
    value = _created_serializer(secret_key).dumps(
        {owner: owner_id, "token": referee_token, "codes": join_codes}
    )
    response.set_cookie(
        CREATED_COOKIE,
        str(value),
        max_age=CREATED_SECONDS,
        path=_created_path(owner, owner_id),
        httponly=True,
        samesite="lax",
    )


def created_credentials(
    request: Request, secret_key: str, owner_id: int, owner: str = "game"
) -> Created | None:
    """The credentials this device was handed when it created this game (or campaign); None once shown, stale or
    forged."""
    value = request.cookies.get(CREATED_COOKIE)
    if not value:
        return None
    try:
        data = _created_serializer(secret_key).loads(value, max_age=CREATED_SECONDS)
    except BadData:
        return None
    if not isinstance(data, dict) or data.get(owner) != owner_id:
        return None
    codes = data.get("codes")
    if not isinstance(data.get("token"), str) or not isinstance(codes, dict):
        return None
    return Created(data["token"], {str(k): str(v) for k, v in codes.items()})


def forget_created(response: Response, owner_id: int, owner: str = "game") -> None:
    response.delete_cookie(CREATED_COOKIE, path=_created_path(owner, owner_id), httponly=True, samesite="lax")
