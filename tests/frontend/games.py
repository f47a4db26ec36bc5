"""Helpers for the browser tests of game pages: create a game and join it through the pages themselves."""

from __future__ import annotations

import re
from typing import Any


def create_mons_game(page: Any) -> tuple[int, dict[str, str]]:
    """Create the Mons 1914 scenario from the start page; this page's device becomes the referee."""
    page.goto("/")
    page.get_by_role("button", name="Create game").click()
    page.wait_for_selector("[data-join-code]")
    codes = {
        el.get_attribute("data-join-code"): el.inner_text().strip()
        for el in page.locator("[data-join-code]").all()
    }
    href = page.get_by_role("link", name="Referee screen").get_attribute("href")
    match = re.search(r"/games/(\d+)/", href or "")
    assert match, href
    return int(match.group(1)), codes


def create_game_by_hand(page: Any, period: str) -> int:
    """Create an empty game of a period ("Set up by hand") from the start page; this device is the referee."""
    page.goto("/")
    page.locator("label.chip:has(input[name=scenario][value=''])").click()
    page.get_by_text("By hand: period and nations").click()
    page.locator(f"label.chip:has(input[name=period][value={period}])").click()
    page.get_by_role("button", name="Create game").click()
    page.wait_for_selector("[data-join-code]")
    href = page.get_by_role("link", name="Referee screen").get_attribute("href")
    match = re.search(r"/games/(\d+)/", href or "")
    assert match, href
    return int(match.group(1))


def join(page: Any, code: str) -> None:
    page.goto("/")
    page.get_by_label("Join code from your referee").fill(code)
    page.get_by_role("button", name="Join", exact=True).click()
    page.wait_for_load_state()


def csrf_header(page: Any) -> dict[str, str]:
    """The header this page's scripts send with an API write that its cookie authorises (the token is the
    page's `firestep_csrf` cookie, app/guard/security.py): for tests that call the API as the page's device."""
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "firestep_csrf")
    return {"x-csrftoken": token}
