"""The referee's override on the map's stand card, as on the board (issue 64): a marker the rules of play refuse
now (the game in set-up) is placed anyway once the referee confirms it, and the log shows the override; and a Move
or a company's move armed ends as its card greys it live, where no override was asked. What the browser adds only:
the API's refusal of a player's override is tests/app/hostile/test_rules_of_play.py's."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import TABLET_LANDSCAPE
from tests.frontend.games import create_mons_game, join, open_maps, seed_game
from tests.frontend.test_map import screen_point, start_game

pytestmark = pytest.mark.browser


def test_the_referee_places_a_marker_the_step_refuses_from_the_maps_card(new_page: Any) -> None:
    page = new_page(TABLET_LANDSCAPE)
    game_id, _ = seed_game(page)
    units = page.request.get(f"/api/v1/games/{game_id}/units").json()
    stand = next(u for u in units if u["side"] == "defender" and u["base"] == "infantry-platoon" and u["x"])
    page.goto(f"/games/{game_id}/map")
    expect(page.locator(f"[data-stand='{stand['id']}']")).to_have_count(1)
    page.touchscreen.tap(*screen_point(page, stand["x"], stand["y"]))
    card = page.locator("[data-panel='stand']")
    expect(card.locator("[data-stand-name]")).to_be_visible()
    asked: list[str] = []

    def confirm(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.on("dialog", confirm)
    card.get_by_role("button", name="+1 marker").tap()
    expect(card.locator("[data-stand-markers]")).to_have_attribute("data-stand-markers", "1")
    assert len(asked) == 1 and "Do it anyway as the referee?" in asked[0], asked
    events = page.request.get(f"/api/v1/games/{game_id}/events").json()
    placed = next(e for e in reversed(events) if e["kind"] == "marker")
    assert placed["payload"]["override"]["by"] == "referee", placed


def test_the_referee_moves_a_stand_the_step_refuses_from_the_maps_card(new_page: Any) -> None:
    # In the attacker's step 1 only command stands move: a German platoon's Move is greyed with the rule's
    # sentence, and the referee's tap on it asks to do it anyway; the move lands with the override logged and
    # the instruction "Tap where … goes." leaves with the move made.
    page = new_page(TABLET_LANDSCAPE)
    game_id, made = seed_game(page)
    start_game(page, game_id, made["referee_token"])
    units = page.request.get(f"/api/v1/games/{game_id}/units").json()
    stand = next(u for u in units if u["side"] == "attacker" and u["base"] == "infantry-platoon" and u["x"])
    page.goto(f"/games/{game_id}/map")
    expect(page.locator(f"[data-stand='{stand['id']}']")).to_have_count(1)
    page.touchscreen.tap(*screen_point(page, stand["x"], stand["y"]))
    card = page.locator("[data-panel='stand']")
    move = card.locator("[data-stand-action='move']")
    expect(move).to_have_attribute("title", re.compile("Pick another stand"))
    asked: list[str] = []

    def confirm(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.on("dialog", confirm)
    move.tap()
    expect(page.locator("[data-notice-key='instruction']")).to_contain_text("goes.")
    to_y = stand["y"] + (4 if stand["y"] < 100 else -4)
    with page.expect_response(lambda r: r.url.endswith(f"/units/{stand['id']}/move")) as answer:
        page.touchscreen.tap(*screen_point(page, stand["x"], to_y))
    assert answer.value.status == 200, answer.value.text()
    expect(page.locator("[data-notice-key='instruction']")).to_have_count(0)
    assert len(asked) == 1 and "Do it anyway as the referee?" in asked[0], asked
    moved = next(e for e in page.request.get(f"/api/v1/games/{game_id}/events").json() if e["kind"] == "move")
    assert moved["payload"]["override"]["by"] == "referee", moved


def a_platoons_card_in_set_up(new_page: Any) -> tuple[Any, Any, int, list[dict[str, Any]], dict[str, Any]]:
    """A game made from the start page by its referee's device, the attacker's device seated by its code there, and
    an attacking platoon's card open on the attacker's map: the two pages, the game, its units and the platoon."""
    referee = new_page(TABLET_LANDSCAPE)
    game_id, codes = create_mons_game(referee)
    attacker = new_page(TABLET_LANDSCAPE)
    join(attacker, codes["attacker"])
    units = attacker.request.get(f"/api/v1/games/{game_id}/units").json()
    stand = next(u for u in units if u["side"] == "attacker" and u["base"] == "infantry-platoon" and u["x"])
    open_maps(game_id, attacker)
    attacker.touchscreen.tap(*screen_point(attacker, stand["x"], stand["y"]))
    return referee, attacker, game_id, units, stand


def test_a_move_armed_ends_as_its_card_greys_live(new_page: Any) -> None:
    # Both devices seated by the start page's taps: the attacker arms a platoon's Move in set-up, then the referee
    # starts the game (in the attacker's step 1 only command stands move). The card greys its Move live, and the
    # Move armed ends with it: no longer pressed, its "Tap where … goes." gone, the map's taps no move's (it stayed
    # armed, and the next tap was refused 409 with the rule's sentence).
    referee, attacker, game_id, _, _ = a_platoons_card_in_set_up(new_page)
    card = attacker.locator("[data-panel='stand']")
    move = card.locator("[data-stand-action='move']")
    move.tap()
    expect(move).to_have_attribute("aria-pressed", "true")
    expect(attacker.get_by_text(re.compile("Tap where .* goes"))).to_be_visible()
    referee.goto(f"/games/{game_id}/referee")
    referee.get_by_role("button", name="Start the game").click()
    expect(move).to_have_attribute("data-act-greyed", "")
    expect(move).to_have_attribute("aria-pressed", "false")
    expect(attacker.locator("[data-map-page]")).to_have_attribute("data-mode", "idle")
    expect(attacker.get_by_text(re.compile("Tap where .* goes"))).to_have_count(0)


def test_a_company_move_armed_ends_as_the_referees_marker_greys_it_live(new_page: Any) -> None:
    # In set-up the attacker presses a platoon's "Move its company" (its handles and "Drag ✥ …" shown); the referee
    # puts a marker on ANOTHER platoon of that company from his map's card, as an override. The attacker's card,
    # whose own stand did not change, greys its company's move live, and the handles and their sentence go with it
    # (the card was not read again: the move stayed offered, pressed, and the drag was refused 409; and where the
    # card greyed it, its sentence stayed: the newcomer pass of this stop).
    referee, attacker, game_id, units, stand = a_platoons_card_in_set_up(new_page)
    other = next(
        u for u in units if u["parent_id"] == stand["parent_id"] and u["id"] != stand["id"] and u["x"]
    )
    open_maps(game_id, referee)
    company = attacker.locator("[data-panel='stand'] [data-move-formation]").first
    company.tap()
    expect(company).to_have_attribute("aria-pressed", "true")
    expect(attacker.locator("[data-formation-move]")).to_have_count(1)
    expect(attacker.get_by_text(re.compile("Drag ✥ to move"))).to_be_visible()
    referee.on("dialog", lambda dialog: dialog.accept())
    referee.touchscreen.tap(*screen_point(referee, other["x"], other["y"]))
    expect(referee.locator("[data-panel='stand']")).to_have_attribute("data-head-of", str(other["id"]))
    referee.locator("[data-panel='stand']").get_by_role("button", name="+1 marker").tap()
    expect(company).to_have_attribute("data-act-greyed", "")
    expect(attacker.locator("[data-formation-move]")).to_have_count(0)
    expect(attacker.get_by_text(re.compile("Drag ✥ to move"))).to_have_count(0)
