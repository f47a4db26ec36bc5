"""Scenario files (docs/scenario-format.md): list, import, export, replace and delete. A game starts from one
with POST /api/v1/games {"scenario": "<id>"}."""

from __future__ import annotations

import hashlib
import json
from typing import Annotated, Any

from fastapi import Body, Depends, Path, Query, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel

from app import errors
from app.core.routing import Router
from app.data.schemas_answers import PDF_CONTENT, ScenarioDocumentOut
from app.data.schemas_scenario import ScenarioIn
from app.deps import PageDep, SessionDep
from app.guard import auth, security
from app.services import scenarios, sheets
from app.services.writing import unit_of_work
from playsheets import render
from rules.core.errors import RulesError
from rules.core.scenario import ID_PATTERN
from rules.registry import all_game_rules, get_ruleset

router = Router(prefix="/api/v1/scenarios", tags=["scenarios"])

ScenarioId = Annotated[
    str, Path(pattern=ID_PATTERN.pattern, max_length=64, description="The scenario's id, e.g. mons-1914.")
]
Document = Annotated[
    ScenarioIn,
    Body(
        description="A scenario document in the format of docs/scenario-format.md (format firestep-scenario/1).",
        openapi_examples={
            f"a small one ({r.book.ruleset_id})": {"value": r.book.scenario_example}
            for r in all_game_rules()
            if r.book.scenario_example
        },
    ),
]


class ScenarioOut(BaseModel):
    id: str
    title: str
    ruleset: str
    period: str | None
    shipped: bool


@router.get("", response_model=list[ScenarioOut], summary="The scenarios a game may start from")
def list_scenarios(session: SessionDep, page: PageDep) -> list[ScenarioOut]:
    return [
        ScenarioOut.model_validate(s) for s in page.of(scenarios.list_scenarios(session), lambda s: s["id"])
    ]


@router.post(
    "",
    status_code=201,
    response_model=ScenarioDocumentOut,
    response_model_exclude_unset=True,
    summary="Import a scenario file; answers the stored document with its id (X-Organiser-Key when the server "
    "requires one)",
    responses=errors.responses(401, 403, 409, 413, 422, 429),
    dependencies=[Depends(auth.require_organiser)],
)
def import_scenario(body: Document, session: SessionDep) -> ScenarioDocumentOut:
    security.scenario_imported()
    with unit_of_work(session):
        return ScenarioDocumentOut.model_validate(scenarios.import_scenario(session, body.document()))


@router.get(
    "/{scenario_id}",
    response_model=ScenarioDocumentOut,
    response_model_exclude_unset=True,
    summary="Export a scenario: its document as it was imported (or shipped)",
    responses=errors.responses(404),
)
def export_scenario(scenario_id: ScenarioId, session: SessionDep) -> ScenarioDocumentOut:
    return ScenarioDocumentOut.model_validate(scenarios.get_document(session, scenario_id))


@router.put(
    "/{scenario_id}",
    response_model=ScenarioDocumentOut,
    response_model_exclude_unset=True,
    summary="Replace an imported scenario (not a shipped one) with a new document",
    responses=errors.responses(401, 403, 404, 413, 422, 429),
    dependencies=[Depends(auth.require_organiser)],
)
def replace_scenario(scenario_id: ScenarioId, body: Document, session: SessionDep) -> ScenarioDocumentOut:
    security.scenario_imported()
    with unit_of_work(session):
        return ScenarioDocumentOut.model_validate(
            scenarios.replace_scenario(session, scenario_id, body.document())
        )


@router.delete(
    "/{scenario_id}",
    status_code=204,
    summary="Delete an imported scenario (not a shipped one); games started from it keep their table",
    responses=errors.responses(401, 403, 404),
    dependencies=[Depends(auth.require_organiser)],
)
def delete_scenario(scenario_id: ScenarioId, session: SessionDep) -> Response:
    with unit_of_work(session):
        scenarios.delete_scenario(session, scenario_id)
    return Response(status_code=204)


PaperQ = Annotated[render.PaperId, Query(description="Paper size: a4 or letter.")]
SheetVariantQ = Annotated[
    list[str],
    Query(description="A reading to print by, as erratum:reading (repeat for several), e.g. a game's."),
]


def _sheet_inputs(
    session: SessionDep, scenario_id: str, variant: list[str]
) -> tuple[dict[str, Any], dict[str, str]]:
    """The scenario's document and the readings asked for, unknown ones refused before any render."""
    variants: dict[str, str] = {}
    for i, item in enumerate(variant):
        eid, sep, rid = item.partition(":")
        if not sep:
            raise RulesError(f"variant.{i}", f"expected erratum:reading, got {item[:80]!r}")
        variants[eid] = rid
    document = scenarios.get_document(session, scenario_id)
    # Unknown readings are refused here, before any render is charged (the sheet reads them as the game would).
    chosen = {**dict(document.get("variants") or {}), **variants}
    get_ruleset(str(document["ruleset"])).context(document.get("period"), chosen)
    return document, variants


@router.get(
    "/{scenario_id}/sheet.pdf",
    response_class=Response,
    summary="A scenario's printable sheet (PDF, one page where it fits, two at most): the table to a stated "
    "scale with a labelled 10 cm grid, terrain legend, deployment zones, each side's order of battle, special "
    "rules and victory",
    responses={
        200: {"content": PDF_CONTENT, "description": "The sheet as a PDF"},
        # Refusals are JSON, not the route's PDF.
        **{
            code: {
                "description": spec["description"],
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
            }
            for code, spec in errors.responses(400, 404, 422, 429, 503).items()
        },
    },
)
def scenario_sheet(
    scenario_id: ScenarioId,
    session: SessionDep,
    paper: PaperQ = "a4",
    variant: SheetVariantQ = [],  # noqa: B006
) -> Response:
    document, variants = _sheet_inputs(session, scenario_id, variant)
    digest = hashlib.sha256(json.dumps(document, sort_keys=True).encode()).hexdigest()
    key = ("scenario-sheet", digest, paper, tuple(sorted(variants.items())))
    return Response(
        sheets.pdf(
            key, security.SheetBudget(charged=True), render.scenario_sheet_pdf, document, paper, variants
        ),
        media_type="application/pdf",
        headers={"Content-Disposition": f'inline; filename="{scenario_id}.pdf"'},
    )


@router.get(
    "/{scenario_id}/sheet",
    response_class=HTMLResponse,
    summary="A scenario's printable sheet as print-ready HTML: the browser's print view of the PDF's pages",
    responses={
        200: {"content": {"text/html": {}}, "description": "The sheet's print view"},
        **{
            code: {
                "description": spec["description"],
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
            }
            for code, spec in errors.responses(400, 404, 422).items()
        },
    },
)
def scenario_sheet_view(
    scenario_id: ScenarioId,
    session: SessionDep,
    paper: PaperQ = "a4",
    variant: SheetVariantQ = [],  # noqa: B006
) -> HTMLResponse:
    document, variants = _sheet_inputs(session, scenario_id, variant)
    return HTMLResponse(render.scenario_sheet_view_html(document, paper, variants))
