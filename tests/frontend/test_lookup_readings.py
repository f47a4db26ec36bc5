"""The reading an erratum's dispute was decided by, under the lookup's answer, in a real browser (issue 69): what
Chromium adds to the page's tests (tests/app/test_lookup_readings.py) is the tap itself, htmx sending the
button's reading with the dice still tapped, and the answer's line at the four sizes, axe-core clean."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.axe import serious_violations
from tests.frontend.conftest import (
    PHONE,
    REFEREE_SCREEN,
    TABLET_LANDSCAPE,
    TABLET_PORTRAIT,
    assert_no_horizontal_scroll,
    htmx_idle,
    screenshot,
    small_targets,
)
from tests.frontend.games import bearer
from tests.frontend.test_lookup import tap_die
from tests.frontend.test_map_play import Taps, open_map, set_up

pytestmark = pytest.mark.browser


def test_the_answer_names_its_reading_and_one_tap_answers_by_the_other(new_page: Any) -> None:
    page = new_page(PHONE)
    page.goto("/lookup/flanders-fields/shooting?period=early")
    # Raw infantry shooting at a stand in the open, 10 cm away, rolling a 3.
    page.locator("#f-firer label.chip", has_text=re.compile("^Infantry$")).click()
    htmx_idle(page)
    page.fill("#f-range-cm", "10")
    page.press("#f-range-cm", "Enter")
    htmx_idle(page)
    page.locator("label.toggle", has_text="raw").click()
    htmx_idle(page)
    tap_die(page, 0, 3)
    line = page.locator("#answer .reading-used")
    expect(line).to_contain_text("Reading: Raw troops shooting: Playsheet")
    by_sheet = page.locator("#answer .outcome").inner_text()
    found = []
    for size in (TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE, REFEREE_SCREEN):
        page.set_viewport_size(size)
        page.locator("#answer [data-readings-used]").scroll_into_view_if_needed()
        found += [f"{size['width']}x{size['height']}: {v}" for v in serious_violations(page)]
        assert_no_horizontal_scroll(page)
        assert not small_targets(page), (size, small_targets(page))
        screenshot(page, "lookup-reading")
    assert not found, found

    page.get_by_role("button", name="Answer it by: Main text").click()
    htmx_idle(page)
    expect(line).to_contain_text("Reading: Raw troops shooting: Main text")
    expect(page.locator(".die-pad input:checked")).to_have_value("3")
    assert page.locator("#answer .outcome").inner_text() != by_sheet
    # The other reading stays chosen: the errata the roll reads say so.
    expect(page.locator("details.errata summary")).to_contain_text("1 changed")


def raw_mg_card(referee: Any) -> tuple[str, dict[str, str], Callable[[Any], Taps]]:
    """A raw MG's shot open on the referee's map card, its dice tapped so that the raw penalty's reading decides
    it: the game's API address, the referee's headers, and the taps that open the card so on a page of the
    referee's device (done on `referee`'s first)."""
    game_id, answer, stands = set_up(referee)  # the Mons game, its MG 40 cm before a British platoon, ordered
    mg, target = stands["mg"], stands["mg_target"]
    as_referee = bearer(answer["referee_token"])
    api = f"/api/v1/games/{game_id}"
    # A raw MG (the referee overriding set-up's rule): its die on the threshold is decided by the raw penalty.
    version = referee.request.get(f"{api}/units/{mg['id']}", headers=as_referee).json()["version"]
    made_raw = referee.request.put(
        f"{api}/units/{mg['id']}",
        headers=as_referee,
        data={"version": version, "quality": "raw", "override": True},
    )
    assert made_raw.status == 200, made_raw.text()
    card = f"/games/{game_id}/map/units/{mg['id']}/play/shooting?act=Shoot&target={target['id']}"
    others = len(
        referee.request.post(
            f"{api}/ask/shooting", headers=as_referee, data={"unit_id": mg["id"], "target_id": target["id"]}
        )
        .json()["resolution"]
        .get("also", [])
    )
    dice = next(
        [d, *[1] * others]
        for d in range(1, 7)
        if "data-play-reading-line" in referee.request.get(card + f"&die={d}" + "&die=1" * others).text()
    )

    def shoot(page: Any) -> Taps:
        open_map(page, game_id)
        taps = Taps(page)
        taps.stand(mg["x"], mg["y"])
        taps.button("Shoot")
        taps.stand(target["x"], target["y"])
        for row, die in enumerate(dice):
            taps.button(f"Die showing {die}", within=page.locator(".play-dice").nth(row))
        expect(page.locator("[data-play-reading-line]")).to_contain_text(
            "Reading: Raw troops shooting: Playsheet"
        )
        return taps

    shoot(referee)
    return api, as_referee, shoot


def test_the_referee_plays_the_other_reading_from_a_stands_card(new_page: Any) -> None:
    """The card's tap is api-action.js's write and table-act.js's card asked again: the answer by the game's new
    reading, the same dice still tapped (the page's side of it: tests/app/games/test_stand_card_readings.py)."""
    referee = new_page(TABLET_LANDSCAPE)
    api, as_referee, _ = raw_mg_card(referee)
    taps = Taps(referee)
    line = referee.locator("[data-play-reading-line]")
    before = referee.locator("[data-play-outcome]").get_attribute("data-play-outcome")
    found = []
    for size in (TABLET_PORTRAIT, PHONE, REFEREE_SCREEN, TABLET_LANDSCAPE):
        referee.set_viewport_size(size)
        expect(line).to_be_visible()
        found += [f"card at {size['width']}x{size['height']}: {v}" for v in serious_violations(referee)]
    assert not found, found
    taps.button("Play it by: Main text")
    expect(line).to_contain_text("Reading: Raw troops shooting: Main text (a variant)")
    expect(referee.locator("[data-play-outcome]")).not_to_have_attribute("data-play-outcome", before or "")
    assert referee.request.get(api, headers=as_referee).json()["variants"] == {
        "raw-firer-penalty": "main-text"
    }


def test_a_reading_changed_on_another_device_re_answers_the_open_card(new_page: Any) -> None:
    """Issue 89: the referee's change made on another device (its stream's frame) marked the open card's line, yet
    its answer stayed the old reading's: the card is asked again (table-act.js), the same dice, by the new one."""
    referee = new_page(TABLET_LANDSCAPE)
    _, _, shoot = raw_mg_card(referee)
    before = referee.locator("[data-play-outcome]").get_attribute("data-play-outcome")
    other = referee.context.new_page()  # the referee's other screen: the same card, its reading played there
    other.set_viewport_size(TABLET_LANDSCAPE)
    shoot(other).button("Play it by: Main text")
    expect(other.locator("[data-play-reading-line]")).to_contain_text("Main text (a variant)")  # played there
    line = referee.locator("[data-play-reading-line]")
    expect(line).to_contain_text("Reading: Raw troops shooting: Main text (a variant)")
    expect(referee.locator("[data-play-outcome]")).not_to_have_attribute("data-play-outcome", before or "")
    expect(line).not_to_have_attribute("data-stale", re.compile(".*"))
