"""The scenario editor (issue 27) in Chromium: a scenario built from nothing by touch at 1180x820 (terrain drawn
with leaflet-geoman, forces from the organisation tables, deployed), saved through the scenario API, and a game
started from it whose map and in-game shooting use that table; the mouse's own paths at 1920x1080 (each shape
drawn by clicks, a piece moved, reshaped and turned by drags, a stand dragged by its handle) on terrain drawn
there and on Mons opened in the editor; shapes the rules cannot take refused with one sentence; the page at the
four sizes with axe-core."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote_plus

import pytest
from playwright.sync_api import expect

from rules.flanders_fields.book.cover import cover_for
from rules.flanders_fields.book.organisation import build_template
from rules.flanders_fields.book.terrain_drawing import BUILT_UP_LINE, BUILT_UP_NAME, TRENCH_WIDTHS_CM
from tests.frontend.axe import serious_violations
from tests.frontend.conftest import (
    PHONE,
    REFEREE_SCREEN,
    TABLET_LANDSCAPE,
    TABLET_PORTRAIT,
    assert_no_horizontal_scroll,
    next_frames,
    screenshot,
    small_targets,
    unlabelled_controls,
)
from tests.frontend.games import csrf_header, settled
from tests.frontend.test_csp import RECORD_VIOLATIONS, violations
from tests.frontend.test_notices import overlaps

pytestmark = pytest.mark.browser

# The six pieces each test draws (table cm; x along the attacker's edge, y towards the defender), the trench
# and the wire in front of the British zone, the wood at the British front where one platoon stands in it.
WOOD = ((40, 140), (60, 158))
VILLAGE = ((80, 90), (100, 105))
HILL = [(10, 60), (30, 60), (25, 80)]
TRENCH = [(5, 162), (60, 160), (115, 162)]
WIRE = [(5, 150), (115, 150)]
ROAD = [(70, 0), (70, 180)]
FARM = (90, 97)  # the objective at the village's middle (issue 55)
RIDGE = (20, 30)  # a side's secret objective, held two turns in a row


class Editor:
    """The editor page driven the way its user does it: taps on a tablet, clicks with a mouse."""

    def __init__(self, page: Any, touch: bool) -> None:
        self.page = page
        self.touch = touch
        self.errors: list[str] = []  # uncaught script errors, on every page it goes to
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def press(self, locator: Any) -> None:
        # Playwright's tap and click scroll the control into view themselves, as a user's eye would first.
        if self.touch:
            locator.tap()
        else:
            locator.click()

    def at(self, x: float, y: float) -> None:
        """A tap or click on the table at (x, y) cm, done once its click has bubbled up to the window (the map's and
        geoman's handlers, on the way, have taken it): the next tap is a tap of its own."""
        p = self.page.evaluate(
            """([x, y]) => {
                 window.firestepClicked = false;
                 addEventListener("click", () => { window.firestepClicked = true; }, {once: true});
                 return window.firestepScenario.pagePoint([x, y]);
               }""",
            [x, y],
        )
        if self.touch:
            self.page.touchscreen.tap(p["x"], p["y"])
        else:
            self.page.mouse.click(p["x"], p["y"])
        self.page.wait_for_function("() => window.firestepClicked")

    def tab(self, name: str) -> None:
        self.press(self.page.locator(f"[data-scn-tab={name}]"))

    def pieces(self) -> int:
        return int(self.page.get_attribute("[data-scenario-editor]", "data-terrain") or 0)

    def draw(
        self, kind: str, shape: str, points: Sequence[tuple[float, float]], breadth: float | None = None
    ) -> None:
        self.page.get_by_label("Kind of terrain").select_option(kind)
        if breadth is not None:
            self.page.locator("[data-terrain-breadth]").fill(str(breadth))
        before = self.pieces()
        self.press(self.page.locator(f"[data-draw={shape}]"))
        for x, y in points:
            self.at(x, y)
        if shape != "Rectangle":
            self.press(self.page.locator("[data-draw-finish]"))
        expect(self.page.locator("[data-scenario-editor]")).to_have_attribute("data-terrain", str(before + 1))

    def add(self, side: str, table: str, formation: str, quality: str | None = None, name: str = "") -> None:
        page = self.page
        page.get_by_label(f"{side.capitalize()} organisation table").select_option(table)
        pick = page.locator(
            f"[data-side-formation={side}] option", has_text=re.compile("^" + re.escape(formation))
        )
        expect(pick.first).to_be_attached()
        page.get_by_label(f"{side.capitalize()} formation from the table").select_option(
            pick.first.get_attribute("value")
        )
        if quality:
            page.get_by_label(f"{side.capitalize()} quality").select_option(quality)
        if name:
            page.locator(f"[data-side-name={side}]").fill(name)
        self.press(page.locator(f"[data-add-formation={side}]"))
        # Its notice says so, over the section tabs until it fades (4 s): its user taps it away.
        notice = page.locator("#net-status")
        expect(notice).to_contain_text(f" added to the {side}: ")
        self.press(notice.get_by_role("button", name="OK: dismiss this message"))

    def doc(self) -> dict[str, Any]:
        found: dict[str, Any] = self.page.evaluate("window.firestepScenario.current()")
        return found


def stored_at(page: Any, answer: Any) -> dict[str, Any]:
    """The scenario a Save or Import stored (the editor it sends the page to), as the scenario API has it."""
    at = answer.headers["hx-redirect"].split("/edit")[0]
    found: dict[str, Any] = page.request.get(f"/api/v1{at}").json()
    return found


def _form(response: Any) -> str:
    """A posted form's values as typed (url-decoded)."""
    return unquote_plus(response.request.post_data or "")


def stands(unit: dict[str, Any]) -> list[dict[str, Any]]:
    out = [unit] if unit.get("base") else []
    for child in unit.get("children", []):
        out += stands(child)
    return out


def british_names(doc: dict[str, Any]) -> list[str]:
    return [f["name"] for f in doc["sides"]["defender"]["forces"]]


def open_editor(new_page: Any, viewport: dict[str, int], touch: bool, url: str = "/scenarios/new") -> Editor:
    page = new_page(viewport, has_touch=touch)
    page.add_init_script(RECORD_VIOLATIONS)
    page.goto(url)
    page.wait_for_selector("[data-scenario-editor][data-terrain]")
    return Editor(page, touch)


def build_and_play(ed: Editor) -> None:
    """Build the issue's scenario from nothing, save it, start a game from it, and check the game's table."""
    page = ed.page
    page.get_by_label("Title").fill("The club's 1916 attack")
    page.get_by_label("Victory conditions").fill("The Germans hold the wood at the end of turn 8.")
    ed.press(page.locator("label.chip", has_text="Western Front mid 1915 to mid 1917"))

    ed.tab("terrain")
    ed.draw("woods", "Rectangle", list(WOOD))
    ed.draw("village", "Rectangle", list(VILLAGE))
    ed.draw("hill", "Polygon", HILL)
    ed.draw("trench", "Line", TRENCH)  # at the width offered (the book's), nothing typed
    ed.draw("wire", "Line", WIRE)
    ed.draw("road", "Line", ROAD, breadth=2)

    # The objectives (issue 55): a point by a tap, an area by its two corners, each named, worth and scored.
    ed.tab("objectives")
    root = page.locator("[data-scenario-editor]")
    ed.press(page.locator("[data-objective-draw=point]"))
    ed.at(*FARM)
    expect(root).to_have_attribute("data-objectives", "1")
    page.get_by_label("Name of the objective").fill("The farm")
    page.get_by_label("Victory points (0–100)").fill("3")
    page.get_by_label("Scored", exact=True).select_option("game_end")
    ed.press(page.locator("[data-objective-draw=Rectangle]"))
    for x, y in WOOD:
        ed.at(x, y)
    expect(root).to_have_attribute("data-objectives", "2")
    page.get_by_label("Name of the objective").fill("The wood")
    # A kind the format declares beyond the first three (issue 69), and a side's secret objective.
    ed.press(page.locator("[data-objective-draw=point]"))
    ed.at(*RIDGE)
    expect(root).to_have_attribute("data-objectives", "3")
    page.get_by_label("Name of the objective").fill("The ridge")
    page.get_by_label("Scored", exact=True).select_option("held_turns")
    page.get_by_label("Turns held to score (1–100)").fill("2")
    page.get_by_label("Those turns").select_option("true")
    page.get_by_label("Who sees it").select_option("defender")
    ed.press(page.locator("[data-objective-item]", has_text="The farm"))
    expect(page.get_by_label("Victory points (0–100)")).to_have_value("3")
    expect(page.locator("[data-objective-held-turns]")).to_be_hidden()

    ed.tab("forces")
    ed.add("defender", "gb-1915", "Infantry Battalion (battalion", name="1st Royal Welch Fusiliers")
    ed.add("defender", "gb-1915", "Machine Gun Company")
    ed.add("defender", "gb-1915", "18pdr Battery")
    ed.add("attacker", "de-1914", "Infantry Battalion (battalion", quality="veteran")
    doc = ed.doc()
    assert british_names(doc) == ["1st Royal Welch Fusiliers", "Machine Gun Company", "18pdr Battery 1"]
    british, german = doc["sides"]["defender"], doc["sides"]["attacker"]
    assert (british["nationality"], german["nationality"]) == ("british", "german")
    assert [f["kind"] for f in british["forces"]] == ["infantry-battalion", "mmg-company", "field-battery"]
    # The tables' own forces, stand for stand (the scenario's copy of each box).
    battalion = build_template("gb-1915", "battalion", id_prefix="x")
    assert len(stands(british["forces"][0])) == len(battalion.stands())
    assert len(stands(german["forces"][0])) == len(
        build_template("de-1914", "battalion", id_prefix="x").stands()
    )
    # Veterans, but the MGs stay Experienced: "Crewed Weapons ... are always classed as Experienced".
    graded = {(u["kind"], u["quality"]) for u in stands(german["forces"][0])}
    assert ("rifle-platoon", "veteran") in graded and ("mmg", "experienced") in graded
    assert {u["quality"] for u in stands(british["forces"][2])} == {"experienced"}

    ed.tab("deploy")
    # Each button names its side: both sides may field an "Infantry Company 1" (the newcomer pass heard two alike).
    expect(
        page.get_by_role("button", name="Lay out Machine Gun Company in the defender's zone")
    ).to_be_visible()
    for lay_out in page.locator("[data-lay-out]").all():
        ed.press(lay_out)
    everyone = [u for f in (*british["forces"], german["forces"][0]) for u in stands(f)]
    expect(root).to_have_attribute("data-placed", str(len(everyone)))
    expect(root).to_have_attribute("data-outside", "0")
    # A formation may start off the table (and come back on when laid out again).
    battery = british["forces"][2]
    ed.press(page.locator(f"[data-off-table='{battery['id']}']"))
    off = ed.doc()["sides"]["defender"]["forces"][2]
    assert off["off_table"] is True and stands(off)[0]["placement"] is None
    expect(root).to_have_attribute("data-placed", str(len(everyone) - 1))
    ed.press(page.locator(f"[data-lay-out='{battery['id']}']"))
    assert ed.doc()["sides"]["defender"]["forces"][2]["off_table"] is False
    expect(root).to_have_attribute("data-placed", str(len(everyone)))
    # Two British platoons go forward into the wood, out of their zone: flagged.
    block = page.locator(f"[data-deploy-formation='{british['forces'][0]['id']}']")
    ed.press(block.locator("summary"))
    ed.press(block.locator("[data-place]", has_text="Infantry Platoon 1").first)
    ed.at(50, 150)
    in_wood = (45.0, 145.0)
    second = stands(ed.doc()["sides"]["defender"]["forces"][0])[2]
    ed.press(block.locator(f"[data-place='{second['id']}']"))
    ed.at(*in_wood)
    moved = {u["id"]: u for u in stands(ed.doc()["sides"]["defender"]["forces"][0])}[second["id"]]
    # Where the finger fell, to the cm a screen pixel spans at this size (the table's scale is the screen's).
    assert moved["placement"]["center"] == pytest.approx(list(in_wood), abs=0.5)
    expect(root).to_have_attribute("data-outside", "2")
    expect(page.locator("[data-outside-note]")).to_contain_text("2 stands are outside their side's zone")
    screenshot(page, "scenario-editor-built")
    assert violations(page) == []  # the editor's page, before it is left for the game's
    # The filled-in sections pass the screen checks too (check_the_new_editor_at checks them empty).
    for name in ("forces", "deploy"):
        ed.tab(name)
        assert (
            serious_violations(page) == [] and small_targets(page) == [] and unlabelled_controls(page) == []
        )

    ed.tab("file")
    with page.expect_response(lambda r: r.url.endswith("/save") and r.request.method == "POST") as saved:
        ed.press(page.locator("[data-save]"))
    assert saved.value.status == 201, saved.value.text()
    scenario = stored_at(page, saved.value)
    page.wait_for_url(f"**/scenarios/{scenario['id']}/edit?tab=file")
    assert len(scenario["terrain"]["features"]) == 6
    (trench,) = [f for f in scenario["terrain"]["features"] if f["properties"]["kind"] == "trench"]
    assert trench["properties"]["width_cm"] == TRENCH_WIDTHS_CM[0]
    farm, wood, ridge = scenario["table_objectives"]["features"]
    assert ridge["properties"] == {
        **{"name": "The ridge", "vp": 1, "scored": "held_turns"},
        **{"turns": 2, "consecutive": True, "secret_to": "defender"},
    }
    assert farm["properties"] == {"name": "The farm", "vp": 3, "scored": "game_end"}
    assert farm["geometry"]["type"] == "Point"
    assert farm["geometry"]["coordinates"] == pytest.approx(list(FARM), abs=0.5)  # a tap: to a finger's pixel
    assert wood["properties"] == {"name": "The wood", "vp": 1, "scored": "each_turn"}
    corners = [c for p in sorted(wood["geometry"]["coordinates"][0][:4]) for c in p]
    assert corners == pytest.approx([40, 140, 40, 158, 60, 140, 60, 158], abs=0.5)

    with page.expect_navigation(url=re.compile(r"/games/\d+/created")):
        ed.press(page.locator("[data-start]"))
    page.wait_for_selector("[data-join-code]")
    game_id = int(page.url.split("/")[-2])

    # The game has the drawn terrain and every placed stand where the editor put it.
    api = f"/api/v1/games/{game_id}"
    state = page.request.get(f"{api}/state").json()
    assert sorted(f["properties"]["kind"] for f in state["terrain"]["features"]) == sorted(
        ["woods", "village", "hill", "trench", "wire", "road"]
    )
    units = page.request.get(f"{api}/units").json()
    on_table = [u for u in units if u["x"] is not None]
    assert len(on_table) == len(everyone)
    target = next(u for u in on_table if [u["x"], u["y"]] == moved["placement"]["center"])
    assert target["side"] == "defender" and target["kind"] == "rifle-platoon"
    in_open = next(
        u for u in on_table if u["side"] == "defender" and u["kind"] == "rifle-platoon" and u["y"] > 160
    )
    page.goto(f"/games/{game_id}/map")
    expect(page.locator("[data-map-page]")).to_have_attribute("data-loaded", str(len(everyone)))
    expect(page.locator("path.terrain")).to_have_count(6)
    screenshot(page, "scenario-editor-game-map")

    # In the game the shooting fills cover from the drawn wood: the raw British platoon in it has the woods'
    # cover, one of the same battalion in the open has none ("Wooded areas provide soft cover").
    firer = next(u for u in units if u["side"] == "attacker" and u["kind"] == "mmg")
    turn = page.request.get(f"{api}/turn").json()
    assert page.request.post(
        f"{api}/turn/advance", headers=csrf_header(page), data={"version": turn["version"]}
    ).ok

    def cover_of(target_id: int) -> str:
        shot = page.request.post(
            f"{api}/ask/shooting",
            headers=csrf_header(page),
            data={"unit_id": firer["id"], "target_id": target_id},
        )
        assert shot.ok, shot.text()
        return str({f["field"]: f["value"] for f in shot.json()["filled"]}["cover"])

    assert cover_of(target["id"]) == cover_for(["woods"], "raw") == "soft"
    assert cover_of(in_open["id"]) == cover_for([], "raw") == "open"
    # geoman, Leaflet and the editor's scripts ran under the app's Content-Security-Policy without a breach.
    assert violations(page) == [] and ed.errors == []


def check_the_new_editor_at(ed: Editor, *viewports: dict[str, int]) -> None:
    """A new scenario's editor, nothing drawn yet, at each size in turn (resized): each of its sections with no
    small target, no unlabelled control and no sideways scroll; axe-core on every section at 1180x820, and on the
    longest one (the scenario's) at every size, as it is the slow check."""
    page = ed.page
    for viewport in viewports:
        page.set_viewport_size(viewport)
        for name in ("scenario", "terrain", "objectives", "forces", "deploy", "file"):
            ed.tab(name)
            if name == "terrain":  # a line kind: its typical widths are offered too
                page.get_by_label("Kind of terrain").select_option("trench")
            if viewport is TABLET_LANDSCAPE or name == "scenario":
                assert serious_violations(page) == [], (viewport, name)
            assert small_targets(page) == [], (viewport, name)
            assert unlabelled_controls(page) == [], (viewport, name)
            assert_no_horizontal_scroll(page)
            screenshot(page, f"scenario-editor-{name}")


def test_build_a_scenario_by_touch_and_play_it(new_page: Any) -> None:
    build_and_play(open_editor(new_page, TABLET_LANDSCAPE, touch=True))


def test_a_change_made_while_another_is_answered_is_kept(new_page: Any) -> None:
    """ci149: a tap on an objective in the list while a field's post was on its way was lost (htmx drops a waiting
    post whose button the field's answer swapped out), and a field typed while a selection waited would be too.
    Here a field's answer is held until both are made; then each is kept, in the order made."""
    ed = open_editor(new_page, TABLET_LANDSCAPE, touch=False)
    page = ed.page
    root = page.locator("[data-scenario-editor]")
    ed.tab("objectives")
    for n, (at, name) in enumerate(((FARM, "The farm"), (RIDGE, "The ridge")), start=1):
        ed.press(page.locator("[data-objective-draw=point]"))
        ed.at(*at)
        expect(root).to_have_attribute("data-objectives", str(n))
        page.get_by_label("Name of the objective").fill(name)
        expect(page.locator("[data-objective-item]", has_text=name)).to_be_visible()
    page.get_by_label("Victory points (0–100)").fill("3")
    expect(page.locator("[data-objective-item]", has_text="The ridge · 3 VP")).to_be_visible()

    held: list[Any] = []
    page.route("**/objectives", lambda route: route.continue_() if held else held.append(route))
    page.get_by_label("Victory points (0–100)").fill("4")  # the ridge's, its post held
    for _ in range(10_000):
        if held:
            break
        page.evaluate("0")  # the route's handler runs as the page's events are read
    assert len(held) == 1
    ed.press(page.locator("[data-objective-item]", has_text="The farm"))  # waits behind it
    page.get_by_label("Name of the objective").fill("The high ridge")  # the ridge's form, still shown
    held[0].continue_()
    expect(page.locator("[data-objective-piece] h3")).to_contain_text("The farm")
    expect(page.get_by_label("Name of the objective")).to_have_value("The farm")
    expect(page.locator("[data-objective-item]", has_text="The high ridge · 4 VP")).to_be_visible()
    ed.press(page.locator("[data-objective-item]", has_text="The high ridge"))
    expect(page.get_by_label("Name of the objective")).to_have_value("The high ridge")
    expect(page.get_by_label("Victory points (0–100)")).to_have_value("4")
    assert ed.errors == []


def test_the_touch_sizes_and_terrain_kinds_with_the_rules_cover_and_bad_shapes_refused(new_page: Any) -> None:
    """The new editor at the touch sizes on one touch device, resized; then, back at 1180x820, the terrain tools."""
    ed = open_editor(new_page, TABLET_LANDSCAPE, touch=True)
    page = ed.page
    check_the_new_editor_at(ed, TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE)
    page.set_viewport_size(TABLET_LANDSCAPE)
    settled(page)  # Leaflet fits the map to its new size in the frame after a resize
    ed.tab("terrain")
    # Every terrain kind the table knows is offered, each with the cover the rule book gives it.
    from rules.table.terrain import FEATURE_KINDS

    offered = page.eval_on_selector_all("[data-terrain-kind] option", "os => os.map(o => o.value)")
    assert offered == list(FEATURE_KINDS)
    page.get_by_label("Kind of terrain").select_option("woods")
    expect(page.locator("[data-kind-card]")).to_contain_text(f"Cover: {cover_for(['woods'])}")
    expect(page.locator("[data-kind-card]")).to_contain_text("Wooded areas provide soft cover")
    # The village is drawn as the book's built-up area (its name in the movement table), at its cover. Picked
    # right after another kind (in one task, whatever the machine's speed), the card is the last one picked's.
    page.get_by_label("Kind of terrain").evaluate(
        "(s) => { for (const k of ['marsh', 'village']) { s.value = k; s.dispatchEvent(new Event('change', {bubbles: true})); } }"
    )
    expect(page.get_by_label("Kind of terrain").locator("option:checked")).to_have_text(BUILT_UP_NAME)
    expect(page.locator("[data-kind-card]")).to_contain_text(BUILT_UP_LINE)
    expect(page.locator("[data-kind-card]")).to_contain_text(f"Cover: {cover_for(['village'])}")
    expect(page.locator("[data-kind-card]")).to_contain_text(
        f"With trench: {cover_for(['village', 'trench'])}"
    )

    # A box with a corner off the table: refused, named, and nothing drawn.
    ed.press(page.locator("[data-draw=Rectangle]"))
    ed.at(100, 170)
    ed.at(130, 175)  # the table is 120 cm wide
    expect(page.locator("#net-status")).to_contain_text("goes off the table")
    assert ed.pieces() == 0
    # A trench starts at the book's typical width, the others one tap away; drawn as a line it needs a
    # width: with none, the editor asks before drawing.
    page.get_by_label("Kind of terrain").select_option("trench")
    breadth = page.locator("[data-terrain-breadth]")
    expect(breadth).to_have_value(f"{TRENCH_WIDTHS_CM[0]:g}")
    ed.press(page.get_by_role("button", name=f"{TRENCH_WIDTHS_CM[1]:g} cm"))
    expect(breadth).to_have_value(f"{TRENCH_WIDTHS_CM[1]:g}")
    page.locator("[data-terrain-breadth]").fill("")
    ed.press(page.locator("[data-draw=Line]"))
    expect(page.locator("#net-status")).to_contain_text("needs its width in cm")
    # An outline whose last point would cross it: geoman keeps the crossing point out, and says so.
    page.get_by_label("Kind of terrain").select_option("marsh")
    ed.press(page.locator("[data-draw=Polygon]"))
    for x, y in ((20, 40), (40, 60), (40, 40), (20, 60)):
        ed.at(x, y)
    expect(page.locator("#net-status")).to_contain_text("cross itself")
    ed.press(page.locator("[data-draw-finish]"))
    expect(page.locator("[data-scenario-editor]")).to_have_attribute("data-terrain", "1")  # once answered
    marsh = ed.doc()["terrain"]["features"]
    assert len(marsh) == 1 and len(marsh[0]["geometry"]["coordinates"][0]) == 4  # a triangle, closed

    # A drawn piece is renamed from its card: the server's answer names it in the list, the panel and the draft.
    page.get_by_label("Its name on the map and the sheet").fill("Flooded shell holes")
    expect(page.locator("[data-piece-name]")).to_have_text("Flooded shell holes")
    expect(page.locator("[data-terrain-list] [data-piece='0']")).to_have_text("Flooded shell holes")
    assert ed.doc()["terrain"]["features"][0]["properties"]["name"] == "Flooded shell holes"

    # A drawn piece is deleted from its card.
    ed.press(page.locator("[data-piece-action=delete]"))
    expect(page.locator("[data-scenario-editor]")).to_have_attribute("data-terrain", "0")  # once answered
    assert ed.pieces() == 0 and ed.doc()["terrain"]["features"] == []

    # On a phone the page scrolls: a refusal of a section's button, below the table, is said where the finger
    # is (it was left above the table, off the screen: session 20's newcomer).
    page.set_viewport_size(PHONE)
    settled(page)
    page.get_by_label("Kind of terrain").select_option("road")
    page.locator("[data-terrain-breadth]").fill("")
    ed.press(page.locator("[data-draw=Line]"))
    expect(page.locator("#net-status")).to_contain_text("needs its width in cm")
    assert page.evaluate("window.scrollY") > 0
    expect(page.locator("#net-status")).to_be_in_viewport()


def test_mons_opens_in_the_editor_and_saves_as_a_copy(new_page: Any) -> None:
    # (An unknown scenario's editor is a 404 page: test_scenario_editor_http.py.)
    ed = open_editor(new_page, REFEREE_SCREEN, touch=False, url="/scenarios/mons-1914/edit")
    page = ed.page
    root = page.locator("[data-scenario-editor]")
    expect(root).to_have_attribute("data-loaded-scenario", "mons-1914")
    mons = page.request.get("/api/v1/scenarios/mons-1914").json()
    expect(root).to_have_attribute("data-terrain", str(len(mons["terrain"]["features"])))
    # Each piece drawn as its kind from the first view (they were Leaflet's blue until one was selected).
    for kind in {f["properties"]["kind"] for f in mons["terrain"]["features"]}:
        count = sum(f["properties"]["kind"] == kind for f in mons["terrain"]["features"])
        expect(page.locator(f"[data-scn-canvas] path.terrain-{kind}")).to_have_count(count)
    expect(page.get_by_label("Title")).to_have_value(mons["title"])
    expect(page.locator("[data-saved-as]")).to_contain_text("ships with firestep")
    # Zoomed in, every placed stand is labelled with its name under its formation. The two taps come quicker
    # than the zoom's animation (in one task, so whatever the machine's speed): both count.
    zoom_in = page.locator("[data-scn-zoom=in]")
    zoom_in.scroll_into_view_if_needed()
    # The zoom buttons are drawn beside the table, not over it (its rulers, a zone: session 19's newcomer).
    assert not overlaps(
        page.locator(".scn-zoom").bounding_box(), page.locator("[data-scn-canvas]").bounding_box()
    )
    zoom_in.evaluate("(b) => { b.click(); b.click(); }")
    page.wait_for_function(
        "() => Math.abs(window.firestepScenario.map.getZoom() - window.firestepScenario.map.getMinZoom() - 2.5) < 1e-6"
        " && !document.querySelector('.leaflet-zoom-anim')"
    )
    expect(page.locator(".stand-label")).not_to_have_count(0)
    # Two taps land on the threshold itself; a rounding hair below it (as the sum of the taps can come out)
    # still shows the labels.
    page.evaluate(
        "() => { const m = window.firestepScenario.map; m.setZoom(m.getMinZoom() + 2.5 - 1e-9, {animate: false}); }"
    )
    expect(page.locator(".stand-label")).not_to_have_count(0)
    on_table = sum(
        1 for side in mons["sides"].values() for f in side["forces"] for u in stands(f) if u.get("placement")
    )
    assert on_table > 0
    expect(root).to_have_attribute("data-placed", str(on_table))
    expect(page.locator(".stand-label")).to_have_count(on_table)
    # Each named under its formation as the server names it (the Deploy list's island), not by its own name alone.
    expect(page.locator(".stand-label", has_text=" · Infantry Platoon 1").first).to_be_attached()
    # Its special rules are ticked; only those of each side's nationality in 1914 are offered.
    for side, ids in mons["special_rules"].items():
        for rule in ids:
            expect(page.locator(f"[data-special-side={side}][data-special-rule='{rule}']")).to_be_checked()
    offered = page.eval_on_selector_all(
        "label:not([hidden]) > [data-special-side=defender]", "xs => xs.map(x => x.dataset.specialRule)"
    )
    assert sorted(offered) == ["long-range-marksmanship", "mad-minute"]
    # The German grade is written per reading of an erratum: shown, not editable here.
    ed.tab("forces")
    expect(page.locator("[data-formations=attacker] select").first).to_be_disabled()
    # A placed stand dragged by its handle with the mouse lands where it is let go (in whole cm).
    ed.tab("deploy")
    drag_a_stand_by_its_handle(ed)
    # The filled-in sections pass the screen checks at this size too (check_the_new_editor_at checks them empty).
    for name in ("forces", "deploy"):
        ed.tab(name)
        assert (
            serious_violations(page) == [] and small_targets(page) == [] and unlabelled_controls(page) == []
        )
    ed.tab("file")
    with page.expect_response(lambda r: r.url.endswith("/save") and r.request.method == "POST") as saved:
        ed.press(page.locator("[data-save]"))
    assert saved.value.status == 201, saved.value.text()
    copy = stored_at(page, saved.value)
    page.wait_for_url(f"**/scenarios/{copy['id']}/edit?tab=file")  # its own editor next
    assert copy["id"] != "mons-1914" and copy["title"] == mons["title"]
    assert copy["terrain"] == mons["terrain"] and copy["special_rules"] == mons["special_rules"]
    assert violations(page) == [] and ed.errors == []


def drag_a_stand_by_its_handle(ed: Editor) -> None:
    """A stand whose handle is uncovered (the whole table in view), dragged 4 cm towards the table's middle by
    it: it lands where it is let go, to the pixel (under 0.5 cm with the whole table on the screen)."""
    page = ed.page
    page.evaluate(
        "() => { const m = window.firestepScenario.map; m.setZoom(m.getMinZoom(), {animate: false}); }"
    )
    stand_id = page.evaluate(
        """() => [...document.querySelectorAll('.scn-handle[data-stand]')].find(h => {
             const r = h.getBoundingClientRect(), x = r.x + r.width / 2, y = r.y + r.height / 2;
             return r.width && y > 100 && y < innerHeight - 100 && document.elementFromPoint(x, y) === h;
           })?.dataset.stand"""
    )
    assert stand_id, "no uncovered stand handle"

    def center(doc: dict[str, Any]) -> list[float]:
        placed = (u for side in doc["sides"].values() for f in side["forces"] for u in stands(f))
        found: list[float] = next(u for u in placed if str(u["id"]) == stand_id)["placement"]["center"]
        return found

    x, y = center(ed.doc())
    to_cm = [round(x), round(y) + (4 if y < 90 else -4)]
    handle = page.locator(f".scn-handle[data-stand='{stand_id}']").bounding_box()
    to = page.evaluate("p => window.firestepScenario.pagePoint(p)", to_cm)
    page.mouse.move(handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2)
    page.mouse.down()
    page.mouse.move(to["x"], to["y"], steps=8)
    page.mouse.up()
    assert center(ed.doc()) == pytest.approx(to_cm, abs=0.5)


def test_import_a_hand_written_file_and_export_it(new_page: Any, tmp_path: Path) -> None:
    ed = open_editor(new_page, TABLET_LANDSCAPE, touch=True)
    page = ed.page
    written: dict[str, Any] = {
        "format": "firestep-scenario/1",
        "title": "Hand-written raid",
        "ruleset": "flanders-fields",
        "period": "late",
        "table": {"width_cm": 120, "length_cm": 180},
        "terrain": {
            "type": "FeatureCollection",
            "features": [
                {
                    "type": "Feature",
                    "properties": {"kind": "woods"},
                    "geometry": {
                        "type": "Polygon",
                        "coordinates": [[[10, 80], [30, 80], [30, 95], [10, 80]]],
                    },
                }
            ],
        },
        "sides": {
            "attacker": {"nationality": "german", "deployment_zone": None, "forces": []},
            "defender": {"nationality": "british", "deployment_zone": None, "forces": []},
        },
    }
    file = tmp_path / "raid.json"
    file.write_text(json.dumps(written))
    ed.tab("file")
    with page.expect_response(
        lambda r: r.url.endswith("/scenarios/import") and r.request.method == "POST"
    ) as sent:
        page.locator("[data-import]").set_input_files(str(file))
    assert sent.value.status == 201, sent.value.text()
    stored = stored_at(page, sent.value)
    page.wait_for_url(f"**/scenarios/{stored['id']}/edit?tab=file")
    expect(page.get_by_label("Title")).to_have_value("Hand-written raid")
    expect(page.locator("[data-scenario-editor]")).to_have_attribute("data-terrain", "1")
    with page.expect_download() as download:
        ed.press(page.locator("[data-export]"))
    exported = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert exported == page.request.get(f"/api/v1/scenarios/{stored['id']}").json() == stored

    # The file just exported, imported again: the editor offers to keep both, one tap (3 with the export's and
    # the import's), and the copy is saved under a new id beside the one held.
    file.write_text(json.dumps(exported))
    page.locator("[data-import]").set_input_files(str(file))
    expect(page.locator("[data-import-choice]")).to_contain_text(f"“Hand-written raid” ({stored['id']})")
    assert serious_violations(page) == [] and small_targets(page) == []
    screenshot(page, "scenario-editor-import-choice")
    with page.expect_response(
        lambda r: r.url.endswith("/edit/save") and r.request.method == "POST" and r.status == 201
    ) as kept:
        ed.press(page.get_by_role("button", name="Keep both"))
    copy = stored_at(page, kept.value)
    assert copy["id"] != stored["id"] and {**copy, "id": stored["id"]} == stored
    page.wait_for_url(f"**/scenarios/{copy['id']}/edit?tab=file")
    ids = [s["id"] for s in page.request.get("/api/v1/scenarios").json()]
    assert stored["id"] in ids and copy["id"] in ids
    expect(page.locator("[data-import-choice]")).to_be_hidden()
    # Or the file replaces the one held (the copy, now open here, as it was: nothing else changes).
    file.write_text(json.dumps({**exported, "id": copy["id"], "title": "Raid, replaced"}))
    page.locator("[data-import]").set_input_files(str(file))
    with page.expect_response(
        lambda r: r.url.endswith(f"/{copy['id']}/edit/save") and r.request.method == "POST"
    ):
        ed.press(page.get_by_role("button", name="Replace the saved one"))
    expect(page.get_by_label("Title")).to_have_value("Raid, replaced")
    # Print the sheet: the scenario's PDF, opened in a new tab.
    with page.context.expect_event(
        "response", lambda r: r.url.endswith(f"/api/v1/scenarios/{copy['id']}/sheet.pdf")
    ) as sheet:
        ed.press(page.get_by_role("link", name="Print the sheet"))
    assert sheet.value.status == 200 and sheet.value.headers["content-type"] == "application/pdf"

    # A file the rules refuse (a wood off the table) is refused naming the field; nothing is stored.
    before = page.request.get("/api/v1/scenarios").json()
    written["terrain"]["features"][0]["geometry"]["coordinates"] = [
        [[110, 80], [140, 80], [140, 95], [110, 80]]
    ]
    file.write_text(json.dumps(written))
    with page.expect_response(
        lambda r: r.url.endswith("/scenarios/import") and r.request.method == "POST"
    ) as sent:
        page.locator("[data-import]").set_input_files(str(file))
    assert sent.value.status == 422
    expect(page.locator("[data-file-message]")).to_contain_text("Not imported: terrain.features.0")
    assert page.request.get("/api/v1/scenarios").json() == before


def test_the_referee_screen_and_terrain_reshaped_moved_turned_with_the_mouse(new_page: Any) -> None:
    """The new editor on the referee's screen with a mouse; then terrain drawn and changed by the mouse's paths."""
    ed = open_editor(new_page, REFEREE_SCREEN, touch=False)
    page = ed.page
    check_the_new_editor_at(ed, REFEREE_SCREEN)
    ed.tab("terrain")
    ed.draw("village", "Rectangle", [(40, 60), (60, 80)])

    def ring() -> list[list[float]]:
        coords: list[list[float]] = ed.doc()["terrain"]["features"][0]["geometry"]["coordinates"][0]
        return coords

    outline = "() => JSON.stringify(window.firestepScenario.current().terrain.features[0].geometry)"

    def drag(start: tuple[float, float], end: tuple[float, float]) -> None:
        """A drag with the mouse at a hand's pace (ten moves, three frames apart: half a second or more), done once
        the piece has taken it: its outline changed, or refused in a sentence. (A drag of over 0.4 s let the click
        that ends it deselect the piece, its buttons gone.)"""
        a, b = (page.evaluate("p => window.firestepScenario.pagePoint(p)", list(p)) for p in (start, end))
        before = page.evaluate(outline)
        page.mouse.move(a["x"], a["y"])
        page.mouse.down()
        for i in range(1, 11):
            page.mouse.move(a["x"] + (b["x"] - a["x"]) * i / 10, a["y"] + (b["y"] - a["y"]) * i / 10)
            next_frames(page, 3)
        page.mouse.up()
        page.wait_for_function(
            f"""(before) => ({outline})() !== before
                 || document.querySelector("#net-status").textContent.includes("goes off the table")""",
            arg=before,
        )

    # Moved: every corner 10 cm along.
    before = ring()
    ed.press(page.locator("[data-piece-action=move]"))
    expect(page.locator("[data-scn-mode]")).to_contain_text("drag it to move it")  # what the press asks
    drag((50, 70), (50, 80))
    moved = ring()
    assert [c for x, y in moved for c in (x, y - 10)] == pytest.approx(
        [c for p in before for c in p], abs=0.3
    )
    # Reshaped: a corner pulled out.
    ed.press(page.locator("[data-piece-action=reshape]"))
    drag((60, 90), (65, 95))
    assert [65, 95] in [[round(x), round(y)] for x, y in ring()]
    # Pulled off the table: refused with its sentence, and the shape is as it was.
    reshaped = ring()
    drag((65, 95), (130, 95))
    expect(page.locator("#net-status")).to_contain_text("goes off the table")
    assert ring() == reshaped
    # Turned about its centre: the corners move, the area stays.
    ed.press(page.locator("[data-piece-action=turn]"))
    drag((40, 70), (45, 62))

    def area(points: list[list[float]]) -> float:
        return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in itertools.pairwise(points))) / 2

    turned = ring()
    assert turned != reshaped and area(turned) == pytest.approx(area(reshaped), rel=0.02)
    # The outline and the line drawn by clicks too (the box above was).
    ed.draw("hill", "Polygon", HILL)
    ed.draw("trench", "Line", TRENCH, breadth=2)
    assert [f["properties"]["kind"] for f in ed.doc()["terrain"]["features"]] == ["village", "hill", "trench"]


