"""The referee screen: markers by tap, live updates from another device, the dark screen at 1920x1080."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import (
    REFEREE_SCREEN,
    TABLET_LANDSCAPE,
    TABLET_PORTRAIT,
    assert_no_horizontal_scroll,
    screenshot,
    small_targets,
)
from tests.frontend.games import join_by_api, seed_game

pytestmark = pytest.mark.browser


def first_live_stand(page: Any, side: str) -> Any:
    return page.locator(f"section.side[aria-label='{side}'] li.stand:not(.killed)").first


def start_from_the_board(page: Any) -> None:
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".turn-step")).to_contain_text("Support orders")


def test_a_marker_from_another_device_shows_on_the_referees_board_and_log(new_page: Any) -> None:
    """What the board shows of a marker tapped on another device; its delivery within 100 ms is the API tier's
    (tests/app/games/test_live_and_concurrency.py, timed)."""
    referee = new_page(REFEREE_SCREEN)
    game_id, created = seed_game(referee)
    referee.goto(f"/games/{game_id}/referee")
    expect(referee.locator("[data-live-stream][data-live-connected]")).to_have_count(1)

    player = new_page(TABLET_LANDSCAPE)
    join_by_api(player, created["join_codes"]["attacker"])
    player.goto(f"/games/{game_id}/referee")
    stand = first_live_stand(player, "Defender")
    unit_id = stand.get_attribute("data-unit")
    on_referee = referee.locator(f"#unit-{unit_id} .marker")
    expect(on_referee).to_have_count(0)
    # No markers in set-up: the board offers no "+S" to tap (the API would refuse it).
    expect(stand.get_by_role("button", name="Add a suppression marker")).to_be_hidden()
    expect(player.locator(".add-marker:visible")).to_have_count(0)

    # The referee starts the game; the player's screen follows over the event stream.
    start_from_the_board(referee)
    expect(player.locator(".turn-step")).to_contain_text("Support orders")
    stand = first_live_stand(player, "Defender")
    stand.get_by_role("button", name="Add a suppression marker").click()
    # The referee's screen shows the marker, pushed over the event stream.
    expect(on_referee).to_have_count(1)
    # The log reads like a game record: the side, the stand's unambiguous name, the change, the turn.
    expect(referee.locator("ol.events li").first).to_contain_text("Defender · ")
    expect(referee.locator("ol.events li").first).to_contain_text("+1 suppression · by attacker · turn 1")
    screenshot(referee, "referee")


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
    start_from_the_board(page)
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


def test_referee_screen_fits(new_page: Any) -> None:
    """One board, resized through both tablet sizes and the referee screen."""
    page = new_page(TABLET_LANDSCAPE)
    game_id, _ = seed_game(page)
    page.goto(f"/games/{game_id}/referee")
    for viewport in (TABLET_LANDSCAPE, TABLET_PORTRAIT, REFEREE_SCREEN):
        page.set_viewport_size(viewport)
        assert_no_horizontal_scroll(page)
        assert small_targets(page) == [], viewport
        if viewport is not REFEREE_SCREEN:
            screenshot(page, "referee")
    # At 1920 the two sides stand side by side: the first stand of each is on the board's first screen.
    for side in ("attacker", "defender"):
        box = page.locator(f"section.side[data-side='{side}'] li.stand").first.bounding_box()
        assert box is not None and box["y"] + box["height"] <= REFEREE_SCREEN["height"], (side, box)
