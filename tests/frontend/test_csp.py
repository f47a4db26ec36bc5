"""The Content-Security-Policy in a real browser: the main pages and their scripts (htmx, the fetch-based
modules, the live stream) run with no policy violation, and their writes carry the CSRF token."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import REFEREE_SCREEN, TABLET_LANDSCAPE
from tests.frontend.games import create_mons_game, join

pytestmark = pytest.mark.browser

# Registered before any page script runs (Playwright injects it through the DevTools protocol, which the
# page's policy does not govern), so every violation of every page is recorded.
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


def watched(page: Any) -> tuple[Any, list[str], list[tuple[str, int]]]:
    """The page, its console errors, and every write it makes with the answer's status."""
    errors: list[str] = []
    writes: list[tuple[str, int]] = []
    page.add_init_script(RECORD_VIOLATIONS)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("response", lambda r: writes.append((r.url, r.status)) if r.request.method != "GET" else None)
    return page, errors, writes


def violations(page: Any) -> list[str]:
    found: list[str] = page.evaluate("window.__violations")
    return found


def test_main_pages_run_without_a_policy_violation(new_page: Any) -> None:
    referee, referee_errors, referee_writes = watched(new_page(REFEREE_SCREEN))
    game_id, codes = create_mons_game(referee)
    assert violations(referee) == []

    # A player's fire plan during set-up (grid-pick.js and the htmx form).
    player, player_errors, player_writes = watched(new_page(TABLET_LANDSCAPE))
    join(player, codes["attacker"])
    expect(player.locator("#plan")).to_have_count(1)
    assert violations(player) == []

    # The referee screen: a marker by tap goes through api-action.js (fetch with the token header).
    referee.goto(f"/games/{game_id}/referee")
    expect(referee.locator("[data-live-stream][data-live-connected]")).to_have_count(1)
    referee.get_by_role("button", name="Start the game").click()
    expect(referee.locator(".turn-step")).to_contain_text("Support orders")
    with referee.expect_response(lambda r: r.url.endswith("/markers")) as marker:
        referee.locator("button[aria-label^='Add a suppression marker']").first.click()
    assert marker.value.status == 200
    assert violations(referee) == []

    # The table map (table-map.js, its JSON data block) and the lookup page (htmx posts on every change).
    referee.goto(f"/games/{game_id}/map")
    expect(referee.locator("svg[data-table-map]")).to_have_count(1)
    assert violations(referee) == []
    referee.goto("/lookup/flanders-fields/shooting?period=early")
    with referee.expect_response(lambda r: r.request.method == "POST") as looked_up:
        referee.locator("#f-firer label.chip").nth(1).click()
    assert looked_up.value.status == 200
    assert violations(referee) == []

    # The campaign pages.
    player.goto("/campaigns")
    with player.expect_response(lambda r: r.url.endswith("/campaigns/new")) as created:
        player.get_by_role("button", name="Create campaign").click()
    assert created.value.status == 200
    player.wait_for_load_state()
    assert violations(player) == []

    assert referee_errors == [] and player_errors == [], (referee_errors, player_errors)
    writes = referee_writes + player_writes
    assert all(status < 400 for _, status in writes), writes
