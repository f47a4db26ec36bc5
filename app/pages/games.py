"""The start page (create or join a game); the referee's board is app.pages.referee, the map app.pages.table_map."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from fastapi import Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator
from sqlmodel import Session

from app.core.config import Settings
from app.core.routing import Router
from app.data.models import Game
from app.data.schemas import GameCreate
from app.deps import GameId, SessionDep, SettingsDep
from app.pages.common import (
    USER_ERRORS,
    SeatHeld,
    confirm_seat_page,
    error_message,
    join_with_code,
    keep_seat_unless_confirmed,
)
from app.pages.refused import PageRefused, PageRoute, Refusal, posted, server_organiser
from app.pages.resolving import rulesets_summary
from app.pages.seats import (
    Seat,
    created_credentials,
    device_games,
    forget_created,
    game_page,
    game_seat,
    keep_created,
    remember_game,
    remember_seat,
    seat_named,
    sign_in,
    tell_joined,
)
from app.pages.templates import humanise, templates
from app.services import counters, event_seats, game_setup, league, scenario_forces, scenarios, tournaments
from app.services import games as games_service
from app.services.seating import REFEREE
from app.services.units import list_units
from app.services.writing import unit_of_work
from rules.core.clock import MAX_GAME_MINUTES
from rules.core.errors import NotFoundError, RulesError
from rules.core.vocabulary import SIDES
from rules.registry import all_game_rules, get_ruleset

router = Router(include_in_schema=False, route_class=PageRoute)


@router.get("/", response_class=HTMLResponse)
def start_page(request: Request, session: SessionDep) -> Response:
    return _start(request, session)


def _scenarios(session: Session) -> list[dict[str, Any]]:
    """The shipped scenarios, then the ones imported on this server."""
    return [{"id": s["id"], "name": s["title"]} for s in scenarios.list_scenarios(session)]


def start_refused(request: Request, session: Session, _settings: Settings, refusal: Refusal) -> Response:
    """The start page saying why a game was not started or joined (the scenario editor's Start too)."""
    return _start(request, session, error=refusal.said, status_code=refusal.status, typed=refusal.typed)


# A clock's limit in its unit, bounded in seconds by NewGameForm (24 hours: the clock's MAX_GAME_MINUTES).
ClockLimit = Annotated[int | None, Field(ge=1)]
OWN_FIELDS = ("period", "attacker_nation", "defender_nation")  # a game by hand's, each rule set's own field


class NewGameForm(BaseModel):
    """The start page's new-game form (its organiser key read by `server_organiser`): a scenario, the organisation
    tables' forces (`tables`) or a game by hand (blank), and the game clock's limits, each a number and its unit
    (60: minutes, 1: seconds), the same for every side. By hand, each rule set's period and nations are its own
    fields (`period_<rule set>`, `attacker_nation_<rule set>`, ...): the chosen rule set's are read as `period` and
    the nations, so the app names no rule set."""

    model_config = ConfigDict(str_strip_whitespace=True)

    scenario: str = Field("", max_length=64)
    name: str = Field("", max_length=200)
    ruleset: str = Field("", max_length=64)
    period: str = Field("", max_length=32)
    attacker_nation: str = Field("", max_length=32)
    defender_nation: str = Field("", max_length=32)
    forces_period: str = Field("", max_length=32)
    attacker_force_nation: str = Field("", max_length=32)
    defender_force_nation: str = Field("", max_length=32)
    attacker_table: str = Field("", max_length=64)
    defender_table: str = Field("", max_length=64)
    attacker_quality: str = Field("", max_length=32)
    defender_quality: str = Field("", max_length=32)
    # Each limit's unit before it: a limit is bounded in seconds, whatever its unit (24 hours at most).
    clock_game_unit: Literal["60", "1"] = "60"
    clock_game: Annotated[ClockLimit, Field(title="Each side's time for the game")] = None
    clock_turn_unit: Literal["60", "1"] = "60"
    clock_turn: Annotated[ClockLimit, Field(title="Each side's time each turn")] = None

    @field_validator("clock_game", "clock_turn")
    @classmethod
    def _within_a_day(cls, limit: int | None, info: ValidationInfo) -> int | None:
        """A limit in its unit, refused past the clock's 24 hours in that unit (1,441 minutes was refused by the
        API in seconds, naming a side: the newcomer pass)."""
        unit = int(info.data.get(f"{info.field_name}_unit") or 60)
        if limit is not None and limit * unit > MAX_GAME_MINUTES * 60:
            most = f"{MAX_GAME_MINUTES} minutes" if unit == 60 else f"{MAX_GAME_MINUTES * 60} seconds"
            raise ValueError(f"at most {most} (24 hours)")
        return limit

    @model_validator(mode="before")
    @classmethod
    def _rule_sets_own(cls, form: Any) -> Any:
        """The chosen rule set's own fields read as the game's period and nations."""
        if not isinstance(form, Mapping):
            return form
        own = {key: form.get(f"{key}_{form.get('ruleset')}") for key in OWN_FIELDS}
        return {**form, **{key: value for key, value in own.items() if value}}

    def game(self) -> GameCreate:
        """As the API's GameCreate body, a blank field left to its default (refused naming its field). The clock's limits are kept in the
        game's first event (app.services.clock); the referee sets each side's from the board."""
        if self.scenario == "tables":
            body: dict[str, Any] = {
                "name": self.name,
                "period": self.forces_period,
                **{f"{side}_nation": getattr(self, f"{side}_force_nation") for side in SIDES},
                "forces": [
                    {
                        "side": side,
                        "table_id": getattr(self, f"{side}_table"),
                        "quality": getattr(self, f"{side}_quality") or None,
                    }
                    for side in SIDES
                ],
            }
        elif self.scenario:
            body = {"scenario": self.scenario, "name": self.name}  # a name typed is kept, blank: the title
        else:
            body = {key: getattr(self, key) for key in ("ruleset", "name", *OWN_FIELDS)}
        limits = (
            ("game", self.clock_game, self.clock_game_unit),
            ("turn", self.clock_turn, self.clock_turn_unit),
        )
        body["clock"] = {f"{k}_seconds": dict.fromkeys(SIDES, n * int(unit)) for k, n, unit in limits if n}
        return GameCreate.model_validate({key: value for key, value in body.items() if value})


@posted(router, "/games/new", start_refused, server_organiser("games"))
def create_game_page(
    form: Annotated[NewGameForm, Form()], request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    return start_game(request, session, settings, form.game())


def start_game(request: Request, session: Session, settings: Settings, body: GameCreate) -> Response:
    """A game created from the start page's form (or the scenario editor's saved scenario), its codes shown on
    its created page; a refusal is the start page again, saying why."""
    try:
        with unit_of_work(session):
            game, creds = game_setup.create_game(
                session, settings.secret_key, **body.model_dump(exclude_none=True)
            )
    except USER_ERRORS as e:
        raise PageRefused(_create_error(e, body)) from e
    # POST/redirect/GET: reloading the page that shows the codes must not create another game. The codes reach
    # that page in a signed cookie of this device, never in the URL, and are shown once.
    game_id = game.pk
    response = RedirectResponse(f"/games/{game_id}/created", status_code=303)
    remember_game(request, response, game_id, creds.referee_token)
    keep_created(response, settings.secret_key, game_id, creds.referee_token, creds.join_codes)
    return response


@router.get("/games/{game_id}/created", response_class=HTMLResponse)
def created_page(game_id: GameId, request: Request, session: SessionDep, settings: SettingsDep) -> Response:
    """The new game's codes, once, on the device that created it; after that, how to get new ones."""
    shown = created_credentials(request, settings.secret_key, game_id)

    def build(game: Game, seat: Seat) -> dict[str, Any]:
        return {
            "codes": shown.join_codes if shown else None,
            "referee_token": shown.referee_token if shown else None,
            # A game made by hand starts with nothing on the table: the referee is led to its editor first.
            "empty_table": not any(u.x is not None for u in list_units(session, game_id)),
        }

    response = game_page(request, session, settings, game_id, "created.html", "created.html", build)
    if shown:
        forget_created(response, game_id)
    return response


def _create_error(e: Exception, body: GameCreate) -> str:
    """A refusal of a new game, saying which side's force it is about (forces.N.* in the API)."""
    parts = e.field.split(".") if isinstance(e, RulesError) else []
    if isinstance(e, RulesError) and len(parts) == 3 and parts[0] == "forces" and parts[1].isdecimal():
        side = (body.forces or [])[int(parts[1])].side
        what = "organisation table" if parts[2] == "table_id" else parts[2]
        return f"{humanise(side)} {what}: {e.message}"
    return error_message(e)


@posted(router, "/join", start_refused)
def join_page(
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    code: Annotated[str, Form(max_length=200)] = "",
    replace_seat: Annotated[str, Form()] = "",
) -> Response:
    code = code.strip()
    if event_seats.REKEY_CODE.fullmatch(
        code
    ):  # the organiser's code for a lost tablet: its own form takes it
        return RedirectResponse("/events/rekey", status_code=307)

    def join(entered: str) -> tuple[int, str, str]:
        try:
            game_id, role = seat_named(session, settings.secret_key, entered)
        except NotFoundError:
            # An event's organiser token pasted here (the newcomer's pass of session 18) signs its organiser
            # in on the event's page, as that page's own sign-in does.
            event_id = tournaments.event_of_token(session, settings.secret_key, entered)
            if event_id is not None:
                return event_id, tournaments.ORGANISER, entered
            league_id = league.league_of_token(session, settings.secret_key, entered)  # a league's, likewise
            if league_id is None:
                raise
            return league_id, league.LEAGUE_COOKIE, entered
        held = game_seat(request, session, settings, game_id)
        keep_seat_unless_confirmed(game_id, held.viewer.role if held else None, role, replace_seat)
        return game_id, role, sign_in(session, settings.secret_key, game_id, role, entered)

    try:
        with unit_of_work(session):
            game_id, role, token = join_with_code(code, "referee", join, "join code or token")
    except SeatHeld as e:
        game = games_service.get_game(session, e.owner_id)
        return confirm_seat_page(
            request,
            e,
            name=game.name,
            code=code,
            action="/join",
            keep_url=_seat_home(game, e.held),
            words=lambda role: f"the {role}",
        )
    if role in (tournaments.ORGANISER, league.LEAGUE_COOKIE):  # an event's organiser, or a league's
        events = role == tournaments.ORGANISER
        response = RedirectResponse(f"/{'events' if events else 'leagues'}/{game_id}", status_code=303)
        remember_seat(request, response, tournaments.ORGANISER_COOKIE if events else role, game_id, token)
        return response
    response = RedirectResponse(_seat_home(games_service.get_game(session, game_id), role), status_code=303)
    remember_game(request, response, game_id, token)
    tell_joined(response, game_id)
    return response


def _seat_home(game: Game, role: str) -> str:
    """Where a seat plays: the referee's board; a side's fire plan in set-up, its map once the game is on (a
    device joining mid-game opens on the table as it stands)."""
    if role == REFEREE:
        return f"/games/{game.id}/referee"
    if counters.plays_on_counters(game):  # no table and no fire plan: its page of counters
        return f"/games/{game.id}/counters"
    return f"/games/{game.id}/fire-plan" if game.status == "setup" else f"/games/{game.id}/map"


def _start(
    request: Request,
    session: Session,
    error: str | None = None,
    status_code: int = 200,
    typed: Mapping[str, str] | None = None,
) -> Response:
    """The start page; refused, with what was typed in its fields kept (`typed`: a join code, a game's name)."""
    device = device_games(request)
    games = games_service.list_games(session)
    at_events = games_service.at_event_tables(session)
    rules = game_setup.new_game_rules()
    rs = get_ruleset(rules.book.ruleset_id)
    context = {
        "rulesets": rulesets_summary(),
        "game_ruleset": rs.describe(),
        # Every rule set played as a game, the default first: a game by hand may be of any of them.
        # Each with the nations its book names (a by-hand game's choices) or fixes for its sides (none asked).
        "playable": [
            {
                **get_ruleset(r.book.ruleset_id).describe(),
                "nations": r.book.nations,
                "side_nations": dict(r.book.side_nations),
            }
            for r in all_game_rules()
        ],
        # An event's games are its page's (a day of 100 tables listed 100 games here: session 18's pass).
        "games": [g for g in games if g.id not in at_events],
        "mine": [g for g in games if g.id in device],
        "scenarios": _scenarios(session),
        "org_tables": scenario_forces.org_tables(rs.id),
        "nations": rules.book.nations,
        "qualities": rules.book.qualities,
        "error": error,
        "typed": typed or {},
    }
    return templates.TemplateResponse(request, "start.html", context, status_code=status_code)
