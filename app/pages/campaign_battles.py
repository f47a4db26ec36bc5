"""The campaign page's table battles (issue 17): the organiser's "Fight this battle on the table" (POST, then
the new game's codes once on its "created" page: POST/redirect/GET), each seat's way into its own side of
the game, and the organiser's offer, confirm and override; and on the game's pages its referee's "who holds
the field?" (the banner, _campaign_battle_banner.html). The same service as the API
(app.services.campaign_battles), so the page gets the API's refusals, shown as sentences."""

from __future__ import annotations

from typing import Annotated

from fastapi import Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlmodel import Session

from app.core.config import Settings
from app.core.routing import Router
from app.data.schemas import CampaignId
from app.deps import GameId, SessionDep, SettingsDep
from app.errors import Unauthorized
from app.pages import campaigns, referee
from app.pages.common import USER_ERRORS
from app.pages.refused import PageRoute, Refusal, posted
from app.pages.seats import campaign_seat, game_seat, keep_created, remember_game
from app.services import campaign_battles
from app.services import games as games_service
from app.services.seating import Viewer
from app.services.writing import unit_of_work
from rules.core.errors import RulesError

router = Router(include_in_schema=False, route_class=PageRoute)

POINTS = {"attacker_vp": "Attacker's game points", "defender_vp": "Defender's game points"}


def _points(typed: str, name: str) -> int:
    message = f"{POINTS[name]}: enter a whole number from 0 to {campaign_battles.MAX_VP}"
    points = campaigns.form_digits(typed.strip(), name, message, 2)
    if points > campaign_battles.MAX_VP:
        raise RulesError(name, message)
    return points


def _link_id(text: str) -> int:
    link_id = campaigns.form_digits(text, "table_battle", "reload the page", 10)
    if not 1 <= link_id <= 2_147_483_647:
        raise RulesError("table_battle", "reload the page")
    return link_id


def _refused(
    request: Request, session: Session, settings: Settings, campaign_id: int, e: Exception
) -> Response:
    session.rollback()
    session.expire_all()
    return campaigns.board_page(request, session, settings, campaign_id, campaigns.refusal_message(e))


def _field_held(held: str) -> str:
    """Who holds the field, as tapped (the service checks the value; an empty form is asked for in words)."""
    if not held:
        raise RulesError("field_held_by", "tap who holds the field at the end of the game")
    return held


@router.post("/campaigns/{campaign_id:id}/table-battle", response_class=HTMLResponse)
def open_table_battle(
    campaign_id: CampaignId, request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    """Open the battle's game; the organiser's device becomes its referee and sees its codes once."""
    who = campaign_seat(request, session, settings, campaign_id)
    if who is None:
        return campaigns.board_page(request, session, settings, campaign_id)
    try:
        with unit_of_work(session):
            opened = campaign_battles.open_table_battle(session, settings.secret_key, campaign_id, who)
    except USER_ERRORS as e:
        return _refused(request, session, settings, campaign_id, e)
    creds = opened.credentials
    game_id = opened.game.pk
    if creds is None:  # already open (a second tap, another device): the board shows it
        return RedirectResponse(f"/campaigns/{campaign_id}", status_code=303)
    response = RedirectResponse(f"/games/{game_id}/created", status_code=303)
    remember_game(request, response, game_id, creds.referee_token)
    keep_created(response, settings.secret_key, game_id, creds.referee_token, creds.join_codes)
    return response


@router.post("/campaigns/{campaign_id:id}/table-battles/{link_id}/play", response_class=HTMLResponse)
def play(
    campaign_id: CampaignId, link_id: str, request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    """A device of this seat's own side of the game (the organiser: the referee), then to the game."""
    who = campaign_seat(request, session, settings, campaign_id)
    if who is None:
        return campaigns.board_page(request, session, settings, campaign_id)
    try:
        with unit_of_work(session):
            game_id, role, token = campaign_battles.seat(
                session, settings.secret_key, campaign_id, _link_id(link_id), who
            )
    except USER_ERRORS as e:
        return _refused(request, session, settings, campaign_id, e)
    if role == "referee":
        target = f"/games/{game_id}/referee"
    else:
        status = games_service.get_game(session, game_id).status
        target = f"/games/{game_id}/fire-plan" if status == "setup" else f"/games/{game_id}/map"
    response = RedirectResponse(target, status_code=303)
    remember_game(request, response, game_id, token)
    return response


@router.post("/campaigns/{campaign_id:id}/table-battles/{link_id}/{step}", response_class=HTMLResponse)
def settle(
    campaign_id: CampaignId,
    link_id: str,
    step: str,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    field_held_by: Annotated[str, Form()] = "",
    version: Annotated[str, Form()] = "",
    attacker_vp: Annotated[str, Form()] = "",
    defender_vp: Annotated[str, Form()] = "",
) -> Response:
    """Offer the finished game's result, confirm it, or override it with the organiser's own score."""

    def act(who: Viewer) -> None:
        lid = _link_id(link_id)
        if step == "offer":
            campaign_battles.make_offer(session, campaign_id, lid, who, _field_held(field_held_by))
        elif step == "confirm":
            campaign_battles.confirm(session, campaign_id, lid, who, campaigns.form_version(version))
        elif step == "override":
            seen = campaigns.form_version(version)
            attacker, defender = _points(attacker_vp, "attacker_vp"), _points(defender_vp, "defender_vp")
            campaign_battles.override(session, campaign_id, lid, who, seen, attacker, defender)
        else:
            raise RulesError("step", "not something a table battle can do", ["offer", "confirm", "override"])

    return campaigns.board_after(request, session, settings, campaign_id, act)


# -- from the game: its referee offers the result -------------------------------------------------------------
def _offer_refused(request: Request, session: Session, settings: Settings, refusal: Refusal) -> Response:
    """The referee screen again, the refusal's sentence in the campaign banner and its status."""
    session.expire_all()
    request.state.campaign_offer_error = refusal.said
    now = request.app.state.clock()
    page = referee.referee_page(int(request.path_params["game_id"]), request, session, settings, now)
    if page.status_code == 200:  # the referee screen itself: say why the offer was refused
        page.status_code = refusal.status
    return page


@posted(router, "/games/{game_id}/campaign-battle/offer", _offer_refused)
def offer_from_game(
    game_id: GameId,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    field_held_by: Annotated[str, Form()] = "",
) -> Response:
    """The game's referee says who holds the field; then back to the referee screen, which shows the offer."""
    seat = game_seat(request, session, settings, game_id)
    if seat is None:
        raise Unauthorized("open this game with its referee token first")
    with unit_of_work(session):
        campaign_battles.offer_from_game(session, game_id, seat.viewer, _field_held(field_held_by))
    return RedirectResponse(f"/games/{game_id}/referee", status_code=303)
