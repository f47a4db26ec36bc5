"""The print view: its Print button is a finger-sized control, the sheet fits each screen, and Chromium printing
/playsheets/{period} gives the layout WeasyPrint gives."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.frontend.conftest import (
    REFEREE_SCREEN,
    TABLET_LANDSCAPE,
    TABLET_PORTRAIT,
    assert_no_horizontal_scroll,
    screenshot,
    small_targets,
    unlabelled_controls,
)
from tests.playsheets.pdf import ARTIFACTS, page_count, sheet_pdf, text

PHONE = {"width": 390, "height": 844}


def test_print_button_is_a_44px_target_and_the_sheet_fits_the_screen(new_page: Callable[..., Any]) -> None:
    """One print view, resized through the four sizes."""
    page = new_page(TABLET_LANDSCAPE)
    page.goto("/playsheets/mid")
    for viewport in (TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE, REFEREE_SCREEN):
        page.set_viewport_size(viewport)
        box = page.get_by_role("button", name="Print").bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44, (viewport, box)
        assert small_targets(page) == [], viewport
        assert unlabelled_controls(page) == [], viewport
        assert_no_horizontal_scroll(page)
        screenshot(page, "print-view")


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
