"""A game of counters from the start page with nothing seeded through the API (issue 62): on a tablet by touch,
the start page's "Build a Vimy Ridge scenario" opens the club's editor (not the centimetre table); the club's
key hexes, a trench hexside, No Man's Land, the turn and Artillery Tracks and an order of battle of 10 counters
a side are entered and saved; a game is made from the scenario in the lobby's form; on its page of counters each
counter of the order of battle is placed by its hex's four digits and at most two taps (a whole division's at
once costs one tap more for the division, and one a counter for its field), and the page shows the club's data
(its tracks' bombardment allotments, its key hexes). Then the game is played on that page by the referee's
taps, nothing entered through the API: started and stepped on by its Next step (each step named on the page as
the server has it), a combat whose terrain the club's data gives in 4 taps and one whose line is picked in 5, the
result applied on the counter's card, the night turn's replacement entered in an Allied trench hex (refused
elsewhere, 11.3), and the instant win of a Canadian counter entering a Vimy town hex (12.1) on the result line.
The editor, and the page of counters at the combat, the night and the victory, at the four sizes: every target
44 px, nothing scrolled sideways, axe-core clean. The document's checks and round trip are the API's
(tests/app/games/test_counter_scenario_file.py); the replacement's and the victory's rules the rules tier's."""

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
    centre_on_top,
    screenshot,
    small_targets,
)

pytestmark = [pytest.mark.browser, pytest.mark.long]  # over 10 s on CI: scheduled first (tests/conftest.py)

