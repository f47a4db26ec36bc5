"""The golden sheets (tests/playsheets/golden/sheets.json) are WeasyPrint's: each period sheet on each paper
prints the pages and the words kept there. The browser tier holds Chromium's print to the same file
(tests/frontend/test_print_view.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.playsheets import pdf
from tests.playsheets.golden import SHEETS, VIEWS, load, printed


@pytest.mark.parametrize(("period", "paper"), SHEETS)
def test_the_golden_sheet_is_weasyprints(period: str, paper: str) -> None:
    _is_golden(f"{period}-{paper}", printed(pdf.sheet_pdf(period, paper)))


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_the_golden_print_views_are_weasyprints(name: str) -> None:
    """The other sheets the Print menu offers (their print views are held to the same file by the browser)."""
    _is_golden(name, printed(VIEWS[name][1]()))


def _is_golden(name: str, weasy: dict[str, Any]) -> None:
    golden = load()[name]
    assert weasy["pages"] == golden["pages"]
    added, gone = (
        sorted(set(weasy["words"]) - set(golden["words"])),
        sorted(set(golden["words"]) - set(weasy["words"])),
    )
    assert not added and not gone, (
        f"the {name} sheet prints {added[:20]} more and {gone[:20]} no more than its golden file: "
        "if that is meant, write it again (.venv/bin/python -m tests.playsheets.golden)"
    )
