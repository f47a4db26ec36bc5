"""Printed sheets: period playsheets (every rule set with war periods, each at its own id; the first's also at
`/playsheets/{period}`), a rule set's own playsheet, the 1:1 template kit, fire-plan forms, aiming-point cards,
and a game's playsheet, locked fire plan (its own side only) and aiming-point cards.

Each sheet is served as print-ready HTML (the browser's print view uses the same print CSS) and as a PDF
rendered by WeasyPrint from that HTML, by one handler at two addresses, its path and its path with `.pdf`
(`twins`). Fixed paths are declared before `/playsheets/{period}` so they are not read as periods.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Query, Request
from fastapi.responses import HTMLResponse, Response

from app import errors
from app.core.routing import Router
from app.data.models import Unit
from app.data.schemas_answers import PDF_CONTENT
from app.deps import GameId, SessionDep
from app.guard import security
from app.guard.auth import ViewerDep
from app.services import fireplans, games, seats, sheets
from app.services import units as units_service
from app.services.markers import rules_of
from app.services.unit_names import display_names
from playsheets import forms, render, ruleset_sheet, sheet
from rules.core.errors import NotFoundError, RulesError
from rules.core.game import GameRules
from rules.core.vocabulary import Side
from rules.registry import all_rulesets, get_game_rules, get_ruleset

router = Router(prefix="/playsheets", tags=["playsheets"])
Handler = TypeVar("Handler", bound=Callable[..., Response])

PaperQ = Annotated[render.PaperId, Query(description="Paper size: a4 or letter.")]
VariantQ = Annotated[
    list[str],
    Query(
        description="A variant reading the game plays, as erratum:reading (repeat for several), "
        "e.g. barrage-duration:fire-plan-template. Ids: GET /api/v1/rulesets/flanders-fields.",
    ),
]

PDF: dict[int | str, dict[str, Any]] = {
    200: {"content": PDF_CONTENT, "description": "The sheet as a PDF"},
    # Without the PDF engine (app/core/pdf_engine.py): the remedy, and the print view of the same sheet.
    503: {
        "description": errors.responses(503)[503]["description"],
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
    },
}


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """Error answers documented as JSON: FastAPI would otherwise give them the route's own media type
    (PDF or HTML). Every route here also documents 429, its render budget (app.guard.security.SheetBudget);
    400, 404, 413 and 507 are declared by the route's shape (app/openapi.py)."""
    documented = errors.responses(*sorted({429, *codes}))
    return {
        code: {
            "description": spec["description"],
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
        }
        for code, spec in documented.items()
    }


@dataclass(frozen=True)
class Printed:
    """A rendered sheet and its entity tag (a digest of the bytes, so it changes whenever they do)."""

    body: bytes
    etag: str


