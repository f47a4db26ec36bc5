"""A 2mm heavy weapon's fistful entered as a count by taps (issue 89): the demo battle made on the start page, the
attacker joined with its code, the game started and moved on by the referee's Next step; the Machinegun pair's
shot at the elite 2. Kompanie (3 dice, +1, Resilience 6) is its count, the bonus's Yes and Apply: at most 3 taps
from its target (it was a tap a die and Apply, 7 taps a shot). The card with both questions is looked at at the
four sizes (screenshots), its controls 44 px and on screen, and axe-core finds no serious violation at any. The
count's answers: tests/app/games/test_stand_card_bonus_count.py; its faces and odds: tests/rules/earth2mm."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.axe import serious_violations
from tests.frontend.conftest import PHONE, REFEREE_SCREEN, TABLET_LANDSCAPE, TABLET_PORTRAIT, screenshot
from tests.frontend.games import join, open_maps, settled
from tests.frontend.test_earth2mm_bound import Player

pytestmark = pytest.mark.browser

MG, TARGET = "Machinegun Company, platoon 1", "2. Kompanie, platoon 1"
TAPS_AT_MOST = 3


class Demo:
    """The demo battle as the start page makes it: its units by name, read as the attacker's device reads them."""

    def __init__(self, page: Any, game_id: int) -> None:
        self.id = game_id
        self.units = {u["name"]: u for u in page.request.get(f"/api/v1/games/{game_id}/units").json()}

    def uid(self, name: str) -> int:
        return int(self.units[name]["id"])

    def stand(self, name: str) -> tuple[float, float]:
        u = self.units[name]
        return float(u["x"]), float(u["y"])


def created_on_the_start_page(referee: Any) -> tuple[int, dict[str, str]]:
    """The demo battle picked among the scenarios and created: its id and the join codes shown."""
    referee.goto("/")
    referee.locator("label.chip", has_text="The farm and the redoubt").click()
    referee.get_by_role("button", name="Create game").click()
    referee.wait_for_selector("[data-join-code]")
    codes = {
        el.get_attribute("data-join-code"): el.inner_text().strip()
        for el in referee.locator("[data-join-code]").all()
    }
    href = referee.get_by_role("link", name="Referee screen").get_attribute("href") or ""
    found = re.search(r"/games/(\d+)/", href)
    assert found, href
    return int(found.group(1)), codes


def moved_on_to(referee: Any, game_id: int, step: str) -> None:
    """The referee's board: the game started, then Next step until the executing step `step`."""
    referee.goto(f"/games/{game_id}/referee")
    for _ in range(20):
        turn = referee.request.get(f"/api/v1/games/{game_id}/turn").json()
        if turn["status"] == "playing" and turn["step"]["id"] == step:
            return
        button = referee.get_by_role(
            "button", name="Start the game" if turn["status"] == "setup" else "Next step"
        )
        with referee.expect_response(lambda r: r.url.endswith("/turn/advance")) as stepped:
            button.click()
        assert stepped.value.status == 200, (
            stepped.value.text()
        )  # a refusal says why (a version not the game's)
    raise AssertionError(f"never reached {step}")


def looked_at(page: Any, size: dict[str, int]) -> list[str]:
    """The counted card at `size`: its count's and bonus's buttons on screen and 44 px, its screenshot, and
    axe-core's findings."""
    page.set_viewport_size(size)
    settled(page)
    found = []
    for b in page.locator("[data-count-reached], [data-count-lifted]").all():
        b.scroll_into_view_if_needed()
        box = b.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, (size, box)
    screenshot(page, "earth2mm-counted-bonus")
    found += [f"at {size}: {v}" for v in serious_violations(page)]
    return found


def test_a_machinegun_pairs_shot_by_count_in_three_taps(new_page: Any) -> None:
    referee = new_page(REFEREE_SCREEN, has_touch=False)
    game_id, codes = created_on_the_start_page(referee)
    attacker = new_page(TABLET_LANDSCAPE)
    join(attacker, codes["attacker"])
    moved_on_to(referee, game_id, "execute-2")  # heavy weapons that did not move last bound shoot
    open_maps(game_id, attacker)
    a = Player(attacker, Demo(attacker, game_id))

    a.card(MG, "Shoot")
    expect(attacker.locator("[data-play-prompt]")).to_be_visible()
    a.at(TARGET)
    count = attacker.locator("[data-play-count]")
    expect(count).to_be_visible()
    assert not attacker.locator("[data-die-row]").count()  # no die to tap one by one
    taps = a.count
    a.button("1", within=count)
    lift = attacker.locator("[data-play-lift]")
    expect(
        attacker.get_by_text("Did one of the other dice show 5? The bonus lifts one to 6.")
    ).to_be_visible()
    found: list[str] = []
    for size in (TABLET_PORTRAIT, PHONE, REFEREE_SCREEN, TABLET_LANDSCAPE):
        found += looked_at(attacker, size)
    a.button("Yes", within=lift)
    outcome = attacker.locator("[data-play-outcome]")
    expect(outcome).to_contain_text("1 of 3 dice reached 6+, another lifted to it")
    a.button("Apply")
    done = attacker.locator("[data-play-done]")
    expect(done).to_contain_text("1 of 3 dice reaching 6+, another lifted to it by the bonus")
    assert a.count - taps <= TAPS_AT_MOST, a.count - taps
    print(
        f"a Machinegun pair's shot by count: {a.count} taps from its card, {a.count - taps} from its target"
    )
    assert not found, "\n".join(found)
