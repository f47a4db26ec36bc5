"""A refusal a browser opens itself is a page axe-core passes (session 23's newcomer pass: an unknown address, or a
player opening the organiser's sheet, was raw JSON with no title and no language), at the four sizes."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.axe import serious_violations
from tests.frontend.conftest import PHONE, REFEREE_SCREEN, TABLET_LANDSCAPE, TABLET_PORTRAIT, screenshot

pytestmark = pytest.mark.browser


def test_a_wrong_address_is_a_page_axe_passes(new_page: Any) -> None:
    page = new_page(TABLET_LANDSCAPE)
    answer = page.goto("/games/999999/no-such-page")
    assert answer is not None and answer.status == 404
    expect(page.get_by_role("heading", name="Nothing at this address")).to_be_visible()
    expect(page.locator("main")).to_contain_text("Nothing is at this address: check the link.")
    for size in (TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE, REFEREE_SCREEN):
        page.set_viewport_size(size)
        screenshot(page, "refusal-page")
        assert serious_violations(page) == [], size
