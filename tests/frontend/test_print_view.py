"""The print view, /playsheets/{period}: printed by Chromium it gives the layout WeasyPrint gives, as the golden
sheets keep it (tests/playsheets/golden: each sheet's pages and words, held to WeasyPrint's PDF at the
playsheet tier), so this tier renders no PDF with WeasyPrint; and on screen, at the four sizes, its Print button
is a finger-sized control, the sheet fits the screen and axe-core finds no serious violation, nor one of
PRINT_VIEW_RULES (every print view: its content in a <main>, no empty table header)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.frontend.axe import rule_violations
from tests.frontend.conftest import (
    TABLET_LANDSCAPE,
    assert_no_horizontal_scroll,
    screenshot,
    small_targets,
    unlabelled_controls,
)
from tests.frontend.games import create_mons_game
from tests.frontend.test_accessibility import violations_at_every_size
from tests.playsheets.golden import SHEETS, VIEWS, load, printed
from tests.playsheets.pdf import ARTIFACTS

pytestmark = pytest.mark.browser  # it prints with Chromium

SCREEN_PAPER = "a4"  # the paper /playsheets/{period} shows when none is asked for
# axe-core's best-practice rules (moderate or minor, so below the serious bar) a print view once failed at every
# size: its content outside any landmark, no <main>, a table's empty header cell.
PRINT_VIEW_RULES = ["empty-table-header", "landmark-one-main", "region"]


def print_view_fits(page: Any) -> None:
    """The print view's Print button is a finger-sized control and the sheet fits the screen."""
    box = page.get_by_role("button", name="Print").bounding_box()
    assert box is not None and box["width"] >= 44 and box["height"] >= 44, (page.viewport_size, box)
    assert small_targets(page) == [], page.viewport_size
    assert unlabelled_controls(page) == [], page.viewport_size
    assert_no_horizontal_scroll(page)
    assert rule_violations(page, PRINT_VIEW_RULES) == [], (page.url, page.viewport_size)
    if "/mid" in page.url:
        screenshot(page, "print-view")


def test_each_period_prints_as_the_pdf_and_fits_every_screen(new_page: Callable[..., Any]) -> None:
    """Each period on each paper printed from one page; on its screen paper, the screen checks at each size."""
    page = new_page(TABLET_LANDSCAPE)
    golden = load()
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


def test_every_other_sheet_prints_from_its_print_view_as_its_pdf(new_page: Callable[..., Any]) -> None:
    """Issue 58: without the PDF engine the Print menu offers each sheet's print view; printed by Chromium
    (the browser's "Save as PDF") each gives the PDF's pages and words, as the golden file keeps them."""
    page = new_page(TABLET_LANDSCAPE)
    golden = load()
    found = []
    for name, (url, _) in VIEWS.items():
        page.goto(url)
        pdf: bytes = page.pdf(prefer_css_page_size=True, print_background=True)
        (ARTIFACTS / f"print-view-{name}.pdf").write_bytes(pdf)
        chromium, weasy = printed(pdf), golden[name]
        if chromium["pages"] != weasy["pages"]:
            found.append(f"{name}: {chromium['pages']} pages from the browser, {weasy['pages']} in the PDF")
        missing = sorted(set(weasy["words"]) - set(chromium["words"]))
        found += [f"{name} printed from the browser without: {missing[:20]}"] if missing else []
        found += [f"{name} print view: {v}" for v in rule_violations(page, PRINT_VIEW_RULES)]
    assert not found, "\n".join(found)


def test_the_join_cards_page_prints_one_card_to_a_page(new_page: Callable[..., Any]) -> None:
    """The join cards printed from their page (the menu's offer without the PDF engine): one card to a page,
    as the PDF prints them, and nothing of the page around them."""
    page = new_page(TABLET_LANDSCAPE)
    game_id, _ = create_mons_game(page)
    page.goto(f"/games/{game_id}/join-cards")
    page.get_by_role("button", name="Make new join cards").click()
    cards = page.locator("[data-join-card]")
    cards.first.wait_for()
    codes = [
        w for c in page.locator("[data-join-card] .code").all_inner_texts() for w in re.findall(r"\w+", c)
    ]
    page.emulate_media(media="print")
    pdf: bytes = page.pdf(format="A4", print_background=True)
    (ARTIFACTS / "print-view-join-cards.pdf").write_bytes(pdf)
    chromium = printed(pdf)
    assert chromium["pages"] == cards.count() == 3, chromium["pages"]
    assert all(code in chromium["words"] for code in codes), (codes, chromium["words"])
    assert "Make" not in chromium["words"] and "Lookup" not in chromium["words"]


def test_the_print_views_print_button_prints(new_page: Callable[..., Any]) -> None:
    """The sheet's Print button (its one inline handler, a sheet being also a file opened without the server)
    runs under the app's Content-Security-Policy, which allows it by its hash: the newcomer pass of issue 66
    found it blocked on every HTML sheet ("Executing inline event handler violates ... script-src 'self'")."""
    page = new_page(TABLET_LANDSCAPE)
    page.add_init_script("window.printed = 0; window.print = () => { window.printed += 1; };")
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(f"/playsheets/mid?paper={SCREEN_PAPER}")
    page.get_by_role("button", name="Print").click()
    page.wait_for_function("window.printed === 1")
    assert refused == []
