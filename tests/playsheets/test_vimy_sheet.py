"""Vimy Ridge's two-page playsheet, printed from the data its game plays (rules.vimy_ridge): the CRT's rows as
the exclusive rules print them, the bombardment, night and replacements and victory, read back from the PDF."""

from __future__ import annotations

from playsheets import ruleset_sheet, tables
from tests.playsheets import pdf

VIMY = "vimy-ridge"


def test_the_crt_rows_read_as_printed() -> None:
    sheet = ruleset_sheet.ruleset_sheet(VIMY)
    crt = next(s for s in sheet.sections if s.id == "crt").blocks[1]
    assert isinstance(crt, tables.Table)
    # "1 (A) A3 A2 _ Ex Ex D2 D2 D2 D3 De De" and "6 Ae Ae (A) (A) (A) (A) (A) A1 _ Ex Ex Ex"
    assert " ".join(crt.rows[0]) == "1 (A) A3 A2 - Ex Ex D2 D2 D2 D3 De De"
    assert " ".join(crt.rows[5]) == "6 Ae Ae (A) (A) (A) (A) (A) A1 - Ex Ex Ex"


def test_the_sheet_prints_on_two_pages_with_each_part() -> None:
    made = pdf.ruleset_pdf(VIMY, "a4")
    pdf.save_artifacts(made, f"playsheet-{VIMY}-a4")
    text = pdf.text(made, layout=False)
    assert text.count("\f") <= 2
    for words in (
        "Integrated Combat Results Table",
        "Bombardment Results Table",
        "Night and replacements",
        "1534",
    ):
        assert words in text, words
