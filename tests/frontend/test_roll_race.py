"""A roll's answer on the card when a live frame changing the game's step (here the referee's advance: no roll
moves the step by itself, app/services/turns.py) lands between the roll's POST and its answer, as on a busy
machine. The POST is held by the test, not timed: its answer reaches the page once the page has drawn the step."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import DEADLINE_MS, TABLET_LANDSCAPE
from tests.frontend.games import bearer, join_by_api, seed_game, settled
from tests.frontend.test_map_play import Taps, api_of, open_map, ordered, placed, units_of

pytestmark = pytest.mark.browser


def test_a_rolls_answer_is_drawn_when_a_new_step_came_before_it(new_page: Any) -> None:
    page = new_page(TABLET_LANDSCAPE)
    # The Mons game in the attacker's battalion orders (seeded through the API); the page seated as the attacker.
    game_id, answer = seed_game(page)
    referee = bearer(answer["referee_token"])
    api = api_of(game_id)
    ordered(page, game_id, referee, "attacker", [])
    join_by_api(page, answer["join_codes"]["attacker"])
    stand = placed(units_of(page, game_id), "attacker", "rifle-platoon")[0]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_map(page, game_id)
    before = page.request.get(f"{api}/turn", headers=referee).json()
    turn = page.locator("[data-map-turn]")
    expect(turn).to_have_attribute("data-step", str(before["step"]["index"]))

    # The roll's POST reaches the server (its event recorded, its frame sent) and its answer is kept back.
    held: list[tuple[Any, Any]] = []
    page.route("**/resolve/order-roll", lambda route: held.append((route, route.fetch())))
    taps = Taps(page)
    taps.stand(stand["x"], stand["y"])
    expect(page.locator(f"[data-stand-acts='{stand['id']}']")).to_have_count(1)
    last = page.request.get(f"{api}/events", headers=referee).json()[-1]["id"]
    taps.button("Die showing 6", within=page.get_by_role("group", name="Order roll", exact=True))
    # The roll recorded and its answer held (the handler has its answer: looked at frame by frame), and its own
    # frame on the page.
    deadline = time.monotonic() + DEADLINE_MS / 1000
    while not held and time.monotonic() < deadline:
        settled(page)
    assert len(held) == 1
    expect(page.locator("[data-map-page]")).to_have_attribute("data-last-event", str(last + 1))

    # The referee moves the game on a step meanwhile; the page draws the new step and reads the stand's card anew,
    # its head first: that head is held, so the roll's answer comes between the new step and its card (ci72).
    heads: list[Any] = []
    page.route("**/map/units/*/head", lambda route: heads.append(route))
    moved = page.request.post(f"{api}/turn/advance", headers=referee, data={"version": before["version"]})
    assert moved.status == 200, moved.text()
    after = page.request.get(f"{api}/turn", headers=referee).json()
    assert after["step"]["index"] != before["step"]["index"]
    expect(turn).to_have_attribute("data-step", str(after["step"]["index"]))
    expect(page.locator(f"[data-stand-acts='{stand['id']}']")).to_have_count(1)
    deadline = time.monotonic() + DEADLINE_MS / 1000
    while not heads and time.monotonic() < deadline:
        settled(page)
    assert heads, "the new step's card read no head"

    # Then the roll's answer arrives, then the new step's card: the card shows the answer, and the page threw
    # nothing. Its Undo is offered as the undo service would answer it: a step came after the roll, so a player's
    # undo of it is the referee's call.
    route, response = held[0]
    route.fulfill(response=response)
    done = page.locator(f"[data-play-done='{last + 1}']")
    expect(done).to_be_visible()
    page.unroute("**/map/units/*/head")
    with page.expect_response("**/map/units/*/head"):
        for head in heads:
            head.continue_()
    settled(page)
    try:
        expect(done).to_be_visible()
    except AssertionError:
        raise AssertionError(f"the card shows no answer; the page's errors: {errors}") from None
    expect(page.locator("[data-play-undo-refused]")).to_contain_text("referee's call")
    assert errors == []
