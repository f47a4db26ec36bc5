"""The game clock in the browser (game-clock.js, issue 55): what only Chromium adds. The referee board shows each
side's time and runs the running side's on locally between frames, with no request per second; a side over its
limit is flagged out of time; the referee pauses it by touch. The clock's
arithmetic is tests/rules/core/test_clock.py's; its API tests/app/games/test_clock_api.py's; the board at every
size, and through axe-core, test_screens.py's.

The page's own clock is Playwright's (page.clock): half a minute runs in no time, so nothing here waits for it (not
longer: the live stream would find itself silent and read everything anew)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import PHONE, TABLET_LANDSCAPE
from tests.frontend.games import seed_game
from tests.frontend.test_map import start_game

pytestmark = pytest.mark.browser

# The clock's panel as this seat reads it (GET /games/{id}/clock/panel), one side's face set to `seconds` left, as
# a frame of a clock event would carry it (`clock_panel`): a frame made up, sent by the test below.
PANEL_WITH = """async ([side, seconds]) => {
  const url = document.querySelector('[data-game-clock]').dataset.gameClock;
  const html = await (await fetch(url, { headers: { 'HX-Request': 'true' } })).text();
  const part = document.createRange().createContextualFragment(html).firstElementChild;
  part.querySelector(`[data-clock-side='${side}']`).dataset.clockSeconds = String(seconds);
  return part.outerHTML;
}"""


def seconds(face: str) -> int:
    """A face of m:ss in seconds."""
    m, s = face.split(":")
    return int(m) * 60 + int(s)


def test_the_clock_runs_on_locally_flags_the_side_out_of_time_and_the_referee_pauses_it(
    new_page: Any,
) -> None:
    page = new_page(TABLET_LANDSCAPE)
    game_id, made = seed_game(page, {"scenario": "mons-1914", "clock": {"turn_minutes": 1}})
    start_game(page, game_id, made["referee_token"])
    reads: list[str] = []
    page.on(
        "request",
        lambda r: reads.append(r.url) if "/clock/panel" in r.url or r.url.endswith("/clock") else None,
    )
    page.clock.install()
    page.goto(f"/games/{game_id}/referee")
    expect(page.locator("[data-live-stream][data-live-connected]")).to_have_count(1)
    attacker = page.locator("[data-clock-side='attacker']")
    expect(attacker).to_have_attribute("data-running", "")
    expect(page.locator("[data-clock-side='defender']")).not_to_have_attribute("data-running", "")
    before = attacker.locator(".clock-time").inner_text()  # the time left in the turn, m:ss

    # Half a minute on the page's own clock: the face counts down by it, with no request.
    page.clock.run_for(30_000)
    ran = seconds(before) - seconds(attacker.locator(".clock-time").inner_text())
    assert 29 <= ran <= 33, (before, ran)  # to the last whole second shown, and the real ones meanwhile
    assert reads == [], reads  # the page came with it (app/pages/clock_panel.py): no read, then or since
    # A frame whose clock leaves the attacker 3 s of its turn: the face crosses zero by itself and says so.
    nearly = page.evaluate(PANEL_WITH, ["attacker", 3])
    page.evaluate(
        "(panel) => document.dispatchEvent(new CustomEvent('firestep:event', {detail: {kind: 'step', clock_panel: panel}}))",
        nearly,
    )
    page.clock.run_for(5_000)
    expect(attacker).to_have_attribute("data-out-of-time", "")
    expect(attacker).to_contain_text("out of time")
    expect(page.locator("#net-status")).to_contain_text("The attacker is out of time")

    # The referee's pause, by touch (every device's stream carries it: tests/app/test_stream_frames.py).
    page.get_by_role("button", name="Pause clock").tap()
    expect(page.locator("[data-game-clock]")).to_have_attribute("data-clock-state", "paused")
    expect(page.locator("[data-game-clock]")).to_contain_text("Paused")
    expect(page.get_by_role("button", name="Resume clock")).to_be_visible()

    # The score chip reads a side's clock as the clock's face does: 59.6 s left is 0:59 on both (issue 64's
    # newcomer pass: the ended game's chip said 9:38 beside the face's 9:37, its seconds rounded, not cut).
    # The frame is made up, so a real answer still on its way (the pause's own frame, a score read it started)
    # may land after it and put the true clocks back: it is sent again until both show it, which only a chip
    # that rounded would never do. What both read is taken at that moment (a true answer landing a moment later
    # puts the true clocks back: one run read the chip again just after one).
    paused = page.evaluate(PANEL_WITH, ["defender", 59.6])
    shown = page.wait_for_function(
        """(panel) => {
            document.dispatchEvent(new CustomEvent('firestep:event', {detail: {kind: 'step', clock_panel: panel}}));
            const face = document.querySelector("[data-clock-side='defender'] .clock-time")?.textContent;
            const chip = document.querySelector('.score-bar [data-score-chip]')?.textContent || '';
            return face === '0:59' && chip.includes('Def 0 0:59') && { face, chip };
        }""",
        arg=paused,
        polling=250,
    ).json_value()
    assert shown["face"] == "0:59" and "Def 0 0:59" in shown["chip"], shown


def test_the_referee_sets_each_sides_limits_from_the_board_and_undoes_them_in_one(new_page: Any) -> None:
    """Issue 64: the board's form sends each side's limits in seconds or minutes and a tournament rule as one
    act; the faces take them from its live frame, and the log's Undo takes them back, the form with them."""
    page = new_page(TABLET_LANDSCAPE)
    game_id, made = seed_game(page)
    start_game(page, game_id, made["referee_token"])
    page.goto(f"/games/{game_id}/referee")
    expect(page.locator("[data-live-stream][data-live-connected]")).to_have_count(1)
    defender = page.locator("[data-clock-side='defender']")
    expect(defender).to_have_attribute("aria-label", re.compile("used"))

    page.get_by_text("Clock limits and rules").tap()
    side = page.get_by_role("group", name="Defender")
    side.get_by_label("Each turn", exact=True).fill("45")
    side.get_by_label("Each turn: unit").select_option("s")
    page.get_by_label("A side out of time finishes the act under way").check()
    # Set on the phone: the answer is the form open, its line saying what was set in sight where the button was
    # tapped (the newcomer pass: it folded, nothing in sight saying it took).
    page.set_viewport_size(PHONE)
    page.get_by_role("button", name="Set the clock").tap()
    expect(page.locator("[data-clock-said]")).to_contain_text("Clock set: the defender 45 s each turn")
    expect(page.locator("[data-clock-said]")).to_be_in_viewport()
    page.set_viewport_size(TABLET_LANDSCAPE)
    expect(defender.locator(".clock-time")).to_have_text("0:45")  # all of its turn's 45 s left: not its turn
    # The face says which time it shows.
    expect(defender.locator(".clock-what")).to_have_text("left this turn")
    expect(defender).to_have_attribute("aria-label", re.compile("left this turn"))

    page.locator("[data-kind='clock-limits-set']").get_by_role("button", name=re.compile("^Undo")).tap()
    expect(defender).to_have_attribute("aria-label", re.compile("used"))
    expect(page.locator("[data-clock-said]")).to_have_count(
        0
    )  # the undo's frame draws the form anew, as undone
    expect(side.get_by_label("Each turn", exact=True)).to_have_value("")
    expect(page.get_by_label("A side out of time finishes the act under way")).not_to_be_checked()
