"""Pages of a Firestorm campaign: start one (the codes shown once), join with a code, and play it on the
map by taps. Every write goes through app.services.campaign_store, the same functions as the API, so the page gets
the API's refusals, shown as sentences. A device keeps its campaign tokens in the `firestep_campaigns`
cookie (app/pages/seats.py); the games' own cookies are left alone."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated, Any

from fastapi import Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, Field, model_validator
from sqlmodel import Session

from app.core.config import Settings
from app.core.routing import Router
from app.data.bounded import INT32_MAX
from app.data.models import Campaign
from app.data.numbers import whole_number
from app.data.schemas import CampaignId
from app.deps import SessionDep, SettingsDep
from app.errors import Conflict, RuleRefused
from app.pages.common import (
    USER_ERRORS,
    SeatHeld,
    confirm_seat_page,
    error_message,
    is_htmx,
    join_with_code,
    keep_seat_unless_confirmed,
    page_or_fragment,
)
from app.pages.forms import MAX_DICE
from app.pages.refused import PageRoute, Refusal, posted, server_organiser
from app.pages.seats import (
    campaign_seat,
    created_credentials,
    device_campaigns,
    forget_created,
    keep_created,
    remember_campaign,
)
from app.pages.templates import templates
from app.services import campaign_battles, campaign_store, seating
from app.services.seating import Viewer
from app.services.writing import unit_of_work
from rules.core.campaign import CampaignState
from rules.core.errors import NotFoundError, RulesError
from rules.registry import the_campaign

router = Router(include_in_schema=False, route_class=PageRoute)
# The map of the rule set's campaign (rules.core.campaign.CampaignMap), as the page draws it.
MAP = the_campaign().map

SIDE_NAMES = {"german": "German", "bef": "BEF", "referee": "Organiser"}
# map.json reads letters as columns west to east and numbers as rows north to south; columns A, C and E sit
# half a square north of B and D. On the page each area spans two half-rows, so the stagger survives any
# cell height.
SHIFTED_NORTH = ("A", "C", "E")
COLUMNS = ("A", "B", "C", "D", "E")


# -- what the page shows ---------------------------------------------------------------------------------
def troop_label(tid: str) -> str:
    """'5 Guard Grenadier Regiment (Stoss)' -> '5 Guard Grenadier Regiment': the kind is shown apart. The AIF
    brigades' two troops keep their '(first)'/'(second)' so they can be told apart."""
    spec = MAP.troops[tid]
    return spec.name if spec.brigade else spec.name.split(" (")[0]


def _areas(state: CampaignState) -> list[dict[str, Any]]:
    c = state.current
    battle = {c.from_area: "from", c.to_area: "to"} if c else {}
    out = []
    for area in MAP.areas:
        col, row = area.split("-")
        start = 2 * int(row) - (1 if col in SHIFTED_NORTH else 0)
        out.append(
            {
                "id": area,
                "name": MAP.area_names.get(area, ""),
                "terrain": MAP.terrain[area],
                "vp": MAP.vp_areas.get(area),
                "control": state.control[area],
                "supply": [side for side, edge in MAP.supply.items() if area in edge],
                "battle": battle.get(area),
                "column": COLUMNS.index(col) + 1,
                "row": start,
                "troops": [
                    {"id": t.id, "label": troop_label(t.id), "kind": MAP.kind_labels[MAP.troops[t.id].kind]}
                    for t in state.troops
                    if t.status == "active" and t.area == area
                ],
            }
        )
    return out


def _off_map(state: CampaignState) -> dict[str, list[dict[str, str]]]:
    out: dict[str, list[dict[str, str]]] = {}
    for t in state.troops:
        if t.status != "active":
            out.setdefault(t.status, []).append({"id": t.id, "label": troop_label(t.id), "side": t.side})
    return out


def _entry_text(ev: dict[str, Any], games_now: Mapping[int, int | None]) -> str:
    """One line of the log in words."""
    a = ev.get("action") or {}
    kind = ev["kind"]
    if kind == "created":
        return "Campaign set up"
    if kind == "map":
        return "Map corrected by the organiser"
    if kind == campaign_battles.LOG_KIND:
        return _table_battle_text(a, games_now.get(a.get("table_battle_id", 0)))
    what = str(a.get("type", "")).capitalize()
    if a.get("type") == "attack":
        what += f" {a.get('from_area')} → {a.get('to_area')} with " + ", ".join(
            troop_label(t) for t in a.get("troops", []) if t in MAP.troops
        )
    elif a.get("troops"):
        what += ": " + ", ".join(troop_label(t) for t in a["troops"] if t in MAP.troops)
    elif a.get("moves"):
        what += ": " + ", ".join(
            f"{troop_label(t)} → {to}" for t, to in a["moves"].items() if t in MAP.troops
        )
    elif a.get("areas"):
        what += ": " + ", ".join(str(x) for x in a["areas"])
    if kind == "undo":
        return f"Undone: {what}"
    return what