def test_a_new_scenarios_particulars_are_kept_through_a_reload_and_a_refusal_named(new_page: Any) -> None:
    """The particulars are posted as they change (app.pages.scenario_drafts); the reloaded page shows them and the
    editor's own document starts from them; a value the server refuses is said in one sentence naming it."""
    ed = open_editor(new_page, PHONE, touch=True)
    page = ed.page
    checks = page.locator("[data-draft-checks]")
    page.get_by_label("Title").fill("A raid kept")
    page.get_by_label("Turns (blank: no limit)").fill("6")
    # The period's change posts every field of the particulars.
    ed.press(page.locator("label.chip", has_text="Western Front mid 1915 to mid 1917"))
    expect(checks).to_have_attribute("data-draft-kept", "yes")
    expect(checks).to_contain_text("The rules find nothing missing")  # the sides' nationalities posted too
    assert serious_violations(page) == [] and small_targets(page) == []
    # A formation added and laid out is the draft's too (issue 67): the reload keeps it where it stands.
    ed.tab("forces")
    ed.add("defender", "gb-1915", "Machine Gun Company")
    ed.tab("deploy")
    with page.expect_response(lambda r: r.url.endswith("/forces/deploy")) as kept:
        ed.press(page.locator("[data-lay-out]").first)
    assert kept.value.status == 204
    placed = page.locator("[data-scenario-editor]").get_attribute("data-placed")
    assert placed and int(placed) > 0
    # An objective drawn and named is the draft's too (issues 67, 69): drawn again on the reload, then offered to
    # the Scenario panel's "an objective taken".
    ed.tab("objectives")
    ed.press(page.locator("[data-objective-draw=point]"))
    ed.at(60, 90)
    # The name's own post (the point's, posted as it was drawn, may answer after the name is typed: ci83, loaded).
    with page.expect_response(lambda r: r.url.endswith("/objectives") and "The farm" in _form(r)) as named:
        page.get_by_label("Name of the objective").fill("The farm")
    assert named.value.status == 200

    page.reload()
    page.wait_for_selector("[data-scenario-editor][data-terrain]")
    expect(page.get_by_label("Title")).to_have_value("A raid kept")
    expect(page.get_by_label("Turns (blank: no limit)")).to_have_value("6")
    doc = ed.doc()
    assert (doc["title"], doc["turns"], doc["period"]) == ("A raid kept", 6, "mid")
    assert british_names(doc) == ["Machine Gun Company"]
    expect(page.locator("[data-scenario-editor]")).to_have_attribute("data-placed", str(placed))
    ed.tab("objectives")
    expect(page.locator("[data-objective-item]")).to_have_text("The farm · 1 VP")
    ed.tab("scenario")
    with page.expect_response(lambda r: r.url.endswith("/particulars")) as taken:
        page.get_by_label("Objective (a secret one cannot be named)").select_option(label="The farm")
    assert taken.value.status == 200
    taking = {"kind": "objective_taken", "objective": "objective-1", "side": "attacker"}
    # The answer's particulars are taken into the page's document once htmx has swapped them in (after the
    # response: ci132's first run read the document between the two).
    page.wait_for_function("() => (window.firestepScenario.current().victory_conditions || []).length > 0")
    assert ed.doc()["victory_conditions"] == [taking]

    with page.expect_response(lambda r: r.url.endswith("/particulars")) as refused:
        page.get_by_label("Turns (blank: no limit)").fill("500")
        page.get_by_label("Title").focus()  # leaving the field is its change
    assert refused.value.status == 422
    expect(page.locator("#net-status")).to_contain_text("Turns: ")

    # Start afresh: asked once, then the page again with nothing of the draft.
    page.once("dialog", lambda dialog: dialog.accept())
    ed.press(page.get_by_role("button", name="Start afresh"))
    expect(checks).to_have_attribute("data-draft-kept", "no")
    expect(page.get_by_label("Title")).to_have_value("")

    # A new scenario saved is a draft no more: the next new scenario starts empty.
    page.get_by_label("Title").fill("A raid saved")
    page.get_by_label("Turns (blank: no limit)").focus()
    expect(checks).to_have_attribute("data-draft-kept", "yes")
    # Its victory conditions by taps, checked by the rules (Flanders Fields names no break point: it asks for one).
    page.get_by_label("A side wins at this many victory points (blank: none)").fill("6")
    ed.press(page.get_by_role("group", name="A side broken loses").locator("label.chip", has_text="Defender"))
    expect(checks).to_contain_text("Stands lost")
    page.get_by_label("Broken at this share of its stands lost (%; blank: as the rules say)").fill("40")
    page.get_by_label("Title").focus()
    expect(checks).to_contain_text("The rules find nothing missing")
    assert serious_violations(page) == [] and small_targets(page) == []
    ed.tab("file")
    with page.expect_response(lambda r: r.url.endswith("/save") and r.status == 201) as saved:
        ed.press(page.locator("[data-save]"))  # the draft dropped as it is saved (app.pages.scenario_saving)
    stored = stored_at(page, saved.value)
    page.wait_for_url(f"**/scenarios/{stored['id']}/edit?tab=file")  # its own editor next
    assert stored["victory_conditions"] == [
        {"kind": "points", "points": 6},
        {"kind": "side_broken", "side": "defender", "stands_lost": 40},
    ]
    page.goto(page.url.split("/scenarios/")[0] + "/scenarios/new")
    page.wait_for_selector("[data-scenario-editor][data-terrain]")
    expect(page.get_by_label("Title")).to_have_value("")
    assert ed.errors == []


