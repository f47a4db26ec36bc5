"""The golden sheets (tests/playsheets/golden/sheets.json) are WeasyPrint's: each period sheet on each paper
prints the pages and the words kept there. The browser tier holds Chromium's print to the same file
(tests/frontend/test_print_view.py)."""

from __future__ import annotations

import pytest

from tests.playsheets import pdf
from tests.playsheets.golden import SHEETS, load, printed


@pytest.mark.parametrize(("period", "paper"), SHEETS)
def test_the_golden_sheet_is_weasyprints(period: str, paper: str) -> None:
    golden = load()[f"{period}-{paper}"]
    weasy = printed(pdf.sheet_pdf(period, paper))
    assert weasy["pages"] == golden["pages"]
    added, gone = (
        sorted(set(weasy["words"]) - set(golden["words"])),
        sorted(set(golden["words"]) - set(weasy["words"])),
    )
    assert not added and not gone, (
        f"the {period} sheet on {paper} prints {added[:20]} more and {gone[:20]} no more than its golden file: "
        "if that is meant, write it again (.venv/bin/python -m tests.playsheets.golden)"
    )