def _table_battle_text(a: dict[str, Any], game_now: int | None) -> str:
    """A table game's line in the campaign log: which game (its id now, through its table battle: a deleted
    game's id may since be another game's), and what became of its result."""
    game = f"table game #{game_now}" if game_now else "a table game (game deleted)"
    where = f"turn {a.get('turn')} battle {a.get('battle')} ({a.get('area')})"
    score = f"{a.get('attacker_vp')}–{a.get('defender_vp')} game points"
    words = {
        "opened": f"Battle fought on the table: {game}, {where}",
        "offered": f"Result offered by {game}: {score}, field held by the {a.get('field_held_by')}",
        "confirmed": f"Result of {game} confirmed: {score}",
        "overridden": f"Result of {game} overridden by the organiser: {score}",
        "abandoned": f"Table game of {where}: game deleted",
    }
    return words.get(str(a.get("step")), f"{game}: {a.get('step')}")


def _happened(ev: dict[str, Any]) -> str:
    parts = []
    for e in ev.get("events", []):
        name = str(e.get("event", ""))
        troop = e.get("troop")
        if troop in MAP.troops:
            parts.append(f"{troop_label(troop)} {name}" + (f" ({e['to']})" if e.get("to") else ""))
        elif name == "initiative":
            parts.append(f"{SIDE_NAMES.get(e.get('attacker', ''), '')} attacks")
        elif name == "battle":
            won = "attacker wins" if e.get("attacker_won") else "defender holds"
            parts.append(f"battle {e.get('attacker_total')} v {e.get('defender_total')}: {won}")
        elif name == "area captured":
            parts.append(f"{e.get('area')} taken by the {SIDE_NAMES.get(e.get('by', ''), '')}")
        elif name == "turn":
            parts.append(f"turn {e.get('turn')} begins")
        else:
            parts.append(name)
    return "; ".join(parts)


def board_context(session: Session, row: Campaign, who: Viewer, error: str | None = None) -> dict[str, Any]:
    snap = campaign_store.snapshot(row)
    state = campaign_store.state_of(row)
    undone = campaign_store.reversed_ids(session, row.pk)
    log = [campaign_store.event_dict(e, undone) for e in campaign_store.events(session, row.pk)]
    games_now = campaign_battles.log_games(session, row.pk)
    for e in log:
        e["text"], e["happened"] = _entry_text(e, games_now), _happened(e)
        if e["kind"] == campaign_battles.LOG_KIND:  # its link: the game as it is now, none once deleted
            game_now = games_now.get((e.get("action") or {}).get("table_battle_id", 0))
            e["game_now"] = game_now
            e["game_path"] = campaign_battles.game_path(game_now) if game_now else None
    actions = []
    for a in snap["legal_actions"]:
        side = a.get("side")
        actions.append({**a, "mine": side is None or who.may_act_for(str(side))})
    return {
        "campaign": row,
        "snap": snap,
        "state": state,
        "role": who.role,
        "is_organiser": who.is_referee,
        "areas": _areas(state),
        "off_map": _off_map(state),
        "battles": MAP.battles[state.turn],
        "last_turn": MAP.last_turn,
        "actions": actions,
        "log": list(reversed(log))[:60],
        "can_undo": who.is_referee and any(e["kind"] == "action" and not e["undone"] for e in log),
        "error": error,
        "side_names": SIDE_NAMES,
        "troop_label": troop_label,
        **campaign_battles.board_view(session, row.pk, state, who),
    }


# -- building an action from the form ----------------------------------------------------------------------
Area = Annotated[str, Field(max_length=8)]
Troop = Annotated[str, Field(max_length=64)]
Points = Annotated[int, Field(ge=0, le=campaign_battles.MAX_VP)]
# What each kind of act takes from the tap form (every act its type, the dice, a Great War game's points).
ACT_FIELDS = {
    "attack": {"from_area", "to_area", "troops"},
    "defend": {"troops"},
    "advance": {"troops"},
    "retreat": {"moves"},
    "redeploy": {"moves", "side"},
    "reinforce": {"side", "areas"},
}


