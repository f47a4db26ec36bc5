"""The scenario editor's Save, Import and Start (issue 67): each acts on this browser's draft on the server
(app.pages.scenario_drafts), so the page sends no document. Save checks the draft as the scenario API checks a
document and stores it (a new scenario, or the one edited replaced; one that ships with firestep saved as a
copy), the draft then dropped and the page sent to the scenario's editor. Import reads a file posted as
multipart, bounded as the API's body, and stores it; a file whose id is held already is kept as the draft of
the one held and the choice rendered: replace it, or keep both. Start saves a draft first, then starts the game
as the start page does. A refusal is said in the Save panel, one sentence naming the field."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated
from urllib.parse import quote

from fastapi import File, Form, Request, UploadFile
from fastapi.responses import Response
from pydantic import BaseModel, Field, JsonValue, ValidationError
from sqlmodel import Session
from starlette.datastructures import FormData

from app.core.config import Settings
from app.core.routing import Router
from app.data.bounded import MAX_SCENARIO_BYTES
from app.data.schemas import GameCreate
from app.data.schemas_scenario import DraftParticulars, ScenarioIn
from app.deps import SessionDep, SettingsDep
from app.errors import Conflict
from app.guard import security
from app.guard.limits import unstorable_in
from app.pages.club_save import not_done, refusal
from app.pages.common import error_message
from app.pages.games import start_game, start_refused
from app.pages.refused import (
    PageRefused,
    PageRoute,
    PostedForm,
    Refusal,
    Render,
    posted,
    server_organiser,
)
from app.pages.scenario_drafts import DRAFT_COOKIE, edited, fields_of, new, with_key
from app.pages.templates import templates
from app.services import scenario_drafts as drafts
from app.services import scenarios
from app.services.writing import unit_of_work
from rules.core.errors import NotFoundError, RulesError

router = Router(include_in_schema=False, route_class=PageRoute)


@dataclass(frozen=True)
class Held:
    """An import's file whose id is saved here already: the one held (its id, title, whether it ships), the
    file's name, and where the choice saves this browser's draft of it."""

    id: str
    title: str
    shipped: bool
    name: str

    @property
    def url(self) -> str:
        return f"/scenarios/{quote(self.id)}/edit/save"


def _said(request: Request, message: str, status: int = 200, choice: Held | None = None) -> Response:
    """The Save panel's message (one sentence); with an import's choice, the choice shown beside it."""
    parts = {"message": message, "good": status < 400, "choice": choice}
    return templates.TemplateResponse(request, "_scenario_said.html", parts, status_code=status)


def _opened(scenario: str, created: bool) -> Response:
    """Saved or imported (201 a new scenario, 200 one replaced): htmx is sent to the scenario's editor (its own
    draft, none yet), open at its Save panel."""
    at = {"HX-Redirect": f"/scenarios/{quote(scenario)}/edit?tab=file"}
    return Response(status_code=201 if created else 200, headers=at)


def _stored(session: Session, document: Mapping[str, JsonValue], scenario: str, as_copy: bool) -> str:
    """The document checked as the scenario API's body is, then stored: the scenario edited replaced, or a new
    one (a copy: its id left for the server to give); answers its id."""
    checked = ScenarioIn.model_validate(document).document()
    if scenario and not as_copy:
        return str(scenarios.replace_scenario(session, scenario, {**checked, "id": scenario})["id"])
    return str(scenarios.import_scenario(session, {k: v for k, v in checked.items() if k != "id"})["id"])


STORING = (
    RulesError,
    ValidationError,
    NotFoundError,
    Conflict,
)  # the document's refusals, named by its field


def _panel(doing: str) -> Render:
    """The Save panel saying why nothing was `doing` ("saved", "imported"): the document's refusal by its field
    (app.pages.club_save.refusal), the organiser's key or the form's field after "Not saved: ", a sentence the page
    wrote itself as it is."""

    def render(request: Request, _session: Session, _settings: Settings, refused: Refusal) -> Response:
        said = (
            refusal(refused.error, doing) if isinstance(refused.error, STORING) else not_done(doing, refused)
        )
        return _said(request, said, refused.status)

    return render


class SaveChoice(BaseModel):
    """An import's choice for a file whose id is held already (`from_file`: the file as read, not the page's
    fields; `copy`: kept beside the one held); the particulars, the rule set's fields, come as posted."""

    from_file: bool = False
    as_copy: bool = Field(False, alias="copy")


def _save(
    request: Request, session: Session, target: tuple[str, str] | Response, choice: SaveChoice, form: FormData
) -> Response:
    """Save this browser's draft: the form's particulars as posted taken into it first (a change still on its
    way is not lost), then stored as the scenario API stores a document, and the draft dropped."""
    if isinstance(target, Response):
        return target
    ruleset, scenario = target
    try:  # the rule set's particulars, each its field (app.pages.scenario_drafts.fields_of)
        particulars = None if choice.from_file else DraftParticulars.model_validate(fields_of(ruleset, form))
    except ValidationError as e:
        raise PageRefused(f"Not saved: {error_message(e).split('; ')[0]}") from e
    if particulars is not None and not particulars.title:
        raise PageRefused("Give the scenario a title first (under Scenario).")
    key = request.cookies.get(DRAFT_COOKIE)
    minted = None if drafts.owner_of(key) else drafts.new_key()
    owner = drafts.owner_of(minted or key)
    assert owner is not None  # a key kept or just minted has the key's shape
    copy = choice.as_copy or scenario in scenarios.shipped()
    security.scenario_imported()
    with unit_of_work(session):
        if particulars is None:
            draft = drafts.find(session, owner, ruleset, scenario, for_change=True)
            if draft is None:  # the choice was made in another tab already
                raise PageRefused("Not saved: choose the file to import again.", 409)
        else:
            draft = drafts.set_particulars(session, owner, ruleset, particulars, scenario)
        stored = _stored(session, draft.document, scenario, copy)
        drafts.discard(session, owner, ruleset, scenario)
    return with_key(_opened(stored, copy or not scenario), minted)


