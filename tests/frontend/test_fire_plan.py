"""Fire plans in the browser, on one game: each side authors and locks its plan by taps (an item the form cannot
take is a message in words), the defender sees its plan on the table and rehearsed and checks the commitment;
after the game the other side checks it too (what each side's page is served, and the other side's refusal,
are tests/frontend/test_pages_http.py's)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import (
    PHONE,
    TABLET_LANDSCAPE,
    TABLET_PORTRAIT,
    assert_no_horizontal_scroll,
    screenshot,
    small_targets,
    unlabelled_controls,
)
from tests.frontend.games import bearer, join_by_api, seed_game

pytestmark = pytest.mark.browser


DESKTOP = {"width": 1920, "height": 1080}


def test_each_side_authors_and_locks_its_plan_by_taps_and_checks_the_others_after_the_game(
    new_page: Any,
) -> None:
    """The attacker: a plan by taps and typed grid references, a refusal in words, locked. The defender: the real
    table, the rehearsal, the layout at four sizes, locked and checked. After the game the attacker checks the
    defender's plan."""
    defender = new_page(TABLET_LANDSCAPE)
    game_id, created = seed_game(defender)  # as the referee (the API only), then seated as the defender
    codes = created["join_codes"]
    join_by_api(defender, codes["defender"])
    attacker = new_page(TABLET_LANDSCAPE)
    join_by_api(attacker, codes["attacker"])  # the join form's landing on the fire plan: test_accessibility

    attacker.goto(f"/games/{game_id}/fire-plan")
    # An item the form cannot take (an aiming point with no grid reference) is a message, not the API's JSON.
    attacker.get_by_role("button", name="Add to plan").click()
    errors = attacker.locator(".errors")
    expect(errors).to_have_count(1)
    assert "{" not in errors.inner_text()
    # An aiming point by tapping the small table, then a gas attack by typed grid reference.
    attacker.get_by_label("Battery or mortar").select_option(index=0)
    svg = attacker.locator("svg[data-grid-pick]")
    box = svg.bounding_box()
    svg.click(position={"x": box["width"] / 2, "y": box["height"] / 3})
    assert attacker.get_by_label("Along (cm)").input_value() != ""
    attacker.get_by_role("button", name="Add to plan").click()
    # The answer shows the plan's rehearsal: the first one starts its worker process (seconds on a busy machine).
    expect(attacker.locator("[data-plan-item]")).to_have_count(1, timeout=60_000)
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
    assert len(commitment.inner_text().strip()) == 64  # a SHA-256 in hex
    expect(attacker.get_by_role("button", name="Add to plan")).to_have_count(0)
    # What the other side's page shows of it (the commitment, none of the plan) is server HTML:
    # tests/frontend/test_pages_http.py::test_a_fire_plan_page_shows_the_other_side_its_commitment_never_its_plan.

    defender.goto(f"/games/{game_id}/fire-plan")
    pick = defender.locator("svg[data-grid-pick]")
    # The table under the grid: the side's own stands, the enemy's (public), terrain and both deployment zones.
    assert pick.locator(".fp-stand.own").count() > 20
    assert pick.locator(".fp-stand.enemy").count() > 20
    assert pick.locator(".fp-terrain").count() >= 5
    expect(pick.locator(".fp-zone")).to_have_count(2)
    expect(pick.locator(".fp-zone.own")).to_have_count(1)
    # Two batteries on the German start line, by grid reference from the British rear edge.
    for n, (along, turns) in enumerate((("60", "2"), ("100", "1")), start=1):
        defender.get_by_label("Battery or mortar").select_option(index=n - 1)
        defender.get_by_label("Along (cm)").fill(along)
        defender.get_by_label("Up (cm)").fill("168")
        defender.get_by_label("Turns of fire").fill(turns)
        defender.get_by_role("button", name="Add to plan").click()
        expect(defender.locator("[data-plan-item]")).to_have_count(n)
    # Already-planned items are drawn on the table, where the grid reference puts them (top of the picture:
    # the far side from the British edge).
    marks = defender.locator("svg[data-grid-pick] .fp-mark")
    expect(marks).to_have_count(2)
    svg_box = pick.bounding_box()
    mark_box = marks.first.bounding_box()
    assert mark_box["y"] < svg_box["y"] + svg_box["height"] * 0.15
    # The rehearsal: a heat layer per turn and a table of chances on German stands.
    rehearsal = defender.locator("[data-heat]")
    expect(rehearsal).to_be_visible()
    assert rehearsal.locator("[data-heat-turn='1'] circle").count() > 0
    expect(rehearsal.locator(".fp-turn[data-heat-turn='1'] tbody tr").first).to_be_visible()
    expect(rehearsal.locator(".fp-turn[data-heat-turn='2']")).to_be_hidden()
    rehearsal.locator("label.chip", has_text="2").click()
    expect(rehearsal.locator(".fp-turn[data-heat-turn='2']")).to_be_visible()
    expect(rehearsal.locator(".fp-turn[data-heat-turn='1']")).to_be_hidden()
    assert "Destroyed" in rehearsal.inner_text()
    # It says what it models: every modelling choice and the readings in force.
    rehearsal.locator(".fp-assumptions summary").click()
    told = rehearsal.locator(".fp-assumptions").inner_text()
    assert "deviates" in told and "artillery-two-actions" in told and "Method: exact enumeration" in told
    for viewport in (TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE, DESKTOP):
        defender.set_viewport_size(viewport)
        assert_no_horizontal_scroll(defender)
        if viewport is not DESKTOP:
            assert small_targets(defender) == []
        assert unlabelled_controls(defender) == []
        defender.evaluate("window.scrollTo(0, 0)")
        screenshot(defender, "fire-plan-table")
    defender.set_viewport_size(TABLET_LANDSCAPE)

    # The attacker's page shows none of it (server HTML): test_pages_http.py's
    # test_a_fire_plan_page_shows_the_other_side_its_commitment_never_its_plan.

    # Locked: the page explains the commitment and checks it through the verify endpoint.
    defender.once("dialog", lambda d: d.accept())
    defender.get_by_role("button", name="Lock the plan").click()
    verify = defender.locator("[data-verify]")
    expect(verify).to_be_visible()
    assert "fingerprint" in verify.inner_text()
    verify.get_by_role("button", name="Check it now").click()
    expect(verify.locator("[data-verify-result]")).to_contain_text("Match")
    verify.get_by_text("How to check the commitment by hand").click()
    expect(verify.get_by_text("Hash the leaves in pairs")).to_be_visible()
    assert small_targets(defender) == []
    screenshot(defender, "fire-plan-verify")

    # After the game the attacker can check the British plan too.
    version = defender.request.get(f"/api/v1/games/{game_id}/turn").json()["version"]
    finished = defender.request.post(
        f"/api/v1/games/{game_id}/finish", data={"version": version}, headers=bearer(created["referee_token"])
    )
    assert finished.status == 200, finished.text()
    attacker.set_viewport_size(TABLET_PORTRAIT)
    attacker.goto(f"/games/{game_id}/fire-plan?side=defender")
    after = attacker.locator("[data-verify]")
    after.get_by_role("button", name="Check it now").click()
    expect(after.locator("[data-verify-result]")).to_contain_text("Match")
    expect(attacker.locator("[data-heat]")).to_have_count(0)  # the rehearsal stays the side's own
    after.get_by_text("The plan on the table").click()
    expect(after.locator(".fp-mark")).to_have_count(2)
    screenshot(attacker, "fire-plan-verify")
