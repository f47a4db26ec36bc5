"""The lookup pages: any resolver of any rule set by taps, on its own or for a unit of a game.

The device remembers its last lookup (rule set, period, resolver, and the game when it was one) in a cookie,
so `/lookup` (the installed app's start page) opens where the player left off."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Form, Query, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from app.core.routing import Router
from app.data.bounded import INT32_MAX
from app.data.models import Game
from app.data.numbers import whole_number
from app.deps import DIGITS, SessionDep, SettingsDep
from app.pages import lookup_sheet
from app.pages.common import not_found, page_or_fragment
from app.pages.forms import dice_from, values_from_form
from app.pages.game_lookup import (
    answered_again,
    game_lookup,
    game_lookup_context,
    game_lookup_response,
    picked_unit,
    read_otherwise,
    record_in_game,
)
from app.pages.lookup_cards import card_picks_from, play_from_hand
from app.pages.refused import PostedForm
from app.pages.resolving import (
    apply_tapped_reading,
    chosen_period,
    errata_rows,
    form_error,
    lookup_response,
    new_lookup,
    rulesets_summary,
    run_lookup,
    variants_from,
)
from app.pages.seats import Seat, device_games, game_page
from app.pages.templates import humanise, templates
from rules.core.errors import NotFoundError
from rules.core.ruleset import RuleSet
from rules.registry import all_rulesets, get_ruleset

router = Router(include_in_schema=False)
router.include_router(lookup_sheet.router)

LOOKUP_COOKIE = "firestep_lookup"
LOOKUP_COOKIE_SECONDS = 400 * 24 * 3600  # the longest a browser keeps a cookie


# A game's or a unit's id in the lookup's query: plain digits, at most INT32_MAX as a path's id is (the hostile
# pass: a number past SQLite's 64 bits was a 500 where the database cast it, and `3_0` read as 30).
QueryId = Annotated[int | None, DIGITS, Query(ge=1, le=INT32_MAX)]


@dataclass(frozen=True)
class Remembered:
    """This device's last lookup, each part checked against the rule sets (the cookie is the client's)."""

    ruleset: str | None = None
    period: str | None = None
    resolver: str | None = None
    game: int | None = None


def remembered(request: Request) -> Remembered:
    parts = (request.cookies.get(LOOKUP_COOKIE) or "")[:200].split("|")
    if len(parts) != 4:
        return Remembered()
    rs_id, period, resolver, game = parts
    try:
        rs = get_ruleset(rs_id)
    except NotFoundError:
        return Remembered()
    return Remembered(
        rs.id,
        chosen_period(rs, period),
        resolver if resolver in rs.resolvers else None,
        whole_number(game, 10**9),
    )


def last_lookup(request: Request) -> str | None:
    """Words for this device's last free lookup ("Flanders Fields · mid 1915 to mid 1917 · Shooting"), for the
    start page's way back to it; None when there is none."""
    mem = remembered(request)
    if mem.ruleset is None or mem.game is not None:
        return None
    rs = get_ruleset(mem.ruleset)
    period = next((p.name for p in rs.periods if p.id == mem.period), None)
    return " · ".join(x for x in (rs.name, period, humanise(mem.resolver or "")) if x)


templates.env.globals["last_lookup"] = last_lookup


def remember(
    request: Request,
    response: Response,
    rs: RuleSet,
    period: str | None,
    resolver: str | None,
    game: int | None,
) -> None:
    # The worker keeping pages for offline use fetches them in the background (Purpose: prefetch): such a fetch,
    # answered after the player's next tap, must not put back the lookup the player has since left.
    if "prefetch" in (request.headers.get("purpose", "") + request.headers.get("sec-purpose", "")):
        return
    value = f"{rs.id}|{period or ''}|{resolver or ''}|{game or ''}"
    response.set_cookie(
        LOOKUP_COOKIE, value, max_age=LOOKUP_COOKIE_SECONDS, path="/", samesite="lax", httponly=True
    )


def _period_for(rs: RuleSet, asked: str | None, mem: Remembered) -> str | None:
    """The period asked for, else the one this device last used with this rule set."""
    return chosen_period(rs, asked) or (mem.period if mem.ruleset == rs.id else None)


