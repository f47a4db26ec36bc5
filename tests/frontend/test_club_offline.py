"""What a secure context gives a game page (issue 28): the service worker controls the game pages and keeps
each seat's last board, map and lookup for when the laptop cannot be reached (marked not live, with the time),
a tap made then is applied once when the server is back, a device that changes seat is never served the
other seat's copies; the screen wake lock; Web Share of a lookup answer; the Print menu of every game page.

http://127.0.0.1 is a secure context, as the club's HTTPS is. These tests run their own server, so they can
stop it and start it again on the same port (the service worker's origin) over the same database."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.axe import serious_violations
from tests.frontend.conftest import (
    ROOT,
    TABLET_LANDSCAPE,
    _free_port,
    assert_no_horizontal_scroll,
    screenshot,
    small_targets,
)
from tests.frontend.games import create_mons_game, join
from tests.frontend.test_accessibility import SIZES
from tests.frontend.test_map import start_game
from tests.frontend.test_offline_taps import add_marker_button, api, marker_events, suppression

pytestmark = pytest.mark.browser


class Server:
    """uvicorn over one migrated SQLite database on one port, stopped and started again at will."""

    def __init__(self, var: Path) -> None:
        from app.core.db import migrate

        self.var = var
        self.database = f"sqlite:///{var / 'firestep.db'}"
        migrate(self.database)
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {**os.environ, "FIRESTEP_DATABASE_URL": self.database, "FIRESTEP_VAR_DIR": str(self.var)}
        log = (self.var / "server.log").open("ab")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "app.main:app",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{self.base}/healthz", timeout=1):
                    return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError((self.var / "server.log").read_text()) from None
                time.sleep(0.2)

    def stop(self) -> None:
        # At once, as a laptop that sleeps or leaves the wifi (a graceful stop would wait for the live streams).
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=10)
            self.proc = None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path)
    s.start()
    yield s
    s.stop()


@pytest.fixture
def device(browser: Any, server: Server) -> Iterator[Any]:
    """One tablet (a browser context of its own) on this server; every request it makes goes to it."""
    ctx = browser.new_context(viewport=TABLET_LANDSCAPE, has_touch=True, base_url=server.base)
    foreign: list[str] = []
    ctx.on(
        "request",
        lambda req: None if req.url.startswith((server.base, "data:", "blob:")) else foreign.append(req.url),
    )
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    page.on("dialog", lambda dialog: dialog.dismiss())
    yield page
    ctx.close()
    assert not foreign, f"requests to other hosts: {foreign}"


def controlled(page: Any, url: str) -> None:
    """Open `url` under the service worker (the first visit installs it; it then takes the page over)."""
    page.goto(url)
    # Installing fetches the shell while the page loads: ~1 s alone, over 15 s once on the loaded 2-core CI
    # machine (a test's own server is one more process there). How long is not what these tests are about.
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
    deadline = time.monotonic() + 15
    while True:
        caches = seat_caches(page)
        if len(caches) == 1 and set(paths) <= set(next(iter(caches.values()))):
            return next(iter(caches))
        assert time.monotonic() < deadline, f"not kept: {paths} in {caches}"
        time.sleep(0.2)


def expect_not_live(page: Any, before: float) -> None:
    """The page says it is not live, with the time of a copy made after `before` (a Unix time in ms)."""
    note = page.locator("[data-not-live]")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Not live")
    assert page.locator("[data-not-live-time]").inner_text().strip()
    saved = float(note.get_attribute("data-saved-at") or 0)
    assert before <= saved <= time.time() * 1000


def test_a_seat_keeps_its_board_and_map_and_a_tap_made_while_the_server_is_down_lands_once(
    device: Any, server: Server
) -> None:
    page = device
    game_id, _codes = create_mons_game(page)
    start_game(page, game_id)
    before = time.time() * 1000
    pages = [f"/games/{game_id}/{p}" for p in ("referee", "map", "fire-plan")] + [f"/lookup?game={game_id}"]
    for url in pages:
        controlled(page, url)
    controlled(page, f"/games/{game_id}/referee")  # kept again, after the lookup
    controlled(page, f"/games/{game_id}/map")
    expect(page.locator("svg[data-table-map][data-loaded]")).to_have_count(1)
    stands = int(page.locator("[data-map-page]").get_attribute("data-loaded") or 0)
    assert stands > 0
    seat = wait_kept(
        page,
        f"/games/{game_id}/referee",
        f"/games/{game_id}/map",
        f"/api/v1/games/{game_id}/state",
        f"/api/v1/games/{game_id}/units",
    )
    assert seat.startswith(f"{game_id}-referee-")
    assert page.locator('meta[name="firestep-seat"]').get_attribute("content") == seat
    expect(page.locator("[data-not-live]")).to_be_hidden()
    http = api(page, server.base)

    server.stop()
    # The board as it last stood, said to be not live; a marker tapped now is kept on the tablet.
    page.goto(f"/games/{game_id}/referee")
    expect(page.locator("#board")).to_be_visible()
    expect_not_live(page, before)
    button, unit_id = add_marker_button(page)
    button.click()
    expect(page.locator("#net-status")).to_contain_text("1 tap kept on this device")
    # The map as it last stood: its stands drawn from the kept state, not live.
    page.goto(f"/games/{game_id}/map")
    expect(page.locator("svg[data-table-map][data-loaded]")).to_have_count(1)
    assert int(page.locator("[data-map-page]").get_attribute("data-loaded") or 0) == stands
    expect_not_live(page, before)
    # A page this seat never opened: said plainly, not another page.
    page.goto(f"/games/{game_id}/referee/changes")
    expect(page.get_by_role("heading", name="The server cannot be reached")).to_be_visible()
    page.goto(f"/games/{game_id}/map")
    expect(page.locator("svg[data-table-map][data-loaded]")).to_have_count(1)

    server.start()
    # The outbox sends the kept tap (its next try), once; the live stream comes back and the note goes.
    deadline = time.monotonic() + 25
    while marker_events(http, game_id, unit_id) < 1 and time.monotonic() < deadline:
        time.sleep(0.25)
    time.sleep(1.5)
    assert marker_events(http, game_id, unit_id) == 1
    assert suppression(http, game_id, unit_id) == 1
    expect(page.locator("[data-not-live]")).to_be_hidden(timeout=15_000)
    assert page.evaluate("window.firestepOutbox.waiting()") == 0
    http.close()


def test_after_changing_seat_the_other_seats_copies_are_never_served(device: Any, server: Server) -> None:
    page = device
    game_id, codes = create_mons_game(page)
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

    server.stop()
    # The referee's board and map were kept for the referee's seat: the attacker is not shown them.
    for path in ("referee", "map"):
        page.goto(f"/games/{game_id}/{path}")
        expect(page.get_by_role("heading", name="The server cannot be reached")).to_be_visible()
        expect(page.locator("#board, [data-map-page]")).to_have_count(0)
    # The attacker's own fire plan is there, not live, and names the attacker's seat.
    page.goto(f"/games/{game_id}/fire-plan")
    expect(page.locator("[data-not-live]")).to_be_visible()
    assert page.locator('meta[name="firestep-seat"]').get_attribute("content") == attacker_seat


def test_the_map_asks_for_a_screen_wake_lock_and_says_whether_it_holds(device: Any) -> None:
    page = device
    game_id, _ = create_mons_game(page)
    controlled(page, f"/games/{game_id}/map")
    page.get_by_text("Menu", exact=True).click()
    toggle = page.locator("[data-wake-lock]")
    expect(toggle).to_be_visible()
    expect(toggle).to_have_attribute("data-wake-lock", "held")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(page.locator("[data-wake-lock-status]")).to_have_text(
        "On: the screen stays on while this page is open."
    )
    # Off by the toggle (and kept off on the next page), on again by it.
    toggle.click()
    expect(toggle).to_have_attribute("data-wake-lock", "off")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    page.goto(f"/games/{game_id}/referee")
    expect(page.locator("[data-wake-lock]")).to_have_attribute("data-wake-lock", "off")
    page.get_by_text("Menu", exact=True).click()
    page.locator("[data-wake-lock]").click()
    expect(page.locator("[data-wake-lock]")).to_have_attribute("data-wake-lock", "held")


def test_a_lookup_answer_is_shared_where_the_device_offers_it(browser: Any, server: Server) -> None:
    url = "/lookup/flanders-fields/order-roll?period=mid"
    # Chromium on Linux has no share sheet: the button stays hidden.
    plain = browser.new_context(viewport=TABLET_LANDSCAPE, base_url=server.base)
    page = plain.new_page()
    page.goto(url)
    page.locator(".die-pad label.face", has_text="4").first.click()
    expect(page.locator("#answer .outcome")).to_have_text("1 action")
    assert not page.evaluate("typeof navigator.share === 'function'")
    expect(page.locator("[data-share]")).to_be_hidden()
    plain.close()

    # A tablet that has one (its share sheet stood in for by the page's navigator.share).
    sharing = browser.new_context(viewport=TABLET_LANDSCAPE, base_url=server.base)
    sharing.add_init_script(
        "navigator.share = (data) => { window.shared = data; return Promise.resolve(); };"
    )
    page = sharing.new_page()
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
    sharing.close()


# The join cards are the club-serve half of issue 28 (app/pages/join_cards.py): until it lands, only the link.
JOIN_CARDS_BUILT = (ROOT / "app" / "pages" / "join_cards.py").exists()


def print_links(page: Any) -> list[str]:
    hrefs: list[str] = page.locator("[data-print-links] a").evaluate_all(
        "els => els.map((a) => a.getAttribute('href'))"
    )
    return hrefs


def test_every_game_page_and_the_lookup_link_the_printables_of_the_seat(browser: Any, server: Server) -> None:
    ctx = browser.new_context(viewport=TABLET_LANDSCAPE, base_url=server.base)
    referee = ctx.new_page()
    game_id, codes = create_mons_game(referee)
    start_game(referee, game_id)
    player_ctx = browser.new_context(viewport=TABLET_LANDSCAPE, base_url=server.base)
    attacker = player_ctx.new_page()
    join(attacker, codes["attacker"])
    game_pages = [f"/games/{game_id}/{p}" for p in ("referee", "map", "fire-plan")] + [
        f"/lookup?game={game_id}"
    ]
    try:
        for page, role in ((referee, "referee"), (attacker, "attacker")):
            links: set[str] = set()
            for url in game_pages:
                page.goto(url)
                found = print_links(page)
                assert found, f"{url} has no Print menu for the {role}"
                links |= set(found)
            assert f"/playsheets/games/{game_id}.pdf" in links
            assert f"/playsheets/games/{game_id}/aiming-points.pdf" in links
            assert "/playsheets/template-kit.pdf" in links
            assert "/api/v1/scenarios/mons-1914/sheet.pdf" in links  # the game's scenario
            assert f"/playsheets/games/{game_id}/fire-plan/attacker.pdf" in links
            if role == "referee":
                assert f"/playsheets/games/{game_id}/fire-plan/defender.pdf" in links
                assert f"/games/{game_id}/join-cards.pdf" in links
            else:
                # A side is offered nothing of the other side's, nor the join cards.
                assert f"/playsheets/games/{game_id}/fire-plan/defender.pdf" not in links
                assert f"/games/{game_id}/join-cards.pdf" not in links
            for href in sorted(links):
                got = page.request.get(
                    href, timeout=120_000
                )  # a PDF renders in seconds, more on a busy machine
                if href.endswith("/join-cards.pdf") and not JOIN_CARDS_BUILT:
                    continue
                assert got.status == 200, f"{role} {href}: {got.status}"
                if href.endswith("/join-cards.pdf"):
                    continue  # no sheet made yet: the join-cards page, where the referee makes one
                assert got.headers["content-type"].startswith("application/pdf"), href
        # The lookup outside a game: the period playsheets and the blank sheets.
        free = player_ctx.new_page()
        free.goto("/lookup/flanders-fields/order-roll?period=mid")
        links = set(print_links(free))
        assert {
            "/playsheets/mid.pdf",
            "/playsheets/template-kit.pdf",
            "/playsheets/aiming-points.pdf",
        } <= links
        for href in sorted(links):
            assert free.request.get(href, timeout=120_000).status == 200, href
    finally:
        ctx.close()
        player_ctx.close()


def test_the_page_menu_and_the_not_live_note_at_every_size(device: Any, server: Server) -> None:
    page = device
    game_id, _ = create_mons_game(page)
    start_game(page, game_id)
    controlled(page, f"/games/{game_id}/map")
    controlled(page, f"/games/{game_id}/referee")
    wait_kept(page, f"/games/{game_id}/referee", f"/games/{game_id}/map")
    found: list[str] = []
    for url, name in ((f"/games/{game_id}/map", "map-menu"), (f"/lookup?game={game_id}", "lookup-menu")):
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
        page.set_viewport_size(TABLET_LANDSCAPE)
    server.stop()
    page.goto(f"/games/{game_id}/referee")
    expect(page.locator("[data-not-live]")).to_be_visible()
    for size in SIZES:
        page.set_viewport_size(size)
        assert_no_horizontal_scroll(page)
        found += [f"not live at {size['width']}x{size['height']}: {v}" for v in serious_violations(page)]
        screenshot(page, "referee-not-live")
    assert not found, "\n".join(found)


def test_a_tap_kept_for_one_seat_is_never_sent_as_another(device: Any, server: Server) -> None:
    page = device
    game_id, codes = create_mons_game(page)
    start_game(page, game_id)
    http = api(page, server.base)
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
    page.wait_for_url(f"**/lookup?game={game_id}")
    expect(page.locator("#net-status")).to_contain_text(
        "1 tap made as another seat of this game was not sent"
    )
    assert page.evaluate("window.firestepOutbox.waiting()") == 0
    page.unroute("**/markers")
    time.sleep(1.0)
    assert marker_events(http, game_id, unit_id) == 0
    http.close()


def test_a_page_of_another_seat_drops_the_copies_of_the_seat_before(device: Any, server: Server) -> None:
    # No join request in between: the device creates a second game (its referee too) and opens its board.
    page = device
    first, _ = create_mons_game(page)
    controlled(page, f"/games/{first}/referee")
    controlled(page, f"/games/{first}/referee")
    assert wait_kept(page, f"/games/{first}/referee").startswith(f"{first}-referee-")
    second, _ = create_mons_game(page)
    controlled(page, f"/games/{second}/referee")
    assert wait_kept(page, f"/games/{second}/referee").startswith(f"{second}-referee-")
    assert len(seat_caches(page)) == 1

    server.stop()
    page.goto(f"/games/{first}/referee")
    expect(page.get_by_role("heading", name="The server cannot be reached")).to_be_visible()
    page.goto(f"/games/{second}/referee")
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("[data-not-live]")).to_be_visible()
