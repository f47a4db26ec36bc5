"""Session 23's newcomer pass: on the map a notice (a refusal with its "Why?", "Tap where … goes.", "Taken back.")
pushed the table down while it showed, so the next tap on the map landed on another stand. On a landscape screen
(the attacker's tablet, the referee's) a notice takes no room from the table: the map's box is the same before,
while and after one shows; and an Undo that worked ("Taken back.") is told in the info tone, not as an error.
(A phone's and a portrait tablet's map keep the notice's row only while it shows: a row always kept there cost the
card's sheet the height that keeps its stands and dice in sight, tests/frontend/test_earth2mm_bound.py.)"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import REFEREE_SCREEN, TABLET_LANDSCAPE, TABLET_PORTRAIT, screenshot
from tests.frontend.games import at_rest, fresh_defender_platoon, map_at, seed_game
from tests.frontend.test_map import drag_by_touch, screen_point, unit_of
from tests.frontend.test_map_override import a_platoons_card_in_set_up
from tests.frontend.test_notices import refusal_shown
from tests.frontend.test_referee_result import move_as_referee

pytestmark = pytest.mark.browser

TABLE = "svg[data-table-map][data-loaded]"


def table_box(page: Any) -> dict[str, float]:
    box = page.locator(".table-map").bounding_box()
    assert box is not None
    return {k: round(v, 1) for k, v in box.items()}


def test_a_notice_never_moves_the_table(new_page: Any) -> None:
    page = new_page(TABLET_LANDSCAPE)
    game_id, _ = seed_game(page)
    page.goto(f"/games/{game_id}/map")
    expect(page.locator(TABLE)).to_have_count(1)
    notice = page.locator("#net-status .notice")
    for viewport in (TABLET_LANDSCAPE, REFEREE_SCREEN):
        map_at(page, viewport)
        before = table_box(page)
        # A refusal with its "Why?" (a real one, from the API), then an instruction beside it.
        got = refusal_shown(page, game_id)
        expect(notice.locator("p").first).to_have_text(got["body"]["detail"])
        assert table_box(page) == before, viewport
        page.evaluate(
            "() => window.firestepNotice('Tap where 1/1/3 Coy Plt 1 goes.', false, { key: 'instruction', tone: 'info' })"
        )
        expect(notice).to_have_count(2)
        assert table_box(page) == before, viewport
        screenshot(page, f"map-notice-{viewport['width']}x{viewport['height']}")
        for _ in range(2):
            notice.first.get_by_role("button", name="OK: dismiss this message").click()
        expect(page.locator("#net-status")).to_be_hidden()
        assert table_box(page) == before, viewport
    # A portrait tablet's row comes and goes with its notice (stop 116's standard turn): the table, fitted beside a
    # stand's card, was fitted anew as the card was next drawn (read anew, or its stand tapped again), and the finger
    # on its way to the next stand found none there. The table gives up the row's height and shows what it showed
    # where it was, the card drawn again or not.
    map_at(page, TABLET_PORTRAIT)
    stand = fresh_defender_platoon(page.request.get(f"/api/v1/games/{game_id}/units").json())
    unit = unit_of(page, game_id, stand)

    def tap_the_stand() -> None:
        page.touchscreen.tap(*screen_point(page, unit["x"], unit["y"]))
        expect(page.locator(f"[data-stand-acts='{stand}']")).to_have_count(1)

    tap_the_stand()
    before_boxes = stand_boxes(page)
    page.evaluate(
        "() => window.firestepNotice('Tap where it goes.', false, { key: 'instruction', tone: 'info' })"
    )
    expect(notice).to_have_count(1)
    assert stand_boxes(page) == before_boxes
    tap_the_stand()
    assert stand_boxes(page) == before_boxes
    notice.get_by_role("button", name="OK: dismiss this message").click()
    expect(page.locator("#net-status")).to_be_hidden()
    assert stand_boxes(page) == before_boxes
    tap_the_stand()
    assert stand_boxes(page) == before_boxes


def test_an_undo_that_worked_is_told_as_information(new_page: Any) -> None:
    page = new_page(TABLET_LANDSCAPE)
    game_id, _ = seed_game(page)
    page.on(
        "dialog", lambda dialog: dialog.accept()
    )  # the referee's override of the step's refusal, if asked
    page.goto(f"/games/{game_id}/map")
    expect(page.locator(TABLE)).to_have_count(1)
    # A stand the referee moves in set-up by taps, then takes back with its card's Undo.
    unit = next(
        u for u in page.request.get(f"/api/v1/games/{game_id}/units").json() if u.get("x") is not None
    )
    move_as_referee(page, unit, (unit["x"], unit["y"] - 3))
    undo = page.locator("[data-panel='stand'] [data-stand-undo]")
    expect(undo).to_have_text("Undo: moved 3 cm")
    at_rest(page, "svg[data-table-map]")
    before = table_box(page)
    undo.click()
    notice = page.locator("#net-status .notice")
    expect(notice.locator("> p")).to_have_text("Taken back.")
    expect(notice).to_have_class("notice info")
    expect(undo).to_have_count(0)  # the card read anew: nothing of the stand's left to take back
    assert table_box(page) == before


def test_a_refused_company_drag_is_read_in_the_row_while_its_instruction_lasts(new_page: Any) -> None:
    # The newcomer pass of stop 111: on a landscape tablet the attacker presses a platoon's "Move its company" (its
    # "Drag ✥ …" lasts while its handles do) and drags the company off the table's edge. The refusal came second in
    # the row, under the fold of its one line: what went wrong was not to be read. It comes first now.
    _, attacker, _, _, stand = a_platoons_card_in_set_up(new_page)
    attacker.locator("[data-panel='stand'] [data-move-formation]").first.tap()
    expect(attacker.get_by_text(re.compile("Drag ✥ to move"))).to_be_visible()

    def handle() -> tuple[float, float]:  # the ✥ handle's centre, once the map is still
        box = at_rest(attacker, "[data-formation-move]")
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    start = handle()
    edge = screen_point(attacker, 0, stand["y"])  # the table's left edge, level with the stand
    drag_by_touch(attacker, start, (max(edge[0] - 40, 2), start[1]))
    refused = attacker.locator("#net-status .notice:not(.info)")
    expect(refused).to_have_count(1)
    # The instruction stays beside it: the company's handles are still up.
    expect(attacker.locator("#net-status .notice.info")).to_have_count(1)
    row = attacker.locator("#net-status").bounding_box()
    seen = refused.locator("> p").bounding_box()
    assert row is not None and seen is not None
    assert row["y"] <= seen["y"] and seen["y"] + seen["height"] <= row["y"] + row["height"], (row, seen)
    # Dragged again, a little: the refusal, no longer true, goes as the drag begins (it stayed till dismissed, and
    # now hid the instruction: this stop's newcomer pass), and the company moves.
    start = handle()
    drag_by_touch(attacker, start, (start[0] + 30, start[1]))
    expect(refused).to_have_count(0)
    expect(attacker.get_by_text(re.compile("Drag ✥ to move"))).to_be_visible()


def stand_boxes(page: Any) -> list[list[float]]:
    """Where each stand is on the screen once the map is still (the card may still be docking)."""
    at_rest(page, "[data-map-canvas]")
    boxes: list[list[float]] = page.locator("[data-stand]").evaluate_all(
        "els => els.map((e) => { const r = e.getBoundingClientRect(); return [Math.round(r.x), Math.round(r.y)]; })"
    )
    return boxes
