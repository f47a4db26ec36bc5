"""Period playsheets rendered to PDF and read back with pdftotext: every value the engine's datasets hold is
printed, in its row; two pages at most; nothing under 8 pt; a game's variants printed and marked."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from playsheets import sheet, tables
from playsheets.render import PAPERS, render_html
from rules.flanders_fields.book.sequence import SEQUENCES
from rules.registry import get_game_rules, get_ruleset
from tests.playsheets import pdf

PERIODS = ("early", "mid", "late")
RS = get_ruleset("flanders-fields")
GAME = get_game_rules("flanders-fields")
# A game playing other readings of rules on page 1 (the raw troops' order modifier, the barrage duration).
PAGE_ONE_VARIANTS = {
    e: next(r.id for r in RS.errata[e].readings if r.id != RS.errata[e].default)
    for e in ("barrage-duration", "raw-order-modifier")
}


@pytest.fixture(scope="module", params=[(p, paper) for p in PERIODS for paper in sorted(PAPERS)], ids=str)
def printed(request: pytest.FixtureRequest) -> tuple[str, str, bytes, str]:
    period, paper = request.param
    data = pdf.sheet_pdf(period, paper)
    pdf.save_artifacts(data, f"playsheet-{period}-{paper}")
    return period, paper, data, pdf.text(data)


def reading_order(data: bytes) -> str:
    """The PDF's text in reading order (no -layout), whitespace removed: wrapped cells read whole."""
    return squash(pdf.text(data, layout=False))


