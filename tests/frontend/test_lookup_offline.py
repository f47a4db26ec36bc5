"""The lookup without a server: after one visit online, the service worker holds the page and the printed
playsheet tables of the remembered period; offline, the page says so plainly and shows the table the chosen
resolver reads, and the answers already on screen stay."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import TABLET_PORTRAIT, page_until, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]

SHEET = "/lookup/sheets/flanders-fields/mid"


def wait_until_kept(page: Any, *urls: str) -> None:
    """The service worker has stored these URLs (what lookup-offline.js asks it to keep), bodies and all: a
    `match` can answer while a `put` is still writing the body, which going offline then aborts, so the test
    reads each body to its end."""
    kept = page_until(
        page,
        """async (urls) => {
            const reg = await navigator.serviceWorker.getRegistration();
            if (!reg || !reg.active || !navigator.serviceWorker.controller) return false;
            for (const u of urls) {
                const hit = await caches.match(u);
                if (!hit || (await hit.text()).length < 200) return false;  // the whole body, as stored
            }
            return true;
        }""",
        list(urls),
        timeout_ms=60_000,  # the worker installs first: over 15 s once on the loaded 2-core CI machine
    )
    assert kept, f"the service worker did not keep {urls}"


def test_offline_shows_the_playsheet_table_of_the_remembered_period(new_page: Any) -> None:
    page = new_page(TABLET_PORTRAIT)
    page.goto("/lookup/flanders-fields/order-roll?period=mid")
    page.locator(".die-pad label.face", has_text=re.compile("^4$")).click()
    expect(page.locator("#answer .outcome")).to_have_text("1 action")
    wait_until_kept(page, SHEET, "/lookup")
    # ... and the page's own copy of the sheet in the device's storage (no service worker on plain http).
    page.wait_for_function(
        "(url) => !!localStorage.getItem('firestep-sheet:' + url)", arg=SHEET, timeout=15_000
    )

    page.context.set_offline(True)
    # A tap with no server: said plainly, the table shown, the earlier answer still there.
    page.locator(".die-pad label.face", has_text=re.compile("^6$")).click()
    sheet = page.locator("[data-offline-sheet]")
    expect(sheet).to_be_visible()
    expect(sheet.locator(".offline-note")).to_contain_text("The server cannot be reached")
    expect(sheet.locator(".offline-note")).not_to_contain_text("no copy")
    # The order roll reads the mid-war playsheet's action tables: that section, and only that one.
    expect(sheet.locator("[data-sheet-section]")).to_have_count(1)
    section = sheet.locator("[data-sheet-section='actions']")
    expect(section).to_contain_text("Battalion Rifle Companies")
    expect(section.locator("table").first).to_be_visible()
    expect(page.locator("#answer .outcome")).to_have_text("1 action")
    screenshot(page, "lookup-offline")

    page.context.set_offline(False)
