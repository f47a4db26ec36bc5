"""Every page at both tablet sizes and the referee screen size: no sideways scroll on a tablet, touch
targets of at least 44 px, every control labelled; a screenshot of each under tests/artifacts/."""

from __future__ import annotations

from typing import Any

import pytest

from tests.frontend.conftest import (
    ALL_VIEWPORTS,
    REFEREE_SCREEN,
    assert_no_horizontal_scroll,
    screenshot,
    small_targets,
    unlabelled_controls,
)
from tests.frontend.games import create_mons_game

pytestmark = pytest.mark.browser


def test_every_page(new_page: Any) -> None:
    """Each page opened once and resized through the three sizes."""
    page = new_page(ALL_VIEWPORTS[0])
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
        if name == "map":
            page.wait_for_selector("svg[data-table-map][data-loaded]")
        fits_at_every_size(page, name)


def fits_at_every_size(page: Any, name: str) -> None:
    for viewport in ALL_VIEWPORTS:
        page.set_viewport_size(viewport)
        if viewport is not REFEREE_SCREEN:
            assert_no_horizontal_scroll(page)
        assert small_targets(page) == [], (name, viewport)
        assert unlabelled_controls(page) == [], (name, viewport)
        if name == "lookup" and viewport is not REFEREE_SCREEN:
            continue  # test_lookup leaves the answered lookup screenshots at tablet sizes
        screenshot(page, name)
    page.set_viewport_size(ALL_VIEWPORTS[0])
