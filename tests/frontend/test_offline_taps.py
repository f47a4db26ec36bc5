"""Taps that survive a bad connection (outbox.js with app/guard/idempotency.py), and feedback that stays
(net-status.js): a tap whose answer was lost, or one made with the device offline, is applied exactly once (a
tap made while the server is down: test_club_secure_context.py, the browser tier's one offline test); a
refusal stays on screen in plain words, wherever the page is scrolled, until dismissed, and a kept tap refused
once sent is told so in the place of its "kept" notice."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import TABLET_LANDSCAPE, TABLET_PORTRAIT
from tests.frontend.games import bearer, join_by_api, seed_game

pytestmark = pytest.mark.browser

ADD_MARKER = (
    "li.stand[data-side='defender']:not(.killed) button[data-api$='/markers'][data-body='{\"delta\": 1}']"
)
# The board may fold battalions away: the blocks around a control opened.
OPEN_AROUND = (
    "el => { for (let d = el.closest('details'); d; d = d.parentElement.closest('details')) d.open = true; }"
)


def api(page: Any, server: str) -> httpx.Client:
    """The API as this page's device, from the test (not through the browser, which may be offline)."""
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "firestep_token")
    return httpx.Client(base_url=server, headers={"Authorization": f"Bearer {token}"}, timeout=10)


def start(http: httpx.Client, game_id: int) -> None:
    version = http.get(f"/api/v1/games/{game_id}/turn").json()["version"]
    assert http.post(f"/api/v1/games/{game_id}/turn/advance", json={"version": version}).status_code == 200


def marker_events(http: httpx.Client, game_id: int, unit_id: int) -> int:
    events = http.get(f"/api/v1/games/{game_id}/events").json()
    return sum(1 for e in events if e["kind"] == "marker" and e["payload"].get("unit_id") == unit_id)


def suppression(http: httpx.Client, game_id: int, unit_id: int) -> int:
    units = http.get(f"/api/v1/games/{game_id}/units").json()
    return int(next(u for u in units if u["id"] == unit_id)["suppression"])


def add_marker_button(page: Any) -> tuple[Any, int]:
    button = page.locator(ADD_MARKER).first
    button.evaluate(OPEN_AROUND)
    unit = re.search(r"/units/(\d+)/markers", button.get_attribute("data-api") or "")
    assert unit
    return button, int(unit.group(1))


def settle_on(page: Any, http: httpx.Client, game_id: int, unit_id: int, events: int) -> None:
    """Once the page has said its kept tap was sent: nothing is left to send (a tap leaves the outbox only once
    answered, so nothing of it can arrive later), and the log holds `events` marker events for the unit."""
    assert page.evaluate("window.firestepOutbox.waiting()") == 0
    assert marker_events(http, game_id, unit_id) == events


def test_a_tap_whose_answer_was_lost_survives_a_reload_and_acts_once(new_page: Any, server_url: str) -> None:
    page = new_page(TABLET_LANDSCAPE)
    page.on("dialog", lambda dialog: dialog.dismiss())
    game_id, _ = seed_game(page)
    http = api(page, server_url)
    start(http, game_id)
    page.goto(f"/games/{game_id}/referee")
    button, unit_id = add_marker_button(page)

    # The request reaches the server, which acts; its answer never reaches the tablet (the wifi dropped).
    def lose_the_answer(route: Any) -> None:
        route.fetch()
        route.abort()

    page.route("**/markers", lose_the_answer)
    button.click()
    expect(page.locator("#net-status")).to_contain_text("kept on this device")
    assert marker_events(http, game_id, unit_id) == 1
    page.unroute("**/markers")

    # The tap is kept across a reload and sent again with its key: the server answers it without acting twice.
    page.reload()
    expect(page.locator("#net-status")).to_contain_text("1 tap made without a connection was sent")
    settle_on(page, http, game_id, unit_id, 1)
    assert suppression(http, game_id, unit_id) == 1

    # A tap made with the device offline is kept, and sent once as soon as the connection is back (the
    # browser's online event, not the outbox's next try ten seconds on).
    button, unit_id = add_marker_button(page)
    events, suppressed = marker_events(http, game_id, unit_id), suppression(http, game_id, unit_id)
    page.context.set_offline(True)
    button.click()
    toast = page.locator("#net-status")
    expect(toast).to_contain_text("1 tap kept on this device")
    assert marker_events(http, game_id, unit_id) == events
    page.context.set_offline(False)
    expect(toast).to_contain_text("Connection back: 1 tap made without a connection was sent.")
    settle_on(page, http, game_id, unit_id, events + 1)
    assert suppression(http, game_id, unit_id) == suppressed + 1
    http.close()


