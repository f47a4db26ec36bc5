"""ci157: the attacker tapped "1 arrival" as the game reached its executing step, and the map's taps on the stands
under the circle opened their cards instead of laying shots. The card left open was being read anew for the new
step; its answer, come after the tap, put the stand's card back over the arrivals and ended their pick. A panel
tapped while a card's read is on its way stays: the read's answer is dropped, whether the card was read anew or
just tapped."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import REFEREE_SCREEN, TABLET_LANDSCAPE
from tests.frontend.games import seed_game, settled, sign_in
from tests.frontend.test_map_play import Taps

pytestmark = pytest.mark.browser


def held_head(page: Any, unit: int) -> list[Any]:
    """The next read of the stand's card head, held until the test lets it go (its route returned); the rest
    pass."""
    held: list[Any] = []

    def hold(route: Any) -> None:
        if held or not route.request.url.endswith(f"/units/{unit}/head"):
            route.continue_()
        else:
            held.append(route)

    page.route("**/head", hold)
    return held


def wait_for(page: Any, held: list[Any]) -> Any:
    for _ in range(10_000):
        if held:
            return held[0]
        page.evaluate("0")  # the route's handler runs as the page's events are read
    raise AssertionError("the card's head was never asked for")


def answered_after_the_key(page: Any, taps: Taps, held: list[Any]) -> None:
    """Key tapped while the card's read waits; the read answered; the Key's panel stays, the card's hidden."""
    route = wait_for(page, held)
    taps.button("Key")
    legend = page.locator("[data-map-panel] [data-panel='legend']")
    expect(legend).to_be_visible()
    with page.expect_event("requestfinished", lambda r: r.url.endswith("/head")):
        route.continue_()
    settled(page)  # the answer read by the page, in the frames after it arrived
    expect(legend).to_be_visible()
    expect(page.locator("[data-map-panel] [data-panel='stand']")).to_be_hidden()
    expect(page.locator("[data-tool='legend']")).to_have_attribute("aria-pressed", "true")


def test_a_tool_tapped_while_a_card_is_read_keeps_its_panel(new_page: Any) -> None:
    page = new_page(TABLET_LANDSCAPE)
    game_id, answer = seed_game(page)
    # The referee's other device: its board, where the game is started and moved on by taps.
    board = new_page(REFEREE_SCREEN, has_touch=False)
    sign_in(board, answer["referee_token"])
    board.goto(f"/games/{game_id}/referee")
    board.get_by_role("button", name="Start the game").click()
    expect(board.get_by_role("button", name="Next step")).to_be_visible()
    page.goto(f"/games/{game_id}/map")
    expect(page.locator("svg[data-table-map][data-loaded]")).to_have_count(1)
    unit = next(
        u for u in page.request.get(f"/api/v1/games/{game_id}/units").json() if u.get("x") is not None
    )
    taps = Taps(page)

    # A stand tapped, its card's first read slow: Key tapped before it comes.
    held = held_head(page, unit["id"])
    taps.stand(unit["x"], unit["y"])
    answered_after_the_key(page, taps, held)
    page.unroute("**/head")

    # The card open, read anew for the step the referee's other device moves the game to: Key tapped meanwhile.
    taps.button("Key")  # its panel closed, the stand in sight
    taps.stand(unit["x"], unit["y"])
    expect(page.locator(f"[data-map-page][data-stand-acts='{unit['id']}']")).to_have_count(1)
    held = held_head(page, unit["id"])
    board.get_by_role("button", name="Next step").click()
    answered_after_the_key(page, taps, held)
