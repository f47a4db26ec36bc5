"""Night or Day chosen on a device (issue 92, app/pages/theme.py): a system set to light, Night chosen from the
page menu, and the page reloaded is still drawn at night (night.css linked for all media, its palette on)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.frontend.conftest import PHONE


def test_night_chosen_on_a_device_is_kept_across_a_reload(new_page: Any) -> None:
    page = new_page(PHONE)
    page.emulate_media(color_scheme="light")
    page.goto("/lookup")
    bg = "() => getComputedStyle(document.documentElement).getPropertyValue('--bg').trim()"
    day = page.evaluate(bg)
    page.locator("[data-page-menu] summary").click()
    page.get_by_role("button", name="Night", exact=True).click()
    page.reload()
    expect(page.locator("link[data-night]")).to_have_attribute("media", "all")
    assert page.evaluate(bg) != day
    page.locator("[data-page-menu] summary").click()
    expect(page.get_by_role("button", name="Night", exact=True)).to_have_attribute("aria-pressed", "true")
