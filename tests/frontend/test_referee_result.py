"""The referee's board with a contested objective, as the referee reads it at every size (issue 64): the score
card's contested bridge and its three calls readable (axe-core before any call: the dark board's light ink on
the contested line's cream read 1.02:1, its buttons 1.54:1), "End the game" listing the bridge with its call in
one tap and no "Yes" until it is called, and after the end no call offered."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from rules.registry import get_game_rules
from tests.frontend.axe import serious_violations
from tests.frontend.conftest import PHONE, REFEREE_SCREEN, TABLET_LANDSCAPE, TABLET_PORTRAIT, screenshot
from tests.frontend.games import bearer, seed_game, settled
from tests.frontend.test_map import start_game

pytestmark = pytest.mark.browser

SIZES = (REFEREE_SCREEN, TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE)


def test_a_contested_bridge_is_read_and_called_before_the_game_ends(new_page: Any) -> None:
    referee = new_page(REFEREE_SCREEN, has_touch=False)  # the referee at a screen with a mouse
    game_id, created = seed_game(referee)
    token = created["referee_token"]
    api = f"/api/v1/games/{game_id}"
    start_game(referee, game_id, token)
    # A German platoon 0.5 cm short of bridge 1's south edge (y 117): within the tape's 1 cm, contested.
    units = referee.request.get(f"{api}/units").json()
    platoon = next(u for u in units if u["side"] == "attacker" and u["kind"] == "rifle-platoon" and u["x"])
    depth = get_game_rules("flanders-fields").book.kit.bases[platoon["base"]].depth_cm
    to = {"x": 40.0, "y": 117.0 - 0.5 - depth / 2, "facing_deg": 90, "override": True}
    assert referee.request.post(f"{api}/units/{platoon['id']}/move", data=to, headers=bearer(token)).ok

    referee.goto(f"/games/{game_id}/referee")
    referee.locator(".score-bar [data-score-chip]").click()
    line = referee.locator("#score-card [data-objective=bridge-1]")
    expect(line).to_have_attribute("data-contested", "true")
    expect(line.get_by_role("button")).to_have_count(3)
    expect(referee.locator("#score-card [data-objective=bridge-2] button")).to_have_count(0)  # not contested
    end = referee.locator("[data-end-game]")
    end.locator("summary").click()
    listed = end.locator("[data-end-settle] [data-objective=bridge-1]")
    expect(listed).to_contain_text("Contested")
    expect(end.locator("[data-end-confirm]")).to_be_hidden()  # not until the bridge is called
    found: list[str] = []
    for size in SIZES:
        referee.set_viewport_size(size)
        settled(referee)
        screenshot(referee, f"referee-contested-{size['width']}")
        found += [f"contested at {size['width']}: {v}" for v in serious_violations(referee)]
        # Nothing floats over what the referee acts on as the board scrolls: the filter bar, sticky, was drawn
        # over the clock's buttons (2mm at 1920x1080, axe target-size).
        floating = referee.evaluate(
            "() => [...document.querySelectorAll('.board-tools, .clock-bar, .score-bar')]"
            ".map((e) => getComputedStyle(e).position).filter((p) => p === 'sticky' || p === 'fixed')"
        )
        found += [f"a bar {p} over the board at {size['width']}" for p in floating]
    assert not found, "\n".join(found)

    # One tap calls it from the end's list; then the game ends in one more, and nothing offers a call after.
    referee.set_viewport_size(REFEREE_SCREEN)
    with referee.expect_response(lambda r: r.url.endswith("/score/calls")) as called:
        listed.get_by_role("button", name="Defender's", exact=True).click()
    assert called.value.status == 200, called.value.text()
    expect(end.locator("[data-end-confirm]")).to_be_visible()
    with referee.expect_navigation():
        end.locator("[data-end-confirm]").click()
    referee.locator(".score-bar [data-score-chip]").click()
    line = referee.locator("#score-card [data-objective=bridge-1]")
    expect(line).to_contain_text("as the referee called it")
    expect(referee.locator("[data-score-call]")).to_have_count(0)
    found = [f"ended: {v}" for v in serious_violations(referee)]
    assert not found, "\n".join(found)