def _printed(body: bytes) -> Printed:
    return Printed(body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"')


def _answer(
    request: Request, sheet: Printed, media_type: str, *, name: str = "", private: bool = False
) -> Response:
    """The sheet, or 304 Not Modified when the client already holds these bytes (If-None-Match). Clients
    revalidate every time (no-cache), so a new release's sheet is never served stale."""
    headers = {"ETag": sheet.etag, "Cache-Control": f"{'private' if private else 'public'}, no-cache"}
    held = request.headers.get("if-none-match", "")
    if held.strip() == "*" or sheet.etag in (t.strip().removeprefix("W/") for t in held.split(",")):
        return Response(status_code=304, headers=headers)
    if name:
        headers["Content-Disposition"] = f'inline; filename="{name}"'
    return Response(sheet.body, media_type=media_type, headers=headers)


# The sheets printed here are of fixed inputs (a period or rule set, a paper, a side, a table of organisation
# checked before any render): the same bytes for everyone, unless they name readings of the asker's own
# (variants: these kinds' last argument).
WITH_READINGS = {"playsheet", "ruleset", "form"}


def _sheet(request: Request, pdf: bool, kind: str, *args: Any, name: str, private: bool = False) -> Response:
    """A sheet of `kind` from `args`: its HTML page, cached with its entity tag (a game's own answered as is), or
    the PDF rendered in the worker process from that page, kept in memory and in the data folder under the
    page's digest (app.services.sheets): a repeat, or a reading that changes nothing on the sheet, finds the
    kept one and is charged to no one. A new one asked for without a token (every sheet but a game's own) is
    charged to the address, unless it is the same for everyone (no reading of the asker's own)."""
    page = _cached(kind, *args)
    if not pdf:
        return HTMLResponse(page.body) if private else _answer(request, page, "text/html; charset=utf-8")
    same_for_all = not (kind in WITH_READINGS and args[-1])
    kept_in = request.app.state.settings.var_dir / "sheets"
    budget = security.SheetBudget(charged=not private and not same_for_all)
    body = sheets.pdf(
        ("html", page.etag),
        budget,
        render.html_to_pdf,
        page.body.decode(),
        kept_in=kept_in,
        everyone=same_for_all,
    )
    return _answer(request, _printed(body), "application/pdf", name=name, private=private)


def _private(html: str, pdf: bool, name: str) -> Response:
    """A sheet of what a game's token may read (for a token of the game): the HTML, or its PDF rendered in the
    worker process, kept by its HTML's digest (only a viewer whose page is exactly this HTML asks for it)."""
    if not pdf:
        return HTMLResponse(html)
    key = ("html", hashlib.sha256(html.encode()).hexdigest())
    data = sheets.pdf(key, security.SheetBudget(charged=False), render.html_to_pdf, html)
    return Response(
        data, media_type="application/pdf", headers={"Content-Disposition": f'inline; filename="{name}"'}
    )


def _as_pdf(request: Request) -> bool:
    """Whether the route matched is a sheet's `.pdf` twin (`twins`)."""
    return str(request.scope["route"].path).endswith(".pdf")


AsPdf = Annotated[bool, Depends(_as_pdf)]


def twins(path: str, name: str, summary: str, pdf_summary: str, *codes: int) -> Callable[[Handler], Handler]:
    """One handler serving a sheet at two routes, each its own operation: `path` + ".pdf" (`name` + "_pdf"; declared
    first, so that the HTML route's last parameter never reads ".pdf") and `path` (`name`), the handler told
    which by `AsPdf`. Both document 429, their render budget, and `codes` as JSON (`_errors`)."""

    def register(handler: Handler) -> Handler:
        pdf = {**PDF, **_errors(*codes)}
        router.get(
            f"{path}.pdf", response_class=Response, responses=pdf, summary=pdf_summary, name=f"{name}_pdf"
        )(handler)
        router.get(path, response_class=HTMLResponse, responses=_errors(*codes), summary=summary, name=name)(
            handler
        )
        return handler

    return register


def parse_variants(raw: Sequence[str], ruleset: str | None = None) -> dict[str, str]:
    """'erratum:reading' strings as a variants mapping (of the rule set printed by period when none is named);
    the rule set validates ids (422 naming them)."""
    out: dict[str, str] = {}
    errata = (get_ruleset(ruleset) if ruleset else sheet.period_ruleset()).errata
    for i, item in enumerate(raw):
        eid, sep, rid = item.partition(":")
        if not sep:
            raise RulesError(f"variant.{i}", f"expected erratum:reading, got {item!r}", sorted(errata))
        out[eid] = rid
    return out


# HTML renders are pure functions of their arguments (period, paper, variant readings, ...): cache them with
# their entity tags (a repeat request for the same inputs costs a dictionary lookup). PDFs: _sheet.
@lru_cache(maxsize=128)
def _cached(kind: str, *args: Any) -> Printed:
    makers: dict[str, Callable[..., bytes | str]] = {
        "playsheet": lambda rs, period, paper, variants: render.render_html(
            period, paper, dict(variants), rs
        ),
        "ruleset": lambda rs, paper, variants: render.ruleset_sheet_html(rs, paper, dict(variants)),
        "kit": render.template_kit_html,
        "form": lambda side, paper, variants: render.fire_plan_form_html(side, paper, dict(variants)),
        "cards": lambda paper: render.aiming_cards_html(None, paper),
        "organisation": _organisation_html,
    }
    made = makers[kind](*args)
    return _printed(made.encode() if isinstance(made, str) else made)


def _key(variants: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(variants.items()))


# -- the template kit, blank forms and the appendix's cards ----------------------------------------------------
@twins("/template-kit", "template_kit", "1:1 template kit", "1:1 template kit (PDF)", 422)
def template_kit(request: Request, pdf: AsPdf, paper: PaperQ = "a4") -> Response:
    return _sheet(request, pdf, "kit", paper, name=f"template-kit-{paper}.pdf")


@twins(
    "/fire-plan/{side}", "fire_plan_form", "Blank fire-plan form", "Blank fire-plan form of a side (PDF)", 422
)
def fire_plan_form(
    request: Request,
    pdf: AsPdf,
    side: Side,
    paper: PaperQ = "a4",
    variant: VariantQ = [],  # noqa: B006
) -> Response:
    variants = _key(parse_variants(variant))
    return _sheet(request, pdf, "form", side, paper, variants, name=f"fire-plan-{side}.pdf")


@twins(
    f"/{forms.CARDS}",
    "aiming_points",
    "Aiming-point cards",
    f"The rule book's {forms.CARDS_TITLE.lower()} (PDF)",
    422,
)
def aiming_points(request: Request, pdf: AsPdf, paper: PaperQ = "a4") -> Response:
    return _sheet(request, pdf, "cards", paper, name=f"{forms.CARDS}.pdf")


ORGANISATION_TABLES = "organisation-tables"  # the dataset a rule set with tables of organisation declares


def _organisation_html(table_id: str, paper: str) -> str:
    """The organisation sheet of a table of organisation, built by its rule set as a game builds a force from
    it (`GameRules.force_from_table`), for the table's nation in the first period it is drawn for."""
    tables = {
        table["id"]: (rs.id, table)
        for rs in all_rulesets()
        if ORGANISATION_TABLES in rs.datasets
        for table in rs.data(ORGANISATION_TABLES)
    }
    if table_id not in tables:
        raise NotFoundError("organisation table", table_id, sorted(tables))
    ruleset_id, table = tables[table_id]
    entry = {"table_id": table_id}
    force = get_game_rules(ruleset_id).force_from_table(
        table["periods"][0], {}, table["nation"], entry, "table_id", table_id
    )
    return render.organisation_html(force, paper)


@twins(
    "/organisation/{table_id}",
    "organisation",
    "Organisation sheet of a table of organisation",
    "Organisation sheet of a table of organisation (PDF)",
    422,
)
def organisation(request: Request, pdf: AsPdf, table_id: str, paper: PaperQ = "a4") -> Response:
    return _sheet(request, pdf, "organisation", table_id, paper, name=f"organisation-{table_id}.pdf")


# -- a rule set's own playsheet ----------------------------------------------------------------------------------
def _ruleset_variants(ruleset_id: str, raw: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The readings asked for, checked before any render: 404 for a rule set printing no sheet of its own,
    422 naming an unknown erratum or reading."""
    printed = ruleset_sheet.own_sheets()
    if ruleset_id not in printed:
        raise NotFoundError("rule set playsheet", ruleset_id, printed)
    variants = parse_variants(raw, ruleset_id)
    get_ruleset(ruleset_id).context(None, variants)
    return _key(variants)


@twins(
    "/rulesets/{ruleset_id}",
    "ruleset_playsheet",
    "A rule set's own playsheet: print-ready HTML (the browser's print view)",
    "A rule set's own playsheet (PDF, two pages at most)",
    422,
)
def ruleset_playsheet(
    request: Request,
    pdf: AsPdf,
    ruleset_id: str,
    paper: PaperQ = "a4",
    variant: VariantQ = [],  # noqa: B006
) -> Response:
    variants = _ruleset_variants(ruleset_id, variant)
    return _sheet(
        request, pdf, "ruleset", ruleset_id, paper, variants, name=f"playsheet-{ruleset_id}-{paper}.pdf"
    )


# -- a rule set's period playsheets (every rule set with war periods, under its own id) -----------------------
def _period_variants(ruleset_id: str, period: str, raw: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The readings asked for, checked before any render (and before the render is charged or holds the
    address's one render): 404 for a rule set printing no sheet per period, 422 naming an unknown period,
    erratum or reading."""
    rs = sheet.period_ruleset(ruleset_id)
    variants = parse_variants(raw, rs.id)
    rs.context(period, variants)
    return _key(variants)


def _period_sheet(
    request: Request, pdf: bool, ruleset_id: str, period: str, paper: str, raw: Sequence[str]
) -> Response:
    variants = _period_variants(ruleset_id, period, raw)
    name = f"playsheet-{period}-{paper}.pdf"
    return _sheet(request, pdf, "playsheet", ruleset_id, period, paper, variants, name=name)


@twins(
    "/rulesets/{ruleset_id}/{period}",
    "ruleset_period_playsheet",
    "A period's playsheet of a rule set with war periods: print-ready HTML (the browser's print view)",
    "A period's playsheet of a rule set with war periods (PDF, two pages at most)",
    422,
)
def ruleset_period_playsheet(
    request: Request,
    pdf: AsPdf,
    ruleset_id: str,
    period: str,
    paper: PaperQ = "a4",
    variant: VariantQ = [],  # noqa: B006
) -> Response:
    return _period_sheet(request, pdf, ruleset_id, period, paper, variant)


# -- a game's sheets --------------------------------------------------------------------------------------
def _game_sheet(session: SessionDep, game_id: int) -> tuple[str, str, str | None, dict[str, str]]:
    """Which playsheet a game prints: its rule set's own ("ruleset", its id, no period) or its period's
    ("playsheet", its rule set and period), with the game's readings."""
    game = games.get_game(session, game_id)
    variants = {str(k): str(v) for k, v in game.variants.items()}
    own = ruleset_sheet.own_sheets()
    if game.ruleset in own:
        return "ruleset", game.ruleset, None, variants
    by_period = sheet.period_rulesets()
    if game.ruleset not in by_period or game.period is None:
        printed = [*by_period, *own]
        raise RulesError("game_id", f"game {game_id} is of a rule set that prints no playsheet", printed)
    return "playsheet", game.ruleset, game.period, variants


@twins(
    "/games/{game_id}",
    "game_playsheet",
    "A game's playsheet: its period's or its rule set's own, its variants marked; with a token of the game",
    "A game's playsheet: its period's or its rule set's own, its variants marked (PDF); with a token of the game",
    401,
    403,
    404,
    422,
)
def game_playsheet(
    request: Request,
    pdf: AsPdf,
    game_id: GameId,
    session: SessionDep,
    viewer: ViewerDep,
    paper: PaperQ = "a4",
) -> Response:
    kind, ruleset, period, variants = _game_sheet(session, game_id)
    subject = (ruleset,) if period is None else (ruleset, period)
    name = f"game-{game_id}-playsheet.pdf"
    return _sheet(request, pdf, kind, *subject, paper, _key(variants), name=name, private=True)


def _plan_html(game_id: int, side: str, session: SessionDep, viewer: Any, paper: str) -> str:
    # A side's player may print only their own plan; the referee either. The other side's: 403.
    viewer.require_side(side, "print the fire plan")
    game = games.get_game(session, game_id)
    seats.get_side(session, game_id, side)
    plan = fireplans.plan_summary(session, game, side)
    items = [i.model_dump(mode="json") for i in fireplans.plan_items(session, game_id, side)]
    return render.fire_plan_html(
        side, items, paper, game.name, locked=plan["locked"], commitment=plan["commitment"] or ""
    )


@twins(
    "/games/{game_id}/fire-plan/{side}",
    "game_fire_plan",
    "A side's fire plan as written: its own side or the referee only",
    "A side's fire plan as written (PDF): its own side or the referee only",
    401,
    403,
    404,
    422,
)
def game_fire_plan(
    pdf: AsPdf, game_id: GameId, side: Side, session: SessionDep, viewer: ViewerDep, paper: PaperQ = "a4"
) -> Response:
    return _private(_plan_html(game_id, side, session, viewer, paper), pdf, f"fire-plan-{side}.pdf")


def game_cards(
    units: Sequence[Unit], side: str | None, read: units_service.Reader, rules: GameRules
) -> list[dict[str, Any]]:
    """One card per battery and mortar of a game still in it: guns numbered and mortars lettered, per side,
    as the appendix's cards are, named as the board and the fire plan name them; each aiming point as this
    viewer may read it."""
    field = rules.book.plan_terms.aiming_field
    assert field is not None  # _cards_html answers 404 for a rule set without aiming points
    cards: list[dict[str, Any]] = []
    counters: dict[tuple[str, bool], int] = {}
    names = display_names(units)
    for u in units:
        if u.killed or not rules.fires_plan(u) or (side is not None and u.side != side):
            continue
        mortar = "mortar" in f"{u.level} {u.kind}".lower()
        n = counters.get((u.side, mortar), 0)
        counters[(u.side, mortar)] = n + 1
        ref = render.letter_ref(n) if mortar else str(n + 1)
        cards.append(
            {
                "ref": ref,
                "gun": names.get(u.pk, u.name or u.kind),
                "side": u.side,
                "aiming_point": read(u)[field],
            }
        )
    return cards


def _cards_html(game_id: int, session: SessionDep, viewer: Any, side: str | None, paper: str) -> str:
    # Where a side's guns are aimed is its secret: a player prints their own side's cards only (asking for
    # the other side's is 403), the referee both sides' or one.
    if side is not None:
        viewer.require_side(side, f"print the {forms.CARDS_TITLE.lower()}")
    elif not viewer.is_referee:
        side = viewer.role
    game = games.get_game(session, game_id)
    rules = rules_of(game)
    if rules.book.plan_terms.aiming_field is None:
        name = get_ruleset(game.ruleset).name
        raise errors.Absent(
            f"{name} has no aiming points, so game {game_id} has no {forms.CARDS_TITLE.lower()} to print",
            f"Aiming-point cards print where each battery is aimed; the batteries of {name} carry no aiming "
            "point.",
        )
    read = units_service.reader(game, viewer)
    units = units_service.list_units(session, game_id)
    return render.aiming_cards_html(game_cards(units, side, read, rules), paper)


@twins(
    f"/games/{{game_id}}/{forms.CARDS}",
    "game_aiming_points",
    "Aiming-point cards of a game's batteries and mortars: a player's own side, the referee's all",
    "Aiming-point cards of a game's batteries and mortars (PDF): a player's own side, the referee's all",
    401,
    403,
    404,
    422,
)
def game_aiming_points(
    pdf: AsPdf,
    game_id: GameId,
    session: SessionDep,
    viewer: ViewerDep,
    side: Side | None = None,
    paper: PaperQ = "a4",
) -> Response:
    html = _cards_html(game_id, session, viewer, side, paper)
    return _private(html, pdf, f"game-{game_id}-{forms.CARDS}.pdf")


# -- period playsheets (last: `{period}` would otherwise swallow the fixed paths) ----------------------------
@twins(
    "/{period}",
    "playsheet",
    "A period's playsheet: print-ready HTML (the browser's print view)",
    "A period's playsheet (PDF, two pages at most)",
    422,
)
def playsheet(
    request: Request,
    pdf: AsPdf,
    period: str,
    paper: PaperQ = "a4",
    variant: VariantQ = [],  # noqa: B006
) -> Response:
    return _period_sheet(request, pdf, sheet.period_ruleset().id, period, paper, variant)