class ActForm(BaseModel):
    """The tap form (_campaign_action.html; the board's Undo): the act's type and version, its chips and
    checkboxes, each troop's move (`move.<troop>`), the two areas (`area.0`, `area.1`) and each die's face
    (`dice.<n>`, under MAX_DICE: blank, none tapped) gathered as `moves`, `areas` and `dice`; the Great War
    game's points, or "Roll for me" (the dice left to the server)."""

    version: int = Field(ge=1, le=INT32_MAX)
    type: str = Field("", max_length=16)
    from_area: Area = ""
    to_area: Area = ""
    troops: list[Troop] = Field([], max_length=64)
    moves: dict[Troop, Area] = Field({}, max_length=64)
    side: str = Field("", max_length=16)
    areas: list[Area] = []
    great_war: bool = False
    attacker_vp: Points = Field(0, title="Attacker's game points")
    defender_vp: Points = Field(0, title="Defender's game points")
    roll: bool = False
    dice: list[Annotated[int, Field(ge=1, le=1000)] | None] = Field([], max_length=MAX_DICE)
    dice_count: int = Field(0, ge=0, le=MAX_DICE)

    @model_validator(mode="before")
    @classmethod
    def _gathered(cls, form: Any) -> Any:
        """The moves, the areas and the dice, each named by its own key, gathered."""
        if not isinstance(form, Mapping):
            return form
        moves = {k.removeprefix("move."): v for k, v in form.items() if k.startswith("move.") and v}
        last = max((i for i in range(MAX_DICE) if f"dice.{i}" in form), default=-1)
        dice = [form.get(f"dice.{i}") or None for i in range(last + 1)]
        return {**form, "moves": moves, "areas": [form.get(f"area.{i}", "") for i in range(2)], "dice": dice}

    def action(self) -> tuple[dict[str, Any], list[int] | None]:
        """The API's action and dice: None to roll them on the server, none for a Great War game's points."""
        action = {"type": self.type, **self.model_dump(include=ACT_FIELDS.get(self.type, set()))}
        if self.type == "resolve" and self.great_war:
            return action | {"great_war": self.model_dump(include={"attacker_vp", "defender_vp"})}, []
        if self.roll:
            return action, None
        if len(self.dice) < self.dice_count or None in self.dice:
            raise RulesError("dice", "tap a face on every die, or tap Roll for me")
        return action, [d for d in self.dice if d is not None]


def form_digits(text: str, name: str, message: str, most: int) -> int:
    """A number typed or sent by the form: plain digits, few enough for int() ("²" and 5,000 digits are not)."""
    number = whole_number(text, 10**most)
    if number is None:
        raise RulesError(name, message)
    return number


def form_version(typed: str) -> int:
    """The campaign version the form was rendered at (a stale one gets the current state back)."""
    version = form_digits(typed, "version", "reload the page", 10)
    if not 1 <= version <= 2_147_483_647:
        raise RulesError("version", "reload the page")
    return version


def refusal_message(e: Exception) -> str:
    """A refused campaign act, as the sentence the page shows."""
    if isinstance(e, Conflict) and not isinstance(e, RuleRefused):  # a rule's refusal says its rule
        return "Someone changed the campaign on another device: this is the current state. Please try again."
    return error_message(e)


# -- routes ------------------------------------------------------------------------------------------------
def _start(
    request: Request,
    session: Session,
    error: str | None = None,
    created: dict[str, Any] | None = None,
    status_code: int = 200,
    typed: Mapping[str, str] | None = None,
) -> Response:
    """The campaigns' start; refused, with what was typed in its fields kept (`typed`: a join code, a name)."""
    device = device_campaigns(request)
    campaigns = campaign_store.list_campaigns(session)
    context = {
        "campaign": None,
        "campaigns": campaigns,
        # Just created: this device's seat is in the answer's cookie, not yet in the request's.
        "mine": {c.id for c in campaigns if c.id in device}
        | ({created["campaign"].id} if created else set()),
        "error": error,
        "created": created,
        "side_names": SIDE_NAMES,
        "typed": typed or {},
    }
    return templates.TemplateResponse(request, "campaign.html", context, status_code=status_code)


@router.get("/campaigns", response_class=HTMLResponse)
def campaigns_page(request: Request, session: SessionDep) -> Response:
    return _start(request, session)


def _start_refused(request: Request, session: Session, _settings: Settings, refusal: Refusal) -> Response:
    return _start(request, session, error=refusal.said, status_code=refusal.status, typed=refusal.typed)


@posted(router, "/campaigns/new", _start_refused, server_organiser("campaigns"))
def new_campaign_page(
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    name: Annotated[str, Form(max_length=200)] = "",
) -> Response:
    with unit_of_work(session):
        row, creds = campaign_store.create(session, settings.secret_key, " ".join(name.split()) or None)
    # POST/redirect/GET: reloading the page that shows the codes must not make another campaign (the newcomer
    # pass: a reload made a second one). The codes reach that page in a signed cookie of this device, shown once.
    response = RedirectResponse(f"/campaigns/{row.pk}/created", status_code=303)
    remember_campaign(request, response, row.pk, creds.referee_token)
    keep_created(response, settings.secret_key, row.pk, creds.referee_token, creds.join_codes, "campaign")
    return response


