"""The printed playsheet's tables for the lookup's offline fallback: the very blocks the period playsheet
prints (playsheets.sheet and its blocks.html), each section marked with the resolvers that read it, so the
lookup can show the table of the chosen resolver when the server cannot be reached. The service worker keeps
the copy of the remembered period; no rules are copied into JavaScript."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup

from app.core.routing import Router
from app.pages.common import error_message, not_found
from app.pages.templates import templates
from playsheets import render, sheet
from rules.core.errors import NotFoundError, RulesError
from rules.registry import get_ruleset

router = Router(include_in_schema=False)

# Sheets are pure functions of the period and the readings; a game's readings are few.
SHEET_MAX_VARIANTS = 32


def sheet_url(ruleset_id: str, period: str | None, variants: dict[str, str] | None = None) -> str | None:
    """The fallback sheet of a rule set's period, or None when the rule set prints no playsheet."""
    if ruleset_id not in sheet.period_rulesets() or period is None:
        return None
    query = "&".join(f"variant={eid}:{rid}" for eid, rid in sorted((variants or {}).items()))
    return f"/lookup/sheets/{ruleset_id}/{period}" + (f"?{query}" if query else "")


def _variants(ruleset_id: str, raw: list[str]) -> dict[str, str]:
    errata = get_ruleset(ruleset_id).errata
    out: dict[str, str] = {}
    for i, item in enumerate(raw[:SHEET_MAX_VARIANTS]):
        eid, sep, rid = item.partition(":")
        if not sep:
            raise RulesError(f"variant.{i}", f"expected erratum:reading, got {item!r}", sorted(errata))
        out[eid] = rid
    return out


@router.get("/lookup/sheets/{ruleset}/{period}", response_class=HTMLResponse)
def lookup_sheet(
    request: Request,
    ruleset: str,
    period: str,
    variant: Annotated[list[str], Query(max_length=SHEET_MAX_VARIANTS)] = [],  # noqa: B006
) -> Response:
    by_period = sheet.period_rulesets()
    if ruleset not in by_period:
        return not_found(request, NotFoundError("playsheet", ruleset, list(by_period)))
    periods = get_ruleset(ruleset).period_ids
    if period not in periods:
        return not_found(request, NotFoundError("period", period, periods))
    try:
        built = sheet.period_sheet(period, _variants(ruleset, variant), ruleset)
    except RulesError as e:
        context = {"title": "Not possible", "message": error_message(e)}
        return templates.TemplateResponse(request, "error.html", context, status_code=422)
    blocks = render._env().get_template("blocks.html").module.render  # type: ignore[attr-defined]
    sections = [
        {
            "id": s.id,
            "title": s.title,
            "html": Markup(blocks(s.blocks)),
            "variants": s.variants,
            "sources": s.sources,
            "resolvers": " ".join(s.resolvers),
        }
        for s in built.sections
    ]
    response = templates.TemplateResponse(
        request, "_lookup_sheet.html", {"sheet": built, "sections": sections}
    )
    # The same for everyone until the server is updated: the service worker keeps it for offline use.
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response
