"""Every page at the four sizes the table uses (tablet landscape and portrait, phone, referee screen): no sideways
scroll, touch targets of at least 44 px, every control labelled; a screenshot of each under tests/artifacts/. On
the way, as the referee's device makes the game by the start page's form, each page runs with no breach of its
Content-Security-Policy and no script error, and the board's taps reach the API through its scripts
(test_csp.py: the same for a player's pages).

The map, the referee board and the fire plan of a Mons game are the README's pictures: `make screenshots`
(FIRESTEP_DOCS_SCREENSHOTS=1) lets each settle and copies them to docs/screenshots/, each in the day and at night
(-night)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from app.pages.theme import COOKIE as THEME_COOKIE
from tests.frontend.conftest import (
    ARTIFACTS,
    PHONE,
    REFEREE_SCREEN,
    TABLET_LANDSCAPE,
    TABLET_PORTRAIT,
    assert_no_horizontal_scroll,
    next_frames,
    screenshot,
    small_targets,
    unlabelled_controls,
)
from tests.frontend.games import create_mons_game
from tests.frontend.test_csp import violations, watched

pytestmark = pytest.mark.browser

SIZES = (TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE, REFEREE_SCREEN)
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
README_PAGES = ("map", "referee", "fire-plan")


def test_every_page(new_page: Any) -> None:
    """Each page opened once and resized through the sizes (the map re-fits the table when the screen turns;
    under `make screenshots` it is opened afresh at each size, for the README's picture as it opens)."""
    page, errors, writes = watched(new_page(SIZES[0]))
    page.goto("/")
    fits_at_every_size(page, "start")
    game_id, _ = create_mons_game(page)
    fits_at_every_size(page, "created")
    pages = {
        "lookup": "/lookup/flanders-fields/order-roll?period=mid",
        "map": f"/games/{game_id}/map",
        "fire-plan": f"/games/{game_id}/fire-plan",
        "referee": f"/games/{game_id}/referee",
    }
    for name, url in pages.items():
        page.goto(url)
        page.wait_for_load_state("load")
        fits_at_every_size(page, name, url)
    # The referee's board, last: Start, then a marker by tap through api-action.js (fetch with the token header).
    expect(page.locator("[data-live-stream][data-live-connected]")).to_have_count(1)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".turn-step")).to_contain_text("Support orders")
    with page.expect_response(lambda r: r.url.endswith("/markers")) as marker:
        page.locator("button[aria-label^='Add a suppression marker']").first.click()
    assert marker.value.status == 200
    assert violations(page) == []
    assert errors == [], errors
    assert all(status < 400 for _, status in writes), writes


def fits_at_every_size(page: Any, name: str, url: str | None = None) -> None:
    docs = os.environ.get("FIRESTEP_DOCS_SCREENSHOTS") == "1"
    for viewport in SIZES:
        page.set_viewport_size(viewport)
        if name == "map":
            if docs and viewport is not SIZES[0]:
                page.goto(url)
            page.wait_for_selector("svg[data-table-map][data-loaded]")
            landscape = viewport["width"] > viewport["height"]
            expect(page.locator("[data-map-page]")).to_have_attribute(
                "data-orientation", "landscape" if landscape else "portrait"
            )
        if viewport is not REFEREE_SCREEN or name in README_PAGES:
            assert_no_horizontal_scroll(page)
        assert small_targets(page) == [], (name, viewport)
        assert unlabelled_controls(page) == [], (name, viewport)
        if name in README_PAGES:
            readme_picture(page, name, docs)
        if name == "referee" and viewport is REFEREE_SCREEN:
            # The two sides side by side: the first stand of each is on the board's first screen.
            for side in ("attacker", "defender"):
                box = page.locator(f"section.side[data-side='{side}'] li.stand").first.bounding_box()
                assert box is not None and box["y"] + box["height"] <= viewport["height"], (side, box)
        if name == "lookup" and viewport is not REFEREE_SCREEN:
            continue  # test_lookup leaves the answered lookup screenshots at tablet sizes
        screenshot(page, name)
    page.set_viewport_size(SIZES[0])
    assert violations(page) == [], name


def readme_picture(page: Any, name: str, docs: bool) -> None:
    """What the screen shows, as a player sees it; not blank. Under `make screenshots` the page settles first
    (the live stream keeps the network busy: fonts and tiles) and the README's copy is written, in the day and
    at night (issue 92)."""
    size = f"{page.viewport_size['width']}x{page.viewport_size['height']}"
    if docs and name == "referee":
        themed(page, "day")
    if docs:
        page.wait_for_timeout(600)
    path = ARTIFACTS / f"docs-{name}-{size}.png"
    page.screenshot(path=str(path))
    assert path.stat().st_size > 10_000, f"{name} at {size} looks blank"
    if docs:
        shutil.copyfile(path, DOCS / f"{name}-{size}.png")
        if name == "referee":
            themed(page, None)
            page.wait_for_timeout(600)
            page.screenshot(path=str(DOCS / f"{name}-night-{size}.png"))
        else:
            night_picture(page, f"{name}-night-{size}.png")


def themed(page: Any, theme: str | None) -> None:
    """The page drawn again in the colours this device chose (the page menu's Night or Day: its cookie), or with
    no choice (None). The referee's board is at night whatever the system says (referee.html), so its day is a
    device's choice."""
    if theme is None:
        page.context.clear_cookies(name=THEME_COOKIE)
    else:
        page.context.add_cookies([{"name": THEME_COOKIE, "value": theme, "url": page.url}])
    page.reload()
    expect(page.locator("[data-live-stream][data-live-connected]")).to_have_count(1)


def night_picture(page: Any, file_name: str) -> None:
    """The same screen at night, under `make screenshots` only: the system's dark setting, as a device with no
    theme chosen takes it (base.html's night.css), for a picture, then the day again."""
    page.emulate_media(color_scheme="dark")
    next_frames(page, 2)
    page.screenshot(path=str(ARTIFACTS / f"docs-{file_name}"))
    shutil.copyfile(ARTIFACTS / f"docs-{file_name}", DOCS / file_name)
    page.emulate_media(color_scheme="light")
    next_frames(page, 2)
