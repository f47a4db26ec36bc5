"""A new scenario's draft kept on the server (issue 67; app.services.scenario_drafts): the editor's particulars
(title, date, period, turns, who moves first, objectives, victory, notes, the table's size) are rendered from
the browser's draft by the server (`_scenario_particulars.html`) and each change is posted by htmx as it is
made, answered by the rule set's checks on the draft (`_scenario_checks.html`), so a reload shows what was
entered. A refused value is a 422 naming its field in one sentence (net-status.js shows it, and says when a post
did not reach the server). The browser's key is its own cookie, minted on its first change."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, TypedDict

from fastapi import Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from pydantic import JsonValue, ValidationError
from starlette.datastructures import FormData

from app.core.routing import Router
from app.data.models import ScenarioDraft
from app.data.schemas_scenario import DraftParticulars
from app.deps import SessionDep
from app.errors import Conflict, TooManyRequests
from app.guard import security
from app.guard.notice import notice_words
from app.guard.security import NOTICE_HEADER
from app.pages.common import error_message, is_htmx, not_found
from app.pages.refused import PostedForm
from app.pages.templates import templates
from app.services import game_setup, scenarios
from app.services import scenario_drafts as drafts
from app.services.writing import unit_of_work
from rules.core.errors import NotFoundError
from rules.core.ruleset import ErratumDict
from rules.core.victory import MAX_THRESHOLD
from rules.registry import all_game_rules, get_game_rules, get_ruleset

router = Router(include_in_schema=False)

DRAFT_COOKIE = "firestep_editor"
DRAFT_COOKIE_SECONDS = 60 * 60 * 24 * 90  # a scenario may take a club a season to build


def context(request: Request, session: SessionDep, ruleset_id: str, scenario: str = "") -> dict[str, object]:
    """What the editor's page shows of this browser's draft of a new scenario of the rule set (with none yet,
    the empty one, its zones as deep as the rule set's ready scenario has them), or of the scenario edited
    (with none yet, the scenario as saved)."""
    draft = drafts.find(session, drafts.owner_of(request.cookies.get(DRAFT_COOKIE)), ruleset_id, scenario)
    saved = scenarios.get_document(session, scenario) if scenario and draft is None else None
    return _parts(draft, ruleset_id, scenario, saved)


def _parts(
    draft: ScenarioDraft | None,
    ruleset_id: str,
    scenario: str = "",
    saved: dict[str, JsonValue] | None = None,
) -> dict[str, object]:
    document = draft.document if draft else saved or drafts.empty_document(ruleset_id)
    # Until a first change, the form's own defaults (a side's nationality among them) are not the draft's yet:
    # the checks are asked of what was posted, never of an empty draft the page does not show.
    found = drafts.problem(document) if draft else None
    shown = DraftParticulars.of(document)
    at = f"/scenarios/{scenario}/edit" if scenario else f"/scenarios/new/{ruleset_id}"
    return {
        "draft": shown,
        "draft_kept": draft is not None,
        "draft_problem": error_message(found) if found else None,
        "draft_url": f"{at}/particulars",
        "victory_max_points": MAX_THRESHOLD,
        "taken_choices": drafts.public_objectives(document),
        "discard_url": f"{at}/discard",
        "terrain_url": f"{at}/terrain",
        "save_url": f"{at}/save",
        "draft_doc": document,
        # What the checks' answer carries back to the table's drawing: the particulars as the draft holds them.
        "draft_particulars": {
            **{k: v for k, v in document.items() if k not in ("terrain", "table_objectives", "sides")},
            "sides": {side: _of_side(document, side) for side in ("attacker", "defender")},
        },
    }


def _of_side(document: Mapping[str, object], side: str) -> dict[str, object]:
    """A side's nationality and zone as the draft's document holds them."""
    sides = document.get("sides")
    held = sides.get(side) if isinstance(sides, dict) else None
    return {k: held.get(k) if isinstance(held, dict) else None for k in ("nationality", "deployment_zone")}


def playable(ruleset_id: str) -> str | None:
    """The rule set a new scenario is written for (its game rules' own id), or None for no playable one."""
    if ruleset_id not in [r.book.ruleset_id for r in all_game_rules()]:
        return None
    return game_setup.new_game_rules(ruleset_id).book.ruleset_id


def edited(request: Request, session: SessionDep, scenario_id: str) -> tuple[str, str] | Response:
    """The rule set and id of a scenario whose draft an edit changes; the page's 404 for an id not listed (a
    game of counters has no draft: its own editor)."""
    listed = {s["id"]: s for s in scenarios.list_scenarios(session)}
    found = listed.get(scenario_id)
    ruleset = playable(str(found["ruleset"])) if found else None
    if ruleset is None:
        return not_found(request, NotFoundError("scenario", scenario_id[:64]))
    return ruleset, scenario_id


def new(request: Request, ruleset_id: str) -> tuple[str, str] | Response:
    """The rule set of a new scenario's draft, and no scenario; the page's 404 for a rule set not playable."""
    ruleset = playable(ruleset_id)
    if ruleset is None:
        choices = [r.book.ruleset_id for r in all_game_rules()]
        return not_found(request, NotFoundError("rule set", ruleset_id[:64], choices))
    return ruleset, ""


ERRATUM = "erratum-"  # an erratum's radios: the template's name for them


def _chosen(erratum: ErratumDict | None, reading: str, period: str) -> bool:
    """A reading the scenario is written for: not its erratum's default, and of the period (as the page shows)."""
    if erratum is None or reading == erratum["default"]:
        return False
    return not erratum.get("periods") or period in erratum["periods"]


@cache
def _errata(ruleset_id: str) -> dict[str, ErratumDict]:
    """The rule set's errata by id, each with its default reading and its periods."""
    return {e["id"]: e for e in get_ruleset(ruleset_id).describe()["errata"]}


@cache
def _special_rules(ruleset_id: str) -> dict[str, tuple[str, tuple[str, ...]]]:
    """The rule set's national special rules by id: the nation and periods each is offered for."""
    rs = get_ruleset(ruleset_id)
    found = rs.data("special-rules")["rules"] if "special-rules" in rs.datasets else []
    return {r["id"]: (str(r["nation"]).lower(), tuple(r["periods"])) for r in found}


@cache
class Readings(TypedDict):
    periods: Any
    errata: Any
    special_rules: Any
    chart_forces: bool


def readings(ruleset_id: str) -> Readings:
    """What the special rules' and errata's panels are rendered from (_scenario_readings.html): the rule set's
    periods, errata and special rules, and whether its forces come from a chart (a nationality typed)."""
    rs = get_ruleset(ruleset_id)
    described = rs.describe()
    return {
        "periods": described["periods"],
        "errata": described["errata"],
        "special_rules": rs.data("special-rules")["rules"] if "special-rules" in rs.datasets else [],
        "chart_forces": get_game_rules(rs.id).book.force_chart is not None,
    }


def _shown_by(particulars: DraftParticulars) -> tuple[str | None, str, str]:
    """What the readings offered follow: the period and each side's nationality."""
    return particulars.period, particulars.attacker_force_nation, particulars.defender_force_nation


def _offered(ruleset_id: str, rule: str, nation: str, period: str) -> bool:
    """A special rule the page offers a side: of its nationality (once it has one) in the period."""
    known = _special_rules(ruleset_id).get(rule)
    return known is None or not nation or (known[0] == nation and period in known[1])


def fields_of(ruleset_id: str, form: FormData) -> dict[str, Any]:
    """The posted form as the draft's fields: the period's radios named as org-tables.js reads them
    (forces_period), a fire-plan allowance `fp.<side>.<kind>` (blank: as the rules allow), a side's special rules
    `special.<side>` (those the page offers it: a rule ticked, then hidden by another nationality or period, is
    not kept), an erratum's reading `erratum-<id>` (kept where it is not the default, of the period)."""
    fields: dict[str, Any] = {k: v for k, v in form.items() if isinstance(v, str)}
    fields["period"] = fields.get("forces_period") or ""
    plan: dict[str, dict[str, str]] = {}
    rules: dict[str, list[str]] = {}
    readings: dict[str, str] = {}
    errata = _errata(ruleset_id)
    for name, value in form.multi_items():
        if not isinstance(value, str):
            continue
        what, _, rest = name.partition(".")
        if what == "fp" and value.strip():
            side, _, kind = rest.partition(".")
            plan.setdefault(side, {})[kind] = value
        elif what == "special" and _offered(
            ruleset_id, value, fields.get(f"{rest}_force_nation", ""), fields["period"]
        ):
            rules.setdefault(rest, []).append(value)
        elif name.startswith(ERRATUM) and _chosen(errata.get(name[len(ERRATUM) :]), value, fields["period"]):
            readings[name[len(ERRATUM) :]] = value
    return {**fields, "fire_plan": plan, "special_rules": rules, "variants": readings}


def refused(sentence: str, status: int) -> Response:
    """A refusal net-status.js shows: its sentence in the notice header (one sentence, at most 120 characters)."""
    said = notice_words(sentence, status)
    return PlainTextResponse(said, status_code=status, headers={NOTICE_HEADER: said})


def _particulars(
    request: Request, session: SessionDep, target: tuple[str, str] | Response, form: FormData
) -> Response:
    """Keep one change to the particulars in this browser's draft, the form as posted (its rule set's fields:
    `fields_of`); answers the rule set's checks on it."""
    if isinstance(target, Response):
        return target
    ruleset_id, scenario = target
    try:
        particulars = DraftParticulars.model_validate(fields_of(ruleset_id, form))
    except ValidationError as e:
        return refused(error_message(e).split("; ")[0], 422)  # the first field refused, named

    def write(owner: str) -> Response:
        before = drafts.find(session, owner, ruleset_id, scenario)
        was = _shown_by(DraftParticulars.of(before.document)) if before else None
        draft = drafts.set_particulars(session, owner, ruleset_id, particulars, scenario)
        parts = _parts(draft, ruleset_id, scenario=scenario)
        if was != _shown_by(particulars):  # the rules and readings offered follow (_scenario_readings.html)
            parts |= {"readings_again": True, **readings(ruleset_id)}
        return templates.TemplateResponse(request, "_scenario_checks.html", parts)

    return draft_write(request, session, ruleset_id, scenario, write)


def draft_write(
    request: Request, session: SessionDep, ruleset_id: str, scenario: str, write: Callable[[str], Response]
) -> Response:
    """One change to this browser's draft: `write(owner)` makes it and answers it, in one unit of work (an error
    it raises keeps nothing); the draft's owner found or minted (a new draft beyond the rate refused, 429), a
    server at its cap of drafts refused (409), and the browser's new key set on the answer."""
    found = owner_for_change(request, session, ruleset_id, scenario)
    if isinstance(found, Response):
        return found
    owner, minted = found
    try:
        with unit_of_work(session):
            answer = write(owner)
    except Conflict as e:
        return refused(str(e.message), 409)
    return with_key(answer, minted)


@router.post("/scenarios/new/{ruleset_id}/particulars", response_class=HTMLResponse)
def post_particulars(ruleset_id: str, request: Request, session: SessionDep, form: PostedForm) -> Response:
    return _particulars(request, session, new(request, ruleset_id), form)


@router.post("/scenarios/{scenario_id}/edit/particulars", response_class=HTMLResponse)
def post_edited_particulars(
    scenario_id: str, request: Request, session: SessionDep, form: PostedForm
) -> Response:
    """The same on a saved scenario's draft (its own, apart from the browser's new one)."""
    return _particulars(request, session, edited(request, session, scenario_id), form)


def owner_for_change(
    request: Request, session: SessionDep, ruleset_id: str, scenario: str = ""
) -> tuple[str, str | None] | Response:
    """The draft's owner a change is kept for, and the browser's new key where it had none; or the refusal of a
    new draft beyond the rate of scenarios imported (the hostile pass: 1,000 drafts in 26 s, no cookie)."""
    owner = drafts.owner_of(request.cookies.get(DRAFT_COOKIE))
    minted = None
    if owner is None:
        minted = drafts.new_key()
        owner = drafts.owner_of(minted)
        assert owner is not None  # a key just minted has the key's shape
    if drafts.find(session, owner, ruleset_id, scenario) is None:
        try:
            security.scenario_imported()
        except TooManyRequests as e:
            waited = refused(security.page_wait_message(e, "new drafts"), 429)
            waited.headers["Retry-After"] = str(e.retry_after)
            return waited
    return owner, minted


def with_key(response: Response, minted: str | None) -> Response:
    """The answer to a browser's first change, carrying its new key (httponly: no script reads it)."""
    if minted:
        response.set_cookie(
            DRAFT_COOKIE,
            minted,
            max_age=DRAFT_COOKIE_SECONDS,
            path="/scenarios",
            samesite="lax",
            httponly=True,
        )
    return response


def _discard(request: Request, session: SessionDep, target: tuple[str, str] | Response) -> Response:
    """Start afresh: this browser's draft dropped (nothing of another browser's is reachable here), the page
    shown again: a new scenario's empty, an edited one's as saved (htmx reloads it; a plain form is sent there)."""
    if isinstance(target, Response):
        return target
    ruleset_id, scenario = target
    with unit_of_work(session):
        drafts.discard(session, drafts.owner_of(request.cookies.get(DRAFT_COOKIE)), ruleset_id, scenario)
    again = f"/scenarios/{scenario}/edit" if scenario else f"/scenarios/new?ruleset={ruleset_id}"
    if is_htmx(request):
        return Response(status_code=204, headers={"HX-Redirect": again})
    return RedirectResponse(again, status_code=303)


@router.post("/scenarios/new/{ruleset_id}/discard", response_class=HTMLResponse)
def discard_draft(ruleset_id: str, request: Request, session: SessionDep) -> Response:
    return _discard(request, session, new(request, ruleset_id))


@router.post("/scenarios/{scenario_id}/edit/discard", response_class=HTMLResponse)
def discard_edited_draft(scenario_id: str, request: Request, session: SessionDep) -> Response:
    return _discard(request, session, edited(request, session, scenario_id))
