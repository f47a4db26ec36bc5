"""What a secure context gives a game page (issue 28), beyond the one offline test of the browser tier
(test_club_secure_context.py: a seat's board and map kept, a tap made while the server is down lands once):
a device that changes seat is never served the other seat's copies, nor sends a tap made as the other seat;
the not-live note at every size; Web Share of a lookup answer; the page menu at every size (its links are
test_print_menu_http.py's).

http://127.0.0.1 is a secure context, as the club's HTTPS is. The laptop out of reach is the browser context
set offline here (the server stopped and started again is test_club_secure_context.py's)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.axe import serious_violations
from tests.frontend.conftest import (
    TABLET_LANDSCAPE,
    assert_no_horizontal_scroll,
    page_until,
    screenshot,
    small_targets,
)
from tests.frontend.games import join, seed_game
from tests.frontend.test_accessibility import SIZES
from tests.frontend.test_offline_taps import add_marker_button, api, marker_events, start

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]


@pytest.fixture
def device(new_page: Any) -> Any:
    """One tablet (a browser context of its own) on the module's server."""
    page = new_page(TABLET_LANDSCAPE)
    page.set_default_timeout(30_000)
    page.on("dialog", lambda dialog: dialog.dismiss())
    return page


def controlled(page: Any, url: str) -> None:
    """Open `url` under the service worker (the first visit installs it; it then takes the page over)."""
    page.goto(url)
    # Installing fetches the shell while the page loads: ~1 s alone, over 15 s once on the loaded 2-core CI
    # machine. How long is not what these tests are about.
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=60_000)
    assert page.evaluate("window.isSecureContext")


def seat_caches(page: Any) -> dict[str, list[str]]:
    """The worker's seat caches on this device, each with the paths it holds."""
    found: dict[str, list[str]] = page.evaluate(
        """async () => {
            const out = {};
            for (const name of await caches.keys()) {
                if (!name.startsWith('firestep-seat:')) continue;
                const cache = await caches.open(name);
                out[name.slice('firestep-seat:'.length)] = (await cache.keys()).map((r) => new URL(r.url).pathname);
            }
            return out;
        }"""
    )
    return found


def wait_kept(page: Any, *paths: str) -> str:
    """Wait until the one seat cache holds these paths; its seat name."""
    kept = page_until(
        page,
        """async (paths) => {
            const names = (await caches.keys()).filter((name) => name.startsWith('firestep-seat:'));
            if (names.length !== 1) return null;
            const held = (await (await caches.open(names[0])).keys()).map((r) => new URL(r.url).pathname);
            return paths.every((path) => held.includes(path)) && names[0].slice('firestep-seat:'.length);
        }""",
        list(paths),
    )
    if not kept:
        raise AssertionError(f"not kept: {paths} in {seat_caches(page)}")
    return str(kept)


def expect_not_live(page: Any, before: float) -> None:
    """The page says it is not live, with the time of a copy made after `before` (a Unix time in ms)."""
    note = page.locator("[data-not-live]")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Not live")
    assert page.locator("[data-not-live-time]").inner_text().strip()
    saved = float(note.get_attribute("data-saved-at") or 0)
    assert before <= saved <= time.time() * 1000


def test_after_changing_seat_the_other_seats_copies_are_never_served(device: Any) -> None:
    page = device
    game_id, made = seed_game(page)
    codes = made["join_codes"]
    controlled(page, "/")  # installs the worker: the pages after it are its to keep
    controlled(page, f"/games/{game_id}/referee")
    controlled(page, f"/games/{game_id}/map")
    controlled(page, f"/games/{game_id}/fire-plan")
    referee_seat = wait_kept(page, f"/games/{game_id}/referee", f"/games/{game_id}/fire-plan")
    assert referee_seat.startswith(f"{game_id}-referee-")

    # The same tablet becomes the attacker (it confirms giving up the referee's seat).
    join(page, codes["attacker"])
    page.get_by_role("button", name="Switch to the attacker").click()
    page.wait_for_url(f"**/games/{game_id}/fire-plan")
    attacker_seat = wait_kept(page, f"/games/{game_id}/fire-plan")
    assert attacker_seat.startswith(f"{game_id}-attacker-")
    assert list(seat_caches(page)) == [attacker_seat]
    # No copy of the referee's seat is left anywhere on the device.
    leftovers = page.evaluate(
        """async (game) => {
            const out = [];
            for (const name of await caches.keys()) {
                for (const r of await (await caches.open(name)).keys()) {
                    if (new URL(r.url).pathname.startsWith(`/games/${game}/`)) {
                        const html = await (await caches.open(name)).match(r).then((x) => x.text());
                        if (html.includes('content="' + `${game}-referee-`)) out.push(name + ' ' + r.url);
                    }
                }
            }
            return out;
        }""",
        game_id,
    )
    assert leftovers == []

    page.context.set_offline(True)  # the laptop out of reach (a real stop: test_club_secure_context.py)
    # The referee's board and map were kept for the referee's seat: the attacker is not shown them.
    for path in ("referee", "map"):
        page.goto(f"/games/{game_id}/{path}")
        expect(page.get_by_role("heading", name="The server cannot be reached")).to_be_visible()
        expect(page.locator("#board, [data-map-page]")).to_have_count(0)
    # The attacker's own fire plan is there, not live, and names the attacker's seat.
    page.goto(f"/games/{game_id}/fire-plan")
    expect(page.locator("[data-not-live]")).to_be_visible()
    assert page.locator('meta[name="firestep-seat"]').get_attribute("content") == attacker_seat


