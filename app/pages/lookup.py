"""The lookup pages: any resolver of any rule set by taps, on its own or for a unit of a game."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app.deps import SessionDep, SettingsDep
from app.models import Game
from app.pages.common import not_found, page_or_fragment
from app.pages.forms import dice_from, values_from_form
from app.pages.game_lookup import (
    game_lookup,
    game_lookup_context,
    game_lookup_response,
    picked_unit,
    record_in_game,
)
from app.pages.resolving import (
    default_period,
    form_error,
    lookup_response,
    new_lookup,
    rulesets_summary,
    run_lookup,
    variants_from,
)
from app.pages.seats import Seat, game_page
from rules.core.errors import NotFoundError
from rules.registry import all_rulesets, get_ruleset

router = APIRouter(include_in_schema=False)


@router.get("/lookup", response_class=HTMLResponse)
def lookup_index(
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    ruleset: str | None = None,
    period: str | None = None,
    game: int | None = None,
    unit: int | None = None,
) -> Response:
    if game is not None:

        def build(g: Game, seat: Seat) -> dict[str, Any]:
            rs = get_ruleset(g.ruleset)
            picked = picked_unit(session, g, seat, unit)
            return {**game_lookup_context(session, g, seat, picked), "rs": rs.describe(), "lk": None}

        return game_page(request, session, settings, game, "lookup.html", "_lookup_panel.html", build)
    try:
        rs = get_ruleset(ruleset) if ruleset else all_rulesets()[0]
    except NotFoundError as e:
        return not_found(request, e)
    context = {
        "rulesets": rulesets_summary(),
        "rs": rs.describe(),
        "period": default_period(rs, period),
        "lk": None,
    }
    return page_or_fragment(request, "lookup.html", "_lookup_panel.html", context)


@router.get("/lookup/{ruleset}/{resolver}", response_class=HTMLResponse)
def lookup_form(
    request: Request,
    ruleset: str,
    resolver: str,
    session: SessionDep,
    settings: SettingsDep,
    period: str | None = None,
    game: int | None = None,
    unit: int | None = None,
) -> Response:
    if game is not None:

        def build(g: Game, seat: Seat) -> dict[str, Any]:
            gl = game_lookup(session, g, seat, resolver, unit)
            run_lookup(gl.lk, [], roll=False)
            return game_lookup_response(session, g, seat, gl)

        return game_page(request, session, settings, game, "lookup.html", "_lookup_panel.html", build)
    try:
        lk = new_lookup(ruleset, resolver, period)
    except NotFoundError as e:
        return not_found(request, e)
    run_lookup(lk, [], roll=False)
    return lookup_response(request, lk)


@router.post("/lookup/{ruleset}/{resolver}", response_class=HTMLResponse)
async def lookup_resolve(
    request: Request, ruleset: str, resolver: str, session: SessionDep, settings: SettingsDep
) -> Response:
    form = await request.form()
    action = str(form.get("action", ""))
    # Underscored: no resolver field can be named so (a resolver may have a field called "unit").
    game_field = str(form.get("_game") or "")
    if game_field.isdigit():
        unit_field = str(form.get("_unit") or "")

        def build(g: Game, seat: Seat) -> dict[str, Any]:
            gl = game_lookup(session, g, seat, resolver, int(unit_field) if unit_field.isdigit() else None)
            gl.lk.values, form_errors = values_from_form(gl.lk.specs, form)
            if form_errors:
                gl.lk.errors = [form_error(gl.lk, e) for e in form_errors]
            else:
                run_lookup(gl.lk, [] if action == "clear" else dice_from(form), roll=False)
                if not gl.lk.errors and action in ("record", "roll"):
                    record_in_game(session, g, seat, gl, server_rolls=action == "roll")
            return game_lookup_response(session, g, seat, gl)

        return game_page(
            request, session, settings, int(game_field), "lookup.html", "_lookup_panel.html", build
        )
    try:
        lk = new_lookup(ruleset, resolver, str(form.get("period") or "") or None)
    except NotFoundError as e:
        return not_found(request, e)
    lk.values, form_errors = values_from_form(lk.specs, form)
    lk.variants = variants_from(lk.ruleset, form)
    if form_errors:
        lk.errors = [form_error(lk, e) for e in form_errors]
        return lookup_response(request, lk)
    dice = [] if action == "clear" else dice_from(form)
    run_lookup(lk, dice, roll=action == "roll")
    return lookup_response(request, lk)