def _free_lookup(request: Request, rs: RuleSet, resolver: str, period: str | None) -> Response:
    lk = new_lookup(rs.id, resolver, period)
    if rs.period_ids and lk.period is None:
        return _index(request, rs, None, resolver)
    run_lookup(lk, [], roll=False)
    response = lookup_response(request, lk)
    remember(request, response, rs, lk.period, resolver, None)
    return response


def _index(request: Request, rs: RuleSet, period: str | None, resolver: str | None = None) -> Response:
    """The pickers without a form: pick the period (when the rule set has periods), then what to resolve."""
    context = {"rulesets": rulesets_summary(), "rs": rs.describe(), "period": period, "lk": None}
    context["pending_resolver"] = resolver
    response = page_or_fragment(request, "lookup.html", "_lookup_panel.html", context)
    if period is not None or not rs.period_ids:
        remember(request, response, rs, period, None, None)
    return response


def _game_index(
    request: Request, session: SessionDep, settings: SettingsDep, game_id: int, unit: int | None
) -> Response:
    def build(g: Game, seat: Seat) -> dict[str, Any]:
        rs = get_ruleset(g.ruleset)
        picked = picked_unit(session, g, seat, unit)
        return {**game_lookup_context(session, g, seat, picked), "rs": rs.describe(), "lk": None}

    response = game_page(request, session, settings, game_id, "lookup.html", "_lookup_panel.html", build)
    _remember_game(request, response, session, game_id, None)
    return response


def _remember_game(
    request: Request, response: Response, session: SessionDep, game_id: int, resolver: str | None
) -> None:
    if response.status_code != 200:
        return
    game = session.get(Game, game_id)
    if game is not None:
        remember(request, response, get_ruleset(game.ruleset), game.period, resolver, game_id)


@router.get("/lookup", response_class=HTMLResponse)
def lookup_index(
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    ruleset: str | None = None,
    period: str | None = None,
    game: QueryId = None,
    unit: QueryId = None,
) -> Response:
    mem = remembered(request)
    if game is not None:
        return _game_index(request, session, settings, game, unit)
    if ruleset is None and period is None:
        # The installed app's start page: the last lookup of this device, as it was left.
        if mem.game is not None and mem.game in device_games(request):
            return _game_index(request, session, settings, mem.game, None)
        if mem.ruleset is not None:
            rs = get_ruleset(mem.ruleset)
            if mem.resolver is not None and (mem.period or not rs.period_ids):
                return _free_lookup(request, rs, mem.resolver, mem.period)
            return _index(request, rs, mem.period)
    try:
        rs = get_ruleset(ruleset or mem.ruleset or all_rulesets()[0].id)  # else firestep's first
    except NotFoundError as e:
        return not_found(request, e)
    return _index(request, rs, _period_for(rs, period, mem))


@router.get("/lookup/{ruleset}/{resolver}", response_class=HTMLResponse)
def lookup_form(
    request: Request,
    ruleset: str,
    resolver: str,
    session: SessionDep,
    settings: SettingsDep,
    period: str | None = None,
    game: QueryId = None,
    unit: QueryId = None,
) -> Response:
    if game is not None:

        def build(g: Game, seat: Seat) -> dict[str, Any]:
            gl = game_lookup(session, g, seat, resolver, unit)
            run_lookup(gl.lk, [], roll=False)
            return game_lookup_response(session, g, seat, gl)

        response = game_page(request, session, settings, game, "lookup.html", "_lookup_panel.html", build)
        _remember_game(request, response, session, game, resolver)
        return response
    try:
        rs = get_ruleset(ruleset)
        new_lookup(ruleset, resolver, None)  # the resolver exists
    except NotFoundError as e:
        return not_found(request, e)
    return _free_lookup(request, rs, resolver, _period_for(rs, period, remembered(request)))


