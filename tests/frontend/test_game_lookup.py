"""The lookup inside a game: pick a unit, the form is preset from the game's state, and the resolution goes
through the in-game resolve endpoint, so it is recorded in the game's log and applied."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import (
    TABLET_LANDSCAPE,
    TABLET_PORTRAIT,
    assert_no_horizontal_scroll,
    screenshot,
    small_targets,
    unlabelled_controls,
)
from tests.frontend.games import bearer, csrf_header, join_by_api, seed_game

pytestmark = pytest.mark.browser


def start_game(page: Any, game_id: int, token: str | None = None, steps: int = 1) -> None:
    """Start the game as the page's referee (by its cookie, or by `token` when the page has opened nothing yet),
    and move on `steps` - 1 steps more."""
    headers = bearer(token) if token else csrf_header(page)
    for _ in range(steps):
        version = page.request.get(f"/api/v1/games/{game_id}").json()["version"]
        started = page.request.post(
            f"/api/v1/games/{game_id}/turn/advance", data={"version": version}, headers=headers
        )
        assert started.status == 200, started.text()
    assert started.json()["turn"]["status"] == "playing"


def pick_company(page: Any, battalion: str, company: str) -> str:
    """Open a battalion of the unit picker and tap one of its companies; returns the company's unit id."""
    summary = page.locator(
        "details.level-battalion > summary", has_text=re.compile(rf"^{re.escape(battalion)}\s")
    )
    summary.click()
    group = summary.locator("xpath=..")
    link = group.locator("a.unit-link.group-link", has_text=re.compile(f"^{company}$")).first
    unit_id = str(link.get_attribute("data-unit"))
    link.click()
    expect(page.locator(f"[data-picked-unit='{unit_id}']")).to_have_count(1)
    return unit_id


