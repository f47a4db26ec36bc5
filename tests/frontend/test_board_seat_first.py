"""Seat first on the board (issue 26): each side's device opens the referee board with its own side first, so its
first own stand is on the first screen at every size. (The sides' order in the server's HTML, the referee's the
game's: tests/app/games/test_board_sides_order.py.)"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import PHONE, REFEREE_SCREEN, TABLET_LANDSCAPE, TABLET_PORTRAIT
from tests.frontend.games import join_by_api, seed_game

pytestmark = pytest.mark.browser


def first_stand_top(page: Any, side: str) -> float:
    """The top of the side's first stand tile, in viewport CSS pixels, as the page opened."""
    box = page.locator(f".side[data-side='{side}'] .stand").first.bounding_box()
    assert box, side
    return float(box["y"])


def test_each_seat_sees_its_own_stands_first(new_page: Any) -> None:
    # One device per side, its board opened once and resized; the game made through the API by the first.
    attacker = new_page(TABLET_LANDSCAPE)
    game_id, created = seed_game(attacker)
    for side, page in (("attacker", attacker), ("defender", new_page(TABLET_LANDSCAPE))):
        join_by_api(page, created["join_codes"][side])
        page.goto(f"/games/{game_id}/referee")
        for viewport in (TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE, REFEREE_SCREEN):
            page.set_viewport_size(viewport)
            expect(page.locator(".sides > .side").first).to_have_attribute("data-side", side)
            top = first_stand_top(page, side)
            assert 0 <= top < viewport["height"] - 44, (side, viewport, top)