Choice = Annotated[SaveChoice, Form()]


@posted(router, "/scenarios/new/{ruleset_id}/save", _panel("saved"), server_organiser("scenarios"))
def save_new(
    ruleset_id: str, request: Request, session: SessionDep, choice: Choice, form: PostedForm
) -> Response:
    return _save(request, session, new(request, ruleset_id), choice, form)


@posted(router, "/scenarios/{scenario_id}/edit/save", _panel("saved"), server_organiser("scenarios"))
def save_edited(
    scenario_id: str, request: Request, session: SessionDep, choice: Choice, form: PostedForm
) -> Response:
    """The scenario edited saved (one that ships, or `copy`: a new scenario beside it)."""
    return _save(request, session, edited(request, session, scenario_id), choice, form)


async def _file(upload: UploadFile | None) -> dict[str, JsonValue]:
    """The file posted (`file`), read as JSON within the scenario API's bound; or why not, naming the field."""
    if upload is None:
        raise PageRefused("Not imported: file: choose the scenario's .json file.")
    raw = await upload.read(MAX_SCENARIO_BYTES + 1)
    if len(raw) > MAX_SCENARIO_BYTES:
        raise PageRefused(
            f"Not imported: file: a scenario file is at most {MAX_SCENARIO_BYTES:,} bytes.", 413
        )
    try:
        document: JsonValue = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):  # not JSON, or nested past the parser's depth
        raise PageRefused(
            f"Not imported: file: {(upload.filename or 'the file')[:80]} is not a JSON file."
        ) from None
    if not isinstance(document, dict):
        raise PageRefused("Not imported: file: a scenario file is a JSON object.")
    bad = unstorable_in(document, [])
    if (
        bad is not None
    ):  # a NUL, which PostgreSQL stores in no text, or a lone surrogate, which no encoding does
        where, why = bad
        what = "a NUL character" if why == "nul" else "a lone surrogate"
        at = ".".join(str(part) for part in where)[:40] or "its top level"
        raise PageRefused(f"Not imported: file: it holds {what} at {at}: remove it and try again.")
    return document


@posted(router, "/scenarios/import", _panel("imported"), server_organiser("scenarios"))
async def import_file(
    request: Request, session: SessionDep, file: Annotated[UploadFile | None, File()] = None
) -> Response:
    """A file chosen in the editor, stored as a new scenario, its editor next; one whose id is held already is
    kept as this browser's draft of the one held, and the choice (replace it, or keep both) rendered."""
    document = await _file(file)
    security.scenario_imported()
    checked = ScenarioIn.model_validate(document).document()
    try:
        with unit_of_work(session):
            stored = scenarios.import_scenario(session, checked)
    except Conflict as e:
        held = e.current if isinstance(e.current, dict) else {}
        if not held.get("id") or held.get("id") != checked.get("id"):
            raise
        name = ((file.filename if file else None) or "the file")[:80]
        found = Held(str(held["id"]), str(held.get("title", "")), bool(held.get("shipped")), name)
        return _held(request, session, checked, found)
    return _opened(str(stored["id"]), True)


def _held(request: Request, session: Session, document: dict[str, JsonValue], held: Held) -> Response:
    """A file whose id is saved here already (often the very file exported from here): kept as this browser's
    draft of the one held, and the choice offered: replace the saved one (not one that ships), or keep both."""
    key = request.cookies.get(DRAFT_COOKIE)
    minted = None if drafts.owner_of(key) else drafts.new_key()
    owner = drafts.owner_of(minted or key)
    assert owner is not None
    with unit_of_work(session):
        drafts.put_document(session, owner, str(document["ruleset"]), document, held.id)
    said = f"{held.name}: a scenario with its id is saved here already. Replace the saved one, or keep both?"
    return with_key(_said(request, said, 409, held), minted)


@posted(router, "/scenarios/{scenario_id}/edit/start", start_refused, server_organiser("games"))
def start_edited(scenario_id: str, request: Request, session: SessionDep, settings: SettingsDep) -> Response:
    """Start a game from the scenario edited, its draft saved first (so the game is what the editor shows); a
    refusal is the start page, saying why (the draft is kept: the editor shows it again)."""
    target = edited(request, session, scenario_id)
    if isinstance(target, Response):
        return target
    ruleset, scenario = target
    owner = drafts.owner_of(request.cookies.get(DRAFT_COOKIE))
    draft = drafts.find(session, owner, ruleset, scenario)
    if draft is not None and owner is not None:
        try:
            security.scenario_imported()
            with unit_of_work(session):
                stored = _stored(session, draft.document, scenario, scenario in scenarios.shipped())
                drafts.discard(session, owner, ruleset, scenario)
        except (RulesError, ValidationError, NotFoundError, Conflict) as e:  # in the Save panel's words
            raise PageRefused(refusal(e), 409 if isinstance(e, Conflict) else 422) from e
        scenario = stored
    return start_game(request, session, settings, GameCreate(scenario=scenario))
