"""axe-core (WCAG 2.2 AA) on the pages changed this session, at the four sizes the project supports: no serious or
critical violation. One device per role, resized through the sizes, so each page is set up once."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.axe import serious_violations
from tests.frontend.conftest import REFEREE_SCREEN, TABLET_LANDSCAPE, TABLET_PORTRAIT
from tests.frontend.games import create_mons_game, join
from tests.frontend.test_map import open_map, start_game
from tests.frontend.test_referee import first_live_stand
from tests.frontend.test_referee_live import open_board

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
SIZES = (TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE, REFEREE_SCREEN)


def violations_at_every_size(page: Any, name: str) -> list[str]:
    found = []
    for size in SIZES:
        page.set_viewport_size(size)
        found += [f"{name} at {size['width']}x{size['height']}: {v}" for v in serious_violations(page)]
    page.set_viewport_size(TABLET_LANDSCAPE)
    return found


def test_the_check_finds_a_violation(new_page: Any) -> None:
    page = new_page()
    page.goto("/")
    page.evaluate(
        "document.querySelector('main').append(Object.assign(document.createElement('input'), {type: 'text'}))"
    )
    assert any(v.startswith("label (critical)") for v in serious_violations(page)), serious_violations(page)


def test_start_page_and_print_view(new_page: Any) -> None:
    page = new_page()
    found = []
    for name, url in [("start", "/")] + [
        (f"{p} print view", f"/playsheets/{p}") for p in ("early", "mid", "late")
    ]:
        page.goto(url)
        found += violations_at_every_size(page, name)
    assert not found, "\n".join(found)


def test_join_confirm_fire_plan_referee_and_map(new_page: Any) -> None:
    referee = new_page()
    game_id, codes = create_mons_game(referee)
    found = []

    # The join form's confirm step: a device that plays the attacker enters the defender's code.
    player = new_page()
    join(player, codes["attacker"])
    join(player, codes["defender"])
    expect(player.locator("[data-seat-confirm]")).to_have_count(1)
    found += violations_at_every_size(player, "join confirm")

    # The defender's fire plan with two batteries planned and the rehearsal shown.
    defender = new_page()
    join(defender, codes["defender"])
    defender.goto(f"/games/{game_id}/fire-plan")
    for n, along in ((1, "60"), (2, "100")):
        defender.get_by_label("Battery or mortar").select_option(index=n - 1)
        defender.get_by_label("Along (cm)").fill(along)
        defender.get_by_label("Up (cm)").fill("168")
        defender.get_by_role("button", name="Add to plan").click()
        expect(defender.locator("[data-plan-item]")).to_have_count(n)
    expect(defender.locator("[data-heat]")).to_be_visible()
    found += violations_at_every_size(defender, "fire plan")

    # The game in play: the referee's board and the table map.
    start_game(referee, game_id)
    open_board(referee, game_id)
    expect(referee.locator(".turn-step")).to_contain_text("Support orders")
    # A stand with a marker, so its chip and "−S" button are checked too.
    marked = first_live_stand(referee, "Defender")
    marked.get_by_role("button", name="Add a suppression marker").click()
    expect(marked.locator(".marker")).to_have_count(1)
    found += violations_at_every_size(referee, "referee")
    open_map(referee, game_id)
    found += violations_at_every_size(referee, "map")
    assert not found, "\n".join(found)