def test_a_refusal_stays_in_plain_words_until_dismissed(new_page: Any) -> None:
    player = new_page(TABLET_PORTRAIT)
    game_id, made = seed_game(player)  # as the referee (the API only), then seated as the attacker
    # The referee puts a marker on an attacker stand (through the API), which the attacker then tries to recover in
    # set-up (its "−S" is drawn for its own side alone: tests/app/games/test_map_cards.py).
    units = player.request.get(f"/api/v1/games/{game_id}/units").json()
    unit_id = next(u["id"] for u in units if u["side"] == "attacker" and u["base"] and not u["killed"])
    marked = player.request.post(
        f"/api/v1/games/{game_id}/units/{unit_id}/markers",
        data={"delta": 1, "override": True},
        headers=bearer(made["referee_token"]),
    )
    assert marked.ok, marked.text()
    join_by_api(player, made["join_codes"]["attacker"])
    player.goto(f"/games/{game_id}/referee")
    remove = player.locator(f"#rm-{unit_id}")
    remove.evaluate(OPEN_AROUND)
    # The refresh that follows every tap: with the live stream connected, the stream brings any change and the
    # page fetches nothing; without it, the board is fetched and redrawn.
    player.evaluate(
        """() => { window.refreshed = new Promise((done) => document.addEventListener("firestep:refresh", () =>
             window.firestepLive?.connected ? done()
               : document.addEventListener("firestep:board-updated", done, { once: true }), { once: true })); }"""
    )
    remove.click()  # the rules of play: no marker is recovered in set-up
    toast = player.locator("#net-status")
    expect(toast).to_contain_text(
        "Wait for the game to start: players may not recover suppression markers in set-up."
    )
    # It stays: past the refresh that follows the tap, and on screen wherever the page is scrolled.
    player.evaluate("window.refreshed")
    expect(toast).to_contain_text(
        "Wait for the game to start: players may not recover suppression markers in set-up."
    )
    player.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    box = toast.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= player.viewport_size["height"]
    dismiss = toast.get_by_role("button", name="Dismiss this message")
    size = dismiss.bounding_box()
    assert size and size["width"] >= 44 and size["height"] >= 44
    dismiss.click()
    expect(toast).to_be_hidden()

    # Acting again (any other control) clears an earlier refusal.
    player.evaluate("window.scrollTo(0, 0)")
    remove.click()
    expect(toast).to_contain_text("may not recover suppression markers")
    player.locator("main summary").first.click()
    expect(toast.locator(".notice")).to_have_count(0)

    # A tap made offline and refused when it is sent: one sentence of at most 120 characters, the rule's own
    # naming what was not done, in the place of the outbox's "kept" notice, not beside it.
    remove.evaluate(OPEN_AROUND)
    player.context.set_offline(True)
    remove.click()
    expect(toast).to_contain_text("1 tap kept on this device")
    player.context.set_offline(False)
    late = "Not done when sent – wait for the game to start: players may not recover suppression markers in set-up."
    expect(toast.locator(".notice > p", has_text="when sent")).to_have_text([late])
    expect(toast).not_to_contain_text("kept on this device")
