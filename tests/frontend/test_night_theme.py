"""The night theme (issue 92) as the browser draws it: under a dark system setting the start page, the lookup and
the table map with a stand's card open are at night and axe-core clean (WCAG 2.2 AA) at the four sizes, and in
the day under a light one; a device asking for less motion gets no transition. (That every colour is the
palette's, and the dice's contrast in both themes: tests/test_palette.py.)"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.axe import serious_violations
from tests.frontend.conftest import PHONE, REFEREE_SCREEN, TABLET_LANDSCAPE, TABLET_PORTRAIT
from tests.frontend.games import seed_game
from tests.frontend.test_map import screen_point
from tests.frontend.test_map_play import open_map

pytestmark = pytest.mark.browser

SIZES = (TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE, REFEREE_SCREEN)
# The page's ground as the palette gives it: night.css's --bg, or app.css's.
GROUND = "getComputedStyle(document.documentElement).getPropertyValue('--bg').trim()"
NIGHT, DAY = "#0d1110", "#f3f0e8"


def at_night_and_clean(page: Any, name: str) -> list[str]:
    assert page.evaluate(GROUND) == NIGHT, name
    found = []
    for size in SIZES:
        page.set_viewport_size(size)
        found += [f"{name} at {size['width']}x{size['height']}: {v}" for v in serious_violations(page)]
    page.set_viewport_size(TABLET_LANDSCAPE)
    return found


def test_the_night_by_the_system_s_setting_and_motion_stilled(new_page: Any) -> None:
    page = new_page(TABLET_LANDSCAPE)
    page.emulate_media(color_scheme="dark")
    page.goto("/")
    found = at_night_and_clean(page, "start")
    page.goto("/lookup/flanders-fields/order-roll?period=mid")
    found += at_night_and_clean(page, "lookup")
    game_id, _ = seed_game(page)
    open_map(page, game_id)
    stand = next(
        u
        for u in page.request.get(f"/api/v1/games/{game_id}/units").json()
        if u["side"] == "defender" and u["base"] == "infantry-platoon" and u["x"] is not None
    )
    page.touchscreen.tap(*screen_point(page, stand["x"], stand["y"]))
    expect(page.locator("[data-panel='stand']")).to_be_visible()
    found += at_night_and_clean(page, "map with a stand's card")
    assert not found, "\n".join(found)

    # A light system: the day.
    page.emulate_media(color_scheme="light")
    page.goto("/lookup/flanders-fields/order-roll?period=mid")
    assert page.evaluate(GROUND) == DAY

    # Less motion asked for: the switches' slide is still.
    track = "getComputedStyle(document.querySelector('.toggle-track')).transitionDuration"
    assert page.evaluate(track) != "0s"
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(track) == "0s"
