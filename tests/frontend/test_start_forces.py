"""The start page: a game with forces from the organisation tables, by taps on a landscape tablet (the way to
the Firestorm campaigns is test_start_page_http's)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from rules.flanders_fields.book.organisation import build_force
from tests.frontend.conftest import TABLET_LANDSCAPE, assert_no_horizontal_scroll, screenshot, small_targets

pytestmark = pytest.mark.browser


def visible_options(select: Any) -> list[str]:
    return list(select.evaluate("s => [...s.options].filter(o => !o.disabled).map(o => o.value)"))


def test_game_from_organisation_tables_by_taps(new_page: Any) -> None:
    page = new_page(TABLET_LANDSCAPE)
    page.goto("/")
    page.get_by_text("Organisation tables: a table and quality per side").tap()
    page.locator("#org-forces label.chip", has_text="Western Front mid 1917 to end of war").tap()
    attacker_table = page.get_by_label("Attacker organisation table")
    defender_table = page.get_by_label("Defender organisation table")
    # Filtered by the table metadata: German tables drawn for the late war, British likewise.
    assert visible_options(attacker_table) == ["de-1916", "de-storm-battalion"]
    assert visible_options(defender_table) == [
        "gb-1917",
        "gb-cavalry-regiment",
        "gb-tank-battalion",
    ]
    # Touching the tables picks that way of setting up.
    expect(page.locator("input[name=scenario][value=tables]")).to_be_checked()
    attacker_table.select_option("de-storm-battalion")
    # "Storm Battalion" troops are graded storm and nothing else.
    assert visible_options(page.get_by_label("Attacker quality")) == ["", "storm"]
    defender_table.select_option("gb-tank-battalion")
    # TANK CORPS: raw or experienced.
    assert visible_options(page.get_by_label("Defender quality")) == ["", "raw", "experienced"]
    page.get_by_label("Defender quality").select_option("experienced")
    assert_no_horizontal_scroll(page)
    assert small_targets(page) == []
    screenshot(page, "start-organisation-tables")

    page.get_by_role("button", name="Create game").tap()
    page.wait_for_selector("[data-join-code]")
    page.get_by_role("link", name="Referee screen").tap()
    page.wait_for_url(re.compile(r"/games/\d+/referee"))
    attacker = page.locator("section.side[aria-label='Attacker']")
    defender = page.locator("section.side[aria-label='Defender']")
    # Each battalion is a block headed by its name (the full force-tree path on hover and to screen readers).
    expect(attacker.locator(".block .block-name").first).to_have_attribute(
        "title", re.compile("Storm Battalion")
    )
    expect(defender.locator(".block .block-name").first).to_have_attribute(
        "title", re.compile("Tank Battalion")
    )
    # Every stand the tables build is listed, placed on the table (no "off table" badge).
    for side, table in ((attacker, "de-storm-battalion"), (defender, "gb-tank-battalion")):
        expect(side.locator("li.stand")).to_have_count(len(build_force(table).stands()))
        expect(side.locator("li.stand .badge.dim")).to_have_count(0)
    screenshot(page, "referee-organisation-tables")
