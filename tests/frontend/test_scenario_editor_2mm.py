"""The scenario editor builds a 2mm Earth 1418 scenario by touch at 1180x820 (issue 40): one area of each of the
rule set's terrain classes, two strategic formations a side of two sub-units each built from its
characteristics chart, laid out in the zones, saved and a game started from it. What the server makes of the
pieces (the chart's builder, the page's data, the sheet) is proved at the API tier
(tests/app/games/test_earth2mm_forces_api.py, tests/frontend/test_scenario_editor_http.py,
tests/app/test_scenario_sheet_api.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.axe import serious_violations
from tests.frontend.conftest import TABLET_LANDSCAPE, screenshot
from tests.frontend.test_csp import violations
from tests.frontend.test_scenario_editor import Editor, open_editor, stored_at

pytestmark = pytest.mark.browser

EARTH = "2mm-earth-1418"
# Each class drawn as a kind of it, the class named (a feature may name another than its kind's).
CLASSES = {
    "open": "hill",
    "rough": "woods",
    "defensible": "village",
    "fortification": "strongpoint",
    "impractical": "marsh",
    "road": "road",
}
# Two formations a side, each of a sub-unit of the chart's first kind and one of another, two bases each.
FORMATIONS = {"attacker": ("1st Bn", "2nd Bn"), "defender": ("I. Btl", "II. Btl")}
SECOND_KIND = {"attacker": "machineguns", "defender": "elite-inf"}


def add_formation(ed: Editor, side: str, name: str) -> None:
    page = ed.page
    page.locator(f"[data-side-name={side}]").fill(name)
    ed.press(page.locator(f"[data-add-formation={side}]"))
    notice = page.locator("#net-status")
    expect(notice).to_contain_text(f"{name} added to the {side}: 4 stands")
    ed.press(notice.get_by_role("button", name="OK: dismiss this message"))


def test_build_a_2mm_scenario_by_touch_and_start_a_game(new_page: Any) -> None:
    ed = open_editor(new_page, TABLET_LANDSCAPE, touch=True, url=f"/scenarios/new?ruleset={EARTH}")
    page = ed.page
    page.get_by_label("Title").fill("Two battalions a side")

    # One box of each terrain class, in no man's land (the zones are the demo's: 60 cm deep of 180).
    ed.tab("terrain")
    for i, (terrain_class, kind) in enumerate(CLASSES.items()):
        page.get_by_label("Kind of terrain").select_option(kind)
        # The last is classed once drawn, on its piece's card.
        page.get_by_label("Terrain class").select_option("" if terrain_class == "road" else terrain_class)
        x = 5 + 19 * i
        ed.press(page.locator("[data-draw=Rectangle]"))
        ed.at(x, 70)
        ed.at(x + 12, 82)
        expect(page.locator("[data-scenario-editor]")).to_have_attribute("data-terrain", str(i + 1))
    page.get_by_label("Class of this piece").select_option("road")
    expect(page.locator("[data-piece-card]")).to_contain_text("Road: not on the cover table")

    # Two formations a side from the chart: a second sub-unit row, of another kind, two bases each.
    ed.tab("forces")
    for side, names in FORMATIONS.items():
        ed.press(page.locator(f"[data-chart-add-row={side}]"))
        page.locator(f"[data-chart-kind={side}][data-row='1']").select_option(SECOND_KIND[side])
        for name in names:
            add_formation(ed, side, name)
    page.locator("[data-side-nation=attacker]").fill("british")
    assert serious_violations(page) == []

    ed.tab("deploy")
    for lay_out in page.locator("[data-lay-out]").all():
        ed.press(lay_out)
    root = page.locator("[data-scenario-editor]")
    expect(root).to_have_attribute("data-placed", "16")
    expect(root).to_have_attribute("data-outside", "0")
    screenshot(page, "scenario-editor-2mm-built")

    ed.tab("file")
    with page.expect_response(lambda r: r.url.endswith("/save") and r.request.method == "POST") as saved:
        ed.press(page.locator("[data-save]"))
    assert saved.value.status == 201, saved.value.text()
    doc = stored_at(page, saved.value)
    page.wait_for_url(f"**/scenarios/{doc['id']}/edit?tab=file")  # the saved scenario's editor, Start offered
    assert [f["properties"]["terrain_class"] for f in doc["terrain"]["features"]] == list(CLASSES)
    assert (doc["ruleset"], doc["period"], doc["sides"]["attacker"]["nationality"]) == (
        EARTH,
        None,
        "british",
    )

    with page.expect_navigation(url=re.compile(r"/games/\d+/created")):
        ed.press(page.locator("[data-start]"))
    game_id = int(page.url.split("/")[-2])
    units = page.request.get(f"/api/v1/games/{game_id}/units").json()
    sfs = [u for u in units if u["parent_id"] is None]
    assert sorted(u["name"] for u in sfs) == sorted(n for names in FORMATIONS.values() for n in names)
    assert all(u["level"] == "battalion" and u["kind"] == "formation" for u in sfs)
    subs = [u for u in units if u["level"] == "company"]
    assert len(subs) == 8 and {u["kind"] for u in subs} == {"reserve-inf", "machineguns", "elite-inf"}
    bases = [u for u in units if u["level"] == "platoon"]
    # Every base on the table, on its kind's base: the game's table sees it.
    assert len(bases) == 16 and all(u["base"] == u["kind"] and u["x"] is not None for u in bases)
    assert violations(page) == [] and ed.errors == []
