"""A scenario's victory conditions met and chosen on by the referee's taps (issue 89), from the start page: a
Mons scenario of three conditions (points reached, a side broken, an objective taken) picked there; each met in
turn is told on the attacker's map too and offered to the referee above the board, who plays on after the
points and the side broken (its stand destroyed by three taps of +S) and ends the game on the objective taken.
Every device then reads the condition's winner, and the report why. The offer and the ended board and map are
looked at each size (1920x1080, 1180x820, 820x1180, 390x844), axe-core clean. That each kind ends a game with
its winner in both rule sets is the API tier's (tests/app/games/test_victory_end.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import TABLET_LANDSCAPE, TABLET_PORTRAIT
from tests.frontend.games import csrf_header, join
from tests.frontend.test_end_of_game import SIZES, looked_at

pytestmark = [pytest.mark.browser, pytest.mark.long]  # over 6 s on CI: scheduled first (tests/conftest.py)

MONS = Path(__file__).parents[2] / "rules/flanders_fields/data/scenarios/mons-1914.json"
TITLE = "Mons, three ways to win"
CONDITIONS = [
    {"kind": "objective_taken", "objective": "bridge-1", "side": "attacker"},
    {"kind": "points", "points": 2},
    {"kind": "side_broken", "side": "defender", "stands_lost": 1},
]


def scenario(page: Any) -> None:
    """The club's scenario, imported as its file would be: bridge 2 worth 2 points to the first side to take it."""
    doc = json.loads(MONS.read_text())
    doc["table_objectives"]["features"][1]["properties"].update({"scored": "first_taken", "vp": 2})
    made = page.request.post(
        "/api/v1/scenarios",
        data={**doc, "id": "mons-three-ways", "title": TITLE, "victory_conditions": CONDITIONS},
    )
    assert made.status == 201, made.text()


def test_each_condition_met_is_told_everywhere_and_the_referee_plays_on_or_ends_the_game_on_it(
    new_page: Any,
) -> None:
    referee = new_page(TABLET_LANDSCAPE)
    scenario(referee)
    referee.goto("/")
    referee.get_by_label(TITLE).check()
    referee.get_by_role("button", name="Create game").click()
    referee.wait_for_selector("[data-join-code]")
    codes = {
        e.get_attribute("data-join-code"): e.inner_text().strip()
        for e in referee.locator("[data-join-code]").all()
    }
    referee.get_by_role("link", name="Referee screen").click()
    referee.wait_for_url("**/referee")
    game_id = int(referee.url.split("/games/")[1].split("/")[0])
    referee.on("dialog", lambda d: d.accept())  # the referee's own override, where a step refuses a marker
    referee.get_by_role("button", name="Start the game").click()
    alert = referee.locator("[data-score-met-alert]")
    attacker = new_page(TABLET_PORTRAIT)
    join(attacker, codes["attacker"])
    attacker.goto(f"/games/{game_id}/map")
    units = referee.request.get(f"/api/v1/games/{game_id}/units").json()
    platoons = [u for u in units if u["base"] == "infantry-platoon" and u["x"] is not None]
    german = [u for u in platoons if u["side"] == "attacker"]

    def moved(unit: dict[str, Any], x: float, y: float) -> None:
        """A German platoon moved by the referee, overriding the step (the map's taps: test_referee_result's)."""
        r = referee.request.post(
            f"/api/v1/games/{game_id}/units/{unit['id']}/move",
            data={"x": x, "y": y, "facing_deg": 90.0, "override": True},
            headers=csrf_header(referee),
        )
        assert r.status == 200, r.text()

    # Points reached: bridge 2 taken is 2 points. Told on the attacker's map; the referee plays on, one tap.
    moved(german[0], 80.0, 120.0)
    told = attacker.locator("[data-score-met='2']").first
    attacker.locator("[data-score-chip]").first.click()
    expect(told).to_contain_text("the attacker reached 2 victory points first")
    offer = alert.locator("[data-score-met='2']")
    expect(offer).to_contain_text("the attacker reached 2 victory points first")
    found = looked_at(referee, "condition-offered", offer.get_by_role("button", name="Play on"))
    offer.get_by_role("button", name="Play on").click()
    expect(alert.locator("[data-score-met='2']")).to_have_count(0)

    # A side broken: a British platoon destroyed by three taps of +S on the board (1% of the defender's stands).
    tommy = next(u for u in platoons if u["side"] == "defender")
    plus = referee.locator(f".add-marker[data-api$='/units/{tommy['id']}/markers']")
    for _ in range(3):
        with referee.expect_response(lambda r: r.url.endswith(f"/units/{tommy['id']}/markers")) as added:
            plus.click()
        assert added.value.status == 200, added.value.text()
    broken = alert.locator("[data-score-met='3']")
    expect(broken).to_contain_text("the defender has lost 1% of its stands: the attacker wins")
    broken.get_by_role("button", name="Play on").click()
    expect(alert.locator("[data-score-met='3']")).to_have_count(0)

    # An objective taken: bridge 1. The referee ends the game on it, one tap; every device reads its winner.
    moved(german[1], 40.0, 120.0)
    taken = alert.locator("[data-score-met='1']")
    expect(taken).to_contain_text("the attacker took Bridge 1")
    with referee.expect_navigation():
        taken.get_by_role("button", name="End the game: Attacker wins").click()
    result = referee.locator("[data-result-line]").first
    expect(result).to_have_attribute("data-result-winner", "attacker")
    expect(result).to_contain_text("The attacker took Bridge 1")
    found += looked_at(referee, "condition-ended-board", result)
    on_map = attacker.locator("[data-result-line]").first
    expect(on_map).to_have_attribute("data-result-winner", "attacker")  # live, no reload
    expect(on_map).to_contain_text("The scenario's victory condition 1")
    found += looked_at(attacker, "condition-ended-map", on_map, clear_of="[data-score-chip]")
    attacker.goto(f"/games/{game_id}/report")
    expect(attacker.locator("main")).to_contain_text(
        "ended by the referee on the scenario's victory condition 1"
    )
    assert len(SIZES) == 4 and not found, "\n".join(found)
