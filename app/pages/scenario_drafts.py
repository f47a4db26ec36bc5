"""A new scenario's draft kept on the server (issue 67; app.services.scenario_drafts): the editor's particulars
(title, date, period, turns, who moves first, objectives, victory, notes, the table's size) are rendered from
the browser's draft by the server (`_scenario_particulars.html`) and each change is posted by htmx as it is
made, answered by the rule set's checks on the draft (`_scenario_checks.html`), so a reload shows what was
entered. A refused value is a 422 naming its field in one sentence (net-status.js shows it, and says when a post
did not reach the server). The browser's key is its own cookie, minted on its first change."""

from __future__ import annotations

from functools import cache
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from pydantic import ValidationError
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
from app.pages.templates import templates
from app.services import game_setup
from app.services import scenario_drafts as drafts
from app.services.writing import unit_of_work
from rules.core.errors import NotFoundError
from rules.core.victory import MAX_THRESHOLD
from rules.registry import all_game_rules, get_ruleset

router = Router(include_in_schema=False)

DRAFT_COOKIE = "firestep_editor"
DRAFT_COOKIE_SECONDS = 60 * 60 * 24 * 90  # a scenario may take a club a season to build


def context(
    request: Request, session: SessionDep, ruleset_id: str, zone_depth: int | None
) -> dict[str, object]:
    """What the editor's page shows of this browser's draft of a new scenario of the rule set (with none yet,
    its zones `zone_depth` deep: as the rule set's ready scenario has them)."""
    draft = drafts.find(session, drafts.owner_of(request.cookies.get(DRAFT_COOKIE)), ruleset_id)
    return _parts(draft, ruleset_id, zone_depth)


def _parts(draft: ScenarioDraft | None, ruleset_id: str, zone_depth: int | None = None) -> dict[str, object]:
    document = draft.document if draft else drafts.empty_document(ruleset_id)
    # Until a first change, the form's own defaults (a side's nationality among them) are not the draft's yet:
    # the checks are asked of what was posted, never of an empty draft the page does not show.
    found = drafts.problem(document) if draft else None
    shown = DraftParticulars.of(document)
    if draft is None and zone_depth:
        shown = shown.model_copy(update={"zone_attacker": zone_depth, "zone_defender": zone_depth})
    return {
        "draft": shown,
        "draft_kept": draft is not None,
        "draft_problem": error_message(found) if found else None,
        "draft_url": f"/scenarios/new/{ruleset_id}/particulars",
        "victory_max_points": MAX_THRESHOLD,
        "taken_choices": drafts.public_objectives(document),
        "discard_url": f"/scenarios/new/{ruleset_id}/discard",
    }


ERRATUM = "erratum-"  # an erratum's radios: the template's name for them


def _chosen(erratum: dict[str, Any] | None, reading: str, period: str) -> bool:
    """A reading the scenario is written for: not its erratum's default, and of the period (as the page shows)."""
    if erratum is None or reading == erratum["default"]:
        return False
    return not erratum.get("periods") or period in erratum["periods"]


@cache
def _errata(ruleset_id: str) -> dict[str, dict[str, Any]]:
    """The rule set's errata by id, each with its default reading and its periods."""
    return {e["id"]: e for e in get_ruleset(ruleset_id).describe()["errata"]}


def _fields(ruleset_id: str, form: FormData) -> dict[str, Any]:
    """The posted form as the draft's fields: the period's radios named as org-tables.js reads them
    (forces_period), a fire-plan allowance `fp.<side>.<kind>` (blank: as the rules allow), a side's special rules
    `special.<side>`, an erratum's reading `erratum-<id>` (kept where it is not the default, of the period)."""
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
        elif what == "special":
            rules.setdefault(rest, []).append(value)
        elif name.startswith(ERRATUM) and _chosen(errata.get(name[len(ERRATUM) :]), value, fields["period"]):
            readings[name[len(ERRATUM) :]] = value
    return {**fields, "fire_plan": plan, "special_rules": rules, "variants": readings}


def refused(sentence: str, status: int) -> Response:
    """A refusal net-status.js shows: its sentence in the notice header (one sentence, at most 120 characters)."""
    said = notice_words(sentence, status)
    return PlainTextResponse(said, status_code=status, headers={NOTICE_HEADER: said})


@router.post("/scenarios/new/{ruleset_id}/particulars", response_class=HTMLResponse)
async def post_particulars(ruleset_id: str, request: Request, session: SessionDep) -> Response:
    """Keep one change to the particulars in this browser's draft; answers the rule set's checks on it."""
    playable = [r.book.ruleset_id for r in all_game_rules()]
    if ruleset_id not in playable:
        return not_found(request, NotFoundError("rule set", ruleset_id[:64], playable))
    ruleset_id = game_setup.new_game_rules(ruleset_id).book.ruleset_id
    form = await request.form()
    try:
        particulars = DraftParticulars.model_validate(_fields(ruleset_id, form))
    except ValidationError as e:
        return refused(error_message(e).split("; ")[0], 422)  # the first field refused, named
    found = owner_for_change(request, session, ruleset_id)
    if isinstance(found, Response):
        return found
    owner, minted = found
    try:
        with unit_of_work(session):
            draft = drafts.set_particulars(session, owner, ruleset_id, particulars)
            parts = _parts(draft, ruleset_id)
    except Conflict as e:
        return refused(str(e.message), 409)
    return with_key(templates.TemplateResponse(request, "_scenario_checks.html", parts), minted)


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


@router.post("/scenarios/new/{ruleset_id}/discard", response_class=HTMLResponse)
def discard_draft(ruleset_id: str, request: Request, session: SessionDep) -> Response:
    """Start afresh: this browser's draft of the rule set dropped, the new scenario's page shown again (htmx
    reloads it; a plain form is sent there)."""
    playable = [r.book.ruleset_id for r in all_game_rules()]
    if ruleset_id not in playable:
        return not_found(request, NotFoundError("rule set", ruleset_id[:64], playable))
    with unit_of_work(session):
        drafts.discard(session, drafts.owner_of(request.cookies.get(DRAFT_COOKIE)), ruleset_id)
    again = f"/scenarios/new?ruleset={ruleset_id}"
    if is_htmx(request):
        return Response(status_code=204, headers={"HX-Redirect": again})
    return RedirectResponse(again, status_code=303)
