"""The screenshots the README shows: the map, the referee board and the fire plan of a Mons game at the four
sizes the table uses (tablet landscape and portrait, phone, referee screen). Every run checks each page lays
out without sideways scroll and writes them to tests/artifacts/; `make screenshots` also writes the README's
copies in docs/screenshots/ (FIRESTEP_DOCS_SCREENSHOTS=1)."""

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
from tests.frontend.games import create_mons_game

pytestmark = pytest.mark.browser

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PHONE = {"width": 390, "height": 844}
SIZES = (TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE, REFEREE_SCREEN)


@pytest.mark.parametrize("viewport", SIZES, ids=lambda v: f"{v['width']}x{v['height']}")
def test_map_board_and_fire_plan_screenshots(new_page: Any, viewport: dict[str, int]) -> None:
    page = new_page(viewport)
    game_id, _ = create_mons_game(page)
    ready = {
        "map": "svg[data-table-map][data-loaded]",
        "referee": "#board",
        "fire-plan": "#plan",
    }
    size = f"{viewport['width']}x{viewport['height']}"
    for name, selector in ready.items():
        page.goto(f"/games/{game_id}/{name}")
        page.wait_for_selector(selector)
        page.wait_for_timeout(600)  # the live stream keeps the network busy: let fonts and tiles settle
        assert_no_horizontal_scroll(page)
        path = ARTIFACTS / f"docs-{name}-{size}.png"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path))  # what the screen shows, as a player sees it
        assert path.stat().st_size > 10_000, f"{name} at {size} looks blank"
        if os.environ.get("FIRESTEP_DOCS_SCREENSHOTS") == "1":
            shutil.copyfile(path, DOCS / f"{name}-{size}.png")
