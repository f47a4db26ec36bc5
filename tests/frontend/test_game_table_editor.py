"""A campaign battle's generated table edited in the scenario editor before the game starts (issue 27), in
Chromium with the mouse at 1920x1080: the organiser opens the battle's game, follows "Edit the table", draws a
wood, drags a stand and puts down an objective by taps, saves, and the game's API, score and map show them; the
page passes axe-core at 1180x820.
The campaign, its battle and the battle's game are made through the API (the taps that make them are
test_campaign_page.py's and test_campaign_table_battle.py's)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.app.campaigns.conftest import new_campaign
from tests.app.campaigns.test_table_battles import open_battle
from tests.app.campaigns.test_table_battles import to_resolve as battle_to_resolve
from tests.frontend.axe import serious_violations
from tests.frontend.conftest import (
    REFEREE_SCREEN,
    TABLET_LANDSCAPE,
    screenshot,
    small_targets,
    unlabelled_controls,
)
from tests.frontend.games import csrf_header, sign_in
from tests.frontend.test_scenario_editor import Editor, stands

pytestmark = pytest.mark.browser

# The topmost stand handle of a placed stand (handles of stands side by side overlap): the one a mouse grabs.
GRABBABLE = """() => {
  const S = window.firestepScenario;
  const all = ["attacker", "defender"].flatMap((side) => S.doc().sides[side].forces);
  const walk = (u) => [...(u.base && u.placement ? [u] : []), ...(u.children || []).flatMap(walk)];
  for (const s of all.flatMap(walk)) {
    const p = S.pagePoint(s.placement.center);
    const hit = document.elementFromPoint(p.x, p.y);
    if (hit && hit.closest(".scn-handle")?.dataset.stand === s.id) return s;
  }
  return null;
}"""


def test_the_organiser_edits_a_campaign_battles_table_before_it_starts(
    new_page: Any, server_url: str
) -> None:
    page = new_page(REFEREE_SCREEN)
    with httpx.Client(base_url=server_url, timeout=30) as http:
        campaign = new_campaign(http, {"name": "Club campaign"})
        battle_to_resolve(http, campaign)
        opened = open_battle(http, campaign)
    sign_in(page, opened["referee_token"])
    game_id = int(opened["table_battle"]["game_id"])
    page.goto(f"/games/{game_id}/created")
    api = f"/api/v1/games/{game_id}"
    before = page.request.get(f"{api}/state").json()
    units = {str(u["id"]): u for u in page.request.get(f"{api}/units").json()}

    page.get_by_role("link", name="Edit the table").first.click()
    page.wait_for_url(f"**/games/{game_id}/table/edit")
    root = page.locator("[data-scenario-editor]")
    expect(root).to_have_attribute("data-loaded-game", str(game_id))
    ed = Editor(page, touch=False)
    features = len(before["terrain"]["features"])
    expect(root).to_have_attribute("data-terrain", str(features))  # the generated terrain, drawn
    expect(page.locator("[data-scn-tab=forces]")).to_have_count(0)  # the campaign's forces stay as they are
    expect(page.locator(".scn-handle")).to_have_count(
        sum(1 for u in units.values() if u["base"] and u["x"] is not None and not u["off_table"])
    )

    # A wood in the middle of the table, drawn as a box with two clicks.
    width, length = before["table_width_cm"], before["table_length_cm"]
    ed.draw("woods", "Rectangle", [(10, length / 2 - 8), (24, length / 2 + 4)])

    # A stand dragged by its handle towards the middle of the table.
    ed.tab("deploy")
    stand = page.evaluate(GRABBABLE)
    assert stand is not None, "no stand's handle can be grabbed"
    start = page.evaluate("p => window.firestepScenario.pagePoint(p)", stand["placement"]["center"])
    target = [round(width / 2, 1), round(length / 2, 1)]
    to = page.evaluate("p => window.firestepScenario.pagePoint(p)", target)
    page.mouse.move(start["x"], start["y"])
    page.mouse.down()
    page.mouse.move(to["x"], to["y"], steps=8)
    page.mouse.up()
    moved = next(s for s in stands_in(ed.doc()) if s["id"] == stand["id"])
    assert moved["placement"]["center"] == pytest.approx(target, abs=0.3)

    # An objective put down by taps in the scenario editor's own section: a point on the table, named.
    objectives = len((before["board"].get("table_objectives") or {}).get("features", []))
    taps = Editor(page, touch=True)
    taps.tab("objectives")
    expect(root).to_have_attribute("data-objectives", str(objectives))  # the battle's own, drawn
    taps.press(page.locator("[data-objective-draw=point]"))
    taps.at(width / 2, length / 2 + 20)
    expect(root).to_have_attribute("data-objectives", str(objectives + 1))
    page.get_by_label("Name of the objective").fill("The crossroads")

    # The editor on the game's table at 1180x820: axe-core, targets and labels on each of its sections.
    page.set_viewport_size(TABLET_LANDSCAPE)
    for name in ("terrain", "objectives", "deploy", "file"):
        ed.tab(name)
        assert serious_violations(page) == [], name
        assert small_targets(page) == [], name
        assert unlabelled_controls(page) == [], name
        screenshot(page, f"game-table-editor-{name}")
    ed.press(page.get_by_role("button", name="Save the table"))
    expect(page.locator("[data-file-message]")).to_have_text("The table is saved to the game.")
    assert ed.errors == [] and taps.errors == []

    # The game holds both: its terrain has the wood, the stand stands where it was dragged.
    after = page.request.get(f"{api}/state").json()
    kinds = [f["properties"]["kind"] for f in after["terrain"]["features"]]
    assert len(kinds) == features + 1 and kinds[-1] == "woods"
    unit = page.request.get(f"{api}/units/{stand['id']}").json()
    assert [unit["x"], unit["y"]] == moved["placement"]["center"]
    assert unit["version"] == units[stand["id"]]["version"] + 1
    kinds_logged = [e["kind"] for e in page.request.get(f"{api}/events").json()]
    assert kinds_logged[-2:] == ["game-updated", "move"]  # the terrain and the objectives: one edit
    scored = [o["name"] for o in page.request.get(f"{api}/score").json()["objectives"]]
    assert len(scored) == objectives + 1 and scored[-1] == "The crossroads"
    # Once the game has started, a page still open refuses to save in one sentence, and the page is a 409.
    turn = page.request.get(f"{api}/turn").json()
    started = page.request.post(
        f"{api}/turn/advance", headers=csrf_header(page), data={"version": turn["version"]}
    )
    assert started.ok, started.text()
    ed.press(page.get_by_role("button", name="Save the table"))
    expect(page.locator("[data-file-message]")).to_have_text(
        "Not saved: the game has started, and its table can be edited only before it starts."
    )
    late = page.request.get(f"/games/{game_id}/table/edit")
    assert late.status == 409 and "its table can be edited only before it starts" in late.text()
    page.goto(f"/games/{game_id}/map")
    expect(page.locator("path.terrain")).to_have_count(features + 1)
    expect(page.locator("path.terrain-woods").last).to_be_attached()
    expect(page.locator("path[data-objective-shape]")).to_have_count(objectives + 1)
    screenshot(page, "game-table-edited-map")


def stands_in(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for side in ("attacker", "defender") for f in doc["sides"][side]["forces"] for s in stands(f)]
