"""The table map: an artillery template dragged over two stands shows one fully and one partly under it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import (
    TABLET_LANDSCAPE,
    TABLET_PORTRAIT,
    assert_no_horizontal_scroll,
    screenshot,
    small_targets,
)
from tests.frontend.games import create_game_by_hand, create_mons_game, csrf_header

pytestmark = pytest.mark.browser


def add_stand(page: Any, game_id: int, name: str, x: float, y: float) -> str:
    response = page.request.post(
        f"/api/v1/games/{game_id}/units",
        headers=csrf_header(page),
        data={
            "side": "defender",
            "name": name,
            "level": "platoon",
            "kind": "rifle-platoon",
            "base": "infantry-platoon",
            "x": x,
            "y": y,
            "facing_deg": 270,
        },
    )
    assert response.status == 201, response.text()
    return str(response.json()["unit"]["id"])


def screen_point(page: Any, x: float, y: float) -> tuple[float, float]:
    """Where table point (x, y) cm is on the screen (the map draws the table's y upwards)."""
    point: list[float] = page.evaluate(
        """([x, y]) => { const svg = document.querySelector('svg[data-table-map]');
             const p = svg.createSVGPoint(); p.x = x; p.y = Number(svg.dataset.length) - y;
             const s = p.matrixTransform(svg.getScreenCTM()); return [s.x, s.y]; }""",
        [x, y],
    )
    return point[0], point[1]


def test_artillery_template_over_two_stands(new_page: Any) -> None:
    page = new_page(TABLET_LANDSCAPE)
    game_id, _ = create_mons_game(page)
    # Two platoons (3 x 1.5 cm bases) in the empty middle of the Mons table, 5.5 cm apart.
    inside = add_stand(page, game_id, "Test platoon inside", 60, 100)
    edge = add_stand(page, game_id, "Test platoon on the edge", 60, 105.5)
    page.goto(f"/games/{game_id}/map")
    expect(page.locator("svg[data-table-map][data-loaded]")).to_have_count(1)
    page.get_by_role("button", name="Artillery", exact=True).click()
    # "a rectangle 10x10cm": centred at (60, 101) it spans y 96 to 106, so the first base (y 99.25 to
    # 100.75) lies inside and the second (y 104.75 to 106.25) crosses the far edge.
    start = screen_point(page, 60, 90)
    end = screen_point(page, 60, 101)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0], (start[1] + end[1]) / 2, steps=5)
    page.mouse.move(*end, steps=5)
    page.mouse.up()
    expect(page.locator(f"[data-stand='{inside}']")).to_have_class("map-stand defender cov-full")
    expect(page.locator(f"[data-stand='{edge}']")).to_have_class("map-stand defender cov-partial")
    expect(page.locator("[data-coverage='full']")).to_contain_text("Test platoon inside")
    expect(page.locator("[data-coverage='partial']")).to_contain_text("Test platoon on the edge")
    screenshot(page, "map")


def test_ruler_measures_in_cm(new_page: Any) -> None:
    page = new_page(TABLET_PORTRAIT)
    game_id, _ = create_mons_game(page)
    page.goto(f"/games/{game_id}/map")
    expect(page.locator("svg[data-table-map][data-loaded]")).to_have_count(1)
    page.get_by_role("button", name="Ruler").click()
    # A 3-4-5 triangle: 30 cm across and 40 cm up is 50 cm.
    page.mouse.click(*screen_point(page, 20, 30))
    page.mouse.click(*screen_point(page, 50, 70))
    expect(page.locator(".ruler-reading")).to_have_text("Ruler: 50.0 cm")
    assert_no_horizontal_scroll(page)
    assert small_targets(page) == []
    screenshot(page, "map")


def test_the_games_fire_plan_gas_and_barrage_are_drawn(new_page: Any) -> None:
    page = new_page(TABLET_LANDSCAPE)
    # Mid-war: the 1914 playsheet has no rolling barrages. This device is the referee: it writes either plan.
    game_id = create_game_by_hand(page, "mid")
    plan = f"/api/v1/games/{game_id}/fireplans/attacker"
    for item in (
        {"kind": "aiming-point", "grid": [30, 100], "battery": "A"},
        {"kind": "mortar", "grid": [90, 100]},
        {"kind": "gas", "grid": [60, 120], "gas": "offensive", "wind_deg": 90},
        {"kind": "rolling-barrage", "start_up_cm": 50, "duration_turns": 5},
    ):
        added = page.request.post(
            f"{plan}/items", data={"arrival_turn": 1, "item": item}, headers=csrf_header(page)
        )
        assert added.status == 201, added.text()
    for side in ("attacker", "defender"):
        lock = page.request.post(f"/api/v1/games/{game_id}/fireplans/{side}/lock", headers=csrf_header(page))
        assert lock.status == 200
    version = page.request.get(f"/api/v1/games/{game_id}").json()["version"]
    # Starting the game starts turn 1: the attacker's turn-1 items arrive on the table.
    started = page.request.post(
        f"/api/v1/games/{game_id}/turn/advance", data={"version": version}, headers=csrf_header(page)
    )
    assert started.status == 200
    page.goto(f"/games/{game_id}/map")
    expect(page.locator("svg[data-table-map][data-loaded]")).to_have_count(1)
    expect(page.locator(".board-fire")).to_have_count(2)
    expect(page.locator("[data-board-items]")).to_have_attribute("data-board-items", "4")
    # The aiming point under "a rectangle 10x10cm" (ARTILLERY BATTERIES AREA OF EFFECT).
    fire = page.locator(".board-fire rect")
    expect(fire).to_have_attribute("width", "10")
    # The attacker's gas cloud: "an area 20cm wide by 10cm deep if launched by the attacker" (GAS).
    gas = page.locator(".board-gas rect")
    expect(gas).to_have_attribute("width", "20")
    expect(gas).to_have_attribute("height", "10")
    # The barrage: 20 cm deep from its start line, 50 cm up from the attacker's edge, across the table
    # (SVG y = 180 - 70 = 110); "There is a danger area 6cm behind the RB": 44 to 50 cm up.
    barrage = page.locator("rect.board-barrage")
    expect(barrage).to_have_attribute("y", "110")
    expect(barrage).to_have_attribute("height", "20")
    expect(barrage).to_have_attribute("width", "120")
    danger = page.locator("rect.board-danger")
    expect(danger).to_have_attribute("y", "130")
    expect(danger).to_have_attribute("height", "6")
    screenshot(page, "map-board")
