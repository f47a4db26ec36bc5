"""The fire-plan page: a side writes its plan item by item during set-up, then locks it."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import ValidationError
from sqlmodel import Session
from starlette.datastructures import FormData

from app import auth
from app.auth import Viewer, new_salt
from app.deps import GameId, SessionDep, SettingsDep
from app.errors import Conflict, Forbidden
from app.models import Game
from app.pages.common import error_message
from app.pages.seats import Seat, game_page
from app.schemas import PlanItemIn, PlanOut, plan_item_out
from app.services import fireplans, games, seats
from rules.core.errors import NotFoundError, RulesError
from rules.flanders_fields.barrage import PLAN_ITEM_STEPS

router = APIRouter(include_in_schema=False)


@router.get("/games/{game_id}/fire-plan", response_class=HTMLResponse)
def fire_plan_page(
    game_id: GameId, request: Request, session: SessionDep, settings: SettingsDep, side: str | None = None
) -> Response:
    def build(game: Game, seat: Seat) -> dict[str, Any]:
        return _plan_context(session, game, seat, side)

    return game_page(request, session, settings, game_id, "fire_plan.html", "_fire_plan.html", build)


def _plan_context(
    session: Session, game: Game, seat: Seat, side: str | None, error: str | None = None
) -> dict[str, Any]:
    viewer = seat.viewer
    chosen = side if side in auth.SIDES else (viewer.role if viewer.role in auth.SIDES else "attacker")
    # The same rule as the API: the opponent is refused (403) until the game is over.
    if not fireplans.may_read_plan(viewer, chosen, game):
        raise Forbidden(f"the {chosen}'s fire plan is secret until its items arrive")
    items = [plan_item_out(i) for i in fireplans.plan_items(session, game.id or 0, chosen)]
    plans = {s.side: PlanOut(**fireplans.plan_summary(s)) for s in seats.sides(session, game.id or 0)}
    by_turn: dict[int, list[Any]] = {}
    for item in items:
        by_turn.setdefault(item.arrival_turn, []).append(item)
    return {
        "side": chosen,
        "items": items,
        "timeline": sorted(by_turn.items()),
        "plans": plans,
        "plan": plans.get(chosen),
        "error": error,
        # Only what the period has: an early plan offers no rolling barrage or Deep Suppression.
        "kinds": [k for k in PLAN_KINDS if k not in PLAN_ITEM_STEPS or PLAN_ITEM_STEPS[k].has(game.period)],
    }


PLAN_KINDS = (
    "aiming-point",
    "bombardment",
    "superimposed",
    "mortar",
    "air-mission",
    "gas",
    "rolling-barrage",
    "deep-suppression",
)
PLAN_FIELDS = {
    "fire": ("grid", "battery", "turns"),
    "gas": ("grid", "gas", "wind_deg"),
    "rolling-barrage": ("start_up_cm", "duration_turns", "halts"),
    "deep-suppression": (),
}


TEXT_PLAN_FIELDS = ("battery", "gas")


def _form_number(raw: Any) -> Any:
    """A typed-in number as the API takes it (the API refuses numbers sent as strings); anything that is not
    a number stays as typed, so the refusal names the field."""
    text = str(raw or "").strip()
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


def _plan_item(form: FormData) -> dict[str, Any]:
    """The API's PlanItemIn body from the fire-plan form: only the fields of the chosen kind."""
    kind = str(form.get("kind") or "")
    group = kind if kind in PLAN_FIELDS else "fire"
    item: dict[str, Any] = {"kind": kind}
    for name in PLAN_FIELDS[group]:
        if name == "grid":
            item["grid"] = [_form_number(form.get("grid_x")), _form_number(form.get("grid_y"))]
        elif name == "halts":
            raw = str(form.get("halts") or "")
            item["halts"] = [_form_number(h) for h in raw.replace(";", ",").split(",") if h.strip()]
        elif form.get(name) not in (None, ""):
            value = str(form.get(name)).strip()
            item[name] = value if name in TEXT_PLAN_FIELDS else _form_number(value)
    return {"arrival_turn": _form_number(form.get("arrival_turn") or "1"), "item": item}


def write_plan(
    session: Session, game_id: int, side: str, viewer: Viewer, action: str, form: FormData
) -> None:
    """The write the form asks for, checked as the fire-plan API checks it (app/routes/fireplans.py), then
    committed: lock the plan (`lock`), remove an item (`remove-<id>`), or add the item the form describes."""
    if action == "lock":
        viewer.require_side(side, "lock the fire plan")
        game = games.lock_game(session, game_id)
        if game.status != "setup":
            raise Conflict("fire plans are locked before the game starts", current=games.game_state(game))
        fireplans.lock_plan(session, game, side, viewer.role)
    elif action.startswith("remove-"):
        item_id = int(action.removeprefix("remove-"))
        viewer.require_side(side, "write the fire plan")
        game = games.lock_game(session, game_id)
        fireplans.remove_plan_item(session, game, side, item_id)
    else:
        body = PlanItemIn.model_validate(_plan_item(form))
        viewer.require_side(side, "write the fire plan")
        game = games.lock_game(session, game_id)
        data = body.item.model_dump(exclude={"kind"})
        fireplans.add_plan_item(session, game, side, body.item.kind, body.arrival_turn, data, new_salt())
    session.commit()


@router.post("/games/{game_id}/fire-plan/{side}", response_class=HTMLResponse)
async def fire_plan_action(
    game_id: GameId, side: str, request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    """Add an item, remove one, or lock the plan, with the fire-plan API's rules and refusals, then show the
    plan again with any refusal as a message."""
    form = await request.form()
    action = str(form.get("action") or "add")

    def build(game: Game, seat: Seat) -> dict[str, Any]:
        error = None
        try:
            if side not in auth.SIDES:
                raise RulesError("side", "no such side", auth.SIDES)
            write_plan(session, game_id, side, seat.viewer, action, form)
        except (RulesError, ValidationError, NotFoundError, Conflict, ValueError) as e:
            session.rollback()
            error = error_message(e)
        session.expire_all()
        return _plan_context(session, games.get_game(session, game_id), seat, side, error)

    return game_page(request, session, settings, game_id, "fire_plan.html", "_fire_plan.html", build)