@router.get("/lookup/{ruleset}/{resolver}/errata", response_class=HTMLResponse)
def lookup_errata(
    request: Request,
    ruleset: str,
    resolver: str,
    session: SessionDep,
    settings: SettingsDep,
    period: str | None = None,
    game: QueryId = None,
) -> Response:
    """The errata that touch this resolver in this period, loaded when the player opens them: to choose a
    reading, or, in a game, to read the ones the game plays."""
    if game is not None:

        def build(g: Game, seat: Seat) -> dict[str, Any]:
            gl = game_lookup(session, g, seat, resolver, None)
            run_lookup(gl.lk, [], roll=False)
            return {"lk": gl.lk, "errata": errata_rows(gl.lk), "fixed": True}

        errata = "_lookup_errata.html"
        return game_page(request, session, settings, game, errata, errata, build)
    try:
        lk = new_lookup(ruleset, resolver, period)
    except NotFoundError as e:
        return not_found(request, e)
    lk.variants = variants_from(lk.ruleset, request.query_params)
    if lk.period is not None or not lk.ruleset.period_ids:
        run_lookup(lk, [], roll=False)
    context = {"lk": lk, "errata": errata_rows(lk), "fixed": False}
    return templates.TemplateResponse(request, "_lookup_errata.html", context)


class LookupPost(BaseModel):
    """The lookup form's own fields, each bounded: underscored where a resolver's could share the name (a resolver
    may have a field called "unit"). The rest is the resolver's (its fields, dice, card picks, variants and a
    reading tapped under its answer), named by its rule set and read from the form as posted (`PostedForm`)."""

    action: str = Field("", max_length=100)  # record, roll, clear, or play.<card> from the hand
    period: str | None = Field(None, max_length=32)
    errata: str = Field("", alias="_errata", max_length=8)  # "open": the errata stay open
    game: int | None = Field(None, alias="_game", ge=0, lt=10**9)
    unit: int | None = Field(None, alias="_unit", ge=0, lt=10**9)
    reasked: int | None = Field(None, alias="_reasked", ge=0, lt=10**9)  # a reading changed: asked again


@router.post("/lookup/{ruleset}/{resolver}", response_class=HTMLResponse)
def lookup_resolve(
    request: Request,
    ruleset: str,
    resolver: str,
    session: SessionDep,
    settings: SettingsDep,
    posted: Annotated[LookupPost, Form()],
    form: PostedForm,
) -> Response:
    action, errata_open = posted.action, posted.errata == "open"
    if posted.game is not None:

        def build(g: Game, seat: Seat) -> dict[str, Any]:
            gl = game_lookup(session, g, seat, resolver, posted.unit)
            gl.lk.values, form_errors = values_from_form(gl.lk.specs, form)
            if form.get("_reading"):  # the other reading, tapped under an answer: the game's, by its referee
                read_otherwise(session, g, seat, gl, form)
            if action.startswith("play."):  # one tap on a card in the hand plays it
                refused = play_from_hand(session, g.pk, seat.viewer, action.removeprefix("play."))
                if refused:
                    gl.lk.errors = [{"field": "card", "label": "Not played", "message": refused}]
                run_lookup(gl.lk, [], roll=False, answer=False)
            elif form_errors:
                gl.lk.errors = [form_error(gl.lk, e) for e in form_errors]
            else:
                recording = action in ("record", "roll")
                gl.lk.card_picks = [] if action in ("clear", "roll") else card_picks_from(form)
                run_lookup(
                    gl.lk, [] if action == "clear" else dice_from(form), roll=False, answer=not recording
                )
                if not gl.lk.errors and recording:
                    # "Roll for me" in a game is firestep's roll, so it goes straight into the log.
                    record_in_game(session, g, seat, gl, server_rolls=action == "roll")
            return game_lookup_response(
                session, g, seat, gl, errata_open, answered_again(session, g, posted.reasked)
            )

        response = game_page(
            request, session, settings, posted.game, "lookup.html", "_lookup_panel.html", build
        )
        _remember_game(request, response, session, posted.game, resolver)
        return response
    try:
        lk = new_lookup(ruleset, resolver, posted.period)
    except NotFoundError as e:
        return not_found(request, e)
    if lk.ruleset.period_ids and lk.period is None:
        return _index(request, lk.ruleset, None, resolver)
    lk.values, form_errors = values_from_form(lk.specs, form)
    lk.variants = variants_from(lk.ruleset, form)
    apply_tapped_reading(lk, form)
    if form_errors:
        lk.errors = [form_error(lk, e) for e in form_errors]
    else:
        lk.card_picks = [] if action in ("clear", "roll") else card_picks_from(form)
        run_lookup(lk, [] if action == "clear" else dice_from(form), roll=action == "roll")
    response = lookup_response(request, lk, errata_open)
    remember(request, response, lk.ruleset, lk.period, resolver, None)
    return response
