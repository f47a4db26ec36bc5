"""The lookup page in a real browser at tablet sizes: resolutions by taps, odds, errors, weight."""

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


def tap_resolver(page: Any, name: str) -> None:
    page.get_by_role("navigation", name="What to resolve").get_by_role("link", name=name, exact=True).click()
    page.wait_for_selector("#lookup-form")


def tap_die(page: Any, die: int, face: int) -> None:
    page.locator(".die-pad").nth(die).locator("label.face", has_text=re.compile(f"^{face}$")).click()
    expect(page.locator(".htmx-request")).to_have_count(0)


def test_gas_wind_initial_speed_by_taps(new_page: Any) -> None:
    page = new_page(TABLET_LANDSCAPE)
    page.goto("/lookup?ruleset=flanders-fields&period=mid")
    tap_resolver(page, "Gas wind")
    # The text's check refuses a request with neither a direction nor a wind: shown as a message, not JSON.
    assert "give direction_deg" in page.locator(".errors").inner_text()
    page.fill("#f-direction-deg", "90")
    page.press("#f-direction-deg", "Enter")
    page.wait_for_selector(".die-pad")
    tap_die(page, 0, 3)
    tap_die(page, 1, 4)
    # "speed is determined by rolling 2D6 and adding 10": 3 + 4 + 10 = 17 cm.
    answer = page.locator("#answer")
    answer.wait_for()
    assert "17" in answer.locator(".outcome").inner_text()
    hit = page.locator(".odds-row.hit")
    assert hit.count() == 1
    # 3 + 4 is one of the six ways to make 7 with 2D6: 6/36 = 1/6.
    assert "(1/6)" in hit.inner_text()
    assert "17cm" in hit.inner_text().replace(" ", "")


@pytest.mark.parametrize("viewport", [TABLET_LANDSCAPE, TABLET_PORTRAIT], ids=["landscape", "portrait"])
def test_lookup_page_fits_the_tablet(new_page: Any, viewport: dict[str, int]) -> None:
    page = new_page(viewport)
    page.goto("/lookup?ruleset=flanders-fields&period=mid")
    tap_resolver(page, "Order roll")
    tap_die(page, 0, 5)
    expect(page.locator("#answer")).to_have_count(1)
    assert_no_horizontal_scroll(page)
    assert small_targets(page) == []
    assert unlabelled_controls(page) == []
    screenshot(page, "lookup")


def test_first_load_is_light_and_local(new_page: Any) -> None:
    page = new_page(TABLET_LANDSCAPE)
    sizes: dict[str, int] = {}

    def record(response: Any) -> None:
        body = response.body() if response.status < 300 else b""
        sizes[response.url] = len(body)

    page.on("response", record)
    page.goto("/lookup?ruleset=flanders-fields&period=mid", wait_until="networkidle")
    # Uncompressed bytes are an upper bound of the compressed transfer; the quality bar is 150 KB compressed.
    assert sum(sizes.values()) < 150_000, sizes
    assert any(u.endswith("/static/vendor/htmx.min.js") for u in sizes)


def test_order_roll_in_two_taps(new_page: Any) -> None:
    page = new_page(TABLET_LANDSCAPE)
    page.goto("/lookup?ruleset=flanders-fields&period=early")
    tap_resolver(page, "Order roll")  # tap 1; rifle company, experienced are the defaults
    expect(page.locator(".odds")).to_contain_text("Odds before rolling")
    tap_die(page, 0, 4)  # tap 2
    # 1914 playsheet, Battalion Rifle Companies: "2-4 = 1 Action".
    outcome = page.locator("#answer .outcome")
    expect(outcome).to_contain_text("1")
    expect(outcome).to_contain_text("Actions")
    # "1 = No Action", "2-4 = 1 Action", "5-6 = 2 Actions": odds 1/6, 1/2, 1/3, the rolled one marked.
    expect(page.locator(".odds-row.hit")).to_contain_text("(1/2)")
    expect(page.locator(".odds-row")).to_have_count(3)
    assert "ORDER SEQUENCE NOTES" in page.locator("#answer .sources").inner_text()


def test_shooting_by_taps(new_page: Any) -> None:
    page = new_page(TABLET_PORTRAIT)
    page.goto("/lookup?ruleset=flanders-fields&period=early")
    tap_resolver(page, "Shooting")
    # Each tap re-renders the panel: wait for it before the next, or a late answer undoes a later entry.
    page.locator("#f-firer label.chip", has_text=re.compile("^Infantry$")).click()
    expect(page.locator(".htmx-request")).to_have_count(0)
    page.locator("#f-cover label.chip", has_text=re.compile("^Soft$")).click()
    expect(page.locator(".htmx-request")).to_have_count(0)
    page.fill("#f-range-cm", "30")
    page.press("#f-range-cm", "Enter")
    expect(page.locator("#f-range-cm")).to_have_value("30")
    # Out of the early period's choices the rules refuse (no tanks in 1914), none is offered.
    expect(page.locator("#f-firer label.chip", has_text="Heavy tank")).to_have_count(0)
    tap_die(page, 0, 5)
    # 1914 playsheet Firing Table, "Infantry (Max 45)  3 4 5 6 ...": soft cover suppress on 5, kill on 6.
    expect(page.locator("#answer .outcome")).to_have_text("Suppressed")
    expect(page.locator(".odds-row.hit")).to_contain_text("(1/6)")
    assert "Firing Table" in page.locator("#answer .sources").inner_text()
    assert_no_horizontal_scroll(page)


def test_roll_for_me(new_page: Any) -> None:
    page = new_page(TABLET_LANDSCAPE)
    page.goto("/lookup/flanders-fields/shooting?period=early")
    page.get_by_role("button", name="Roll for me").click()
    expect(page.locator("#answer .rolled")).to_contain_text("rolled by firestep")
    face = page.locator(".die-pad input:checked")
    expect(face).to_have_count(1)
    # The answer's die is the face now marked on the pad, and the odds mark one outcome as rolled.
    assert page.locator("#answer .rolled").inner_text().startswith(f"Dice {face.get_attribute('value')}")
    expect(page.locator(".odds-row.hit")).to_have_count(1)


def test_enter_in_a_field_updates_and_never_rolls(new_page: Any) -> None:
    page = new_page(TABLET_LANDSCAPE)
    page.goto("/lookup/flanders-fields/shooting?period=early")
    page.fill("#f-range-cm", "30")
    page.press("#f-range-cm", "Enter")
    expect(page.locator(".htmx-request")).to_have_count(0)
    expect(page.locator("#f-range-cm")).to_have_value("30")
    # The form's first submit button is "Roll for me": Enter must not press it.
    expect(page.locator("#answer")).to_have_count(0)
    expect(page.locator(".die-pad input:checked")).to_have_count(0)
