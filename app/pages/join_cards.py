"""Join by QR (issue 28): the referee's join card sheet, one QR code per seat, and the join link each code
opens. A card's link carries its seat in the path and its code in the fragment (`#code=...`: a fragment is
never sent to a server, so the code is in no URL that is requested or logged); the join page's script moves
it into the form, and one tap posts it. The referee's card carries the referee join code
(seating.referee_code), never the referee token.

The server keeps only the codes' hashes, so a sheet prints new codes: making one gives every side a new join
code (the old codes and cards stop working; seated devices keep their seats). The new codes reach the sheet
and its PDF on the referee's device only, in a signed cookie, as a new game's codes reach its "created" page.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from itsdangerous import BadData, URLSafeTimedSerializer
from sqlmodel import Session

from app.club.qr import svg
from app.core.config import Settings
from app.core.pdf_engine import require_pdf_engine
from app.core.routing import Router
from app.data.models import Game
from app.deps import GameId, SessionDep, SettingsDep
from app.errors import Forbidden, TooManyRequests
from app.pages.common import (
    SeatHeld,
    confirm_seat_page,
    join_with_code,
    keep_seat_unless_confirmed,
)
from app.pages.games import _seat_home  # where a seat plays, as the start page's join form sends it
from app.pages.refused import PageRoute, Refusal, posted
from app.pages.seats import Seat, game_page, game_seat, remember_game, seat_words, sign_in, tell_joined
from app.pages.templates import templates
from app.pages.trust import club_host
from app.services import event_seats, seating
from app.services import games as games_service
from app.services.seating import REFEREE
from app.services.writing import game_write
from rules.core.errors import NotFoundError
from rules.core.vocabulary import SIDES

router = Router(include_in_schema=False, route_class=PageRoute)

SEATS = (REFEREE, *SIDES)
CARDS_COOKIE = "firestep_join_cards"
CARDS_SECONDS = 60 * 60  # long enough to print, then gone from the device


def join_link(request: Request, settings: Settings, game_id: int, seat: str, code: str) -> str:
    """The link a seat's card encodes: HTTPS to the host the laptop is reached at on a club server, this
    server's own address otherwise; the code in the fragment."""
    if settings.club_port:
        base = f"https://{club_host(request)}:{settings.club_port}"
    else:
        base = str(request.base_url).rstrip("/")
    return f"{base}/games/{game_id}/join/{seat}#code={code}"


# -- the join link a card opens ------------------------------------------------------------------------------
@router.get("/games/{game_id}/join/{seat}", response_class=HTMLResponse)
def join_link_page(game_id: GameId, seat: str, request: Request, session: SessionDep) -> Response:
    return _join_link_page(request, session, game_id, seat)


def _join_link_page(
    request: Request, session: Session, game_id: int, seat: str, error: str | None = None, status: int = 200
) -> Response:
    try:
        game = games_service.get_game(session, game_id)
    except NotFoundError as e:
        return _message(request, "Not found", e.message, 404)
    if seat not in SEATS:
        return _message(request, "Not found", f"A game's seats are {', '.join(SEATS)}.", 404)
    holder = event_seats.holder(session, game_id, seat)  # an event's card is its player's: named
    context = {
        "title": f"Join as {holder.name}, table {holder.table}" if holder else f"Join {game.name}",
        "game": game,
        "seat": seat,
        "words": seat_words(game, seat),
        "holder": holder,
    }
    response = templates.TemplateResponse(request, "join_link.html", {**context, "error": error}, status)
    response.headers["Cache-Control"] = "no-store"
    return response


def _message(request: Request, title: str, message: str, status: int) -> Response:
    return templates.TemplateResponse(request, "error.html", {"title": title, "message": message}, status)


def _join_refused(request: Request, session: Session, _settings: Settings, refusal: Refusal) -> Response:
    game_id, seat = int(request.path_params["game_id"]), str(request.path_params["seat"])
    return _join_link_page(request, session, game_id, seat, refusal.said, refusal.status)


