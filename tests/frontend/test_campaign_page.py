"""The Firestorm campaign in the browser: the organiser starts one and reads out the codes, the players join
on their own tablets and play the first battle of turn 1 by taps."""

from __future__ import annotations

import re
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

pytestmark = pytest.mark.browser


def start_campaign(page: Any) -> tuple[int, dict[str, str]]:
    page.goto("/campaigns")
    expect(page.get_by_role("heading", name="New Firestorm campaign")).to_be_visible()
    page.get_by_label("Name").fill("Club campaign")
    page.get_by_role("button", name="Create campaign").click()
    page.wait_for_selector("[data-join-code]")
    codes = {
        el.get_attribute("data-join-code"): el.inner_text().strip()
        for el in page.locator("[data-join-code]").all()
    }
    assert set(codes) == {"german", "bef"} and all(
        re.fullmatch(r"[A-Z2-9]{5}-[A-Z2-9]{5}", c) for c in codes.values()
    )
    href = page.get_by_role("link", name="Open the campaign").get_attribute("href")
    match = re.fullmatch(r"/campaigns/(\d+)", href or "")
    assert match, href
    return int(match.group(1)), codes


def join(page: Any, code: str) -> None:
    page.goto("/campaigns")
    page.get_by_label("Join code from your organiser").fill(code)
    page.get_by_role("button", name="Join", exact=True).click()
    page.wait_for_selector("#campaign-board")


def check_fit(page: Any) -> None:
    assert_no_horizontal_scroll(page)
    assert small_targets(page) == []
    assert unlabelled_controls(page) == []


def test_start_join_and_play_a_battle_by_taps(new_page: Any) -> None:
    organiser = new_page(TABLET_LANDSCAPE)
    campaign_id, codes = start_campaign(organiser)
    check_fit(organiser)
    screenshot(organiser, "campaign-created")

    german = new_page(TABLET_LANDSCAPE)
    join(german, codes["german"])
    assert german.url.endswith(f"/campaigns/{campaign_id}")
    board = german.locator("#campaign-board")
    # "Initial Deployment": the map starts with A-1 .. C-4 and B-5 British, C-5 and the D and E areas German.
    expect(german.locator("[data-area]")).to_have_count(20)
    expect(german.locator("[data-area='C-3']")).to_have_attribute("data-control", "bef")
    expect(german.locator("[data-area='D-2']")).to_have_attribute("data-control", "german")
    expect(german.locator("[data-battles-left]")).to_contain_text("4 left")  # "First turn has 4"
    # Turn 1: the German player attacks automatically, so the first step is a tap with no dice.
    german.get_by_role("button", name="Begin battle 1").click()
    expect(board).to_have_attribute("data-phase", "attack")
    # The first fixed attack: D-2 into C-3. Tap two troops, then the arrow.
    arrow = german.get_by_role("form", name="Attack C-3 from D-2")
    arrow.locator("label.chip", has_text="Group I Skopnik").click()
    arrow.locator("label.chip", has_text="48 RIR").click()
    arrow.get_by_role("button", name="Attack C-3 from D-2").click()
    expect(board).to_have_attribute("data-phase", "defend")
    expect(german.locator("[data-area='C-3']")).to_have_class(re.compile("battle-to"))
    expect(german.locator("[data-action='defend']")).to_contain_text("Waiting for the BEF player")
    check_fit(german)
    screenshot(german, "campaign")

    bef = new_page(TABLET_PORTRAIT)
    join(bef, codes["bef"])
    bef.locator("[data-action='defend'] label.chip", has_text="25 Bde").click()
    bef.get_by_role("button", name="Defend").click()
    bef_board = bef.locator("#campaign-board")
    expect(bef_board).to_have_attribute("data-phase", "resolve")
    # Resolving without a die tapped is a sentence, not JSON.
    bef.get_by_role("button", name="Resolve", exact=True).click()
    expect(bef.locator(".errors")).to_contain_text("tap a face on every die")
    assert "{" not in bef.locator(".errors").inner_text()
    bef.get_by_label("Attacker die: 6").check()
    bef.get_by_label("Defender die: 1").check()
    bef.get_by_role("button", name="Resolve", exact=True).click()
    expect(bef_board).not_to_have_attribute("data-phase", "resolve")
    entry = bef.locator(".cmp-log li").first
    expect(entry).to_contain_text("dice 6, 1")
    check_fit(bef)
    screenshot(bef, "campaign")

    # The German tablet sees the battle's outcome on reloading.
    german.reload()
    expect(german.locator("#campaign-board")).not_to_have_attribute("data-phase", "resolve")
    screenshot(german, "campaign-after-battle")