def leaves(data: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every scalar of a dataset with its path, citations excluded."""
    if isinstance(data, Mapping):
        for k, v in data.items():
            if k not in tables.SOURCE_KEYS:
                yield from leaves(v, (*path, str(k)))
    elif isinstance(data, list | tuple):
        for i, v in enumerate(data):
            yield from leaves(v, (*path, str(i)))
    else:
        yield path, data


def squash(text: str) -> str:
    """Text with all whitespace removed: pdftotext drops or keeps the narrow spaces of a condensed font
    ("3 / 4" may read "3/4") and breaks wrapped cells, so phrases are compared without it."""
    return re.sub(r"\s+", "", text)


def row_on_a_line(row: list[str], lines: list[str]) -> bool:
    """The row's label (first word) and each short cell, in order, on one line of the -layout text."""
    parts = [row[0].split()[0]] if row[0].strip() else []
    parts += [c if len(c) <= 14 else c.split()[0] for c in row[1:] if c.strip()]
    pattern = re.compile(r".*?".join(r"\s*".join(re.escape(w) for w in p.split()) for p in parts))
    return any(pattern.search(line) for line in lines)


def test_two_pages_at_most(printed: tuple[str, str, bytes, str]) -> None:
    _, _, data, _ = printed
    assert 1 <= pdf.page_count(data) <= 2


def test_two_pages_at_most_with_a_games_variants() -> None:
    """A game playing other readings of rules on both pages (the raw troops' order modifier on page 1, the
    rolling barrage duration on page 1) still fits; each variant adds a marked line where it applies.

    The pages counted are WeasyPrint's layout, the one write_pdf prints (and the one the split-table check
    below reads): no PDF is written for it. The late A4 one is written and read back as text in
    test_variant_prints_as_the_game_plays_it_and_is_marked."""
    for period in PERIODS:
        for paper in sorted(PAPERS):
            html = pdf.sheet_html(period, paper, PAGE_ONE_VARIANTS)
            assert 1 <= len(pdf.document(html).pages) <= 2, (period, paper)
            assert "VARIANT" in html


@pytest.mark.parametrize("variants", [{}, PAGE_ONE_VARIANTS], ids=["default", "variants"])
@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("period", PERIODS)
def test_no_table_is_split_across_a_column_or_page_break(
    period: str, paper: str, variants: dict[str, str]
) -> None:
    """Each table is laid out whole in one column of one page (a player reads a row's neighbours in one place)."""
    assert pdf.split_tables(pdf.sheet_html(period, paper, variants)) == []


def test_a_table_split_across_columns_is_seen() -> None:
    # The check above on a table that cannot fit one column: it must be reported, or the check proves nothing.
    rows = "".join(f"<tr><th>Row {i}</th><td>{i}</td></tr>" for i in range(80))
    html = f'<div style="column-count: 2; height: 60mm"><table><tr><th>Long</th></tr>{rows}</table></div>'
    assert pdf.split_tables(html) == ["Long"]


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("period", PERIODS)
def test_page_one_fills_both_columns(period: str, paper: str) -> None:
    """Page 1's two columns end within a quarter page of each other: no half-empty right column."""
    runs = pdf.column_bottoms(pdf.sheet_html(period, paper))
    assert runs
    for height, bottoms in runs:
        assert len(bottoms) == 2, bottoms
        assert abs(bottoms[0] - bottoms[1]) < height / 4, (bottoms, height)


@pytest.mark.parametrize(
    ("period", "heading"),
    [
        # 1914 playsheet: "Firing Table"; mid and late playsheets (FF L5200, L5479): "Firing table – Mid 1917 to
        # End of War  – Any Target Except Armour– Roll D6" (on the mid sheet a misprint: its erratum says so).
        ("early", "Firing Table"),
        ("mid", "Firing table – Mid 1917 to End of War – Any Target Except Armour"),
        ("late", "Firing table – Mid 1917 to End of War – Any Target Except Armour"),
    ],
)
def test_firing_table_cites_the_heading_its_playsheet_prints(period: str, heading: str) -> None:
    firing = next(s for s in sheet.period_sheet(period).sections if s.id == "firing")
    assert f"Playsheet: {heading}" in firing.sources
    assert not any("headed" in s for s in firing.sources)
    assert squash(f"Playsheet: {heading}") in reading_order(pdf.sheet_pdf(period, "a4"))


def test_no_text_under_8pt() -> None:
    for period in PERIODS:
        sizes = pdf.font_sizes_pt(pdf.sheet_html(period, "letter"))
        assert sizes and min(sizes) >= 8, (period, sorted(sizes))


def test_every_table_row_is_printed_on_one_line(printed: tuple[str, str, bytes, str]) -> None:
    period, _, _, text = printed
    lines = text.splitlines()
    built = sheet.period_sheet(period)
    rows = [r for s in built.sections for r in tables.cells(s.blocks)]
    assert len(rows) > 20
    missing = [r for r in rows if not row_on_a_line(r, lines)]
    assert not missing


def test_every_value_of_generically_printed_datasets_is_printed(printed: tuple[str, str, bytes, str]) -> None:
    """Datasets without a view print whole: iterate over each (not a copied list), every value is in the PDF."""
    period, _, data, _ = printed
    flat = reading_order(data)
    names = [
        n
        for page in GAME.playsheet(period).pages(period)
        for spec in page
        for n in spec.datasets
        if n in RS.datasets and n not in GAME.playsheet(period).views
    ]
    for name in names:
        data = sheet.with_readings(RS.data(name, period), RS)
        for path, value in leaves(data):
            if value is None or path[-1] == "period":
                continue
            assert squash(tables.fmt(value)) in flat, (name, path, value)


def test_nothing_the_layout_asks_for_is_missing() -> None:
    for period in PERIODS:
        assert sheet.period_sheet(period).missing == []


def test_action_tables_print_every_band(printed: tuple[str, str, bytes, str]) -> None:
    period, _, _, text = printed
    lines = text.splitlines()
    for unit in RS.data("order-tables", period)["units"].values():
        # e.g. rifle companies: "1 = No Action 2-4 = 1 Action 5-6 = 2 Actions 7 = 3 Actions" -> "1: 0 · 2-4: 1 ..."
        bands = " · ".join(f"{b['roll']}: {b['actions']}" for b in unit["bands"])
        assert row_on_a_line([unit["label"], bands], lines), unit["label"]


def test_firing_and_armour_cells_are_the_engines(printed: tuple[str, str, bytes, str]) -> None:
    period, _, _, text = printed
    lines = text.splitlines()
    for name in ("firing-table", "armour-table"):
        table = RS.data(name, period)
        for row in table["rows"]:
            cells = []
            for col in table["columns"]:
                c = row["cells"][col["id"]]
                cells.append(f"{tables.fmt(c['suppress'])} / {tables.fmt(c['kill'])}")
            assert row_on_a_line([row["label"], *cells], lines), (name, row["label"], cells)


def test_modifiers_and_morale_results_are_printed(printed: tuple[str, str, bytes, str]) -> None:
    period, _, data, text = printed
    flat = reading_order(data)
    for name in ("order-tables", "firing-table", "morale-table", "armour-table"):
        for m in RS.data(name, period).get("modifiers", []):
            value = f"{m['value']:+d}" if isinstance(m["value"], int) else str(m["value"])
            assert squash(f"{value} {m['label']}") in flat or row_on_a_line(
                [value, m["label"]], text.splitlines()
            ), (name, m)
    for r in RS.data("morale-table", period)["results"]:
        # "0 or Less Rout, Surrender etc." / "1 Retreat 40cm ..." / "2-3 Retreat 20cm ..." / "4+ Morale OK"
        assert row_on_a_line([r["roll"], r["text"]], text.splitlines()), r


def test_wire_needs_this_periods_roll(printed: tuple[str, str, bytes, str]) -> None:
    period, _, _, text = printed
    need = next(n for n in RS.data("wire-rules", period)["needs"] if n["period"] == period)
    # "from mid 1915 to mid 1917 is 5+"; "from mid 1917 onwards = 3+"
    assert row_on_a_line(["Crossing roll", f"{need['needs']}+"], text.splitlines())


def test_movement_cells_match_the_movement_table(printed: tuple[str, str, bytes, str]) -> None:
    period, _, _, text = printed
    lines = text.splitlines()
    terrain = RS.data("movement-table", period)["terrain"]
    movers = list(next(iter(terrain.values())))
    for mover in movers:
        cells = []
        for t in terrain:
            c = terrain[t][mover]
            # What a player needs: "No" where the mover may not pass, the orders a crossing takes, else cm.
            if not c["may_pass"]:
                cells.append("No")
            elif c["crossing_actions"]:
                cells.append(f"{c['crossing_actions']} ord.")
            else:
                cells.append(str(c["allowance_cm"]))
        assert row_on_a_line([tables.label(mover), *cells], lines), (mover, cells)


def test_order_sequence_steps_are_printed_in_order(printed: tuple[str, str, bytes, str]) -> None:
    period, _, data, _ = printed
    flat = reading_order(data)
    steps = SEQUENCES[period].steps  # type: ignore[index]
    # early: "1 SUPPORT ORDERS ... 2 BATTALION ORDERS ... 3 MOVE COMMAND STANDS"; mid and late have 7 steps.
    assert len(steps) == (3 if period == "early" else 7)
    positions = [flat.find(squash(f"{s.number}. {s.title}")) for s in steps]
    assert -1 not in positions and positions == sorted(positions)
    # The parts of each step and the command-stand note, from the same data the game follows.
    for s in steps:
        for line in (*s.parts, s.note):
            assert squash(line) in flat, line


def test_sos_and_three_suppressions(printed: tuple[str, str, bytes, str]) -> None:
    _, _, data, _ = printed
    flat = reading_order(data)
    # "SOS fire covers an area of effect 10cm wide by 5cm deep"; "if the result is two or more ... fire arrives"
    for phrase in (
        "10 cm wide × 5 cm deep",
        "2+: aiming point moved AND one turn of fire arrives",
        "THREE SUPPRESSIONS ON ANY UNIT EQUALS A KILL",
    ):
        assert squash(phrase) in flat, phrase


def test_variant_prints_as_the_game_plays_it_and_is_marked() -> None:
    default = reading_order(pdf.sheet_pdf("late", "a4"))
    # The sheet of PAGE_ONE_VARIANTS (the barrage's duration read as the fire plan template's, and one more):
    # the layout test_two_pages_at_most_with_a_games_variants counts the pages of, not another.
    assert PAGE_ONE_VARIANTS["barrage-duration"] == "fire-plan-template"
    variant_pdf = pdf.sheet_pdf("late", "a4", PAGE_ONE_VARIANTS)
    pdf.save_artifacts(variant_pdf, "playsheet-late-a4-variants")
    variant = reading_order(variant_pdf)
    reading = RS.errata["barrage-duration"].reading("fire-plan-template").text
    assert "VARIANT" not in default
    assert "VARIANT" in variant
    # Letters and digits only: pdftotext drops a lone hyphen between words in reading order.
    assert re.sub(r"\W", "", reading) in re.sub(r"\W", "", variant)


def test_unknown_period_and_variant_are_refused() -> None:
    from rules.core.errors import RulesError

    with pytest.raises(RulesError, match="allowed: early, mid, late"):
        render_html("1916")
    with pytest.raises(RulesError, match="unknown reading"):
        render_html("late", "a4", {"barrage-duration": "nine"})
    with pytest.raises(RulesError, match="allowed: a4, letter"):
        render_html("late", "a5")


@pytest.mark.parametrize(
    ("erratum_id", "period"),
    [("raw-firer-penalty", "mid"), ("deep-shelter-veteran", "late"), ("move-mixed-terrain", "early")],
)
def test_a_variant_prints_in_the_section_its_erratum_names(erratum_id: str, period: str) -> None:
    # The erratum's `section` places it, not its id: raw-firer-penalty is a firing-table erratum.
    erratum = RS.errata[erratum_id]
    other = next(r.id for r in erratum.readings if r.id != erratum.default)
    built = sheet.period_sheet(period, {erratum_id: other})
    placed = {s.id: [n.erratum for n in s.variants] for page in built.pages for s in page}
    assert erratum_id in placed[erratum.section]
    assert [s for s, ids in placed.items() if erratum_id in ids] == [erratum.section]


def test_each_sheet_prints_the_readings_it_uses_and_the_rules_version(
    printed: tuple[str, str, bytes, str],
) -> None:
    """Issue 69: the reading in force of each erratum a printed value depends on (a game's own marked VARIANT),
    and the rules by name and the version of their book (this one prints none, and the sheet says so)."""
    period, _, data, _ = printed
    text = re.sub(r"\W", "", pdf.text(data, layout=False))
    assert re.sub(r"\W", "", "Rules: Flanders Fields (its book prints no version).") in text
    used = sheet.period_sheet(period).readings
    assert used and all(re.sub(r"\W", "", line) in text for line in used), used
    # The late sheet prints the rolling barrage's duration: a game playing its variant prints that reading.
    if period == "late":
        variant = sheet.period_sheet(period, {"barrage-duration": "fire-plan-template"}).readings
        assert "Duration of a rolling barrage: Fire plan template (VARIANT)" in variant


def test_a_games_reading_prints_every_value_it_decides_and_marks_it() -> None:
    """Issue 69: a referee switching raw troops' shooting to the main text and the mid firing table to its
    heading's: the direct fire factors print the reading's value marked (not the default's -1 unmarked), the
    rows the heading's table decides are that table's and marked, and "Readings used" names both; so for the
    armour table's line a reading leaves unapplied."""
    played = {"raw-firer-penalty": "main-text", "mid-firing-table": "late-table"}
    html = render_html("mid", variants=played)
    assert "+0 Raw Troops (VARIANT)" in html and "-1 Raw Troops" not in html
    firing = next(s for s in sheet.period_sheet("mid", played).sections if s.id == "firing")
    rows = [c for b in firing.blocks if isinstance(b, tables.Table) for c in b.rows]
    assert any(r[0] == "Gas (VARIANT)" and "4 / 6" in r[-1] for r in rows), rows
    default = sheet.period_sheet("mid").readings
    assert "Raw troops shooting: Playsheet" in default
    assert "Mid firing table's heading: Mid playsheet" in default
    assert "Raw troops shooting: Main text (VARIANT)" in sheet.period_sheet("mid", played).readings
    # The armour table's 'over 75' line, read as not applied, is not printed as the default's -1.
    unread = render_html("mid", variants={"armour-field-artillery-over-75": "not-applied"})
    assert "not applied Field artillery firing over 75 (VARIANT)" in unread
