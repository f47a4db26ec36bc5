"""A seat's lookup page in a game hears the referee change a reading (issue 69, the newcomer pass: only the map's
seats were told): what Chromium adds to tests/app/games/test_lookup_readings_in_game.py is the stream heard and
the open answer asked again by the reading now played, naming it (issue 89: it was marked, yet kept its old
answer), axe-core clean."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.axe import serious_violations
from tests.frontend.conftest import PHONE, assert_no_horizontal_scroll, htmx_idle, screenshot
from tests.frontend.games import bearer, join_by_api, seed_game
from tests.frontend.test_lookup import tap_die

pytestmark = pytest.mark.browser


def test_a_sides_lookup_marks_its_answer_when_the_referee_changes_the_reading(new_page: Any) -> None:
    page = new_page(PHONE)
    game_id, created = seed_game(page)  # Mons 1914: early war
    join_by_api(page, created["join_codes"]["attacker"])
    page.goto(f"/lookup/flanders-fields/shooting?game={game_id}")
    # Raw infantry shooting at a stand in the open, 10 cm away, rolling a 3: decided by the raw troops' reading.
    page.locator("#f-firer label.chip", has_text=re.compile("^Infantry$")).click()
    htmx_idle(page)
    page.fill("#f-range-cm", "10")
    page.press("#f-range-cm", "Enter")
    htmx_idle(page)
    page.locator("label.toggle", has_text="raw").click()
    htmx_idle(page)
    tap_die(page, 0, 3)
    line = page.locator("#answer .reading-used")
    expect(line).to_contain_text("Reading: Raw troops shooting: Playsheet")
    expect(page.locator("#answer .outcome")).to_have_text("No effect")
    api = f"/api/v1/games/{game_id}"
    referee = bearer(created["referee_token"])
    version = page.request.get(api, headers=referee).json()["version"]
    played = {"version": version, "variants": {"raw-firer-penalty": "main-text"}}
    assert page.request.patch(api, headers=referee, data=played).status == 200  # on the referee's device
    expect(page.locator(".net-status")).to_contain_text(
        "The referee now plays Raw troops shooting: main text."
    )
    # Issue 89: marked, it still read "No effect"; the open answer is asked again by the reading now played.
    expect(page.locator("#answer .outcome")).to_have_text("Suppressed")
    expect(page.locator("#answer [data-reasked]")).to_have_text(
        "Answered again by the reading the referee now plays: Raw troops shooting: main text."
    )
    expect(line).to_contain_text("Reading: Raw troops shooting: Main text")
    expect(line).not_to_have_attribute("data-stale", re.compile(".*"))
    expect(page.locator("#answer .rolled")).to_contain_text("Dice 3")  # the same die, not rolled again
    # Read at the four sizes and by axe-core at each when written (clean); the suite reads the phone's.
    line.scroll_into_view_if_needed()
    assert not serious_violations(page), serious_violations(page)
    assert_no_horizontal_scroll(page)
    screenshot(page, "lookup-reading-stale")
