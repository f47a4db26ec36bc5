"""A rule set's own playsheet (2mm Earth 1418's), built from its data objects and read back from the PDF: its
characteristics chart, high commands chart, cover table and bound as the book prints them, every reading in
force, two pages at most, nothing under 8 pt; a game's variants printed and marked."""

from __future__ import annotations

import re

import pytest

from playsheets import ruleset_sheet, tables
from playsheets.render import PAPERS, ruleset_sheet_html
from rules.core.errors import NotFoundError, RulesError
from rules.earth2mm import data
from rules.registry import get_ruleset
from tests.playsheets import pdf

EARTH = "2mm-earth-1418"
RS = get_ruleset(EARTH)
VARIANTS = {"assault-column": "text-order", "recovery-resilience": "current"}


def squash(text: str) -> str:
    """Letters and digits only: pdftotext breaks wrapped cells and drops condensed spaces and lone hyphens."""
    return re.sub(r"\W", "", text)


def section(sheet: ruleset_sheet.RuleSetSheet, sid: str) -> ruleset_sheet.Section:
    return next(s for s in sheet.sections if s.id == sid)


@pytest.fixture(
    scope="module", params=[(paper, v) for paper in sorted(PAPERS) for v in (False, True)], ids=str
)
def printed(request: pytest.FixtureRequest) -> tuple[bytes, str, dict[str, str]]:
    paper, with_variants = request.param
    variants = VARIANTS if with_variants else {}
    made = pdf.ruleset_pdf(EARTH, paper, variants)
    pdf.save_artifacts(made, f"playsheet-{EARTH}-{paper}{'-variants' if with_variants else ''}")
    return made, pdf.text(made), variants


def test_the_cover_table_reads_as_the_books_line() -> None:
    # "Moving Stationary Dug in: Open -3R -2R (R) Rough -2R -1R +1R Defensible +1R +1R +2R Fortification
    # +2R +2R +3R"
    cover = section(ruleset_sheet.ruleset_sheet(EARTH), "cover").blocks[0]
    assert isinstance(cover, tables.Table)
    assert cover.columns == ["Terrain", "Moving", "Stationary", "Dug in"]
    printed = " ".join(" ".join(row) for row in cover.rows)
    assert printed == "Open -3R -2R (R) Rough -2R -1R +1R Defensible +1R +1R +2R Fortification +2R +2R +3R"


def test_the_high_commands_chart_holds_each_commands_plans_and_dig_in() -> None:
    chart = section(ruleset_sheet.ruleset_sheet(EARTH), "commands").blocks[0]
    assert isinstance(chart, tables.Table)
    assert chart.columns == ["Situation", "Advance", "Hold", "Assault", "Retreat"]
    *plans, dig = chart.rows
    assert [r[0] for r in plans] == [
        "Dug in safe",
        "Dug in under fire",
        "Not dug in safe",
        "Not dug in under fire",
    ]
    for col, command in enumerate(data.COMMANDS, start=1):
        assert [r[col].lower().split(" or ") for r in plans] == [list(p) for p in data.PLANS[command]]
        assert (dig[col] != "No") is data.DIG_IN[command]
    assert dig[1] == "Yes but -1R if attacked"  # as printed


def test_the_characteristics_chart_has_a_row_per_unit_type() -> None:
    chart = section(ruleset_sheet.ruleset_sheet(EARTH), "characteristics").blocks[0]
    assert isinstance(chart, tables.Table)
    assert [r[0] for r in chart.rows] == [u.name for u in data.UNITS.values()]
    by_name = {r[0]: r for r in chart.rows}
    assert by_name["Machineguns x1/2"][1:] == ["Slow inf 4 cm", "1/3(+1)", "As S.F.", "800"]
    assert by_name["Mother Tank (x2)"][1:] == ["Slow inf 4 cm", "0/3(+2)", "6", "400"]
    assert by_name["Very Heavy Guns (Immobile)"][1:] == ["Immobile", "0/3(+4)", "4", "Infinite"]


def test_the_bound_lists_its_steps_and_both_orders_in_the_books_order() -> None:
    bound = section(ruleset_sheet.ruleset_sheet(EARTH), "bound").blocks
    lists = [b for b in bound if isinstance(b, tables.Bullets)]
    assert [[i.split(". ", 1)[1] for i in b.items] for b in lists] == [
        list(data.BOUND),
        list(data.PLANNING_ORDER),
        list(data.EXECUTING_ORDER),
    ]


def test_every_section_cites_the_book_and_every_erratum_prints_once() -> None:
    built = ruleset_sheet.ruleset_sheet(EARTH, VARIANTS)
    assert all(s.sources for s in built.sections if s.id != "readings")
    readings = section(built, "readings")
    defaults = readings.blocks[0]
    assert isinstance(defaults, tables.Bullets)
    topics = [i.rsplit(": ", 1)[0] for i in defaults.items] + [v.topic for v in readings.variants]
    assert sorted(topics) == sorted(e.topic for e in RS.errata.values())
    assert {v.erratum for v in built.variants} == set(VARIANTS)


def test_the_sheet_prints_the_rules_version() -> None:
    # Issue 69: the readings are the sheet's own section (above); the version is its book's, as the book prints it.
    assert ruleset_sheet.ruleset_sheet(RS.id).version == "Battle for 2mm Earth 1418, version 0.8"
    assert "Rules: Battle for 2mm Earth 1418, version 0.8." in ruleset_sheet_html(RS.id, "a4", {})


def test_two_pages_at_most_holding_the_three_tables(printed: tuple[bytes, str, dict[str, str]]) -> None:
    made, text, variants = printed
    assert 1 <= pdf.page_count(made) <= 2
    words = squash(pdf.text(made, layout=False))
    for title in ("Characteristics chart", "High commands chart", "Cover and resilience", "The bound"):
        assert squash(title) in words
    for phrase in (
        *data.BOUND,
        *data.PLANNING_ORDER,
        *data.EXECUTING_ORDER,
        *(u.name for u in data.UNITS.values()),
    ):
        assert squash(phrase) in words, phrase
    lines = text.splitlines()
    for row in ("Open -3R -2R (R)", "Fortification +2R +2R +3R", "Line/good inf Medium inf 6 cm 2/1 4 300"):
        assert any(re.search(r"\s+".join(map(re.escape, row.split())), line) for line in lines), row
    # A game's readings print in full, marked; a sheet of the defaults says so.
    assert ("VARIANT" in text) is bool(variants)
    for eid, rid in variants.items():
        assert squash(RS.errata[eid].reading(rid).text) in words


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_no_table_is_split_and_no_text_under_8pt(paper: str) -> None:
    html = pdf.ruleset_html(EARTH, paper, VARIANTS)
    assert pdf.split_tables(html) == []
    sizes = pdf.font_sizes_pt(html)
    assert sizes and min(sizes) >= 8


def test_a_rule_set_printing_no_sheet_of_its_own_and_an_unknown_reading_are_refused() -> None:
    with pytest.raises(NotFoundError, match="allowed: 2mm-earth-1418"):
        ruleset_sheet.ruleset_sheet("flanders-fields")  # its sheets are its periods'
    with pytest.raises(NotFoundError):
        ruleset_sheet.ruleset_sheet("no-such-rules")
    with pytest.raises(RulesError, match="unknown reading"):
        ruleset_sheet.ruleset_sheet(EARTH, {"assault-column": "nine"})