@posted(router, "/games/{game_id}/join/{seat}", _join_refused)
def join_by_link(
    game_id: GameId,
    seat: str,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    code: Annotated[str, Form(max_length=200)] = "",
    replace_seat: Annotated[str, Form()] = "",
) -> Response:
    code = code.strip()

    def join(entered: str) -> str:
        # A code for another game or seat is as unknown here as a wrong one (and counted the same).
        if seat == REFEREE:
            if not seating.is_referee_code(session, seating.GAME, settings.secret_key, game_id, entered):
                raise NotFoundError("join code", "(not shown)")
        elif seating.side_of_code(session, seating.GAME, settings.secret_key, entered) != (game_id, seat):
            raise NotFoundError("join code", "(not shown)")
        keep_seat_unless_confirmed(game_id, role, seat, replace_seat)
        return sign_in(session, settings.secret_key, game_id, seat, entered)

    if seat not in SEATS:
        return _join_link_page(request, session, game_id, seat)
    held = game_seat(request, session, settings, game_id)
    role = held.viewer.role if held else None
    # Said first, whatever the card: the other seat is not this device's to take (a spent card's remedy, a re-key
    # of "your seat", would mislead: the newcomer pass).
    event_seats.keep_own_seat(session, game_id, role, seat)
    if code and (void := event_seats.card_refusal(session, settings.secret_key, game_id, seat, code)):
        return _join_link_page(request, session, game_id, seat, error=void, status=409)
    # Who handed the code out, as a refusal names them: an event table's cards are its organiser's, no referee's.
    who = "organiser" if games_service.table_of_game(session, game_id) is not None else "referee"
    try:
        with game_write(session, game_id):  # one unit of work: committed only when a seat is taken
            token = join_with_code(code, who, join)
    except SeatHeld as e:
        game = games_service.get_game(session, game_id)
        return confirm_seat_page(
            request,
            e,
            name=game.name,
            code=code,
            action=f"/games/{game_id}/join/{seat}",
            keep_url=_seat_home(game, e.held),
            words=lambda role: seat_words(game, role),
        )
    response = RedirectResponse(_seat_home(games_service.get_game(session, game_id), seat), status_code=303)
    remember_game(request, response, game_id, token)
    tell_joined(response, game_id)
    return response


# -- the referee's join card sheet ---------------------------------------------------------------------------
def _serializer(secret_key: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret_key, salt="firestep-join-cards")


def _printed_codes(
    request: Request, session: Session, secret_key: str, game_id: int
) -> dict[str, str] | None:
    """The side codes this device was handed when it last made this game's cards, while they still work."""
    try:
        data = _serializer(secret_key).loads(request.cookies.get(CARDS_COOKIE, ""), max_age=CARDS_SECONDS)
    except BadData:
        return None
    if not isinstance(data, dict) or data.get("game") != game_id or not isinstance(data.get("codes"), dict):
        return None
    codes = {str(k): str(v) for k, v in data["codes"].items()}
    for side, code in codes.items():
        try:
            if seating.side_of_code(session, seating.GAME, secret_key, code) != (game_id, side):
                return None
        except NotFoundError:
            return None  # new codes since (other cards, `firestep credentials`): this sheet is void
    return codes