def test_a_formation_laid_out_offline_reaches_the_draft_when_the_connection_is_back(new_page: Any) -> None:
    """Issue 67 (brief file-67): the placements go through the outbox (outbox.js) as the map's writes do, so a
    lay-out made on a dropped wifi is kept on the device and sent when it is back; the reload shows it placed."""
    ed = open_editor(new_page, PHONE, touch=True)
    page = ed.page
    ed.press(page.locator("label.chip", has_text="Western Front mid 1915 to mid 1917"))  # its tables offered
    ed.tab("forces")
    ed.add("defender", "gb-1915", "Machine Gun Company")
    ed.tab("deploy")
    page.context.set_offline(True)
    ed.press(page.locator("[data-lay-out]").first)
    expect(page.locator("#net-status")).to_contain_text("1 tap kept on this device")
    placed = page.locator("[data-scenario-editor]").get_attribute("data-placed")
    assert placed and int(placed) > 0
    with page.expect_response(lambda r: r.url.endswith("/forces/deploy")) as kept:
        page.context.set_offline(False)
    assert kept.value.status == 204
    page.reload()
    page.wait_for_selector("[data-scenario-editor][data-terrain]")
    expect(page.locator("[data-scenario-editor]")).to_have_attribute("data-placed", placed)


def test_an_area_begun_on_an_objective_is_a_new_one(new_page: Any) -> None:
    """Session 23's newcomer pass N: an area's first corner tapped on an objective already placed selected that
    one instead, and the name typed next renamed it. While a shape is drawn, a tap on the table is its corner,
    on an objective or a piece of terrain as anywhere."""
    ed = open_editor(new_page, TABLET_LANDSCAPE, touch=True)
    page = ed.page
    root = page.locator("[data-scenario-editor]")
    ed.tab("objectives")
    ed.press(page.locator("[data-objective-draw=point]"))
    ed.at(*FARM)
    expect(root).to_have_attribute("data-objectives", "1")
    page.get_by_label("Name of the objective").fill("The farm")
    expect(page.locator("[data-objective-item]", has_text="The farm")).to_be_visible()
    ed.press(page.locator("[data-objective-draw=Polygon]"))
    for x, y in (FARM, (FARM[0] + 20, FARM[1]), (FARM[0] + 20, FARM[1] + 20)):
        ed.at(x, y)
    ed.press(page.locator("[data-objective-draw-finish]"))
    expect(root).to_have_attribute("data-objectives", "2")
    page.get_by_label("Name of the objective").fill("The orchard")
    expect(page.locator("[data-objective-item]", has_text="The orchard")).to_be_visible()
    expect(page.locator("[data-objective-item]", has_text="The farm")).to_be_visible()
    assert ed.errors == []
