"""The print view printed by Chromium: /playsheets/{period} gives the layout WeasyPrint gives, as the golden
sheets keep it (tests/playsheets/golden: each sheet's pages and words, held to WeasyPrint's PDF at the
playsheet tier), so this tier renders no PDF with WeasyPrint. Its Print button and its fit to each screen are
checked with axe-core in test_accessibility.py::test_start_page_and_print_view."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.frontend.conftest import TABLET_LANDSCAPE
from tests.playsheets.golden import SHEETS, load, printed
from tests.playsheets.pdf import ARTIFACTS

pytestmark = pytest.mark.browser  # it prints with Chromium


def test_browser_print_matches_the_pdf(new_page: Callable[..., Any]) -> None:
    """Each period on each paper, printed from one page."""
    page = new_page(TABLET_LANDSCAPE)
    golden = load()
    ARTIFACTS.mkdir(exist_ok=True)
    found = []
    for period, paper in SHEETS:
        page.goto(f"/playsheets/{period}?paper={paper}")
        pdf: bytes = page.pdf(prefer_css_page_size=True, print_background=True)
        (ARTIFACTS / f"print-view-{period}-{paper}.pdf").write_bytes(pdf)
        chromium, weasy = printed(pdf), golden[f"{period}-{paper}"]
        assert chromium["pages"] == weasy["pages"] <= 2, (period, paper, chromium["pages"], weasy["pages"])
        missing = sorted(set(weasy["words"]) - set(chromium["words"]))
        found += [f"{period} on {paper} printed from the browser without: {missing[:20]}"] if missing else []
    assert not found, "\n".join(found)