def test_order_roll_for_a_game_unit_in_three_taps(new_page: Any) -> None:
    """The flow on the landscape tablet: the picker fits, the order roll is three taps, recorded in the game and
    applied. On the portrait tablet (the same page resized, on the way): the picker fits, and the answer's
    Record is brought into sight by the docked answer's link."""
    attacker = new_page(TABLET_LANDSCAPE)
    game_id, created = seed_game(attacker)  # as the referee (the API only), then seated as the attacker
    start_game(attacker, game_id, created["referee_token"], steps=2)  # the battalion orders: companies roll
    join_by_api(attacker, created["join_codes"]["attacker"])
    attacker.goto(f"/lookup?game={game_id}")
    # A player picks among their own side's units only.
    expect(attacker.locator(".picker-side")).to_have_count(1)
    expect(attacker.locator(".picker-side")).to_have_attribute("aria-label", "Attacker units")
    for viewport in (TABLET_PORTRAIT, TABLET_LANDSCAPE):
        attacker.set_viewport_size(viewport)
        assert_no_horizontal_scroll(attacker)
        assert small_targets(attacker) == [], viewport
        screenshot(attacker, "lookup-game-picker")
    company = pick_company(attacker, "1/1 Bn", "1/1/1 Coy")
    # The game's period and readings are fixed and shown, not offered.
    expect(attacker.locator("[data-game-period]")).to_have_text("1914 to mid 1915")
    expect(attacker.get_by_role("navigation", name="Period")).to_have_count(0)

    # From the unit card (it links here): the unit, then what to resolve, then the die.
    attacker.goto(f"/lookup?game={game_id}&unit={company}")
    taps = 1

    def tap(locator: Any) -> None:
        nonlocal taps
        taps += 1
        locator.click()
        expect(attacker.locator(".htmx-request")).to_have_count(0)

    tap(attacker.get_by_role("navigation", name="What to resolve").get_by_role("link", name="Order roll"))
    # Preset from the game: the Mons company is a rifle company of an experienced battalion.
    expect(attacker.locator("#f-unit input[value='rifle-company']")).to_be_checked()
    expect(attacker.locator("#f-quality input[value='experienced']")).to_be_checked()
    expect(attacker.locator("#f-quality .from-game")).to_contain_text("quality of 1. Regiment, Battalion 1")
    tap(attacker.locator(".die-pad").nth(0).locator("label.face", has_text=re.compile("^4$")))
    assert taps == 3
    answer = attacker.locator("#answer")
    # 1914 playsheet, Battalion Rifle Companies: "2-4 = 1 Action". Answered, not yet recorded.
    expect(answer.locator(".outcome")).to_have_text("1 action")
    expect(answer.locator("[data-recorded-event]")).to_have_count(0)
    # Recording is its own clear action, away from the dice (no "roll and record" beside "Clear").
    expect(attacker.locator(".dock").get_by_role("button", name=re.compile("record", re.I))).to_have_count(0)
    button = attacker.get_by_role("button", name="Record in the game")
    # In sight above the fold where the die was tapped.
    box, fold = button.bounding_box(), attacker.evaluate("window.innerHeight")
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= fold, (box, fold)
    # On the portrait tablet it is under the form: the docked answer's link brings it into sight, above the dock.
    attacker.set_viewport_size(TABLET_PORTRAIT)
    attacker.locator(".dock-line a", has_text="why, and record").click()  # (the line is aria-hidden)
    expect(button).to_be_in_viewport()
    box, top_of_dock = button.bounding_box(), attacker.locator(".dock").bounding_box()["y"]
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= top_of_dock, (box, top_of_dock)
    assert_no_horizontal_scroll(attacker)
    assert small_targets(attacker) == []
    assert unlabelled_controls(attacker) == []

    attacker.set_viewport_size(TABLET_LANDSCAPE)
    button.click()
    expect(attacker.locator(".htmx-request")).to_have_count(0)
    recorded = answer.locator("[data-recorded-event]")
    expect(recorded).to_contain_text("Recorded in the game log")
    event_id = int(str(recorded.get_attribute("data-recorded-event")))
    # The game-state values used, each with why, and the table's ranges with an en dash.
    expect(answer.locator("table.from-game")).to_contain_text("quality of 1. Regiment, Battalion 1")
    expect(answer.locator(".details")).to_contain_text("2–4")
    expect(attacker.locator(".odds-row.hit")).to_contain_text("(1/2)")

    events = attacker.request.get(f"/api/v1/games/{game_id}/events").json()
    roll = next(e for e in events if e["id"] == event_id)
    assert roll["kind"] == "roll" and roll["payload"]["resolver"] == "order-roll"
    assert roll["payload"]["unit_id"] == int(company) and roll["payload"]["resolution"]["dice"] == [4]
    # Applied: the company now has the one action it rolled.
    units = {str(u["id"]): u for u in attacker.request.get(f"/api/v1/games/{game_id}/units").json()}
    assert units[company]["actions_left"] == 1

    assert_no_horizontal_scroll(attacker)
    assert small_targets(attacker) == []
    assert unlabelled_controls(attacker) == []
    screenshot(attacker, "lookup-game")
    # Night chosen from the menu here comes back to this roll's form, not to the picker the page first opened at
    # (the newcomer pass: the panels' swaps moved the address on, the menu's way back stayed).
    attacker.locator("[data-page-menu] summary").click()
    attacker.get_by_role("button", name="Night").click()
    expect(attacker).to_have_url(
        re.compile(rf"/lookup/flanders-fields/order-roll\?\S*game={game_id}&unit={company}$")
    )


def test_roll_for_me_records_and_a_setup_game_refuses_in_words(new_page: Any) -> None:
    referee = new_page(TABLET_LANDSCAPE)
    game_id, _ = seed_game(referee)
    referee.goto(f"/lookup?game={game_id}")
    # The referee picks from both sides.
    expect(referee.locator(".picker-side")).to_have_count(2)
    pick_company(referee, "1/1 Bn", "1/1/2 Coy")
    referee.get_by_role("navigation", name="What to resolve").get_by_role("link", name="Order roll").click()
    # The game has not started: the roll is offered greyed, the pipeline's refusal beside it in a sentence, never
    # JSON (app.services.acts.refusal, as a stand's card greys an act), and nothing is recorded.
    greyed = referee.get_by_role("button", name="Let firestep roll and record it")
    expect(greyed).to_have_attribute("aria-disabled", "true")
    said = referee.locator("[data-record-refused]")
    expect(said).to_contain_text("setup")
    assert "{" not in said.inner_text()
    expect(referee.locator("[data-recorded-event]")).to_have_count(0)

    start_game(referee, game_id, steps=2)  # the battalion orders: companies roll
    referee.reload()  # the offer as judged now
    referee.get_by_role("button", name="Let firestep roll and record it").click()
    expect(referee.locator("[data-recorded-event]")).to_have_count(1)
    expect(referee.locator("#answer .rolled")).to_contain_text("rolled by firestep")
