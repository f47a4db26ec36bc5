"""A game's end by the referee's taps (issue 89), from the start page: a secret objective given to the defender as
a point under one of its own stands is held, not contested, so "End the game…" offers "Yes" at once (before the
fix the end list named it with no call and the "Yes" never came); a German platoon then coming within 1 cm of it
(moved by the referee's clicks on the map in a second tab, the step's refusal overridden), it is listed with its
calls, the referee calls it and ends the game: three taps on the board. The defender's map reads the
result live, and the report says whose secret it was. At each size (1920x1080, 1180x820, 820x1180, 390x844) the
board's end list (empty, then the call) and the ended board and map are looked at, axe-core clean. The rules of
the call are the API tier's (tests/app/games/test_secret_objective_end.py); the victory conditions' end,
test_victory_end.py."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.axe import serious_violations
from tests.frontend.conftest import PHONE, REFEREE_SCREEN, TABLET_LANDSCAPE, TABLET_PORTRAIT, screenshot
from tests.frontend.games import create_mons_game, join, open_maps, settled
from tests.frontend.test_referee_result import move_as_referee

pytestmark = [pytest.mark.browser, pytest.mark.long]  # over 6 s on CI: scheduled first (tests/conftest.py)

SIZES = (REFEREE_SCREEN, TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE)


def looked_at(
    page: Any, name: str, shown: Any, clear_of: str = "", sizes: tuple[Any, ...] = SIZES
) -> list[str]:
    """The page at each size: `shown` in sight there and nothing of `clear_of` drawn over it, a picture, and
    axe-core's serious violations."""
    found: list[str] = []
    for size in sizes:
        page.set_viewport_size(size)
        settled(page)
        shown.scroll_into_view_if_needed()
        expect(shown).to_be_visible()
        screenshot(page, f"end-{name}")
        found += [f"{name} at {size['width']}: {v}" for v in serious_violations(page)]
        if clear_of:
            over = shown.evaluate(
                """(e, clear) => { const a = e.getBoundingClientRect();
                   return [...document.querySelectorAll(clear)].filter((o) => o.checkVisibility()).some((o) => {
                     const b = o.getBoundingClientRect();
                     return b.left < a.right && a.left < b.right && b.top < a.bottom && a.top < b.bottom; }); }""",
                clear_of,
            )
            found += [f"{name} at {size['width']}: {clear_of} over it"] if over else []
    page.set_viewport_size(REFEREE_SCREEN)
    return found


def test_a_secret_objective_under_its_own_sides_stand_is_scored_and_the_game_ended_in_three_taps(
    new_page: Any,
) -> None:
    referee = new_page(REFEREE_SCREEN, has_touch=False)
    game_id, codes = create_mons_game(referee)
    defender = new_page(TABLET_LANDSCAPE)
    join(defender, codes["defender"])
    # The referee reads where a British platoon stands (its card on the map says as much) and gives the defender
    # "Hold the farm" there: a point under its base, 1.5 cm deep, so no point of it lies 1 cm inside the base.
    units = referee.request.get(f"/api/v1/games/{game_id}/units").json()
    farm = next(u for u in units if u["side"] == "defender" and u["base"] == "infantry-platoon" and u["x"])
    referee.goto(f"/games/{game_id}/referee")
    give = referee.locator("#secret-objective")
    give.locator("summary").click()
    give.get_by_label("Defender").check()
    give.get_by_label("Name").fill("Hold the farm")
    give.get_by_label("Victory points").fill("3")
    give.get_by_label("Scored").select_option("game_end")
    give.get_by_label("Across").fill(str(farm["x"]))
    give.get_by_label("Along").fill(str(farm["y"]))
    give.get_by_role("button", name="Give it").click()
    expect(give.locator(".secret-given")).to_contain_text("Hold the farm")
    referee.get_by_role("button", name="Start the game").click()
    expect(referee.locator("[data-end-game]")).to_have_count(1)

    # Held, not contested: the score card reads it the defender's, the chip flags nothing.
    referee.locator(".score-bar [data-score-chip]").click()
    line = referee.locator("#score-card .score-objective", has_text="Hold the farm")
    expect(line).to_have_attribute("data-contested", "false")
    expect(line).to_contain_text("Held by the defender")
    expect(referee.locator("[data-score-flag]")).to_be_hidden()

    # Tap 1: End the game… lists nothing to call and offers "Yes" at once.
    end = referee.locator("[data-end-game]")
    end.locator("summary").click()
    confirm = end.locator("[data-end-confirm]")
    expect(confirm).to_be_visible()
    expect(end.locator("[data-end-settle] .score-objective")).to_have_count(0)
    found = looked_at(referee, "board-ending", confirm)

    # A German platoon comes within the tape's 1 cm of it: contested now, it is listed with its calls (a call reveals
    # it), the end waiting for none; tap 2, the referee calls it the defender's.
    assert farm["facing_deg"] in (90.0, 270.0), farm  # its base 1.5 cm deep along the table's length
    german = next(u for u in units if u["side"] == "attacker" and u["base"] == "infantry-platoon" and u["x"])
    assert german["facing_deg"] in (90.0, 270.0), german  # its base 1.5 cm deep along the length too
    table = referee.context.new_page()  # the referee's map (the board's Map link) in a second tab
    table.on("dialog", lambda d: d.accept())  # "Do it anyway as the referee?" where the step refuses the move
    open_maps(game_id, table)
    move_as_referee(table, german, (farm["x"], farm["y"] + 1.5))  # its base's near edge 0.75 cm off the point
    listed = end.locator("[data-end-settle] .score-objective", has_text="Hold the farm")
    expect(listed).to_contain_text("Secret: a call reveals it to both sides.")
    expect(confirm).to_be_visible()
    found += looked_at(referee, "board-ending-contested", listed)
    with referee.expect_response(lambda r: r.url.endswith("/score/calls")) as called:
        listed.get_by_role("button", name="Defender's", exact=True).click()
    assert called.value.status == 200, called.value.text()

    # Tap 3: Yes, end the game. The defender's 3 points win; its map reads the result live.
    with referee.expect_navigation():
        confirm.click()
    result = referee.locator("[data-result-line]").first
    expect(result).to_contain_text("Game over")
    expect(result).to_have_attribute("data-result-winner", "defender")
    found += looked_at(referee, "board-ended", result)
    defender.goto(f"/games/{game_id}/map")
    told = defender.locator("[data-result-line]").first
    expect(told).to_have_attribute("data-result-winner", "defender")
    # The map's turn chip sits in its bar, not over the result (a phone read it under the chip).
    found += looked_at(defender, "map-ended", told, clear_of="[data-score-chip]")

    # The report says whose secret it was, now that the game is over.
    report = new_page(TABLET_PORTRAIT)
    join(report, codes["attacker"])
    report.goto(f"/games/{game_id}/report")
    said = report.locator("[data-objective]", has_text="Hold the farm")
    expect(said).to_contain_text("the defender's secret objective, called by the referee for the defender")
    found += looked_at(
        report, "report", said, sizes=(PHONE,)
    )  # a page of text, looked at every size elsewhere
    assert not found, "\n".join(found)
