"""The map's score chip never covers a tool of the tool bar (issue 64: on the 1180 tablet it covered "Whole
table"), at each of the four sizes, with the bar at its fullest: the attacker's seat of Mons with its clock,
its Arrivals and card tools shown as a turn with arrived fire and cards to draw shows them (table-arrivals.js,
table-cards.js) and the chip flagging a contested objective as game-score.js does. What only Chromium adds: the layout."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import PHONE, REFEREE_SCREEN, TABLET_LANDSCAPE, TABLET_PORTRAIT
from tests.frontend.games import join_by_api, seed_game
from tests.frontend.test_map import start_game

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", [TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE, REFEREE_SCREEN], ids=str)
def test_the_score_chip_covers_no_tool(new_page: Any, size: dict[str, int]) -> None:
    page = new_page(size)
    game_id, made = seed_game(page, {"scenario": "mons-1914", "clock": {"game_minutes": 180}})
    start_game(page, game_id, made["referee_token"])
    join_by_api(page, made["join_codes"]["attacker"])
    page.goto(f"/games/{game_id}/map")
    expect(page.locator("[data-score-chip] [data-side-clock]").first).to_be_attached()
    # Shown and measured in one evaluate: a live frame may hide a tool again between two.
    covered = page.evaluate(
        """() => { ['[data-arrivals-tool]', '[data-cards-tool]'].forEach((s) => { document.querySelector(s).hidden = false; });
             const flag = document.querySelector('[data-score-flag]'); flag.hidden = false; flag.textContent = '1 contested';
             const c = document.querySelector('[data-score-chip]').getBoundingClientRect();
             return [...document.querySelectorAll('.map-toolbar .tool')].filter((t) => t.offsetParent)
               .filter((t) => { const r = t.getBoundingClientRect();
                 return r.left < c.right && c.left < r.right && r.top < c.bottom && c.top < r.bottom; })
               .map((t) => t.textContent.trim()); }"""
    )
    assert covered == [], covered
    # Every tool in sight on the screen: none scrolled out of the bar.
    out = page.evaluate(
        """() => [...document.querySelectorAll('.map-toolbar .tool')].filter((t) => t.offsetParent)
             .filter((t) => { const r = t.getBoundingClientRect(); return r.left < 0 || r.right > innerWidth; })
             .map((t) => t.textContent.trim())"""
    )
    assert out == [], out
