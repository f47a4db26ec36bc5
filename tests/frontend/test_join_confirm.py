"""The join form's confirm step (issue 24, login CSRF): a device that already plays a seat in a game keeps it
unless its user confirms the switch, on a tablet and on a phone."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import TABLET_LANDSCAPE, assert_no_horizontal_scroll, screenshot, small_targets
from tests.frontend.games import join, seed_game

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def test_a_player_keeps_the_seat_unless_they_confirm_the_switch(new_page: Any) -> None:
    """The flow on the landscape tablet; the confirm card's layout on the phone too."""
    game_id, created = seed_game(new_page(TABLET_LANDSCAPE))
    codes = created["join_codes"]
    player = new_page(TABLET_LANDSCAPE)
    join(player, codes["attacker"])
    assert player.url.endswith(f"/games/{game_id}/fire-plan")
    join(player, codes["defender"])
    card = player.locator("[data-seat-confirm]")
    expect(card).to_contain_text("This device already plays the attacker here")
    expect(card).to_contain_text("The code you entered is for the defender")
    for viewport in (TABLET_LANDSCAPE, PHONE):
        player.set_viewport_size(viewport)
        assert_no_horizontal_scroll(player)
        assert not small_targets(player), small_targets(player)
        screenshot(player, "join-confirm")
    player.set_viewport_size(TABLET_LANDSCAPE)
    # Keeping the seat changes nothing: the attacker's fire plan is still this device's.
    card.get_by_role("link", name="Keep the attacker").click()
    expect(player.locator("body")).to_contain_text("Attacker")
    assert "/fire-plan" in player.url
    # Confirming switches to the defender.
    join(player, codes["defender"])
    player.get_by_role("button", name="Switch to the defender").click()
    player.wait_for_load_state()
    assert "/fire-plan" in player.url
    expect(player.locator("body")).to_contain_text("Defender")