# A club's copy, as a test fixture (the book prints no map): its key hexes and tracks.
# The front runs between columns 05 and 06: the German RIR 261 on a peak (0601) and RIR 262 (0606) next to the
# Canadians, a Vimy town hex (0607) one hex from the 19th Bn, the one trench hexside's Allied hex 0910.
PEAKS = ["0601", *(f"{1101 + i}" for i in range(12))]
VIMY = ["0607", *(f"{1801 + i}" for i in range(11))]
TRACK = [*(["Morning", "Day", "Night"] * 3), "Morning", "Day"]
ARTILLERY = [(8, 5), (8, 5), (4, 2), *([(8, 5)] * 8)]
RESERVE = "1309"  # the German set-up hex of the counter added to the game's own order of battle
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
        ["1301", "1501", "1701", "1901", "2101"],  # north of every 79th Reserve hex, 0601's too (19.1)
    ),
    (
        "defender",
        "79th Reserve",
        [f"RIR {n}" for n in (261, 262, 263, 264, 265)],
        ["0601", "0606", "1306", "1307", "1308"],
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
    german_hexes = [h for side, _d, _n, hexes in ORDER if side == "defender" for h in hexes] + [RESERVE]
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
                # The German divisions the book names are chosen (19.1); the Allied, the club's own, typed.
                if side == "defender":
                    row.get_by_label("Division").select_option(division)
                else:
                    row.get_by_label("Division").fill(division)
                for label, value in (("Attack", 4), ("Defence", 3), ("Movement allowance", 3)):
                    row.get_by_label(label, exact=True).fill(str(value))
                for label, value in (("Attack (depleted)", 2), ("Defence (depleted)", 1)):
                    row.get_by_label(label).fill(str(value))
    # A strength past the counters' bound is refused by the server, naming its field.
    over = page.locator("[data-club-counter='defender']").last.get_by_label("Attack", exact=True)
    over.fill("100")
    page.locator("[data-club-save]").tap()
    expect(page.locator("[data-club-message]")).to_contain_text("RIR 265's attack")
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
    peak = page.locator("[data-counter-group='place-0601']")
    expect(peak).to_contain_text("RIR 261")
    expect(peak.locator(".group-note")).not_to_be_empty()

    # The game's own order of battle, edited in set-up: a counter added in one request, its division chosen
    # among those the book names (19.1; one it does not name is refused by the server, tests/app/test_club_save).
    page.goto(game_page.replace("/created", "/table/edit"))
    expect(page.locator("[data-club-editor][data-loaded='true']")).to_be_visible()
    page.locator("[data-club-add='defender']").tap()
    row = page.locator("[data-club-counter='defender']").last
    row.get_by_label("Name").fill("RIR 266")
    row.get_by_label("Division").select_option("79th Reserve")
    page.locator("[data-club-save]").tap()
    expect(page.locator("[data-club-message]")).to_have_text("Saved to the game.")
    page.reload()
    expect(page.locator("[data-club-counter='defender']")).to_have_count(11)  # the refused one left nothing

    # Back on the page of counters: the new counter placed, and the game started, by the referee's taps.
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Counters").tap()
    tap(page.get_by_label(re.compile(r"^RIR 266: its hex")))
    page.keyboard.type(RESERVE)
    tap(page.get_by_role("button", name="Place RIR 266", exact=True))
    placed += 1
    expect(setup).to_be_hidden()
    assert taps <= 2 * placed, taps
    play(page, errors, placing=taps)


SIDES = {"attacker": "Canadian", "defender": "German"}


def step_to(page: Any, words: str) -> int:
    """The referee's Next step tapped on the page of counters until the turn reads `words`, each step named on
    the page as the server has it, and no other step named meanwhile (a new side's turn once read the old
    side's step until the page read the state back): the taps made."""
    now = page.locator("[data-turn-now]")
    page.evaluate(
        """() => { const el = document.querySelector('[data-turn-now]'); window.seenTurns = [el.textContent];
             if (window.turnWatch) return;
             window.turnWatch = new MutationObserver(() => window.seenTurns.push(el.textContent));
             window.turnWatch.observe(el, {childList: true, characterData: true, subtree: true}); }"""
    )
    said = re.compile(r"Game turn (\d+)\b.* · (Canadian|German): ([^·]+)")

    def step_of(text: str) -> tuple[str, ...] | None:
        found = said.search(text)
        return tuple(g.strip() for g in found.groups()) if found else None

    named: list[tuple[str, ...] | None] = [step_of(now.text_content() or "")]
    taps = 0
    while words not in (now.text_content() or ""):
        with page.expect_response(lambda r: r.url.endswith("/turn/advance")) as answered:
            on_top(page, page.locator("[data-next-step]"))
        taps += 1
        assert answered.value.ok, answered.value.text()
        turn = answered.value.json()["turn"]  # where the server says the tap took the game
        number, side, title = str(turn["turn"]), SIDES[turn["side_to_move"]], turn["step"]["title"].strip()
        named.append((number, side, title))
        expect(now).to_contain_text(f"Game turn {number}: ")
        expect(now).to_contain_text(f"· {side}: {title}")
        assert taps <= 12, now.text_content()
    shown: list[tuple[str, ...] | None] = []
    for text in page.evaluate("window.seenTurns"):
        step = step_of(text)
        if step and (not shown or shown[-1] != step):
            shown.append(step)
    assert shown == [n for n in named if n], shown
    return taps


def on_top(page: Any, target: Any) -> None:
    """A tap by touch at the target's centre, scrolled into view: the topmost thing there (nothing drawn over
    what the player acts on)."""
    expect(target).to_be_visible()
    at = centre_on_top(page, target, scroll=True)
    assert at["onTop"], at
    # Playwright's tap: the same touch at the centre, once the element is still and still the one hit there (a
    # live frame's redraw a moment before, on a busy machine, moved the card's Done from under a tap at the
    # coordinates read above).
    target.tap()


def looked_at(page: Any, name: str) -> None:
    """The page of counters at the four sizes: laid out, every target 44 px, axe-core clean; back to the tablet."""
    for viewport in (TABLET_PORTRAIT, PHONE, REFEREE_SCREEN, TABLET_LANDSCAPE):
        page.set_viewport_size(viewport)
        screenshot(page, name)
        assert_no_horizontal_scroll(page)
        assert small_targets(page) == [], viewport
        assert serious_violations(page) == [], viewport


def play(page: Any, errors: list[str], placing: int) -> None:
    """The game played from its page of counters by the referee's taps: started, a combat on a peak the club's
    data names (4 taps) and one on a line the players pick (5), a night turn's replacement in an Allied trench
    hex (11.3), and the instant win of a Canadian counter entering a Vimy town hex (12.1)."""
    ids = {
        name: int(page.locator("[data-counter]", has_text=name).first.get_attribute("data-counter") or 0)
        for name in ("1st Bn", "18th Bn", "19th Bn", "RIR 261", "RIR 262")
    }
    counter = {name: page.locator(f"[data-counter='{uid}']") for name, uid in ids.items()}
    now = page.locator("[data-turn-now]")
    expect(page.locator("[data-next-step]")).to_have_text("Start the game")
    steps = step_to(page, "Combat phase")
    expect(now).to_contain_text("Game turn 1")
    expect(page.locator("[data-edit-table]")).to_be_hidden()  # the club's data is set once the game starts

    # A combat whose terrain the club's data gives (RIR 261 on a peak): the attacker, Attack, the defender, the die.
    taps = 0
    on_top(page, counter["1st Bn"])
    on_top(page, page.get_by_role("button", name="Attack", exact=True))
    # As a player reads the card's prompt before tapping the counter attacked (ci58: a tap before it drew took
    # the counter's own card, the prompt arriving after).
    expect(page.locator("[data-play-prompt]")).to_contain_text("Tap the German counter it attacks")
    on_top(page, counter["RIR 261"])
    taps += 3
    odds = page.locator("[data-play-odds]")
    expect(odds).to_contain_text("Terrain peak")
    expect(odds).to_contain_text("A2 1 in 6")
    looked_at(page, "counters-vimy-combat")
    on_top(page, page.locator(".play-dice").get_by_role("button", name="Die showing 1", exact=True))
    taps += 1
    expect(page.locator("[data-play-done]")).to_have_attribute("data-play-outcome", "A2")
    assert taps <= 4, taps
    combat_taps = [taps]
    on_top(page, page.get_by_role("button", name="Done", exact=True))
    # A2 falls on the attacker: the Canadians take it as the counter eliminated (their choice), on its card.
    expect(page.locator("[data-card-name]")).to_have_text("1st Bn")
    on_top(page, page.get_by_role("group", name="Combat result").get_by_role("button", name="Eliminated"))
    expect(page.locator("[data-counter-group='out']")).to_contain_text("1st Bn")

    # A combat on a hex the club's data says nothing of: the players pick its line (a hill), then the die.
    taps = 0
    on_top(page, counter["18th Bn"])
    on_top(page, page.get_by_role("button", name="Attack", exact=True))
    expect(page.locator("[data-play-prompt]")).to_contain_text("Tap the German counter it attacks")
    on_top(page, counter["RIR 262"])
    taps += 3
    lines = page.get_by_role("group", name="Terrain")
    on_top(page, lines.get_by_role("button", name="Town, Hill, La Folie Farm", exact=True))
    taps += 1
    expect(lines.get_by_role("button", name="Town, Hill, La Folie Farm")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(odds).to_contain_text("Ex 1 in 6")  # 4 against 3 on the line's +1 column
    on_top(page, page.locator(".play-dice").get_by_role("button", name="Die showing 1", exact=True))
    taps += 1
    expect(page.locator("[data-play-done]")).to_have_attribute("data-play-outcome", "Ex")
    assert taps <= 5, taps
    combat_taps.append(taps)
    on_top(page, page.get_by_role("button", name="Done", exact=True))

    # On to the night: turn 3 on the club's track, the Allied movement phase.
    steps += step_to(page, "Game turn 3")
    expect(now).to_contain_text("Night")
    expect(now).to_contain_text("Movement phase")
    # The eliminated counter returns as a replacement: refused outside an Allied trench hex (11.3), then in one.
    taps = 0
    on_top(page, counter["1st Bn"])
    taps += 1
    moves = page.locator("[data-place-form]")
    enter = moves.get_by_role("button", name="Enter as a replacement", exact=True)
    expect(enter).to_be_visible()
    looked_at(page, "counters-vimy-night")
    for where in ("0411", "0910"):  # a hex west of the trench line, refused; the Allied trench hex
        on_top(page, moves.get_by_label("The hex it enters"))
        page.keyboard.press("Control+A")
        page.keyboard.type(where)
        on_top(page, enter)
        if where == "0411":
            expect(page.locator("#net-status")).to_contain_text("Allied trench hex, not hex 0411 (11.3)")
            expect(page.locator("[data-counter-group='out']")).to_contain_text("1st Bn")
            on_top(page, page.get_by_role("button", name="OK: dismiss this message"))
    taps += 2
    expect(page.locator("[data-counter-group='place-0910']")).to_contain_text("1st Bn")
    expect(counter["1st Bn"]).to_contain_text("2-1")  # back depleted (11.3)
    assert taps <= 3, taps  # its counter, its hex's field, Enter (the refused try aside)
    replacement_taps = taps

    # Turn 4, by day: the 19th Bn enters the Vimy town hex next to it, and the Canadians win at once (12.1).
    steps += step_to(page, "Game turn 4")
    expect(now).to_contain_text("Canadian: Movement phase")
    taps = 0
    on_top(page, counter["19th Bn"])
    # Its card, as a player reads it before typing: the 1st Bn's card (its own field) is shown till it comes.
    expect(page.locator("[data-card-name]")).to_have_text("19th Bn")
    on_top(page, moves.get_by_label("To another hex"))
    page.keyboard.type("0607")
    on_top(page, moves.get_by_role("button", name="Move", exact=True))
    taps += 3
    assert taps <= 3, taps
    line = page.locator("[data-result-line]")
    expect(line).to_be_visible()
    expect(line).to_contain_text("Canadian victory")
    expect(line).to_contain_text("12.1")
    expect(now).to_have_text("Game over")
    expect(page.locator("[data-step-tools]")).to_be_hidden()  # no step after the game's end
    expect(page.locator("[data-counter-entry]")).to_be_hidden()
    looked_at(page, "counters-vimy-victory")
    # Taps by stage (the bounds asserted where each is made): placing 2 a counter, combat 4 and 5, the
    # replacement 3, the victory's move 3, and the referee's steps from set-up to turn 4's Allied movement.
    assert (placing, combat_taps, replacement_taps, taps, steps) == (38, [4, 5], 3, 3, 19)
    assert errors == []
