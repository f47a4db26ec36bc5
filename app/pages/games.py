"""The start page (create or join a game) and the pages of one game: the referee's board and the map."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlmodel import Session
from starlette.datastructures import FormData

from app import auth, security
from app.deps import GameId, SessionDep, SettingsDep
from app.errors import TooManyRequests
from app.models import Game, Unit
from app.pages.common import (
    USER_ERRORS,
    JoinRefused,
    error_message,
    join_with_code,
    organiser_refusal,
    too_many,
)
from app.pages.resolving import rulesets_summary
from app.pages.seats import Seat, device_games, game_page, remember_game
from app.pages.templates import humanise, templates
from app.schemas import GameCreate
from app.services import events as events_service
from app.services import game_setup, markers, seats, turns
from app.services import games as games_service
from app.services import units as units_service
from rules.core.errors import RulesError
from rules.flanders_fields.common import QUALITIES
from rules.flanders_fields.organisation import NATIONS, ORGANISATION_TABLES
from rules.flanders_fields.table_rules import DANGER_ZONE_CM
from rules.registry import get_ruleset
from rules.table.bases import BASES
from rules.table.frame import AHEAD_DEG
from rules.table.templates import TEMPLATES

router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
def start_page(request: Request, session: SessionDep) -> Response:
    return _start(request, session)


def _scenarios() -> list[dict[str, Any]]:
    from rules.flanders_fields.scenarios import SCENARIOS

    return [{"id": sid, "name": getattr(s, "name", sid)} for sid, s in SCENARIOS.items()]


@router.post("/games/new", response_class=HTMLResponse)
async def create_game_page(request: Request, session: SessionDep, settings: SettingsDep) -> Response:
    form = await request.form()
    refused = organiser_refusal(settings, form, "games")
    if refused:
        return _start(request, session, error=refused[0], status_code=refused[1])
    fields: dict[str, Any] = {}
    scenario = str(form.get("scenario") or "")
    if scenario == "tables":
        fields.update(_forces_from(form))
    elif scenario:
        fields["scenario"] = scenario
    else:
        for key in ("name", "period", "attacker_nation", "defender_nation"):
            if form.get(key):
                fields[key] = str(form.get(key)).strip()
    try:
        body = GameCreate.model_validate(fields)
        game, creds = game_setup.create_game(
            session, settings.secret_key, **body.model_dump(exclude_none=True)
        )
        session.commit()
        session.refresh(game)
    except USER_ERRORS as e:
        session.rollback()
        return _start(request, session, error=_create_error(e, fields), status_code=422)
    context = {"game": game, "codes": creds.join_codes}
    response = templates.TemplateResponse(request, "created.html", context)
    remember_game(request, response, game.id or 0, creds.referee_token)
    return response


def _forces_from(form: FormData) -> dict[str, Any]:
    """The start page's "forces from the organisation tables": a period, and per side a nation, a table and
    a quality (blank: the table's own), as a GameCreate body."""
    fields: dict[str, Any] = {"forces": []}
    for key in ("name", "forces_period"):
        if form.get(key):
            fields["period" if key == "forces_period" else key] = str(form.get(key)).strip()
    for side in auth.SIDES:
        if form.get(f"{side}_force_nation"):
            fields[f"{side}_nation"] = str(form.get(f"{side}_force_nation"))
        force: dict[str, Any] = {"side": side, "table_id": str(form.get(f"{side}_table") or "")}
        if form.get(f"{side}_quality"):
            force["quality"] = str(form.get(f"{side}_quality"))
        fields["forces"].append(force)
    return fields


def _create_error(e: Exception, fields: Mapping[str, Any]) -> str:
    """A refusal of a new game, saying which side's force it is about (forces.N.* in the API)."""
    parts = e.field.split(".") if isinstance(e, RulesError) else []
    if isinstance(e, RulesError) and len(parts) == 3 and parts[0] == "forces" and parts[1].isdigit():
        side = fields["forces"][int(parts[1])]["side"]
        what = "organisation table" if parts[2] == "table_id" else parts[2]
        return f"{humanise(side)} {what}: {e.message}"
    return error_message(e)


@router.post("/join", response_class=HTMLResponse)
async def join_page(request: Request, session: SessionDep, settings: SettingsDep) -> Response:
    form = await request.form()
    code = str(form.get("code") or "").strip()
    try:
        game_id, _side, token = join_with_code(
            code, "referee", lambda c: seats.join(session, settings.secret_key, c)
        )
        session.commit()
    except TooManyRequests as e:
        return too_many(_start(request, session, error=security.page_wait_message(e, "wrong join codes")), e)
    except JoinRefused as e:
        return _start(request, session, error=str(e), status_code=422)
    game = games_service.get_game(session, game_id)
    target = f"/games/{game_id}/fire-plan" if game.status == "setup" else f"/lookup?game={game_id}"
    response = RedirectResponse(target, status_code=303)
    remember_game(request, response, game_id, token)
    return response


def _start(request: Request, session: Session, error: str | None = None, status_code: int = 200) -> Response:
    device = device_games(request)
    games = games_service.list_games(session)
    context = {
        "rulesets": rulesets_summary(),
        "game_ruleset": get_ruleset(games_service.RULESET).describe(),
        "games": games,
        "mine": [g for g in games if g.id in device],
        "scenarios": _scenarios(),
        "org_tables": list(ORGANISATION_TABLES.values()),
        "nations": NATIONS,
        "qualities": QUALITIES,
        "error": error,
    }
    return templates.TemplateResponse(request, "start.html", context, status_code=status_code)


def unit_tree(units: list[Unit]) -> dict[str, list[dict[str, Any]]]:
    """Each side's units as nested nodes (division .. stand), with battalion casualties against the 50% and
    75% morale thresholds."""
    children: dict[int | None, list[Unit]] = {}
    for u in units:
        children.setdefault(u.parent_id, []).append(u)

    def node(u: Unit) -> dict[str, Any]:
        kids = [node(c) for c in children.get(u.id, [])]
        out: dict[str, Any] = {"unit": u, "children": kids, "leaf": not kids}
        if u.level == "battalion" or (
            u.level != "company" and any(k["unit"].level == "company" for k in kids)
        ):
            total, lost = markers.rifle_losses(u, units)
            if total:
                out["losses"] = {
                    "lost": lost,
                    "total": total,
                    "half": -(-total // 2),
                    "three_quarters": -(-3 * total // 4),
                }
        return out

    roots = [u for u in units if u.parent_id is None]
    return {side: [node(u) for u in roots if u.side == side] for side in auth.SIDES}


@router.get("/games/{game_id}/referee", response_class=HTMLResponse)
def referee_page(game_id: GameId, request: Request, session: SessionDep, settings: SettingsDep) -> Response:
    def build(game: Game, seat: Seat) -> dict[str, Any]:
        roles = [seat.viewer.role] if not seat.viewer.is_referee else ["referee", *auth.SIDES]
        events = events_service.list_events(session, game_id, roles, 0, 100_000)[-40:]
        undone = events_service.reversed_ids(session, game_id)
        return {
            "turn": turns.turn_info(session, game),
            "tree": unit_tree(units_service.list_units(session, game_id)),
            "events": [events_service.event_dict(e, roles) for e in reversed(events)],
            "undone": undone,
        }

    return game_page(request, session, settings, game_id, "referee.html", "_referee_board.html", build)


@router.get("/games/{game_id}/map", response_class=HTMLResponse)
def map_page(game_id: GameId, request: Request, session: SessionDep, settings: SettingsDep) -> Response:
    def build(game: Game, seat: Seat) -> dict[str, Any]:
        # Base and template sizes come from the rules' own tables, so the map draws true proportions.
        sizes = {
            "bases": {k: {"shape": b.shape, "w": b.width_cm, "d": b.depth_cm} for k, b in BASES.items()},
            "templates": {
                k: {"w": t.width_cm, "d": t.depth_cm, "across": t.across_table} for k, t in TEMPLATES.items()
            },
            # For what the game has on the table: clouds face the enemy of the side that released them,
            # and a rolling barrage endangers its own side's stands in the band behind its rear edge.
            "ahead": dict(AHEAD_DEG),
            "danger_cm": DANGER_ZONE_CM,
        }
        return {"sizes": sizes, "template_kinds": list(TEMPLATES)}

    return game_page(request, session, settings, game_id, "map.html", "map.html", build)