@router.get("/campaigns/{campaign_id}/created", response_class=HTMLResponse)
def campaign_created_page(
    campaign_id: CampaignId, request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    """The new campaign's join codes, once, on the device that made it (the campaigns page with them shown);
    after that the campaigns page."""
    shown = created_credentials(request, settings.secret_key, campaign_id, "campaign")
    row = session.get(Campaign, campaign_id) if shown else None
    if shown is None or row is None:
        return _start(request, session)
    response = _start(request, session, created={"campaign": row, "codes": shown.join_codes})
    forget_created(response, campaign_id, "campaign")
    return response


@posted(router, "/campaigns/join", _start_refused)
def join_campaign_page(
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    code: Annotated[str, Form(max_length=64)] = "",
    replace_seat: Annotated[str, Form()] = "",
) -> Response:
    code = code.strip()

    def join(entered: str) -> seating.Joined:
        campaign_id, side = seating.side_of_code(session, seating.CAMPAIGN, settings.secret_key, entered)
        held = campaign_seat(request, session, settings, campaign_id)
        keep_seat_unless_confirmed(campaign_id, held.role if held else None, side, replace_seat)
        return campaign_store.seat(session, settings.secret_key, campaign_id, side)

    try:
        with unit_of_work(session):
            campaign_id, _side, token = join_with_code(code, "organiser", join)
    except SeatHeld as e:
        return confirm_seat_page(
            request,
            e,
            name=campaign_store.get(session, e.owner_id).name,
            code=code,
            action="/campaigns/join",
            keep_url=f"/campaigns/{e.owner_id}",
            words=lambda side: f"the {SIDE_NAMES.get(side, side)}",
        )
    response = RedirectResponse(f"/campaigns/{campaign_id}", status_code=303)
    remember_campaign(request, response, campaign_id, token)
    return response


def board_page(
    request: Request, session: Session, settings: Settings, campaign_id: int, error: str | None = None
) -> Response:
    """The campaign page (or its board fragment for htmx) for this device, with `error` shown if given."""
    try:
        row = campaign_store.get(session, campaign_id)
    except NotFoundError as e:
        missing = {"title": "Not found", "message": e.message}
        return templates.TemplateResponse(request, "error.html", missing, status_code=404)
    who = campaign_seat(request, session, settings, campaign_id)
    if who is None:
        joining = {"campaign": None, "joining": row, "error": None, "side_names": SIDE_NAMES}
        return templates.TemplateResponse(request, "campaign.html", joining, status_code=401)
    context = board_context(session, row, who, error)
    # htmx swaps only 2xx answers: a refusal shown inside the board is still the board.
    status = 422 if error and not is_htmx(request) else 200
    return page_or_fragment(request, "campaign.html", "_campaign_board.html", context, status)


@router.get("/campaigns/{campaign_id:id}", response_class=HTMLResponse)
def campaign_page(
    campaign_id: CampaignId, request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    return board_page(request, session, settings, campaign_id)


def _board_refused(request: Request, session: Session, settings: Settings, refusal: Refusal) -> Response:
    """The board again, saying why the tap form was refused."""
    return board_page(request, session, settings, int(request.path_params["campaign_id"]), refusal.said)


@posted(router, "/campaigns/{campaign_id:id}/act", _board_refused)
def campaign_act(
    campaign_id: CampaignId,
    form: Annotated[ActForm, Form()],
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
) -> Response:
    def act(who: Viewer) -> None:
        if form.type == "undo":
            campaign_store.undo(session, campaign_id, who, form.version)
        else:
            action, dice = form.action()
            campaign_store.act(session, campaign_id, who, action, dice, form.version)

    return board_after(request, session, settings, campaign_id, act)


def board_after(
    request: Request, session: Session, settings: Settings, campaign_id: int, act: Callable[[Viewer], None]
) -> Response:
    """Do `act` as this device's campaign seat (one unit of work), then show the board, with a refusal in
    plain words if there was one; a device with no seat here gets the board without acting."""
    who = campaign_seat(request, session, settings, campaign_id)
    error = None
    if who is not None:
        try:
            with unit_of_work(session):
                act(who)
        except USER_ERRORS as e:
            session.rollback()
            error = refusal_message(e)
        session.expire_all()
    return board_page(request, session, settings, campaign_id, error)
