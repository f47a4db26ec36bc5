"""The screenshots the README shows: the map, the referee board and the fire plan of a Mons game at the four
sizes the table uses (tablet landscape and portrait, phone, referee screen). Every run checks each page lays
out without sideways scroll and writes them to tests/artifacts/ (one seeded game, one page; the map opened afresh
at each size, the others resized); `make screenshots` also lets each page settle and writes the README's copies in
docs/screenshots/ (FIRESTEP_DOCS_SCREENSHOTS=1)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.frontend.conftest import (
    ARTIFACTS,
    REFEREE_SCREEN,
    TABLET_LANDSCAPE,
    TABLET_PORTRAIT,
    assert_no_horizontal_scroll,
)
from tests.frontend.games import seed_game

pytestmark = pytest.mark.browser

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PHONE = {"width": 390, "height": 844}
SIZES = (TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE, REFEREE_SCREEN)


def test_map_board_and_fire_plan_screenshots(new_page: Any) -> None:
    page = new_page(TABLET_LANDSCAPE)
    game_id, _ = seed_game(page)
    docs = os.environ.get("FIRESTEP_DOCS_SCREENSHOTS") == "1"
    ready = {
        "map": "svg[data-table-map][data-loaded]",
        "referee": "#board",
        "fire-plan": "#plan",
    }
    for name, selector in ready.items():
        for viewport in SIZES:
            page.set_viewport_size(viewport)
            size = f"{viewport['width']}x{viewport['height']}"
            if name == "map" or viewport is SIZES[0]:  # the map fits the table to the screen as it opens
                page.goto(f"/games/{game_id}/{name}")
                page.wait_for_selector(selector)
            if docs:
                page.wait_for_timeout(
                    600
                )  # the live stream keeps the network busy: let fonts and tiles settle
            assert_no_horizontal_scroll(page)
            path = ARTIFACTS / f"docs-{name}-{size}.png"
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(path))  # what the screen shows, as a player sees it
            assert path.stat().st_size > 10_000, f"{name} at {size} looks blank"
            if docs:
                shutil.copyfile(path, DOCS / f"{name}-{size}.png")