def test_a_lookup_answer_is_shared_where_the_device_offers_it(new_page: Any) -> None:
    url = "/lookup/flanders-fields/order-roll?period=mid"
    # Chromium on Linux has no share sheet: the button stays hidden.
    page = new_page(TABLET_LANDSCAPE, has_touch=False)
    page.goto(url)
    page.locator(".die-pad label.face", has_text="4").first.click()
    expect(page.locator("#answer .outcome")).to_have_text("1 action")
    assert not page.evaluate("typeof navigator.share === 'function'")
    expect(page.locator("[data-share]")).to_be_hidden()

    # A tablet that has one (its share sheet stood in for by the page's navigator.share).
    page = new_page(TABLET_LANDSCAPE, has_touch=False)
    page.context.add_init_script(
        "navigator.share = (data) => { window.shared = data; return Promise.resolve(); };"
    )
    page.goto(url)
    page.locator(".die-pad label.face", has_text="4").first.click()
    expect(page.locator("#answer .outcome")).to_have_text("1 action")
    share = page.get_by_role("button", name="Share")
    expect(share).to_be_visible()
    share.click()
    shared = page.evaluate("window.shared")
    assert shared["title"] == "Order roll"
    assert shared["text"].startswith("Order roll: 1 action. Dice 4")
    assert "Rules:" in shared["text"]


def test_the_page_menu_at_every_size(device: Any) -> None:
    # One page, resized: the menu of the map and of the game's lookup at each size the tests look at.
    page = device
    game_id, _ = seed_game(page)
    found: list[str] = []
    for url, name in ((f"/games/{game_id}/map", "map-menu"), (f"/lookup?game={game_id}", "lookup-menu")):
        page.set_viewport_size(TABLET_LANDSCAPE)
        page.goto(url)
        page.get_by_text("Menu", exact=True).click()
        expect(page.locator("[data-print-links]")).to_be_visible()
        for size in SIZES:
            page.set_viewport_size(size)
            menu = page.locator(".page-menu-body").bounding_box()
            assert menu and menu["x"] >= 0 and menu["x"] + menu["width"] <= size["width"], (name, size)
            assert not small_targets(page), small_targets(page)
            found += [f"{name} at {size['width']}x{size['height']}: {v}" for v in serious_violations(page)]
            screenshot(page, name)
    assert not found, "\n".join(found)


def test_a_tap_kept_for_one_seat_is_never_sent_as_another(device: Any, server_url: str) -> None:
    page = device
    game_id, made = seed_game(page)
    codes = made["join_codes"]
    http = api(page, server_url)
    start(http, game_id)
    page.goto(f"/games/{game_id}/referee")
    button, unit_id = add_marker_button(page)
    # The referee's tap gets no answer (the wifi drops for this request): kept on the tablet as the referee's.
    page.route("**/markers", lambda route: route.abort())
    button.click()
    expect(page.locator("#net-status")).to_contain_text("1 tap kept on this device")
    kept = page.evaluate("JSON.parse(localStorage.getItem('firestep-outbox'))")
    assert [item["seat"] for item in kept] == [
        page.locator('meta[name="firestep-seat"]').get_attribute("content")
    ]

    # The tablet becomes the attacker before the tap went: the attacker's page drops it, and says so.
    join(page, codes["attacker"])
    assert page.evaluate("window.firestepOutbox.waiting()") == 1  # the start page has no seat: it waits
    page.get_by_role("button", name="Switch to the attacker").click()
    page.wait_for_url(f"**/games/{game_id}/map")
    expect(page.locator("#net-status")).to_contain_text(
        "1 tap made as another seat of this game was not sent"
    )
    assert page.evaluate("window.firestepOutbox.waiting()") == 0
    page.unroute("**/markers")
    page.evaluate(
        "window.firestepOutbox.flush()"
    )  # a try now, with the connection back: nothing left to send
    assert marker_events(http, game_id, unit_id) == 0
    http.close()


def test_a_page_of_another_seat_drops_the_copies_of_the_seat_before(device: Any) -> None:
    # No join request in between: the device creates a second game (its referee too) and opens its board.
    # (Both games made through the API from outside the page: no request of the page may seat it.)
    page = device
    first, _ = seed_game(page)
    controlled(page, f"/games/{first}/referee")
    controlled(page, f"/games/{first}/referee")
    assert wait_kept(page, f"/games/{first}/referee").startswith(f"{first}-referee-")
    second, _ = seed_game(page)
    controlled(page, f"/games/{second}/referee")
    assert wait_kept(page, f"/games/{second}/referee").startswith(f"{second}-referee-")
    assert len(seat_caches(page)) == 1

    page.context.set_offline(True)
    page.goto(f"/games/{first}/referee")
    expect(page.get_by_role("heading", name="The server cannot be reached")).to_be_visible()
    page.goto(f"/games/{second}/referee")
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("[data-not-live]")).to_be_visible()
    # The not-live board at every size: no sideways scroll, axe-core.
    found: list[str] = []
    for size in SIZES:
        page.set_viewport_size(size)
        assert_no_horizontal_scroll(page)
        found += [f"not live at {size['width']}x{size['height']}: {v}" for v in serious_violations(page)]
        screenshot(page, "referee-not-live")
    assert not found, "\n".join(found)
