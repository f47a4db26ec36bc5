"""The referee screen: markers by tap on the board, a third suppression kills, a long press removes one. (A marker
from another device, live, and its log line are test_referee_live.py's; the board's fit at every size is
test_screens.py's.)"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import TABLET_LANDSCAPE
from tests.frontend.games import seed_game
from tests.frontend.test_map import start_game

pytestmark = pytest.mark.browser


def first_live_stand(page: Any, side: str) -> Any:
    return page.locator(f"section.side[aria-label='{side}'] li.stand:not(.killed)").first


def test_third_suppression_kills_and_long_press_removes(new_page: Any) -> None:
    page = new_page(TABLET_LANDSCAPE)
    game_id, _ = seed_game(page)
    page.goto(f"/games/{game_id}/referee")
    stand = first_live_stand(page, "Defender")
    unit = page.locator(f"#unit-{stand.get_attribute('data-unit')}")
    # In set-up "+S" shows only when the referee chooses to override the rules; asked again whether to
    # override, declining changes nothing.
    expect(unit.get_by_role("button", name="Add a suppression marker")).to_be_hidden()
    page.get_by_role("button", name="Override rules").click()
    page.once("dialog", lambda dialog: dialog.dismiss())
    unit.get_by_role("button", name="Add a suppression marker").click()
    expect(page.locator("#net-status")).to_contain_text("Wait for the game to start")
    expect(unit.locator(".marker")).to_have_count(0)
    page.get_by_role("button", name="Override rules").click()
    expect(page.locator("[data-live-stream][data-live-connected]")).to_have_count(1)
    start_game(page, game_id)  # through the API: the board shows it live
    expect(page.locator(".turn-step")).to_contain_text("Support orders")
    unit.get_by_role("button", name="Add a suppression marker").click()
    expect(unit.locator(".marker")).to_have_count(1)
    # Long-press on the chip removes it: the referee may recover a marker without spending an action, and
    # outside the defender's own orders only by overriding the turn sequence, which the log then shows.
    page.once("dialog", lambda dialog: dialog.accept())
    chip = unit.locator(".marker").first
    box = chip.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(800)
    page.mouse.up()
    expect(unit.locator(".marker")).to_have_count(0)
    expect(page.locator("ol.events li").first).to_contain_text("referee override")
    # "three suppressions without recovery is a kill" (issue 3, suppression rules).
    for n in (1, 2):
        unit.get_by_role("button", name="Add a suppression marker").click()
        expect(unit.locator(".marker")).to_have_count(n)
    unit.get_by_role("button", name="Add a suppression marker").click()
    expect(unit.locator(".badge", has_text="KILLED")).to_have_count(1)
    # Undo is a new event that reverses the kill.
    page.locator("ol.events li").first.get_by_role("button", name="Undo").click()
    expect(unit.locator(".badge", has_text="KILLED")).to_have_count(0)
