"""The print view printed by Chromium: /playsheets/{period} gives the layout WeasyPrint gives (its Print button
and its fit to each screen are checked with axe-core in test_accessibility.py::test_start_page_and_print_view)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.frontend.conftest import TABLET_LANDSCAPE
from tests.playsheets.pdf import ARTIFACTS, page_count, sheet_pdf, text

pytestmark = pytest.mark.browser  # it prints with Chromium


def _words(pdf: bytes) -> set[str]:
    # Table values and labels. Hyphens and slashes are where either renderer may break a line, so they
    # separate words here ("mule/horse" may print as "mule/" + "horse").
    return set(re.findall(r"\w+", text(pdf, layout=False)))


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("period", ["early", "mid", "late"])
def test_browser_print_matches_the_pdf(period: str, paper: str, new_page: Callable[..., Any]) -> None:
    page = new_page(TABLET_LANDSCAPE)
    page.goto(f"/playsheets/{period}?paper={paper}")
    printed: bytes = page.pdf(prefer_css_page_size=True, print_background=True)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"print-view-{period}-{paper}.pdf").write_bytes(printed)
    # WeasyPrint's PDF of the same sheet, as the playsheet tests keep it (the route that serves it is
    # tests/playsheets/test_routes.py's).
    weasy = sheet_pdf(period, paper)
    assert page_count(printed) == page_count(weasy) <= 2
    missing = _words(weasy) - _words(printed)
    assert not missing, f"printed from the browser without: {sorted(missing)[:20]}"
