"""HTML and PDF rendering of every printed sheet: period playsheets, a rule set's own playsheet, the template kit, fire-plan forms,
a game's locked fire plan, aiming-point cards and the organisation sheet.

One HTML per sheet, with its print CSS inline: the browser's print view and WeasyPrint read the same page.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import jinja2

from playsheets import forms, kit, ruleset_sheet, scenario_sheet, sheet
from rules.core.scenario import ForceNode

PaperId = Literal["a4", "letter"]
PAPER_IDS: tuple[PaperId, ...] = ("a4", "letter")


@dataclass(frozen=True)
class Paper:
    id: PaperId
    name: str
    css_size: str
    width_mm: float
    height_mm: float


PAPERS: dict[str, Paper] = {
    "a4": Paper("a4", "A4", "A4", 210.0, 297.0),
    "letter": Paper("letter", "US Letter", "letter", 215.9, 279.4),
}

TEMPLATES_DIR = Path(__file__).parent / "templates"


def is_short_value(cell: str) -> bool:
    """A cell printed centred: a number, a die range or a short result such as '6 / No'."""
    return len(cell) <= 12 and sum(ch.isalpha() for ch in cell) <= 4


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
        autoescape=jinja2.select_autoescape(["html"], default=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.tests["shortvalue"] = is_short_value
    return env


def paper_of(paper: str) -> Paper:
    from rules.core.errors import RulesError

    if paper not in PAPERS:
        raise RulesError("paper", f"unknown paper {paper!r}", list(PAPERS))
    return PAPERS[paper]


# Text sheets use a slightly narrower margin than the kit (whose 1:1 layout is fixed), still inside what
# A4 and Letter printers print.
SHEET_MARGIN_MM = 7.0


def _page(template: str, paper: str, title: str, margin_mm: float = SHEET_MARGIN_MM, **context: Any) -> str:
    return (
        _env()
        .get_template(template)
        .render(
            paper=paper_of(paper),
            title=title,
            margin_mm=margin_mm,
            area_portrait=kit.AREA_PORTRAIT_MM,
            area_landscape=kit.AREA_LANDSCAPE_MM,
            calibration_mm=kit.CALIBRATION_CM * 10,
            calibration_cm=kit.CALIBRATION_CM,
            **context,
        )
    )


def html_to_pdf(html: str) -> bytes:
    import weasyprint

    pdf = weasyprint.HTML(string=html, base_url=str(TEMPLATES_DIR)).write_pdf()
    assert pdf is not None
    return pdf


def warm_pdf() -> bytes:
    """A small page in the sheets' print CSS and faces, as a PDF: laid out once in the process that renders
    the sheets (the worker, at the server's start), WeasyPrint and its libraries are imported and fontconfig
    has found the faces, so the first sheet asked for waits only for its own layout."""
    return html_to_pdf(_page("warm.html", "a4", "firestep"))


# -- period playsheets ------------------------------------------------------------------------------------
def render_html(
    period: str, paper: str = "a4", variants: Mapping[str, str] | None = None, ruleset: str | None = None
) -> str:
    """The period's playsheet of a rule set with periods (by default the first: sheet.period_ruleset) as
    print-ready HTML, with a game's chosen variants marked."""
    built = sheet.period_sheet(period, variants, ruleset)
    return _page("playsheet.html", paper, f"{built.name} playsheet: {built.period_name}", sheet=built)


def render_pdf(
    period: str, paper: str = "a4", variants: Mapping[str, str] | None = None, ruleset: str | None = None
) -> bytes:
    return html_to_pdf(render_html(period, paper, variants, ruleset))


# -- a rule set's own playsheet ------------------------------------------------------------------------------
def ruleset_sheet_html(ruleset: str, paper: str = "a4", variants: Mapping[str, str] | None = None) -> str:
    """The rule set's own playsheet as print-ready HTML, with a game's chosen variants marked."""
    built = ruleset_sheet.ruleset_sheet(ruleset, variants)
    return _page("ruleset_sheet.html", paper, f"{built.name} playsheet", sheet=built)


def ruleset_sheet_pdf(ruleset: str, paper: str = "a4", variants: Mapping[str, str] | None = None) -> bytes:
    return html_to_pdf(ruleset_sheet_html(ruleset, paper, variants))


# -- the 1:1 template kit ---------------------------------------------------------------------------------
def template_kit_html(paper: str = "a4") -> str:
    name, pages = kit.kit()
    return _page("kit.html", paper, f"{name} template kit (1:1)", kit.MARGIN_MM, pages=pages)


def template_kit_pdf(paper: str = "a4") -> bytes:
    return html_to_pdf(template_kit_html(paper))


# -- fire plans, aiming-point cards, organisation -----------------------------------------------------------
def fire_plan_form_html(
    side: str, paper: str = "a4", variants: Mapping[str, str] | None = None, period: str = "late"
) -> str:
    """A blank fire-plan form for `side` (attacker or defender), as the appendix's templates lay it out."""
    form = forms.fire_plan_form(side, variants, period)
    return _page("fire_plan_form.html", paper, form.title, form=form)


def fire_plan_html(
    side: str,
    items: Sequence[Mapping[str, Any]],
    paper: str = "a4",
    game: str = "",
    locked: bool = True,
    commitment: str = "",
) -> str:
    """A side's fire plan. Only items of `side` are printed, whatever else `items` holds; a plan not yet
    locked prints marked as a draft."""
    plan = forms.locked_plan(side, items, game, commitment, locked)
    return _page("fire_plan.html", paper, plan.title, plan=plan)


def aiming_cards_html(cards: Sequence[Mapping[str, Any]] | None = None, paper: str = "a4") -> str:
    """Aiming-point cards, one per battery or mortar, with dashed cut lines; the appendix's set by default."""
    chosen = forms.aiming_cards(cards)
    return _page("aiming_cards.html", paper, "Aiming-point cards", cards=chosen)


def letter_ref(n: int) -> str:
    """The n-th (0-based) mortar reference letter: A..Z, then AA, AB ... as the appendix letters mortars."""
    out = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(ord("A") + r) + out
    return out


def organisation_html(force: ForceNode, paper: str = "a4") -> str:
    """A force's organisation sheet: its tree of formations down to stands, with boxes to tick off losses."""
    org = forms.organisation(force)
    return _page("organisation.html", paper, org.title, org=org)


# -- a scenario's sheet -------------------------------------------------------------------------------------
def scenario_sheet_html(
    document: Mapping[str, Any],
    paper: str = "a4",
    variants: Mapping[str, str] | None = None,
    one_page: bool = False,
) -> str:
    """A scenario document's sheet: the map to scale, legend, deployment, orders of battle, special rules
    and victory conditions, on two pages; `one_page`: the map smaller and the rest below it, no page break."""
    box = scenario_sheet.ONE_PAGE_MAP_BOX_MM if one_page else scenario_sheet.MAP_BOX_MM
    built = scenario_sheet.scenario_sheet(document, variants, box)
    return _page(
        "scenario_sheet.html",
        paper,
        f"Scenario: {built.title}",
        sheet=built,
        colours=scenario_sheet.SIDE_COLOUR,
        one_page=one_page,
    )


def _one_page(document: Mapping[str, Any], variants: Mapping[str, str]) -> bool:
    """Whether the sheet is tried on one page: no side's order of battle is longer than one page holds."""
    sides = scenario_sheet.scenario_sheet(document, variants).sides
    return max(len(side.lines) for side in sides) <= scenario_sheet.ONE_PAGE_MOST_LINES


def scenario_sheet_view_html(
    document: Mapping[str, Any], paper: str = "a4", variants: Mapping[str, str] | None = None
) -> str:
    """The sheet's print view, for the browser's own print where no PDF is made: the layout the PDF is
    tried in first (one page where the orders of battle are short enough, else two), chosen without
    laying it out."""
    chosen = dict(variants or {})
    return scenario_sheet_html(document, paper, chosen, one_page=_one_page(document, chosen))


def scenario_sheet_pdf(
    document: Mapping[str, Any], paper: str = "a4", variants: Mapping[str, str] | None = None
) -> bytes:
    """The sheet as a PDF; a render is a pure function of the document, paper and readings, so a repeat of
    the same costs a dictionary lookup, not seconds of layout."""
    return _scenario_sheet_pdf(
        json.dumps(document, sort_keys=True), paper, tuple(sorted((variants or {}).items()))
    )


@lru_cache(maxsize=16)
def _scenario_sheet_pdf(document: str, paper: str, variants: tuple[tuple[str, str], ...]) -> bytes:
    """On one page where it fits (laid out once to see), else on two."""
    import weasyprint

    doc, chosen = json.loads(document), dict(variants)
    if _one_page(doc, chosen):
        html = scenario_sheet_html(doc, paper, chosen, one_page=True)
        laid_out = weasyprint.HTML(string=html, base_url=str(TEMPLATES_DIR)).render()
        if len(laid_out.pages) == 1:
            pdf = laid_out.write_pdf()
            assert pdf is not None
            return pdf
    return html_to_pdf(scenario_sheet_html(doc, paper, chosen))
