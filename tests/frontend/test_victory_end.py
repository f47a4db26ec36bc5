"""A scenario's victory conditions met and chosen on by the referee's taps (issue 89), from the start page: a
Mons scenario of four conditions (points reached, a side broken, held N turns: Mons the defender's as turn 1
ends, an objective taken) imported as its file in the scenario editor (its File section's Import) and picked on
the start page; each met in turn (a German platoon moved on the referee's map in a second tab, the step's refusal
overridden; turn 1 ended by the referee's Next step) is told on the attacker's map too and offered to the referee
above the board, who plays on after the points, the side broken (its stand destroyed by three taps of +S) and
the hold, and ends the game on the objective taken.
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
from tests.frontend.games import join, open_maps
from tests.frontend.test_end_of_game import SIZES, looked_at
from tests.frontend.test_referee_result import move_as_referee

pytestmark = [pytest.mark.browser, pytest.mark.long]  # over 6 s on CI: scheduled first (tests/conftest.py)

MONS = Path(__file__).parents[2] / "rules/flanders_fields/data/scenarios/mons-1914.json"
TITLE = "Mons, four ways to win"
CONDITIONS = [
    {"kind": "objective_taken", "objective": "bridge-1", "side": "attacker"},
    {"kind": "points", "points": 2},
    {"kind": "side_broken", "side": "defender", "stands_lost": 1},
    {"kind": "points", "points": 3},  # held N turns: Mons itself, the defender's for 1 turn's end is 3 points
]
MONS_HELD = {  # the town in the defender's deployment zone, the defender's until a German stand is there alone
    "type": "Feature",
    "id": "mons",
    "geometry": {
        "type": "Polygon",
        "coordinates": [[[55.0, 168.0], [65.0, 168.0], [65.0, 176.0], [55.0, 176.0], [55.0, 168.0]]],
    },
    "properties": {"name": "Mons", "vp": 3, "scored": "held_turns", "turns": 1, "held_by": "defender"},
}


def scenario(page: Any, folder: Path) -> None:
    """The club's scenario file (bridge 2 worth 2 points to the first side to take it, Mons 3 to the defender
    holding it as turn 1 ends) imported as a person does it, from the start page: Build a scenario, the
    editor's File section, Import a file; then back to Start."""
    doc = json.loads(MONS.read_text())
    doc["table_objectives"]["features"][1]["properties"].update({"scored": "first_taken", "vp": 2})
    doc["table_objectives"]["features"].append(MONS_HELD)
    file = folder / "mons-four-ways.json"
    file.write_text(
        json.dumps({**doc, "id": "mons-four-ways", "title": TITLE, "victory_conditions": CONDITIONS})
    )
    page.goto("/")
    page.get_by_role("link", name="Build a Flanders Fields scenario").click()
    page.wait_for_url("**/scenarios/new**")
    page.wait_for_load_state()  # htmx binds the file's change at load: a file chosen before it is not sent
    page.locator("[data-scn-tab=file]").click()
    with page.expect_response(lambda r: r.url.endswith("/scenarios/import")) as sent:
        page.get_by_label("Import a file").set_input_files(str(file))
    assert sent.value.status == 201, sent.value.text()
    page.wait_for_url("**/scenarios/mons-four-ways/edit?tab=file")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Start").click()
    page.wait_for_url(lambda url: url.endswith("/"))


def test_each_condition_met_is_told_everywhere_and_the_referee_plays_on_or_ends_the_game_on_it(
    new_page: Any, tmp_path: Path
) -> None:
    referee = new_page(TABLET_LANDSCAPE)
    scenario(referee, tmp_path)
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
    # The referee's map in a second tab beside the board (its Map link), where the referee moves the stands.
    table = referee.context.new_page()
    table.on("dialog", lambda d: d.accept())  # "Do it anyway as the referee?" where the step refuses a move
    open_maps(game_id, attacker, table)
    units = referee.request.get(f"/api/v1/games/{game_id}/units").json()
    platoons = [u for u in units if u["base"] == "infantry-platoon" and u["x"] is not None]
    german = [u for u in platoons if u["side"] == "attacker"]

    # Points reached: bridge 2 taken is 2 points. Told on the attacker's map; the referee plays on, one tap.
    move_as_referee(table, german[0], (80.0, 120.0))  # the stand, Move, where it goes
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

    # Held N turns: Mons, the defender's as turn 1 ends, is 3 points. The referee's Next step until it has ended.
    expect(alert.locator("[data-score-met='4']")).to_have_count(0)  # not before the turn's end
    while referee.request.get(f"/api/v1/games/{game_id}/turn").json()["turn"] == 1:
        with referee.expect_response(lambda r: r.url.endswith("/turn/advance")) as stepped:
            referee.get_by_role("button", name="Next step").click()
        assert stepped.value.status == 200, stepped.value.text()
    expect(attacker.locator("[data-score-met='4']").first).to_contain_text(
        "the defender reached 3 victory points first"
    )
    held = alert.locator("[data-score-met='4']")
    expect(held).to_contain_text("the defender reached 3 victory points first")
    held.get_by_role("button", name="Play on").click()
    expect(alert.locator("[data-score-met='4']")).to_have_count(0)

    # An objective taken: bridge 1. The referee ends the game on it, one tap; every device reads its winner.
    move_as_referee(table, german[1], (40.0, 120.0))
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
