"""Issue 26, messages: a refusal shows as its one sentence with a "Why?" that opens the rule and its source; a
notice never covers the page menu, the map's card or its tool bar, lets taps on its words through to what is
under it, and is dismissable; "reconnecting…" goes the moment the game's stream is open again."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.axe import serious_violations
from tests.frontend.conftest import PHONE, REFEREE_SCREEN, TABLET_LANDSCAPE, TABLET_PORTRAIT, screenshot
from tests.frontend.games import map_at, seed_game
from tests.frontend.test_lookup import tap_resolver

pytestmark = pytest.mark.browser

CLEARS_WITHIN_MS = 1000
STREAM = re.compile(r"/api/v1/games/\d+/stream\?")


def refusal_shown(page: Any, game_id: int) -> dict[str, Any]:
    """A real refusal (a marker in set-up, refused by the rules of play) shown as the pages show one."""
    result: dict[str, Any] = page.evaluate(
        """async (gameId) => {
             const csrf = document.cookie.split("; ").find((c) => c.startsWith("firestep_csrf=")).split("=")[1];
             const units = await (await fetch(`/api/v1/games/${gameId}/units`)).json();
             const r = await fetch(`/api/v1/games/${gameId}/units/${units[0].id}/markers`, {
               method: "POST", headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
               body: JSON.stringify({ delta: 1, fire: "rifle" }),
             });
             const body = await r.json();
             window.firestepNotice(window.firestepExplain(r.status, body), false, { key: "action" });
             return { status: r.status, body };
           }""",
        game_id,
    )
    return result


# The page's controls drawn under the notices (as the browser lays them out now): their words, none expected.
COVERED = """() => {
  const over = document.getElementById("net-status").getBoundingClientRect();
  const hit = (r) => r.width && r.height && r.left < over.right && over.left < r.right && r.top < over.bottom
    && over.top < r.bottom;
  return [...document.querySelectorAll("main :is(button, a[href], summary, input, select)")]
    .filter((el) => getComputedStyle(el).visibility === "visible" && hit(el.getBoundingClientRect()))
    .map((el) => el.getAttribute("aria-label") || el.textContent.trim());
}"""


def overlaps(a: dict[str, float] | None, b: dict[str, float] | None) -> bool:
    if a is None or b is None:
        return False
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_a_refusal_says_one_sentence_and_why_without_covering_the_menu_card_or_tools(new_page: Any) -> None:
    """At the four sizes, on one seeded game and one page: the map opened once with its card open, resized to
    each size as it opens there (map_at), and a refusal shown anew there."""
    page = new_page(TABLET_LANDSCAPE)
    game_id, _ = seed_game(page)
    page.goto(f"/games/{game_id}/map")
    expect(page.locator("svg[data-table-map][data-loaded]")).to_have_count(1)
    page.get_by_role("button", name="Templates", exact=True).click()  # the map's card is open
    for viewport in (TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE, REFEREE_SCREEN):
        map_at(page, viewport)
        refusal_on_the_map(page, game_id, viewport)


def refusal_on_the_map(page: Any, game_id: int, viewport: dict[str, int]) -> None:
    expect(page.locator("[data-map-panel]")).to_be_visible()
    got = refusal_shown(page, game_id)
    assert got["status"] == 409 and len(got["body"]["detail"]) <= 120, got
    notice = page.locator("#net-status .notice")
    expect(notice.locator("p").first).to_have_text(got["body"]["detail"])
    # A tap on the notice's words reaches what is under them; its buttons take their own taps.
    words = notice.locator("p").first.bounding_box()
    assert words is not None
    under = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y)?.closest('#net-status') === null",
        [words["x"] + 4, words["y"] + words["height"] / 2],
    )
    assert under
    why = notice.get_by_text("Why?")
    expect(why).to_be_visible()
    why.click()  # opened to be read: the notice now scrolls, still clear of the menu, card and tools
    expect(notice.locator(".notice-why p")).to_contain_text("Allowed now")
    expect(notice.locator(".notice-why cite")).to_have_text(got["body"]["source"])
    screenshot(page, f"notice-why-{viewport['width']}x{viewport['height']}")
    if viewport == TABLET_LANDSCAPE:
        assert serious_violations(page) == []
    box = page.locator("#net-status").bounding_box()
    for keep_clear in (".topbar", "[data-map-panel]", ".map-toolbar"):
        assert not overlaps(box, page.locator(keep_clear).bounding_box()), (keep_clear, box)
    notice.get_by_role("button", name="OK: dismiss this message").click()
    expect(page.locator("#net-status")).to_be_hidden()


@pytest.mark.timed
def test_reconnecting_goes_the_moment_the_stream_is_back(new_page: Any) -> None:
    page = new_page(REFEREE_SCREEN)
    game_id, seeded = seed_game(page)
    referee = {"Authorization": f"Bearer {seeded['referee_token']}"}
    version = page.request.get(f"/api/v1/games/{game_id}/turn", headers=referee).json()["version"]
    started = page.request.post(
        f"/api/v1/games/{game_id}/turn/advance", headers=referee, data={"version": version}
    )
    assert started.ok, started.text()
    page.goto(f"/games/{game_id}/referee")
    stream = page.locator("[data-live-stream][data-live-connected]")
    expect(stream).to_have_count(1)
    # The stream drops and cannot come back for a while: the page says it is reconnecting.
    page.route(STREAM, lambda route: route.abort())
    page.evaluate("() => window.dispatchEvent(new Event('offline'))")
    expect(page.locator("#net-status")).to_contain_text("reconnecting")
    # Offline, the device's notice and the stream's stay: drawn over none of the board's buttons (its "+S" the
    # first row of them, the game started) at any of the four sizes.
    expect(page.locator("#net-status .notice")).to_have_count(2)
    for viewport in (TABLET_PORTRAIT, TABLET_LANDSCAPE, PHONE, REFEREE_SCREEN):
        page.set_viewport_size(viewport)
        assert page.evaluate(COVERED) == [], viewport
    page.evaluate("() => window.firestepNotice.clear('connection')")  # the device's own offline notice
    # Note the moments the stream is open again and the notice is gone, polled in the page.
    page.evaluate(
        """() => {
             window.backAt = null; window.clearedAt = null;
             const tick = () => {
               const open = document.querySelector("[data-live-stream][data-live-connected]");
               const region = document.getElementById("net-status");
               if (open && window.backAt === null) window.backAt = Date.now();
               if (window.backAt !== null && !(region.textContent || "").includes("reconnecting")) {
                 window.clearedAt = Date.now();
                 return;
               }
               setTimeout(tick, 10);
             };
             tick();
           }"""
    )
    # The device is back online: the stream reconnects at once (the notice once stayed when it did).
    page.unroute(STREAM)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    started = time.monotonic()
    while page.evaluate("() => window.clearedAt") is None and time.monotonic() - started < 15:
        page.wait_for_timeout(100)
    back, cleared = page.evaluate("() => [window.backAt, window.clearedAt]")
    assert back is not None and cleared is not None, (back, cleared)
    assert cleared - back <= CLEARS_WITHIN_MS, cleared - back
    expect(stream).to_have_count(1)


def test_a_notice_never_covers_the_dice_pad(new_page: Any) -> None:
    """On the phone and the portrait tablet: one page with the dice pad open, resized, a notice shown anew at
    each size."""
    page = new_page(PHONE)
    page.goto("/lookup?ruleset=flanders-fields&period=mid")
    tap_resolver(page, "Order roll")
    for viewport in (PHONE, TABLET_PORTRAIT):
        page.set_viewport_size(viewport)
        dock = page.locator(".dock").first
        expect(dock).to_be_visible()
        long_why = "The rule in full, as the rules word it. " * 40
        page.evaluate(
            "(why) => window.firestepNotice('Pick a cover of open, soft or hard.', false, { why, source: 'p. 1' })",
            long_why,
        )
        page.locator("#net-status").get_by_text("Why?").click()
        box = page.locator("#net-status").bounding_box()
        for keep_clear in (".topbar", ".dock"):
            assert not overlaps(box, page.locator(keep_clear).first.bounding_box()), (
                keep_clear,
                viewport,
                box,
            )
        page.locator("#net-status").get_by_role("button", name="OK: dismiss this message").click()
        expect(page.locator("#net-status")).to_be_hidden()


def ended_twice(page: Any, game_id: int) -> dict[str, Any]:
    """A rule's refusal with no reason beyond its sentence, shown as the pages show one: the game ended, then
    ended again ("The game is over already: its result stands.")."""
    got: dict[str, Any] = page.evaluate(
        """async (gameId) => {
             const csrf = document.cookie.split("; ").find((c) => c.startsWith("firestep_csrf=")).split("=")[1];
             const finish = async () => {
               const version = (await (await fetch(`/api/v1/games/${gameId}/turn`)).json()).version;
               return fetch(`/api/v1/games/${gameId}/finish`, {
                 method: "POST", headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
                 body: JSON.stringify({ version }),
               });
             };
             const first = await finish();
             const r = await finish();
             const body = await r.json();
             window.firestepNotice(window.firestepExplain(r.status, body), false, { key: "action" });
             return { first: first.status, status: r.status, body };
           }""",
        game_id,
    )
    assert got["first"] == 200 and got["status"] == 409, got
    return got


def test_a_refusal_with_no_reason_beyond_its_sentence_offers_no_empty_why(new_page: Any) -> None:
    """The newcomer pass of issue 89: a rule's refusal whose reason is its sentence (`said_why` as `said`) and
    that cites no source showed a "Why?" that opened empty."""
    page = new_page(PHONE)
    game_id, _ = seed_game(page)
    page.goto(f"/games/{game_id}/referee")
    body = ended_twice(page, game_id)["body"]
    assert body["said_why"] == body["said"] and "source" not in body, body
    notice = page.locator("#net-status .notice")
    expect(notice.locator("p").first).to_have_text(body["said"])
    expect(notice.locator(".notice-why")).to_be_hidden()


def test_the_connection_s_good_news_does_not_stack_over_the_page(new_page: Any) -> None:
    """The newcomer pass of issue 89, on a phone: back online, "Connection back." and "Live updates are back."
    stacked, and the refusal of the referee's next tap under them, over the end box. The stream's "back" is not
    said again over the device's, and a tap clears good news with what earlier taps were told."""
    page = new_page(PHONE)
    game_id, _ = seed_game(page)
    page.goto(f"/games/{game_id}/referee")
    stream = page.locator("[data-live-stream][data-live-connected]")
    expect(stream).to_have_count(1)
    page.route(STREAM, lambda route: route.abort())
    page.evaluate("() => window.dispatchEvent(new Event('offline'))")
    notice = page.locator("#net-status .notice")
    expect(notice).to_have_count(2)  # the device's offline notice and the stream's "reconnecting…"
    # From here on, every message shown, noted in the page as it comes.
    page.evaluate(
        """() => {
             const region = document.getElementById("net-status");
             window.said = [];
             new MutationObserver(() => {
               for (const p of region.querySelectorAll(".notice > p")) window.said.push(p.textContent);
             }).observe(region, { childList: true, subtree: true });
           }"""
    )
    page.unroute(STREAM)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(stream).to_have_count(1)
    expect(page.locator("#net-status")).not_to_contain_text("reconnecting")
    page.locator("main summary.block-head").first.click()  # the referee's next tap, then its refusal
    body = ended_twice(page, game_id)["body"]
    shown = "() => [...document.querySelectorAll('#net-status .notice > p')].map((p) => p.textContent)"
    assert page.evaluate(shown) == [body["said"]]  # as it is shown: not once the good news has faded
    said = page.evaluate("() => window.said")
    assert "Connection back." in said and "Live updates are back." not in said, said
