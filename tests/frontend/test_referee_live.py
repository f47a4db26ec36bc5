"""The referee board, live on every device (the board's one live test): three devices on one Mons game see
each other's moves, markers, templates and turn changes; another device's tap reaches a board with no request
and costs a device well under 10 KB on the wire; a device that was offline catches up with nothing lost or
doubled. How soon is measured and kept in tests/artifacts/, not held to a limit here: the wall-clock limits
are the API tests' (tests/app/games/test_live_and_concurrency.py, run alone as `timed`). Then the whole Mons
game fits on two 1080p screens (one with the "suppressed" filter); the log keeps its place while it grows;
"+S" only where the step allows markers, Undo only where undo is allowed. Games and seats are made through
the API."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import (
    ARTIFACTS,
    REFEREE_SCREEN,
    TABLET_LANDSCAPE,
    TABLET_PORTRAIT,
    screenshot,
    small_targets,
)
from tests.frontend.games import (
    bearer,
    create_mons_game,
    fresh_defender_platoon,
    join_by_api,
    seed_game,
    settled,
)
from tests.frontend.test_map import start_game
from tests.frontend.test_notices import STREAM

pytestmark = pytest.mark.browser

SEEN_WITHIN_MS = 15_000  # a wait for the change, not a limit (the limits are the API tests')
EVENT_BYTES = 10_000


def record(name: str, measured: dict[str, Any]) -> None:
    """Keep what a test measured next to its screenshots (tests/artifacts/, git-ignored)."""
    (ARTIFACTS / f"referee-live-{name}.json").write_text(json.dumps(measured, indent=1))


def open_board(page: Any, game_id: int) -> None:
    page.goto(f"/games/{game_id}/referee")
    expect(page.locator("[data-live-stream][data-live-connected]")).to_have_count(1)


def three_devices(new_page: Callable[..., Any]) -> tuple[int, Any, Any, Any]:
    referee = new_page(REFEREE_SCREEN)
    game_id, made = seed_game(referee)
    attacker = new_page(TABLET_LANDSCAPE)
    join_by_api(attacker, made["join_codes"]["attacker"])
    defender = new_page(TABLET_PORTRAIT)
    join_by_api(defender, made["join_codes"]["defender"])
    for page in (referee, attacker, defender):
        open_board(page, game_id)
    return game_id, referee, attacker, defender


def api(page: Any, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """A write from this device, as its own scripts make it (cookie and the page's CSRF token)."""
    result: dict[str, Any] = page.evaluate(
        """async ([method, path, body]) => {
            const token = document.querySelector('meta[name="csrf-token"]').content;
            window.__actedAt = Date.now();  // the write's own start, as a tap's is the click
            const r = await fetch(path, {method, credentials: "same-origin",
                headers: {"Content-Type": "application/json", "X-CSRFToken": token},
                body: body === null ? undefined : JSON.stringify(body)});
            return {status: r.status, body: await r.json()};
        }""",
        [method, path, body],
    )
    assert result["status"] < 300, result
    return result


def watch(page: Any, condition: str) -> None:
    """Note the wall-clock time at which `condition` (a JS expression) first holds on this page. (The page's
    CSP forbids eval, so the condition is part of the evaluated function's own source.)"""
    page.evaluate(
        f"""() => {{
            window.__seenAt = null;
            window.__eventAt = null;
            document.addEventListener("firestep:event", () => {{ window.__eventAt ??= Date.now(); }}, {{once: true}});
            const test = () => ({condition});
            const check = () => {{
                if (window.__seenAt === null && test()) {{ window.__seenAt = Date.now(); observer.disconnect(); }}
            }};
            const observer = new MutationObserver(check);
            observer.observe(document.documentElement,
                {{subtree: true, childList: true, attributes: true, characterData: true}});
            check();
        }}"""
    )
    assert page.evaluate("window.__seenAt") is None, f"already true before the change: {condition}"


def seen_after(page: Any, start_ms: float, timeout_ms: int = SEEN_WITHIN_MS) -> float:
    """Milliseconds from `start_ms` to the moment the watched condition held (polled from here; the time
    is the page's own)."""
    deadline = time.monotonic() + timeout_ms / 1000
    while (seen := page.evaluate("window.__seenAt")) is None:
        assert time.monotonic() < deadline, f"not seen within {timeout_ms} ms"
        time.sleep(0.02)
    return float(seen) - start_ms


def now_ms(page: Any) -> float:
    return float(page.evaluate("Date.now()"))


def stand_id(page: Any, side: str, nth: int = 0) -> int:
    tile = page.locator(f"section.side[data-side='{side}'] li.stand:not(.killed)").nth(nth)
    return int(tile.get_attribute("data-unit"))


def wire_bytes(page: Any) -> Callable[[], int]:
    """Start counting the bytes this page receives (every response: bodies, headers, stream chunks), as
    Chromium's network layer reports them; the returned function reads the count so far."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    streamed: dict[str, int] = {}
    finished: dict[str, int] = {}

    def on_data(e: dict[str, Any]) -> None:
        streamed[e["requestId"]] = streamed.get(e["requestId"], 0) + max(
            e["encodedDataLength"], e["dataLength"]
        )

    def on_finished(e: dict[str, Any]) -> None:
        finished[e["requestId"]] = int(e["encodedDataLength"])

    cdp.on("Network.dataReceived", on_data)
    cdp.on("Network.loadingFinished", on_finished)
    return lambda: sum(max(streamed.get(r, 0), finished.get(r, 0)) for r in {*streamed, *finished})


def test_three_devices_see_every_change_live_and_a_device_back_from_offline_catches_up(new_page: Any) -> None:
    game_id, referee, attacker, defender = three_devices(new_page)
    others = {"referee": referee, "attacker": attacker, "defender": defender}
    lag: dict[str, float] = {}
    split: dict[str, str] = {}

    def measure(name: str, actor: str, condition: str, act: Callable[[Any], None]) -> None:
        watchers = {role: p for role, p in others.items() if role != actor}
        for p in watchers.values():
            watch(p, condition)
        acting = others[actor]
        # From the moment of the tap on the acting device (not counting the test driver's own wait for it).
        acting.evaluate(
            "() => { window.__actedAt = Date.now();"
            " document.addEventListener('click', () => { window.__actedAt = Date.now(); },"
            " {capture: true, once: true}); }"
        )
        act(acting)
        start = float(acting.evaluate("window.__actedAt"))
        for role, p in watchers.items():
            lag[f"{name} on {role}"] = seen_after(p, start)
            # Where the time went: the write and the stream, then the board's own update.
            arrived = p.evaluate("window.__eventAt")
            split[f"{name} on {role}"] = f"event after {arrived - start:.0f} ms" if arrived else "no event"

    # Starting the game (set-up to turn 1) by the referee's tap.
    for p in (attacker, defender):
        watch(p, "document.querySelector('#turn .turn-step')?.textContent.includes('Support orders')")
    start = now_ms(referee)
    referee.get_by_role("button", name="Start the game").click()
    started = {role: seen_after(p, start) for role, p in (("attacker", attacker), ("defender", defender))}
    # A turn change: the referee moves the turn on to its next step from the board.
    measure(
        "turn",
        "referee",
        "document.querySelector('#turn .turn-step')?.textContent.includes('Battalion orders')",
        lambda p: p.get_by_role("button", name="Next step").click(),
    )
    # A marker: the attacker suppresses a defending stand from its board.
    target = stand_id(attacker, "defender", 3)
    measure(
        "marker",
        "attacker",
        f"document.querySelectorAll('#unit-{target} .marker').length === 1",
        lambda p: p.locator(f"#unit-{target} .add-marker").click(),
    )
    # A move: the referee moves an attacking stand (the map's drag sends this same request).
    mover = stand_id(referee, "attacker", 4)

    def move(p: Any) -> None:
        moved = api(
            p, "POST", f"/api/v1/games/{game_id}/units/{mover}/move", {"x": 40, "y": 30, "override": True}
        )
        p.evaluate("id => window.__moveEvent = id", moved["body"]["event_id"])

    measure(
        "move",
        "referee",
        "[...document.querySelectorAll('#log .event')].some(li => li.textContent.includes('moved'))",
        move,
    )
    # A template: the attacker, whose turn it is, lays an artillery template on the table.
    measure(
        "template",
        "attacker",
        "document.querySelector('#turn [data-template]') !== null",
        lambda p: api(
            p, "POST", f"/api/v1/games/{game_id}/templates", {"kind": "artillery", "x": 60, "y": 90}
        ),
    )
    record("latency", {"ms": lag, "split": split, "game start": started})
    # What each device shows is the same game record.
    logs = [p.locator("#log .event .event-line").all_inner_texts()[:4] for p in others.values()]
    assert logs[0] == logs[1] == logs[2], logs
    # The log reads like a game record: the side, the stand's unambiguous name, the change, who, the turn.
    assert any(
        line.startswith("Defender · ") and "+1 suppression · by attacker · turn 1" in line for line in logs[0]
    ), logs[0]
    expect(defender.locator("#turn [data-template]")).to_contain_text("Artillery template")

    # Each frame carries what its board needs (issue 25): MG fire from the referee's device, one event, the
    # platoon's whole company suppressed; the other boards swap in the pieces it brings and ask the server
    # for nothing, and the event costs each of them well under 10 KB on the wire.
    units = api(referee, "GET", f"/api/v1/games/{game_id}/units")["body"]
    fired_at = fresh_defender_platoon(units)
    watching = {"attacker": attacker, "defender": defender}
    counters = {role: wire_bytes(p) for role, p in watching.items()}
    asked: dict[str, list[str]] = {role: [] for role in watching}
    for role, p in watching.items():
        p.on("request", lambda r, role=role: asked[role].append(r.url))
    before = {k: c() for k, c in counters.items()}
    done = api(
        referee, "POST", f"/api/v1/games/{game_id}/units/{fired_at}/markers", {"delta": 1, "fire": "mg"}
    )
    company = {c["unit"] for c in done["body"]["changes"] if "unit" in c}
    assert len(company) > 1
    for p in watching.values():
        for unit in company:
            expect(p.locator(f"#unit-{unit} .marker")).to_have_count(1)
    referee.wait_for_timeout(400)  # anything else this event makes either device fetch
    cost = {k: c() - before[k] for k, c in counters.items()}
    record("bytes-per-event", cost)
    assert all(0 < b < EVENT_BYTES for b in cost.values()), cost
    for role, urls in asked.items():
        fetched = [u for u in urls if "/referee/changes" in u or "/units" in u or "/state" in u]
        assert not fetched, (role, fetched)
    for p in watching.values():  # the board also shows the event in its log
        expect(p.locator(f"#log .event[data-event='{done['body']['event_id']}']")).to_have_count(1)
    # The whole board is more than ten times that: it is not what a device fetches per event.
    board = referee.evaluate(
        "async (u) => (await (await fetch(u, {headers: {'HX-Request': 'true'}})).text()).length",
        f"/games/{game_id}/referee",
    )
    assert board > 5 * max(cost.values()), (board, cost)

    # The defender's device goes offline; what it misses meanwhile reaches it when it is back, once each.
    defender.context.set_offline(True)
    expect(defender.locator("[data-live-stream][data-live-connected]")).to_have_count(0)
    targets = [stand_id(referee, "attacker", n) for n in (0, 5, 9)]
    for unit in targets:
        api(referee, "POST", f"/api/v1/games/{game_id}/units/{unit}/markers", {"delta": 1})
    step = referee.locator("#turn .turn-step").inner_text()
    referee.get_by_role("button", name="Next step").click()
    expect(referee.locator("#turn .turn-step")).not_to_have_text(step)
    step = referee.locator("#turn .turn-step").inner_text()
    # Missed while offline: nothing of it on the defender's board yet.
    assert defender.locator(f"#unit-{targets[0]} .marker").count() == 0
    condition = " && ".join(
        [f"document.querySelectorAll('#unit-{u} .marker').length === 1" for u in targets]
        + [f"document.querySelector('#turn .turn-step')?.textContent.includes({json.dumps(step.strip())})"]
    )
    watch(defender, condition)
    start = now_ms(defender)
    defender.context.set_offline(False)
    record("catch-up", {"ms": seen_after(defender, start)})
    # Nothing doubled (one marker each, each log entry once) and nothing lost (the same record as the
    # referee's, who never went away).
    defender.wait_for_timeout(600)  # a late duplicate frame or fetch would land within this
    for unit in targets:
        expect(defender.locator(f"#unit-{unit} .marker")).to_have_count(1)
    ids = defender.locator("#log [data-event]").evaluate_all("els => els.map(e => e.dataset.event)")
    assert len(ids) == len(set(ids)), ids
    assert ids == referee.locator("#log [data-event]").evaluate_all("els => els.map(e => e.dataset.event)")


def test_the_mons_game_fits_two_1080p_screens_and_the_suppressed_filter_one(new_page: Any) -> None:
    page = new_page(REFEREE_SCREEN)
    game_id, made = seed_game(page)
    start_game(page, game_id, made["referee_token"])
    open_board(page, game_id)
    expect(page.locator("#turn .turn-step")).to_contain_text("Support orders")
    stands = page.locator("li.stand")
    assert stands.count() >= 175
    for side, nth in (("attacker", 2), ("defender", 7), ("defender", 30)):
        api(page, "POST", f"/api/v1/games/{game_id}/units/{stand_id(page, side, nth)}/markers", {"delta": 1})
    expect(page.locator("li.stand[data-sup]")).to_have_count(3)
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 2 * REFEREE_SCREEN["height"], f"{height} px for {stands.count()} stands"
    # Every stand of both sides is drawn (none hidden, none clipped).
    assert page.locator("li.stand:visible").count() == stands.count()
    screenshot(page, "referee-board")
    page.get_by_role("button", name="Suppressed").click()
    expect(page.locator("li.stand:visible")).to_have_count(3)
    assert page.evaluate("document.documentElement.scrollHeight") <= REFEREE_SCREEN["height"]
    assert small_targets(page) == []
    # A filter holds across a live update: a fourth suppressed stand appears, the rest stay hidden.
    api(page, "POST", f"/api/v1/games/{game_id}/units/{stand_id(page, 'attacker', 40)}/markers", {"delta": 1})
    expect(page.locator("li.stand:visible")).to_have_count(4)


def test_filters_collapse_and_this_battalion(new_page: Any) -> None:
    page = new_page(TABLET_LANDSCAPE)
    game_id, _ = seed_game(page)
    open_board(page, game_id)
    blocks = page.locator("details.block")
    first = blocks.first
    first.locator("summary").click()
    expect(first.locator("li.stand").first).to_be_hidden()
    # A live update of the board (the game started through the API) keeps the block closed.
    start_game(page, game_id)
    expect(page.locator("#turn .turn-step")).to_contain_text("Support orders")
    expect(first.locator("li.stand").first).to_be_hidden()
    page.get_by_role("button", name="Expand all").click()
    expect(first.locator("li.stand").first).to_be_visible()
    page.get_by_role("button", name="Collapse all").click()
    expect(page.locator("li.stand:visible")).to_have_count(0)
    page.get_by_role("button", name="Expand all").click()
    battalion = page.locator("details.block").nth(3)
    page.get_by_label("Battalion").select_option(battalion.get_attribute("data-block"))
    expect(page.locator("details.block:visible")).to_have_count(1)
    assert page.locator("li.stand:visible").count() == battalion.locator("li.stand").count()
    page.get_by_label("Battalion").select_option("")
    page.get_by_role("button", name="Killed").click()
    expect(page.locator(".filter-empty")).to_be_visible()


def test_markers_only_where_the_step_allows_them_and_undo_only_where_allowed(new_page: Any) -> None:
    referee = new_page(REFEREE_SCREEN)
    game_id, made = seed_game(referee)
    open_board(referee, game_id)
    player = new_page(TABLET_LANDSCAPE)
    join_by_api(player, made["join_codes"]["attacker"])
    open_board(player, game_id)
    # Set-up: no markers, so no "+S" anywhere; the referee may show them to override the rules.
    for p in (referee, player):
        expect(p.locator(".add-marker:visible")).to_have_count(0)
    assert player.get_by_role("button", name="Override rules").count() == 0
    referee.get_by_role("button", name="Override rules").click()
    assert referee.locator(".add-marker:visible").count() >= 175
    referee.get_by_role("button", name="Override rules").click()
    referee.get_by_role("button", name="Start the game").click()
    expect(player.locator(".add-marker:visible").first).to_be_visible()

    # The player's own marker can be undone by the player; the referee's marker only by the referee.
    mine = stand_id(player, "defender", 0)
    player.locator(f"#unit-{mine} .add-marker").click()
    expect(player.locator(f"#unit-{mine} .marker")).to_have_count(1)
    theirs = stand_id(referee, "defender", 8)
    referee.locator(f"#unit-{theirs} .add-marker").click()
    expect(player.locator(f"#unit-{theirs} .marker")).to_have_count(1)
    entries = player.locator("#log .event")
    expect(entries.first).to_contain_text("by referee")
    expect(entries.first.get_by_role("button", name="Undo")).to_have_count(0)
    expect(entries.nth(1)).to_contain_text("by attacker")
    expect(entries.nth(1).get_by_role("button", name="Undo")).to_have_count(1)
    expect(referee.locator("#log .event").first.get_by_role("button", name="Undo")).to_have_count(1)
    # A die roll closes the player's undo before it (app/services/undo.py).
    # (The attacker's first MG ordered by the referee, whatever the step: the roll is what matters here.)
    units = api(referee, "GET", f"/api/v1/games/{game_id}/units")["body"]
    mg = next(u for u in units if u["side"] == "attacker" and u["kind"] == "mmg")
    api(
        referee,
        "POST",
        f"/api/v1/games/{game_id}/resolve/order-roll",
        {"unit_id": mg["id"], "dice": [4], "override": True},
    )
    expect(player.locator("#log .event").first).to_contain_text("rolled")
    expect(player.locator("#log .event").get_by_role("button", name="Undo")).to_have_count(0)
    # Undo from the referee's board: the entry shows "undone" on every device, the marker is gone.
    referee.locator("#log .event", has_text="by attacker").get_by_role("button", name="Undo").click()
    expect(player.locator(f"#unit-{mine} .marker")).to_have_count(0)
    expect(player.locator("#log .event.undone")).to_have_count(1)


def test_the_log_keeps_its_place_while_it_grows(new_page: Any) -> None:
    page = new_page(TABLET_LANDSCAPE)
    game_id, made = seed_game(page)
    start_game(page, game_id, made["referee_token"])
    open_board(page, game_id)
    units = [stand_id(page, "attacker", n) for n in range(0, 60, 3)]
    for unit in units:
        api(page, "POST", f"/api/v1/games/{game_id}/units/{unit}/markers", {"delta": 1})
    expect(page.locator(f"#unit-{units[-1]} .marker")).to_have_count(1)
    scroller = page.locator("[data-log-scroll]")
    assert scroller.evaluate("el => el.scrollHeight > el.clientHeight + 200")
    scroller.evaluate("el => { el.scrollTop = 200; }")
    anchor = page.locator(f"#event-{page.locator('#log .event').nth(8).get_attribute('data-event')}")
    where = anchor.evaluate("(li) => li.getBoundingClientRect().top")
    count = page.locator("#log .event").count()
    # One more event, live: a write this board did not make (every write reaches it by the stream alike).
    marked = page.request.post(
        f"/api/v1/games/{game_id}/units/{stand_id(page, 'attacker', 61)}/markers",
        data={"delta": 1},
        headers=bearer(made["referee_token"]),
    )
    assert marked.status == 200, marked.text()
    expect(page.locator("#log .event")).to_have_count(count + 1)
    settled(page)  # the scroll anchoring's frame
    assert abs(anchor.evaluate("(li) => li.getBoundingClientRect().top") - where) < 2


def test_a_turn_button_tapped_is_spent_until_the_panel_of_the_version_it_made_arrives(new_page: Any) -> None:
    """The turn panel's buttons name the game's version they act on. Once one is done that version is gone: a
    second tap before the new panel came was refused as "someone changed this" (the referee's own Next step
    tapped again at once, in CI's loaded run). The tapped button waits, disabled, for the panel that replaces it."""
    referee = new_page(REFEREE_SCREEN)
    game_id, _codes = create_mons_game(referee)
    # No live stream and the board's read of what changed held: the new panel arrives when the test says.
    referee.route(STREAM, lambda route: route.abort())
    held: list[Any] = []

    def hold(route: Any) -> None:
        held.append(route)

    referee.route("**/referee/changes?*", hold)
    referee.get_by_role("link", name="Referee screen").click()
    referee.wait_for_url(f"**/games/{game_id}/referee")
    start = referee.get_by_role("button", name="Start the game")
    with referee.expect_response(lambda r: r.url.endswith("/turn/advance")) as started:
        start.click()
    assert started.value.status == 200, started.value.text()
    expect(start).to_be_disabled()
    # The board's read of the change answered: its panel names the new version, its button ready.
    for _ in range(10_000):
        if held:
            break
        referee.evaluate("0")  # the route's handler runs as the page's events are read
    assert held, "the board never read what changed"
    for route in held:
        route.continue_()
    referee.unroute("**/referee/changes?*", hold)
    version = referee.request.get(f"/api/v1/games/{game_id}").json()["version"]
    step = referee.get_by_role("button", name="Next step")
    expect(step).to_be_enabled()
    assert json.loads(step.get_attribute("data-body") or "{}") == {"version": version}
