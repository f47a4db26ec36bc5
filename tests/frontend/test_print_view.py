"""The print view, /playsheets/{period}: printed by Chromium it gives the layout WeasyPrint gives, as the golden
sheets keep it (tests/playsheets/golden: each sheet's pages and words, held to WeasyPrint's PDF at the
playsheet tier), so this tier renders no PDF with WeasyPrint; and on screen, at the four sizes, its Print button
is a finger-sized control, the sheet fits the screen and axe-core finds no serious violation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.frontend.conftest import (
    TABLET_LANDSCAPE,
    assert_no_horizontal_scroll,
    screenshot,
    small_targets,
    unlabelled_controls,
)
from tests.frontend.test_accessibility import violations_at_every_size
from tests.playsheets.golden import SHEETS, load, printed
from tests.playsheets.pdf import ARTIFACTS

pytestmark = pytest.mark.browser  # it prints with Chromium

SCREEN_PAPER = "a4"  # the paper /playsheets/{period} shows when none is asked for


def print_view_fits(page: Any) -> None:
    """The print view's Print button is a finger-sized control and the sheet fits the screen."""
    box = page.get_by_role("button", name="Print").bounding_box()
    assert box is not None and box["width"] >= 44 and box["height"] >= 44, (page.viewport_size, box)
    assert small_targets(page) == [], page.viewport_size
    assert unlabelled_controls(page) == [], page.viewport_size
    assert_no_horizontal_scroll(page)
    if "/mid" in page.url:
        screenshot(page, "print-view")


def test_each_period_prints_as_the_pdf_and_fits_every_screen(new_page: Callable[..., Any]) -> None:
    """Each period on each paper printed from one page; on its screen paper, the screen checks at each size."""
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
        if paper == SCREEN_PAPER:
            found += violations_at_every_size(page, f"{period} print view", print_view_fits)
    assert not found, "\n".join(found)
