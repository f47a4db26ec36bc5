"""The map of a game in set-up (issue 51): a 2mm game made by hand opens on an empty table, and the referee's
tool bar leads first to "Edit the table", within reach on a phone; once the game starts (a live frame) the way
to the editor goes, as the table is the game's from then on."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import PHONE, small_targets
from tests.frontend.games import seed_game
from tests.frontend.test_map import open_map, start_game

pytestmark = pytest.mark.browser


def test_the_referee_is_led_from_an_empty_table_to_its_editor(new_page: Any) -> None:
    page = new_page()
    page.set_viewport_size(PHONE)
    game_id, created = seed_game(page, {"ruleset": "2mm-earth-1418", "name": "By hand"})
    open_map(page, game_id)
    edit = page.locator(".map-toolbar [data-edit-table]")
    expect(edit).to_be_in_viewport()  # the first tool: no scrolling the bar sideways to find it
    assert page.locator(".map-toolbar .tool:visible").first.get_attribute("data-edit-table") is not None
    assert small_targets(page) == [] and edit.bounding_box()["height"] >= 44  # type: ignore[index]
    start_game(page, game_id, created["referee_token"])
    expect(edit).to_be_hidden()