def _cards(
    request: Request,
    session: Session,
    settings: Settings,
    game: Game,
    seat: Seat,
    codes: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The cards of `codes` (the side codes just made), else of the ones this device last printed."""
    if not seat.viewer.is_referee:
        raise Forbidden("Only the referee prints the join cards.")
    game_id = game.pk
    codes = codes or _printed_codes(request, session, settings.secret_key, game_id)
    if codes is None:
        return {"cards": None}
    codes = {REFEREE: seating.referee_code(session, seating.GAME, settings.secret_key, game_id), **codes}
    cards = []
    for who, code in codes.items():
        link = join_link(request, settings, game_id, who, code)
        words = seat_words(game, who)
        cards.append(
            {
                "seat": who,
                "words": words,
                "code": code,
                "link": link,
                "svg": svg(link, f"QR code: join as {words}"),
            }
        )
    return {"cards": cards}


@router.get("/games/{game_id}/join-cards", response_class=HTMLResponse)
def join_cards_page(
    game_id: GameId, request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    def build(game: Game, seat: Seat) -> dict[str, Any]:
        return {"title": "Join cards", **_cards(request, session, settings, game, seat)}

    response = game_page(request, session, settings, game_id, "join_cards.html", "join_cards.html", build)
    response.headers["Cache-Control"] = "no-store"
    return response


def _referee(request: Request, session: Session, settings: Settings, game_id: int) -> Seat | None:
    """This device's seat when it is the game's referee; None otherwise (join_cards_page then answers)."""
    try:
        seat = game_seat(request, session, settings, game_id)
    except TooManyRequests:
        return None
    return seat if seat is not None and seat.viewer.is_referee else None


def _new_codes(session: Session, settings: Settings, game_id: int) -> dict[str, str]:
    with game_write(session, game_id):
        return seating.new_side_codes(session, seating.GAME, settings.secret_key, game_id)


def _keep_on_device(response: Response, settings: Settings, game_id: int, codes: dict[str, str]) -> None:
    """The new side codes reach this device's sheet and PDF only, in a signed cookie, for CARDS_SECONDS."""
    value = _serializer(settings.secret_key).dumps({"game": game_id, "codes": codes})
    response.set_cookie(
        CARDS_COOKIE,
        str(value),
        max_age=CARDS_SECONDS,
        path=f"/games/{game_id}",
        httponly=True,
        samesite="lax",
    )


@router.post("/games/{game_id}/join-cards", response_class=HTMLResponse)
def make_join_cards(
    game_id: GameId, request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    if _referee(request, session, settings, game_id) is None:
        return join_cards_page(game_id, request, session, settings)  # no such game, the join form, or 403
    codes = _new_codes(session, settings, game_id)
    response = RedirectResponse(f"/games/{game_id}/join-cards", status_code=303)
    _keep_on_device(response, settings, game_id, codes)
    return response


def _pdf(
    request: Request,
    session: Session,
    settings: Settings,
    game_id: int,
    seat: Seat,
    codes: dict[str, str] | None,
) -> Response | None:
    """The cards as a PDF, one to a page (the referee's alone, each side's cut from no other); None when
    this device has no sheet that still works and no codes were given. Without the PDF engine: 503 naming
    its remedy, before any code is made."""
    from playsheets.render import html_to_pdf

    require_pdf_engine()
    game = games_service.get_game(session, game_id)
    context = _cards(request, session, settings, game, seat, codes)
    if context["cards"] is None:
        return None
    html = templates.get_template("join_cards_print.html").render({"game": game, **context})
    headers = {
        "Content-Disposition": f'inline; filename="join-cards-{game_id}.pdf"',
        "Cache-Control": "no-store",
    }
    return Response(html_to_pdf(html), media_type="application/pdf", headers=headers)


@router.get("/games/{game_id}/join-cards.pdf")
def join_cards_pdf(game_id: GameId, request: Request, session: SessionDep, settings: SettingsDep) -> Response:
    seat = _referee(request, session, settings, game_id)
    if seat is None:
        return join_cards_page(game_id, request, session, settings)
    pdf = _pdf(request, session, settings, game_id, seat, None)
    # No sheet made on this device yet, or void since: the page that makes one.
    return pdf or RedirectResponse(f"/games/{game_id}/join-cards", status_code=303)


@router.post("/games/{game_id}/join-cards.pdf")
def print_join_cards(
    game_id: GameId, request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    """The Print menu's join cards, always a PDF: the cards this device printed while they still work, else
    new ones (new codes, as "Make new join cards" gives)."""
    seat = _referee(request, session, settings, game_id)
    if seat is None:
        return join_cards_page(game_id, request, session, settings)
    if (pdf := _pdf(request, session, settings, game_id, seat, None)) is not None:
        return pdf
    codes = _new_codes(session, settings, game_id)
    response = _pdf(request, session, settings, game_id, seat, codes)
    assert response is not None  # the codes just made work
    _keep_on_device(response, settings, game_id, codes)
    return response
