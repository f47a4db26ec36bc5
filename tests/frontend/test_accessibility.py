"""axe-core (WCAG 2.2 AA) on the pages changed this session, at the four sizes the project supports: no serious or
critical violation. One device per role, resized through the sizes, so each page is set up once; the join form's
confirm step's layout is checked at each size on the way, and the confirm step's flow (keep the seat, or confirm
the switch) runs on the way. (The print views' axe-core and layout at each size: test_print_view.py.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.axe import serious_violations
from tests.frontend.conftest import (
    PHONE,
    REFEREE_SCREEN,
    TABLET_LANDSCAPE,
    TABLET_PORTRAIT,
    assert_no_horizontal_scroll,
    screenshot,
    small_targets,
)
from tests.frontend.games import bearer, join, seed_game
from tests.frontend.test_map import open_map, start_game
from tests.frontend.test_referee import first_live_stand
from tests.frontend.test_referee_live import open_board

pytestmark = pytest.mark.browser

SIZES = (TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE, REFEREE_SCREEN)


def violations_at_every_size(page: Any, name: str, also: Callable[[Any], None] | None = None) -> list[str]:
    """axe-core's serious findings at each size, and `also` (a layout check) there."""
    found = []
    for size in SIZES:
        page.set_viewport_size(size)
        found += [f"{name} at {size['width']}x{size['height']}: {v}" for v in serious_violations(page)]
        if also is not None:
            also(page)
    page.set_viewport_size(TABLET_LANDSCAPE)
    return found


def confirm_fits(page: Any) -> None:
    """The join form's confirm step: no sideways scroll, finger-sized controls."""
    assert_no_horizontal_scroll(page)
    assert not small_targets(page), (page.viewport_size, small_targets(page))
    screenshot(page, "join-confirm")


@pytest.mark.long
def test_start_page_join_confirm_fire_plan_referee_and_map(new_page: Any) -> None:
    referee = new_page()
    game_id, created = seed_game(referee)
    codes = created["join_codes"]

    # The start page, as the player's device opens it.
    player = new_page()
    player.goto("/")
    found = violations_at_every_size(player, "start")
    # Every section opened, finger-sized (the newcomer pass: a rule set's choice set up by hand was 20 px tall).
    player.evaluate("document.querySelectorAll('main details').forEach((d) => { d.open = true; })")
    assert not small_targets(player), small_targets(player)
    # The check finds a violation where there is one: an input with no label, added to the start page.
    player.evaluate(
        "document.querySelector('main').append(Object.assign(document.createElement('input'), {type: 'text'}))"
    )
    planted = serious_violations(player)
    assert any(v.startswith("label (critical)") for v in planted), planted

    # The join form's confirm step (issue 24, login CSRF): a device that plays the attacker (joined by the form,
    # which takes a player to its fire plan) keeps that seat unless its user confirms the switch.
    join(player, codes["attacker"])
    assert player.url.endswith(f"/games/{game_id}/fire-plan")
    join(player, codes["defender"])
    card = player.locator("[data-seat-confirm]")
    expect(card).to_contain_text("This device already plays the attacker here")
    expect(card).to_contain_text("The code you entered is for the defender")
    found += violations_at_every_size(player, "join confirm", confirm_fits)
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

    # The defender's fire plan (this device's now) with two batteries planned (through the API) and the
    # rehearsal shown.
    defender = player
    token = next(c["value"] for c in defender.context.cookies() if c["name"] == "firestep_token")
    batteries = defender.get_by_label("Battery or mortar").locator("option").all_inner_texts()[:2]
    for battery, along in zip(batteries, (60, 100), strict=True):
        added = defender.request.post(
            f"/api/v1/games/{game_id}/fireplans/defender/items",
            data={
                "arrival_turn": 1,
                "item": {"kind": "aiming-point", "grid": [along, 168], "battery": battery},
            },
            headers=bearer(token),
        )
        assert added.status == 201, added.text()
    defender.reload()
    expect(defender.locator("[data-plan-item]")).to_have_count(2)
    expect(defender.locator("[data-heat]")).to_be_visible()
    found += violations_at_every_size(defender, "fire plan")

    # The game in play: the referee's board and the table map.
    start_game(referee, game_id, created["referee_token"])
    open_board(referee, game_id)
    expect(referee.locator(".turn-step")).to_contain_text("Support orders")
    # A stand with a marker (put there through the API), so its chip and "−S" button are checked too.
    marked = first_live_stand(referee, "Defender")
    added = referee.request.post(
        f"/api/v1/games/{game_id}/units/{marked.get_attribute('data-unit')}/markers",
        data={"delta": 1},
        headers=bearer(created["referee_token"]),
    )
    assert added.status == 200, added.text()
    expect(marked.locator(".marker")).to_have_count(1)
    found += violations_at_every_size(referee, "referee")
    open_map(referee, game_id)
    found += violations_at_every_size(referee, "map")
    assert not found, "\n".join(found)
