"""The Content-Security-Policy in a real browser: a player's pages and their scripts (htmx, the fetch-based
modules, the live stream) run with no policy violation, and their writes carry the CSRF token. (The referee's
pages, the start page's form and the board's taps: test_screens.py, on its way through every page.)"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import TABLET_LANDSCAPE
from tests.frontend.games import join
from tests.frontend.test_map import start_game

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


def test_a_players_pages_run_without_a_policy_violation(new_page: Any) -> None:
    player, errors, writes = watched(new_page(TABLET_LANDSCAPE))
    # The game made through the API, this device not seated by it: it joins by the start page's form.
    made = player.request.post("/api/v1/games", data={"scenario": "mons-1914"})
    assert made.status == 201, made.text()
    game_id, codes = made.json()["game"]["id"], made.json()["join_codes"]

    # A player's fire plan during set-up (grid-pick.js and the htmx form).
    join(player, codes["attacker"])
    expect(player.locator("#plan")).to_have_count(1)
    assert violations(player) == []

    # The table map in play (table-map.js, its JSON data block).
    start_game(player, game_id, made.json()["referee_token"])
    player.goto(f"/games/{game_id}/map")
    expect(player.locator("svg[data-table-map][data-loaded]")).to_have_count(1)
    assert violations(player) == []

    # The lookup page (htmx posts on every change).
    player.goto("/lookup/flanders-fields/shooting?period=early")
    with player.expect_response(lambda r: r.request.method == "POST") as looked_up:
        player.locator("#f-firer label.chip").nth(1).click()
    assert looked_up.value.status == 200
    assert violations(player) == []

    # The campaign pages.
    player.goto("/campaigns")
    # POST/redirect/GET: the new campaign's page, its codes shown once, is the redirect's (7bfaa4c5).
    with player.expect_response(lambda r: r.url.endswith("/created")) as created:
        player.get_by_role("button", name="Create campaign").click()
    assert created.value.status == 200
    player.wait_for_load_state()
    assert violations(player) == []

    assert errors == [], errors
    assert all(status < 400 for _, status in writes), writes
