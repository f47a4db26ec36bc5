"""A game of counters from the start page with nothing seeded through the API (issue 62): on a tablet by touch,
the start page's "Build a Vimy Ridge scenario" opens the club's editor (not the centimetre table); the club's
key hexes, a trench hexside, No Man's Land, the turn and Artillery Tracks and an order of battle of 10 counters
a side are entered and saved; a game is made from the scenario in the lobby's form; on its page of counters each
counter of the order of battle is placed by its hex's four digits and at most two taps (a whole division's at
once costs one tap more for the division, and one a counter for its field), and the page shows the club's data
(its tracks' bombardment allotments, its key hexes). The editor at the four sizes: every target 44 px, nothing
scrolled sideways, axe-core clean. The document's checks and round trip are the API's
(tests/app/games/test_counter_scenario_file.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from rules.registry import get_ruleset
from tests.frontend.axe import serious_violations
from tests.frontend.conftest import (
    PHONE,
    REFEREE_SCREEN,
    TABLET_LANDSCAPE,
    TABLET_PORTRAIT,
    assert_no_horizontal_scroll,
    screenshot,
    small_targets,
)

pytestmark = pytest.mark.browser

# A club's copy, as a test fixture (the book prints no map): its key hexes and tracks.
PEAKS = [f"{1101 + i}" for i in range(13)]
VIMY = [f"{1801 + i}" for i in range(12)]
TRACK = [*(["Morning", "Day", "Night"] * 3), "Morning", "Day"]
ARTILLERY = [(8, 5), (8, 5), (4, 2), *([(8, 5)] * 8)]
# The order of battle: (side, division, names, hexes), west of the trench line for the Allied side and east of it
# for the German, one counter a hex, the 16th Bavarian north of the 79th Reserve (19.1, 20.2).
ORDER = (
    (
        "attacker",
        "1st Canadian",
        [f"{n} Bn" for n in ("1st", "2nd", "3rd", "4th", "5th")],
        ["0501", "0502", "0503", "0504", "0505"],
    ),
    (
        "attacker",
        "2nd Canadian",
        [f"{n} Bn" for n in ("18th", "19th", "20th", "21st", "22nd")],
        ["0506", "0507", "0508", "0509", "0510"],
    ),
    (
        "defender",
        "16th Bavarian",
        [f"BIR {n}" for n in (11, 14, 21, 22, 23)],
        ["1301", "1302", "1303", "1304", "1305"],
    ),
    (
        "defender",
        "79th Reserve",
        [f"RIR {n}" for n in (261, 262, 263, 264, 265)],
        ["1306", "1307", "1308", "1309", "1101"],
    ),
)


def test_a_scenario_built_in_its_editor_is_set_up_from_its_order_of_battle(new_page: Any) -> None:
    page = new_page(TABLET_LANDSCAPE, has_touch=True)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto("/")
    page.get_by_role("link", name=f"Build a {get_ruleset('vimy-ridge').name} scenario").tap()
    editor = page.locator("[data-club-editor][data-loaded='true']")
    expect(editor).to_be_visible()
    assert page.locator("[data-scn-canvas]").count() == 0  # not the centimetre table

    page.get_by_label("Title").fill("Our Vimy")
    page.get_by_label("Peaks").fill(" ".join(PEAKS))
    page.get_by_label("Vimy Town", exact=True).fill(" ".join(VIMY))
    page.get_by_label("Petit Vimy Town").fill("1534 1535")
    page.get_by_label("Trench Hexsides").fill("0910-1010")
    page.get_by_label("No Man's Land").fill("1010 1011")
    # Each side's set-up hexes (19.1, 20.2): the order of battle's hexes below, so its placing is checked.
    allied_hexes = [h for side, _d, _n, hexes in ORDER if side == "attacker" for h in hexes]
    german_hexes = [h for side, _d, _n, hexes in ORDER if side == "defender" for h in hexes]
    page.get_by_label("Allied Set Up").fill(" ".join(allied_hexes))
    page.get_by_label("German Set Up").fill(" ".join(german_hexes))
    for i, (part, (allied, german)) in enumerate(zip(TRACK, ARTILLERY, strict=True)):
        page.get_by_label(f"Turn Track {i + 1}", exact=True).select_option(part)
        page.get_by_label(f"Artillery Track {i + 1}: Allied").fill(str(allied))
        page.get_by_label(f"Artillery Track {i + 1}: German").fill(str(german))
    for side, division, names, _hexes in ORDER:
        add = page.locator(f"[data-club-add='{side}']")
        for n, name in enumerate(names):
            add.tap()
            row = page.locator(f"[data-club-counter='{side}']").last
            row.get_by_label("Name").fill(name)
            if n == 0:  # the division's first: its values; the next ones start as it is
                row.get_by_label("Division").fill(division)
                for label, value in (("Attack", 4), ("Defence", 3)):
                    row.get_by_label(label, exact=True).fill(str(value))
                for label, value in (("Attack (depleted)", 2), ("Defence (depleted)", 1)):
                    row.get_by_label(label).fill(str(value))
    # A strength past the counters' bound is refused by the server, naming its field.
    over = page.locator("[data-club-counter='defender']").last.get_by_label("Attack", exact=True)
    over.fill("100")
    page.locator("[data-club-save]").tap()
    expect(page.locator("[data-club-message]")).to_contain_text("sides.defender.forces.9.state.attack")
    over.fill("4")
    page.locator("[data-club-save]").tap()
    expect(page.locator("[data-club-message]")).to_contain_text("Saved")
    for viewport in (TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE, REFEREE_SCREEN):
        page.set_viewport_size(viewport)
        screenshot(page, "counter-scenario-editor")
        assert_no_horizontal_scroll(page)
        assert small_targets(page) == [], viewport
    assert serious_violations(page) == []
    page.set_viewport_size(TABLET_LANDSCAPE)
    # The saved file opens in the editor as it was entered.
    page.goto(f"/scenarios/{page.locator('[data-start-scenario]').input_value()}/edit")
    expect(page.locator("[data-club-editor][data-loaded='true']")).to_be_visible()
    expect(page.get_by_label("Peaks")).to_have_value(" ".join(PEAKS))
    expect(page.get_by_label("No Man's Land")).to_have_value("1010 1011")
    expect(page.get_by_label("German Set Up")).to_have_value(" ".join(german_hexes))
    expect(page.get_by_label("Artillery Track 3: German")).to_have_value("2")
    expect(page.locator("[data-club-counter]")).to_have_count(20)

    # The lobby: a game from the saved scenario.
    page.goto("/")
    page.locator("label.chip", has_text="Our Vimy").tap()
    with page.expect_navigation(url=re.compile(r"/games/\d+/created")):
        page.get_by_role("button", name="Create game").tap()
    game_page = page.url
    page.locator("#main").get_by_role("link", name="Counters").tap()
    setup = page.locator("[data-setup]")
    expect(setup).to_be_visible()
    # The club's data is there from the start: its tracks' allotments, none unknown.
    expect(page.locator("[data-track-turn='2']")).to_have_attribute("title", re.compile(r"8/5"))
    expect(page.locator("[data-track-turn='3']")).to_have_attribute("title", re.compile(r"4/2"))
    assert "?/?" not in "".join(page.locator("[data-track-turn]").evaluate_all("ls => ls.map(l => l.title)"))
    assert serious_violations(page) == []
    for viewport in (TABLET_PORTRAIT, PHONE, REFEREE_SCREEN, TABLET_LANDSCAPE):
        page.set_viewport_size(viewport)
        screenshot(page, "counter-set-up")
        assert_no_horizontal_scroll(page)
        assert small_targets(page) == [], viewport

    taps = 0

    def tap(locator: Any) -> None:
        nonlocal taps
        locator.tap()
        taps += 1

    # A counter typed on the other side's set-up hex is refused in one sentence with its rule, and stays to place.
    page.get_by_label(re.compile(r"^1st Bn: its hex")).fill(german_hexes[0])
    page.get_by_role("button", name="Place 1st Bn", exact=True).tap()
    expect(page.locator("#net-status")).to_contain_text("(20.2)")
    page.get_by_label(re.compile(r"^1st Bn: its hex")).fill("")
    placed = 0
    for _side, _division, names, hexes in ORDER[:3]:  # one at a time: its field, its digits, Place
        for name, where in zip(names, hexes, strict=True):
            tap(page.get_by_label(re.compile(rf"^{name}: its hex")))
            page.keyboard.type(where)
            tap(page.get_by_role("button", name=f"Place {name}", exact=True))
            placed += 1
            expect(page.locator("[data-counter-group]", has_text=f"Hex {where}")).to_contain_text(name)
        assert taps <= 2 * placed
    _side, division, names, hexes = ORDER[3]  # a whole division at once
    for name, where in zip(names, hexes, strict=True):
        tap(page.get_by_label(re.compile(rf"^{name}: its hex")))
        page.keyboard.type(where)
    tap(page.get_by_role("button", name=f"Place all of {division}"))
    placed += len(names)
    expect(setup).to_be_hidden()
    assert taps <= 2 * placed, taps
    # A counter on a key hex shows what the club's data makes of it.
    peak = page.locator("[data-counter-group='place-1101']")
    expect(peak).to_contain_text("RIR 265")
    expect(peak.locator(".group-note")).not_to_be_empty()

    # The game's own order of battle, edited in set-up: a counter added in one request, refused whole with its
    # rule's sentence (19.1 names the German divisions), then added once its division is one the book names.
    page.goto(game_page.replace("/created", "/table/edit"))
    expect(page.locator("[data-club-editor][data-loaded='true']")).to_be_visible()
    page.locator("[data-club-add='defender']").tap()
    row = page.locator("[data-club-counter='defender']").last
    row.get_by_label("Name").fill("RIR 266")
    row.get_by_label("Division").fill("5th Guards")
    page.locator("[data-club-save]").tap()
    expect(page.locator("[data-club-message]")).to_contain_text(re.compile(r"^RIR 266: .*\(19\.1\)"))
    row.get_by_label("Division").fill("79th Reserve")
    page.locator("[data-club-save]").tap()
    expect(page.locator("[data-club-message]")).to_have_text("Saved to the game.")
    page.reload()
    expect(page.locator("[data-club-counter='defender']")).to_have_count(11)  # the refused one left nothing
    assert errors == []
