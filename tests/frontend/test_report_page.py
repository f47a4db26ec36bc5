"""The after-action report page (issues 26 and 42): opened from the game's menu once the game is over, it opens
with the story of the game, each turn's first sentence above the fold at 1180x820, and shows each roll at the
odds the resolve answer showed, and the result in words once the game is over (issue 55); no serious axe-core violation at the four sizes; printed, the report alone."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from playwright.sync_api import expect

from rules.core.consequences import odds_words
from tests.frontend.axe import serious_violations
from tests.frontend.conftest import (
    PHONE,
    REFEREE_SCREEN,
    TABLET_LANDSCAPE,
    TABLET_PORTRAIT,
    assert_no_horizontal_scroll,
    screenshot,
)
from tests.frontend.games import bearer, seed_game
from tests.frontend.test_map import start_game

pytestmark = pytest.mark.browser

DE_BN1 = "mons-1914/de/infantry-regiment-1/infantry-battalion-1"
BN1 = "mons-1914/gb/infantry-brigade-1/infantry-battalion-1"


def _post(page: Any, path: str, body: dict[str, Any], token: str) -> dict[str, Any]:
    r = page.request.post(path, data=body, headers=bearer(token))
    assert r.status == 200, r.text()
    return dict(r.json())


def test_the_report_opens_with_the_story_and_shows_the_ledger_at_the_odds_rolled(new_page: Any) -> None:
    referee = new_page(TABLET_LANDSCAPE)
    game_id, created = seed_game(referee)
    token = created["referee_token"]
    api = f"/api/v1/games/{game_id}"
    start_game(referee, game_id, token)
    version = referee.request.get(api).json()["version"]
    _post(referee, f"{api}/turn/advance", {"version": version}, token)  # the battalion orders: its units roll
    units = {u["ref"]: u for u in referee.request.get(f"{api}/units").json()}
    mg = units[f"{DE_BN1}/mmg-company-1/mmg-1"]
    target = next(u for r, u in units.items() if r.startswith(f"{BN1}/rifle-company-3/"))
    _post(referee, f"{api}/units/{mg['id']}/move", {"x": 10, "y": 118, "override": True}, token)
    # Mons starts its MGs on their packs: the referee unpacks this one (unordered: its override); its beaten
    # zone's stands roll a 1.
    version = referee.request.get(f"{api}/units/{mg['id']}").json()["version"]
    unpacked = {"version": version, "packed": False, "override": True}
    assert referee.request.put(f"{api}/units/{mg['id']}", data=unpacked, headers=bearer(token)).ok
    aimed = {"unit_id": mg["id"], "target_id": target["id"]}
    asked = referee.request.post(f"{api}/ask/shooting", data=aimed, headers=bearer(token)).json()
    behind = [1] * len(asked["resolution"].get("also", []))
    answers = [
        _post(
            referee,
            f"{api}/resolve/order-roll",
            {"unit_id": units[f"{DE_BN1}/rifle-company-1"]["id"], "dice": [6]},
            token,
        ),
        _post(
            referee,
            f"{api}/resolve/shooting",
            # Not the MG's nearest troops: the referee's override (issue 37).
            {**aimed, "dice": [6, *behind], "override": True},
            token,
        ),
    ]
    # On into turn 2, where the game ends: the story tells two turns.
    while referee.request.get(api).json()["turn"] < 2:
        version = referee.request.get(api).json()["version"]
        _post(referee, f"{api}/turn/advance", {"version": version}, token)
    version = referee.request.get(api).json()["version"]
    _post(referee, f"{api}/finish", {"version": version}, token)

    referee.goto(f"/games/{game_id}/referee")
    # The finished game's turn panel offers the report; the game's menu does on every page.
    expect(
        referee.get_by_role("link", name="After-action report and luck ledger", exact=True)
    ).to_be_visible()
    referee.locator("[data-page-menu] > summary").click()
    referee.get_by_role("link", name="After-action report and luck ledger (printable)").click()
    # The report's first heading is the story's, and each turn's first sentence is above the fold.
    expect(referee.get_by_role("heading").first).to_have_text("The story of the game")
    # The end of the game in words (issue 55): its result above the story, its points after it.
    expect(referee.locator("[data-result-words]")).to_contain_text("Game over in turn 2")
    expect(referee.locator("[data-result-winner=draw]")).to_contain_text("A draw.")
    expect(referee.get_by_role("heading", name="The result")).to_be_visible()
    turns = referee.locator("[data-story] [data-turn]")
    expect(turns).to_have_count(2)
    for first in turns.locator("[data-first]").all():
        box = first.bounding_box()
        assert box is not None and box["y"] + box["height"] <= TABLET_LANDSCAPE["height"], box
    expect(referee.locator("[data-decisive] li").first).to_contain_text("Turn 1")
    for a in answers:
        res = a["resolution"]
        shown = referee.locator(f"[data-roll='{a['event_id']}'] [data-odds]")
        expect(shown).to_have_text(odds_words(Fraction(res["probabilities_exact"][res["outcome_key"]])))
    found = []
    for size in (TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE, REFEREE_SCREEN):
        referee.set_viewport_size(size)
        found += [f"report at {size['width']}x{size['height']}: {v}" for v in serious_violations(referee)]
        assert_no_horizontal_scroll(referee)
        screenshot(referee, "after-action-report")
    assert not found, "\n".join(found)
    # Printed, the sheet is the report alone: no menu or navigation.
    referee.emulate_media(media="print")
    expect(referee.locator("header.topbar")).to_be_hidden()
    expect(referee.get_by_role("heading", name="The story of the game")).to_be_visible()
