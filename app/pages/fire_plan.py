"""The fire-plan page: a side writes its plan item by item during set-up, then locks it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from fastapi import Form, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field
from sqlmodel import Session
from starlette.datastructures import FormData

from app.core.config import Settings
from app.core.routing import Router
from app.data.models import Game
from app.data.schemas import PlanItemIn, PlanOut, plan_item_out
from app.deps import GameId, SessionDep, SettingsDep
from app.errors import Forbidden, TooManyRequests
from app.pages.common import error_message, is_htmx
from app.pages.refused import PageRoute, PostedForm, Refusal, posted
from app.pages.seats import Seat, game_page, game_seat
from app.services import fireplans, games, rehearsal, scenarios, seats, tournaments, turns
from app.services.markers import kept_of, rules_of, snapshot_of
from app.services.seating import Viewer, new_salt
from app.services.table import table_of
from app.services.writing import game_write
from rules.core.acts import PlanFire
from rules.core.errors import RulesError
from rules.core.game import PlanMark, item_words
from rules.core.kit import PlanKind
from rules.core.records import Snapshot
from rules.core.vocabulary import SIDES
from rules.table.frame import AHEAD_DEG, Side, table_to_grid
from rules.table.placed import stand_of
from rules.table.templates import Template

router = Router(include_in_schema=False, route_class=PageRoute)


@router.get("/games/{game_id}/fire-plan", response_class=HTMLResponse)
def fire_plan_page(
    game_id: GameId, request: Request, session: SessionDep, settings: SettingsDep, side: str | None = None
) -> Response:
    return _plan_page(request, session, settings, game_id, side)


def _plan_page(
    request: Request,
    session: Session,
    settings: Settings,
    game_id: int,
    side: str | None,
    said: str | None = None,
) -> Response:
    """The plan page of `side` (none: the seat's own), saying `said` (why its form was refused)."""

    def build(game: Game, seat: Seat) -> dict[str, Any]:
        return _plan_context(session, game, seat, side, said)

    return game_page(request, session, settings, game_id, "fire_plan.html", "_fire_plan.html", build)


def _plan_context(
    session: Session, game: Game, seat: Seat, side: str | None, error: str | None = None
) -> dict[str, Any]:
    viewer = seat.viewer
    chosen = side if side in SIDES else (viewer.role if viewer.role in SIDES else "attacker")
    # The same rule as the API: the opponent is refused (403) until the game is over.
    if not fireplans.may_read_plan(viewer, chosen, game):
        raise Forbidden(f"the {chosen}'s fire plan is secret until its items arrive")
    items = [plan_item_out(i) for i in fireplans.plan_items(session, game.pk, chosen)]
    terms = rules_of(game).book.plan_terms
    plans = {
        s.side: PlanOut(**fireplans.plan_summary(session, game, s.side))
        for s in seats.sides(session, game.pk)
    }
    by_turn: dict[int, list[Any]] = {}
    for item in items:
        by_turn.setdefault(item.arrival_turn, []).append(item)
    plan = plans.get(chosen)
    nation = fireplans.get_side(session, game.pk, chosen).nation
    now = snapshot_of(session, game, [])  # what a plan item is asked against: the game, not its stands
    return {
        **table_drawing(session, game, chosen),
        **rehearsal_view(session, game, viewer, chosen, bool(items)),
        # After the reveal (the plan locked, and readable here), the page checks it against its commitment.
        "verify_url": f"/api/v1/games/{game.id}/fireplans/{chosen}/verify" if plan and plan.locked else None,
        "side": chosen,
        "items": items,
        "item_words": {
            i.id: item_words(terms, i.kind, i.data.model_dump()) for i in items
        },  # as chosen ("Chlorine cordon")
        "timeline": sorted(by_turn.items()),
        "plans": plans,
        "plan": plans.get(chosen),
        "lock_refused": fireplans.lock_refusal(
            game
        ),  # in place of its Lock button, as the act would refuse it
        "error": error,
        # Where a seat lands in set-up: an event's table page (its result, the round timer) one tap away, as
        # from the map (issue 63).
        "event_table": tournaments.table_link(session, game.pk),
        **plan_form(
            game,
            [
                k
                for k in plan_models(game)
                if _plannable(now, game, PlanFire(side=chosen, kind=k, nation=nation))
            ],
        ),
    }


# -- the table under the grid: terrain, deployment zones, own stands, planned items, the rehearsal's heat ---
def _path(rings: Any, close: bool = True) -> str:
    """An SVG path in the table frame (cm) from GeoJSON rings or a line."""
    out = []
    for ring in rings:
        pts = [f"{float(x):.2f} {float(y):.2f}" for x, y, *_ in ring]
        if pts:
            out.append("M" + " L".join(pts) + (" Z" if close else ""))
    return " ".join(out)


def _poly_path(poly: Any) -> str:
    return _path([list(poly.exterior.coords)]) if not poly.is_empty else ""


def _terrain_shapes(terrain: dict[str, Any]) -> list[dict[str, Any]]:
    shapes = []
    for f in terrain.get("features", []):
        geom, props = f.get("geometry") or {}, f.get("properties") or {}
        kind, coords = str(props.get("kind", "")), geom.get("coordinates") or []
        if geom.get("type") == "Polygon":
            shapes.append({"kind": kind, "name": props.get("name", kind), "d": _path(coords), "line": False})
        elif geom.get("type") == "MultiPolygon":
            d = " ".join(_path(p) for p in coords)
            shapes.append({"kind": kind, "name": props.get("name", kind), "d": d, "line": False})
        elif geom.get("type") == "LineString":
            shapes.append(
                {"kind": kind, "name": props.get("name", kind), "d": _path([coords], False), "line": True}
            )
    return shapes


def table_drawing(session: Session, game: Game, side: str) -> dict[str, Any]:
    """What the grid is drawn over, in the table frame; the SVG turns it so the side's rear edge is at the
    bottom (the grid reference runs from that edge). Only public things and the side's own plan."""
    table = table_of(game)
    plan_side: Side = "attacker" if side == "attacker" else "defender"
    zones = [
        {"side": s, "x": x0, "y": y0, "w": x1 - x0, "h": y1 - y0}
        for s, (x0, y0, x1, y1) in scenarios.deployment_zones(session, game.scenario).items()
    ]
    # The game's units as the worker keeps them for its version, named once there (app.services.kept_units):
    # this page of a game of 1,400 stands loaded, decoded and named every unit for one drawing.
    kept = kept_of(session, game)
    units, names = kept.units, kept.short_names
    rules = rules_of(game)
    # The batteries and mortars a plan item names (the units the rule set says fire it): a stand by the name
    # the board, the map and the lookup show; a formation of stands (2mm's battery of guns) by its own name
    # ("18-pounder Battery"), by its full name where two of the side's are named alike.
    parents = {u.parent_id for u in units}
    firing = [u for u in units if u.side == side and not u.killed and rules.fires_plan(u)]
    alike = Counter(u.name for u in firing if u.id in parents)
    full = {u.id: kept.listed_names[u.id][0] for u in firing if alike[u.name] > 1}
    guns = [
        {"value": u.name, "shown": full.get(u.id, u.name)}
        if u.id in parents
        else {"value": names.get(u.id, u.name), "shown": names.get(u.id, u.name)}
        for u in firing
    ]
    stands = []
    for u in units:
        st = stand_of(u, rules.book.kit.bases)
        if st is not None:
            stands.append(
                {
                    "id": u.id,
                    "side": u.side,
                    "own": u.side == side,
                    "name": names.get(u.id, u.name),
                    "d": _poly_path(st.polygon()),
                }
            )
    items = [
        {"id": str(i.public_id), "kind": i.kind, "arrival_turn": i.arrival_turn, "data": i.data}
        for i in fireplans.plan_items(session, game.pk, side)
    ]
    ahead = AHEAD_DEG[plan_side]

    def on_screen(x: float, y: float) -> tuple[float, float]:
        """A table-frame point where the SVG draws it: the grid reference, up the screen."""
        gx, gy = table_to_grid(plan_side, x, y, table)
        return round(gx, 2), round(table.length_cm - gy, 2)

    def drawn(mark: PlanMark) -> str:
        """A template where it lands, or a band across the table."""
        if mark.band is not None:
            y0, y1 = mark.band
            return _path([[(0, y0), (table.width_cm, y0), (table.width_cm, y1), (0, y1)]])
        spec = rules.book.kit.templates[str(mark.template)]
        return _poly_path(Template(spec, mark.point, ahead).polygon(table))

    draw = rules.book.plan_terms.marks
    marks = [
        {"label": m.label, "kind": m.kind, "d": drawn(m), "at": on_screen(*m.point)}
        for m in (draw(side, items, table) if draw is not None else ())
    ]
    # Turned so that the side's own rear edge is at the bottom and its left-hand corner at the bottom left.
    flip = (
        f"matrix(1 0 0 -1 0 {table.length_cm:g})"
        if plan_side == "attacker"
        else f"matrix(-1 0 0 1 {table.width_cm:g} 0)"
    )
    return {
        "terrain_shapes": _terrain_shapes(game.terrain),
        "zones": zones,
        "stands": stands,
        "guns": guns,
        "marks": marks,
        "flip": flip,
    }


# The rehearsal the page shows: the wind of gas sampled fewer times than the API's default, to answer fast.
PAGE_SAMPLES = 100


def rehearsal_view(
    session: Session, game: Game, viewer: Viewer, side: str, has_items: bool
) -> dict[str, Any]:
    """The side's own plan rehearsed against the enemy's stands as they stand now, as heat per turn; nothing
    where the rule set rehearses no plan (2mm Earth 1418)."""
    asked = rules_of(game).book.plan_terms.rehearsal
    if not has_items or not viewer.may_act_for(side) or asked is None:
        return {"rehearsal": None, "rehearsal_error": None}
    try:
        body = rehearsal.rehearse_plan(session, game, viewer, side, asked(samples=PAGE_SAMPLES))
    except (RulesError, TooManyRequests) as e:  # the page is shown without its heat, saying why
        return {"rehearsal": None, "rehearsal_error": error_message(e)}
    centres = {s["stand"]: s["center"] for s in body["stands"]}
    for turn in body["turn_by_turn"]:
        for s in turn["stands"]:
            s["center"] = centres.get(s["stand"])
            s["hit"] = round(1 - s["markers"]["0"], 4)
        turn["stands"].sort(key=lambda s: (-s["killed"], -s["hit"]))
    return {"rehearsal": body, "rehearsal_error": None}


def _plannable(now: Snapshot, game: Game, asked: PlanFire) -> bool:
    """Only what the period and this side may plan: an early plan offers no rolling barrage or Deep
    Suppression, a defender's no Firewaltz (the rule's own check, the act asked without raising)."""
    try:
        rules_of(game).play(now, asked)
    except RulesError:
        return False
    return True


def plan_models(game: Game) -> dict[str, type[PlanKind]]:
    """The model of each kind of plan item the game's rule set knows (its kit's plan kinds), by kind."""
    return {
        k: m for m in rules_of(game).book.kit.plan_kinds for k in get_args(m.model_fields["kind"].annotation)
    }


def plan_form(game: Game, kinds: Sequence[str]) -> dict[str, Any]:
    """The form's kinds, each with the index of its model, and for each field of the form the models that
    have it: the page shows a field while a kind of one of its models is checked (app.css, by index)."""
    models = list(rules_of(game).book.kit.plan_kinds)
    by_kind = plan_models(game)
    fields: dict[str, list[str]] = {}
    # A field of a few named values offers the rule set's own words; a number starts at its model's default.
    choices: dict[str, tuple[Any, ...]] = {}
    defaults: dict[str, Any] = {}
    for i, m in enumerate(models):
        for name, f in m.model_fields.items():
            fields.setdefault(name, []).append(str(i))
            if name != "kind" and get_origin(f.annotation) is Literal:
                choices[name] = get_args(f.annotation)
            if isinstance(f.default, int | float) and not isinstance(f.default, bool):
                defaults.setdefault(name, f.default)
    return {
        "kinds": [{"kind": k, "model": models.index(by_kind[k])} for k in kinds],
        "plan_fields": {name: " ".join(ids) for name, ids in fields.items()},
        "plan_choices": choices,
        "plan_defaults": defaults,
    }


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


def _plain(annotation: Any) -> Any:
    """The type under Annotated[...] and Optional (None dropped)."""
    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    args = [a for a in get_args(annotation) if a is not type(None)]
    if get_origin(annotation) in (Union, UnionType) and len(args) == 1:
        return _plain(args[0])
    return annotation


def _takes_number(annotation: Any) -> bool:
    """Whether a field holds a number (a Literal of numbers too): a typed-in one is sent as a number."""
    plain = _plain(annotation)
    if get_origin(plain) is Literal:
        return any(type(a) in (int, float) for a in get_args(plain))
    return plain in (int, float)


class PlanForm(BaseModel):
    """The fire-plan form's own fields: what to do (`action`: add, lock, or remove-<the item's number>), and the
    item's kind, the turn it arrives and its grid reference (cm along, cm up); the kind's own fields, its rule
    set's plan model's, are read from the form as posted (`PostedForm`) by that model's types (`_plan_item`)."""

    action: str = Field("add", max_length=20)
    kind: str = Field("", max_length=64)
    arrival_turn: int = Field(1, ge=1, le=100)
    grid_x: str = Field("", max_length=32)  # as typed: a whole number stays one (the plan's commitment)
    grid_y: str = Field("", max_length=32)


def _plan_item(plan: PlanForm, form: FormData, models: Mapping[str, type[PlanKind]]) -> dict[str, Any]:
    """The API's PlanItemIn body from the fire-plan form: only the fields of the chosen kind's model, each read
    by its type: the grid reference from its two boxes, a list of numbers typed comma separated, a list of
    words by its checked options, a yes/no by its box, a number as typed."""
    item: dict[str, Any] = {"kind": plan.kind}
    model = models.get(plan.kind)
    for name, f in model.model_fields.items() if model is not None else ():
        plain = _plain(f.annotation)
        if name == "kind":
            continue
        if name == "grid":  # rules.core.kit.Grid, every plan's grid reference
            item["grid"] = [_form_number(plan.grid_x), _form_number(plan.grid_y)]
        elif get_origin(plain) is list and _takes_number(get_args(plain)[0]):
            raw = str(form.get(name) or "")
            item[name] = [_form_number(h) for h in raw.replace(";", ",").split(",") if h.strip()]
        elif get_origin(plain) is list:
            item[name] = [str(b) for b in form.getlist(name)]
        elif plain is bool:
            item[name] = form.get(name) == "true"
        elif form.get(name) not in (None, ""):
            value = str(form.get(name)).strip()
            item[name] = _form_number(value) if _takes_number(f.annotation) else value
    return {"arrival_turn": plan.arrival_turn, "item": item}


def write_plan(
    session: Session, game_id: int, side: str, viewer: Viewer, plan: PlanForm, form: FormData
) -> None:
    """The write the form asks for, through the services the fire-plan API calls (app/routes/fireplans.py),
    so with its checks: lock the plan (`lock`), remove an item (`remove-<id>`), or add the item the form
    describes."""
    action = plan.action
    if side not in SIDES:
        raise RulesError("side", "no such side", SIDES)
    if action == "lock":
        viewer.require_side(side, "lock the fire plan")
        with game_write(session, game_id) as game:
            turns.plan_of_play(session, game, viewer, side)
            fireplans.lock_plan(session, game, side, viewer.role)
    elif action.startswith("remove-"):
        number = action.removeprefix("remove-")
        if (
            not number.isdecimal() or len(number) > 10
        ):  # Python's words ("invalid literal for int()") were shown
            raise RulesError("action", "remove an item by its number on the plan")
        item_id = int(number)
        viewer.require_side(side, "write the fire plan")
        with game_write(session, game_id) as game:
            turns.plan_of_play(session, game, viewer, side)
            fireplans.remove_plan_item(session, game, side, item_id)
    else:
        body = PlanItemIn.model_validate(
            _plan_item(plan, form, plan_models(games.get_game(session, game_id)))
        )
        viewer.require_side(side, "write the fire plan")
        with game_write(session, game_id) as game:
            turns.plan_of_play(session, game, viewer, side)
            data = body.item.model_dump(exclude={"kind"})
            fireplans.add_plan_item(session, game, side, body.item.kind, body.arrival_turn, data, new_salt())


def _plan_refused(request: Request, session: Session, settings: Settings, refusal: Refusal) -> Response:
    """The plan again, saying why its form was refused (its status too, but to htmx: it swaps only a 2xx)."""
    game_id, side = int(request.path_params["game_id"]), request.path_params["side"]
    page = _plan_page(request, session, settings, game_id, side, refusal.said)
    if page.status_code == 200 and not is_htmx(request):
        page.status_code = refusal.status
    return page


@posted(router, "/games/{game_id}/fire-plan/{side}", _plan_refused)
def fire_plan_action(
    game_id: GameId,
    side: str,
    plan: Annotated[PlanForm, Form()],
    form: PostedForm,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
) -> Response:
    """Add an item, remove one, or lock the plan, with the fire-plan API's rules and refusals (a refusal: the plan
    again, saying why), then show the plan; a device with no seat here gets the join form."""
    seat = game_seat(request, session, settings, game_id)
    if seat is not None:
        write_plan(session, game_id, side, seat.viewer, plan, form)
        session.expire_all()
    return _plan_page(request, session, settings, game_id, side)
