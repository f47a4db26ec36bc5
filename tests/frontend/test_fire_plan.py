"""Fire plans in the browser: one side authors and locks its plan; the other side is refused it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import (
    TABLET_LANDSCAPE,
    TABLET_PORTRAIT,
    assert_no_horizontal_scroll,
    screenshot,
    small_targets,
    unlabelled_controls,
)
from tests.frontend.games import create_mons_game, join

pytestmark = pytest.mark.browser


def test_author_lock_and_the_opponent_is_refused(new_page: Any) -> None:
    referee = new_page(TABLET_LANDSCAPE)
    game_id, codes = create_mons_game(referee)

    attacker = new_page(TABLET_LANDSCAPE)
    join(attacker, codes["attacker"])
    assert attacker.url.endswith(f"/games/{game_id}/fire-plan")
    # An aiming point by tapping the small table, then a gas attack by typed grid reference.
    attacker.get_by_label("Battery or mortar").fill("1")
    svg = attacker.locator("svg[data-grid-pick]")
    box = svg.bounding_box()
    svg.click(position={"x": box["width"] / 2, "y": box["height"] / 3})
    assert attacker.get_by_label("Along (cm)").input_value() != ""
    attacker.get_by_role("button", name="Add to plan").click()
    expect(attacker.locator("[data-plan-item]")).to_have_count(1)
    attacker.locator("label.chip", has_text="Gas").click()
    attacker.get_by_role("button", name="Later turn").click()
    attacker.get_by_label("Along (cm)").fill("60")
    attacker.get_by_label("Up (cm)").fill("40")
    attacker.get_by_role("button", name="Add to plan").click()
    expect(attacker.locator("[data-plan-item]")).to_have_count(2)
    expect(attacker.locator(".turn-row h3")).to_have_text(["Turn 1", "Turn 2"])
    assert_no_horizontal_scroll(attacker)
    assert small_targets(attacker) == []
    assert unlabelled_controls(attacker) == []
    screenshot(attacker, "fire-plan")

    attacker.once("dialog", lambda d: d.accept())
    attacker.get_by_role("button", name="Lock the plan").click()
    commitment = attacker.locator("[data-commitment='attacker']")
    expect(commitment).to_have_count(1)
    published = commitment.inner_text().strip()
    assert len(published) == 64  # a SHA-256 in hex
    expect(attacker.get_by_role("button", name="Add to plan")).to_have_count(0)

    defender = new_page(TABLET_PORTRAIT)
    join(defender, codes["defender"])
    # The defender sees the attacker's commitment at once, but never the plan itself.
    expect(defender.locator("[data-commitment='attacker']")).to_have_text(published)
    response = defender.goto(f"/games/{game_id}/fire-plan?side=attacker")
    assert response is not None and response.status == 403
    expect(defender.locator("h1")).to_have_text("Not for your eyes")
    assert "grid" not in defender.content()
    api = defender.request.get(f"/api/v1/games/{game_id}/fireplans/attacker/items")
    assert api.status == 403
    defender.goto(f"/games/{game_id}/fire-plan")
    assert_no_horizontal_scroll(defender)
    screenshot(defender, "fire-plan")


def test_invalid_item_is_a_message_not_json(new_page: Any) -> None:
    page = new_page(TABLET_LANDSCAPE)
    game_id, _ = create_mons_game(page)
    page.goto(f"/games/{game_id}/fire-plan")
    page.get_by_role("button", name="Add to plan").click()  # an aiming point with no grid reference
    errors = page.locator(".errors")
    expect(errors).to_have_count(1)
    assert "{" not in errors.inner_text()
