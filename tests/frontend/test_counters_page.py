"""The page of counters (issue 56): a game played without a table, on the club's own board of counters, plays
from a page that replaces the map (app/pages/table_map.py, frontend/static/js/counter-board.js). On a Vimy
Ridge game seeded through the API (its counters on hexes, the club's key hexes entered), by touch on the
attacker's tablet at 1180x820: an attack's odds and its result in at most 4 taps (the attacking counter, its
Attack, the defender, the die), each tap on screen and uncovered, then Undo. The other sizes: the same card
with its odds, laid out, every target at least 44 px, nothing scrolled sideways, and axe-core's serious
findings none. What the attack does on every device is the API's (tests/app/games/test_vimy_ridge.py)."""

from __future__ import annotations

import re
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
    centre_on_top,
    screenshot,
    small_targets,
)
from tests.frontend.games import bearer, join_by_api, seed_game, sign_in

pytestmark = pytest.mark.browser

# The club's own key hexes and tracks (a test fixture, not map facts: the book prints no map).
CLUB = {
    "peaks": [f"{1101 + i}" for i in range(13)],
    "vimy_town": [f"{1801 + i}" for i in range(12)],
    "petit_vimy_town": ["1534", "1535"],
    "la_folie_woods": ["1207"],
    "easternmost": [f"{2001 + i}" for i in range(10)],
    "trench_hexsides": [["0910", "1010"]],
    "turn_track": [*(["Morning", "Day", "Night"] * 3), "Morning", "Day"],
    "artillery_track": [[8, 5], [8, 5], [4, 2], *([[8, 5]] * 8)],
    "aircraft": 3,
}


def seeded(page: Any, step: str = "combat", club: bool = True) -> tuple[int, dict[str, Any], dict[str, int]]:
    """A Vimy game at `step` of its first turn (its combat phase, or its bombardment): four counters on hexes,
    the club's data entered (`club`), or none, as a newcomer's game has."""
    gid, made = seed_game(page, {"name": "Vimy", "ruleset": "vimy-ridge"})
    api = f"/api/v1/games/{gid}"
    referee = bearer(made["referee_token"])
    ids = {}
    for side, name, division, where in (
        ("attacker", "1st Bn", "1st Canadian", "0910"),
        ("attacker", "2nd Bn", "1st Canadian", "1009"),
        ("attacker", "18th Bn", "2nd Canadian", "0911"),
        ("defender", "RIR 261", "79th Reserve", "1010"),
    ):
        unit = {"side": side, "name": name, "level": "counter"}
        added = page.request.post(f"{api}/units", data=unit, headers=referee)
        assert added.status == 201, added.text()
        uid = int(added.json()["unit"]["id"])
        # Its printed movement allowance too: a counter without one moves nowhere, and its card offers no Move.
        values = {"hex": where, "division": division, "attack": 4, "defence": 4, "movement_allowance": 3}
        values |= {"attack_depleted": 2, "defence_depleted": 2}
        edited = page.request.put(f"{api}/units/{uid}", data={"version": 1, **values}, headers=referee)
        assert edited.status == 200, edited.text()
        ids[name] = uid
    if club:  # entered by the referee in set-up, as its editor saves it
        version = page.request.get(f"{api}/turn", headers=referee).json()["version"]
        entered = page.request.patch(api, data={"version": version, "club": CLUB}, headers=referee)
        assert entered.status == 200, entered.text()
    for _ in range(4):  # from set-up, step by step ("Zero Hour": the Allied movement moves nothing)
        version = page.request.get(f"{api}/turn", headers=referee).json()["version"]
        advanced = page.request.post(f"{api}/turn/advance", data={"version": version}, headers=referee)
        assert advanced.status == 200, advanced.text()
        if advanced.json()["turn"]["step"]["id"] == step:
            break
    else:
        raise AssertionError(f"no {step} step in the first turn")
    return gid, made, ids


def tap(page: Any, target: Any, scroll: bool = False) -> None:
    """A tap by touch at the target: on screen, in view (with `scroll`, scrolled there first, as on a phone), and
    the topmost thing there once the page has drawn what it read (a step's button or a notice may still move
    it); then tapped by Playwright, which taps again should the finger land on something else."""
    expect(target).to_be_visible()
    if scroll:  # to the middle, clear of the card docked at a phone's foot
        target.evaluate("(el) => el.scrollIntoView({block: 'center'})")
    at = centre_on_top(page, target)
    vw, vh = page.viewport_size["width"], page.viewport_size["height"]
    assert 0 <= at["x"] < vw and 0 <= at["y"] < vh and at["onTop"], at
    target.tap()


def attack_to_odds(page: Any, ids: dict[str, int], scroll: bool = False) -> int:
    """The attacking counter, its Attack, the defender: the odds on the card; the taps made."""
    tap(page, page.locator(f"[data-counter='{ids['1st Bn']}']"), scroll)
    expect(page.locator("[data-acts]")).to_have_count(1)
    tap(page, page.get_by_role("button", name="Attack", exact=True), scroll)
    expect(page.locator("[data-play-prompt]")).to_be_visible()
    tap(page, page.locator(f"[data-counter='{ids['RIR 261']}']"), scroll)
    expect(page.locator("[data-play-odds]")).to_be_visible()
    return 3


def test_an_attack_from_the_page_of_counters_in_four_taps(new_page: Any) -> None:
    referee = new_page(TABLET_LANDSCAPE)
    gid, made, ids = seeded(referee)
    attacker = new_page(TABLET_LANDSCAPE)
    join_by_api(attacker, made["join_codes"]["attacker"])
    # The game's link from the lobby and the seats is the map's: for a game without a table it opens the page
    # of counters.
    attacker.goto(f"/games/{gid}/map")
    expect(attacker).to_have_url(f"/games/{gid}/counters")
    expect(attacker.locator("[data-counters-page][data-loaded='4']")).to_be_visible()
    # The counters by hex, the turn track at turn 1.
    expect(attacker.locator("[data-counter-group='place-1010']")).to_contain_text("RIR 261")
    expect(attacker.locator("[data-track-turn='1']")).to_have_attribute("aria-current", "step")
    taps = attack_to_odds(attacker, ids)
    odds = attacker.locator("[data-play-odds]")
    # One counter's 4 against 4 across the trench hexside: the 0 column of the trench line.
    expect(odds).to_contain_text("Attack strength 4 · Defense strength 4 · Terrain trench")
    expect(odds).to_contain_text("(A) 2 in 3")
    screenshot(attacker, "counters-terrain-lines")
    tap(attacker, attacker.locator(".play-dice").get_by_role("button", name="Die showing 1", exact=True))
    taps += 1
    assert taps <= 4
    done = attacker.locator("[data-play-done]")
    expect(done).to_be_visible()
    expect(done).to_have_attribute("data-play-outcome", "A2")  # a 1 on the 0 column
    screenshot(attacker, "counters-attack-done")
    # Undo takes it back.
    tap(attacker, attacker.get_by_role("button", name="Undo", exact=True))
    expect(attacker.locator("[data-play-done]")).to_have_count(0)
    # The attack taken back owes no result: the step's list of what is still to do (above the list's tools) goes.
    expect(attacker.locator("[data-step-needs]")).to_be_hidden()
    # By division: this seat's side first, each counter with its hex.
    attacker.get_by_role("button", name="By division").tap()
    groups = attacker.locator("[data-counter-group]")
    expect(groups.first).to_contain_text("1st Canadian")
    expect(groups.first).to_contain_text("1st Bn")
    expect(groups.first).to_contain_text("Hex 1009")
    expect(groups.last).to_contain_text("79th Reserve")
    screenshot(attacker, "counters-by-division")
    # Issue 62: the referee ends the game on the board (two taps); the open page of counters says the result
    # first, pushed live: the Canadians short of 2 VP, the Germans win (12.2), in the book's names.
    referee.goto(f"/games/{gid}/referee")
    referee.get_by_text("End the game…").click()
    referee.get_by_role("button", name="Yes, end the game").click()
    line = attacker.locator("[data-result-line]")
    expect(line).to_be_visible()
    expect(line).to_contain_text("Game over · German victory. The Canadians hold 0 VP of 2")
    expect(line).to_contain_text("12.2 German Victory")
    screenshot(attacker, "counters-result")


def test_a_newcomers_attack_offers_the_books_five_lines_and_its_owner_applies_the_result(
    new_page: Any,
) -> None:
    """No club data: the card offers the Combat Results Table's five lines by name, Clear chosen and its odds
    shown; a line tapped reads its odds; the die; then the owner of the counter the result falls on applies it,
    once: (A) is a retreat or a step lost, the owner's choice."""
    referee = new_page(TABLET_PORTRAIT)
    gid, made, ids = seeded(referee, club=False)
    attacker = new_page(TABLET_PORTRAIT)
    join_by_api(attacker, made["join_codes"]["attacker"])
    attacker.goto(f"/games/{gid}/counters")
    expect(attacker.locator("[data-turn-now]")).to_contain_text("Combat phase")
    taps = attack_to_odds(attacker, ids)
    lines = attacker.get_by_role("group", name="Terrain")
    names = ["Peak", "Trench hexside, Woods", "Town, Hill, La Folie Farm", "River", "Clear"]
    expect(lines.get_by_role("button")).to_have_text(names)
    expect(lines.get_by_role("button", name="Clear", exact=True)).to_have_attribute("aria-pressed", "true")
    odds = attacker.locator("[data-play-odds]")
    expect(odds).to_contain_text("Ex 1 in 3")  # 4 against 4 on the Clear line's 0 column
    tap(attacker, lines.get_by_role("button", name="Trench hexside, Woods", exact=True))
    expect(odds).to_contain_text("(A) 2 in 3")
    tap(attacker, attacker.locator(".play-dice").get_by_role("button", name="Die showing 1", exact=True))
    taps += 2
    assert taps <= 5
    expect(attacker.locator("[data-play-done]")).to_have_attribute("data-play-outcome", "A2")
    assert small_targets(attacker) == [] and serious_violations(attacker) == []
    # (A) falls on the attacker: the step names it as still to apply, the counter's card one tap away, and the
    # Canadian seat retreats its own counter from its card, a hex the retreat may take tapped.
    still = attacker.locator("[data-step-needs]")
    expect(still).to_be_hidden()  # held while the card shows the roll: nothing moves its Undo and Done
    tap(attacker, attacker.get_by_role("button", name="Done", exact=True))
    expect(still).to_contain_text("1st Bn: apply the A2 (retreat or step loss or elimination)")
    assert small_targets(attacker) == [] and serious_violations(attacker) == []
    screenshot(attacker, "counters-still-to-apply")
    # The referee's End the game lists it as left undone, its counter's card one tap away on the page of counters.
    referee.goto(f"/games/{gid}/referee")
    referee.get_by_text("End the game…").click()
    undone = referee.locator("[data-end-needs]")
    expect(undone).to_contain_text("1st Bn: apply the A2")
    undone.get_by_role("link", name="Open 1st Bn's card").click()
    expect(referee).to_have_url(re.compile(rf"/games/{gid}/counters"))
    expect(referee.locator("[data-card-name]")).to_have_text("1st Bn")
    tap(attacker, still.get_by_role("button", name="1st Bn: apply the A2", exact=False))
    result = attacker.get_by_role("group", name="Combat result")
    expect(result.get_by_role("button", name="Step loss")).to_be_visible()
    retreat = attacker.get_by_role("group", name="Retreat", exact=True)
    expect(retreat.get_by_role("button", name="Retreat to hex 0810", exact=True)).to_be_visible()
    screenshot(attacker, "counters-retreat")
    tap(attacker, retreat.get_by_role("button", name="Retreat to hex 0810", exact=True))
    expect(attacker.locator("[data-counter-group='place-0810']")).to_contain_text("1st Bn")
    # Applied once: the card read anew offers no more of that result, and the step needs it no more.
    expect(attacker.get_by_role("group", name="Combat result")).to_have_count(0)
    expect(still).to_be_hidden()


def test_a_bombardment_from_the_page_of_counters_and_its_marker(new_page: Any) -> None:
    """The referee enters a counter from the club's set; the enemy counter, its Bombard, the players' call that
    it is observed, the die: a hit depletes it, and the counter shows its marker and its depletion on every
    device (here the referee's, by the stream)."""
    referee = new_page(TABLET_LANDSCAPE)
    gid, made, ids = seeded(referee, step="bombardment")
    referee.goto(f"/games/{gid}/counters")
    german = referee.locator(f"[data-counter='{ids['RIR 261']}']")
    expect(german).to_be_visible()
    # The referee's screen has its board open on "End the game…"; a new counter has it read the whole board
    # anew, and what the referee opened there stays open (board-live.js).
    screen = new_page(REFEREE_SCREEN, has_touch=False)
    sign_in(screen, made["referee_token"])
    screen.goto(f"/games/{gid}/referee")
    expect(screen.locator("[data-live-stream][data-live-connected]")).to_have_count(1)
    screen.get_by_text("End the game…").click()
    expect(screen.locator("[data-end-game]")).to_have_attribute("open", "")
    # The referee enters one more counter from the club's set: it stands in its hex.
    referee.get_by_text("Add a counter from the club's set").click()
    form = referee.locator("[data-entry-form]")
    form.get_by_label("Side").select_option("defender")
    form.get_by_label("Name").fill("RIR 262")
    form.get_by_label("Division", exact=True).select_option(
        "79th Reserve"
    )  # a division the book names (19.1)
    for label, value in (("Hex", "1011"), ("Attack", "3"), ("Defence", "5")):
        form.get_by_label(label, exact=True).fill(value)
    form.get_by_role("button", name="Add it").click()
    expect(referee.locator("[data-counter-group='place-1011']")).to_contain_text("RIR 262")
    expect(referee.locator("[data-counter-group='place-1011']")).to_contain_text("3-5")
    expect(screen.locator("#board")).to_contain_text("RIR 262")
    expect(screen.locator("[data-end-game]")).to_have_attribute("open", "")
    screenshot(referee, "counters-referee-entry")
    assert serious_violations(referee) == [] and small_targets(referee) == []
    attacker = new_page(TABLET_LANDSCAPE)
    join_by_api(attacker, made["join_codes"]["attacker"])
    attacker.goto(f"/games/{gid}/counters")
    tap(attacker, attacker.locator(f"[data-counter='{ids['RIR 261']}']"))
    tap(attacker, attacker.get_by_role("button", name="Bombard", exact=True))
    expect(attacker.locator("[data-play-refused]")).to_contain_text("Say the target is observed")
    tap(attacker, attacker.get_by_role("button", name="Observed", exact=True))
    expect(attacker.locator("[data-play-odds]")).to_contain_text("Hit 1 in 3")
    tap(attacker, attacker.locator(".play-dice").get_by_role("button", name="Die showing 1", exact=True))
    expect(attacker.locator("[data-play-done]")).to_have_attribute("data-play-outcome", "hit")
    expect(german).to_contain_text("Depleted · 1 bombardment marker")


def test_a_move_being_typed_stays_as_another_device_changes_the_counter_s_card(new_page: Any) -> None:
    """The German seat types a move on its counter's card (the field focused, nothing sent) while the referee's
    device records the counter's step loss: the card read anew drops its Step loss (a group above the field),
    and what was typed stays, in the same field, still focused, where a card read anew once drew a new field
    in its place and the typing was gone."""
    referee = new_page(TABLET_LANDSCAPE)
    gid, made, ids = seeded(referee)
    api, by_referee = f"/api/v1/games/{gid}", bearer(made["referee_token"])
    for _ in range(3):  # from the Allied combat phase on to the German movement phase
        version = referee.request.get(f"{api}/turn", headers=by_referee).json()["version"]
        advanced = referee.request.post(f"{api}/turn/advance", data={"version": version}, headers=by_referee)
        assert advanced.status == 200, advanced.text()
        turn = advanced.json()["turn"]
        if (turn["side_to_move"], turn["step"]["id"]) == ("defender", "movement"):
            break
    else:
        raise AssertionError("no German movement phase in the first turn")
    german = new_page(TABLET_LANDSCAPE)
    join_by_api(german, made["join_codes"]["defender"])
    german.goto(f"/games/{gid}/counters")
    expect(german.locator("[data-live-stream][data-live-connected]")).to_have_count(1)
    tap(german, german.locator(f"[data-counter='{ids['RIR 261']}']"))
    expect(german.locator("[data-card-name]")).to_have_text("RIR 261")
    losses = german.get_by_role("group", name="Step loss")
    expect(losses).to_be_visible()
    field = german.locator("[data-place-form]").get_by_label("To another hex")
    tap(german, field)
    german.keyboard.type("1110")
    uid = ids["RIR 261"]
    version = referee.request.get(f"{api}/units/{uid}", headers=by_referee).json()["version"]
    lost = referee.request.put(
        f"{api}/units/{uid}", data={"version": version, "depleted": True}, headers=by_referee
    )
    assert lost.status == 200, lost.text()
    expect(losses).to_have_count(0)  # the card read anew, by the stream
    expect(german.locator(f"[data-counter='{uid}']")).to_contain_text("Depleted")
    expect(field).to_have_value("1110")
    expect(field).to_be_focused()


def test_a_counter_s_card_is_busy_while_another_counter_s_card_is_read(new_page: Any) -> None:
    """A counter tapped while another's card is shown: until the server's answer is drawn, the card shown says
    it is busy and takes no tap (its Attack, its field, are the other counter's), so nothing typed or tapped on
    it goes to the wrong counter or is lost when the new card comes; then the new counter's card, not busy."""
    referee = new_page(TABLET_LANDSCAPE)
    gid, _, ids = seeded(referee)
    referee.goto(f"/games/{gid}/counters")
    tap(referee, referee.locator(f"[data-counter='{ids['1st Bn']}']"))
    card = referee.locator("[data-counter-card]")
    expect(card.locator("[data-card-name]")).to_have_text("1st Bn")
    attack = card.get_by_role("button", name="Attack", exact=True)
    expect(attack).to_be_visible()
    held: list[Any] = []  # the panel's read, held on its way to the server until the card is looked at

    def hold(route: Any) -> None:
        held.append(route)

    referee.route("**/counters/panel?*", hold)
    tap(referee, referee.locator(f"[data-counter='{ids['18th Bn']}']"))
    expect(card).to_have_attribute("aria-busy", "true")
    hit = attack.evaluate(
        """el => { const r = el.getBoundingClientRect();
             return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }"""
    )
    assert hit is False  # and so while the read is held: a tap at its centre does not reach it
    expect(card.locator("[data-card-name]")).to_have_text("1st Bn")
    assert held, "the 18th Bn's card was never asked for"
    for route in held:
        route.continue_()
    referee.unroute("**/counters/panel?*", hold)
    expect(card.locator("[data-card-name]")).to_have_text("18th Bn")
    expect(card).not_to_have_attribute("aria-busy", "true")
    tap(referee, attack)  # the 18th Bn's own Attack, on top again
    expect(referee.locator("[data-play-prompt]")).to_be_visible()


def test_a_tap_waiting_its_turn_acts_on_its_button_as_read_since(new_page: Any) -> None:
    """The referee taps By division, then Next step while the panels are still read: the turn panel is swapped
    for the one read (the chips' state is in it) before the Next step's turn comes, and the tap acts on the Next
    step now in its place (ci140: a live event's read swapped it under the tap, which was lost in silence)."""
    referee = new_page(TABLET_LANDSCAPE)
    gid, _, _ = seeded(referee)
    referee.goto(f"/games/{gid}/counters")
    now = referee.locator("[data-turn-now]")
    expect(now).to_contain_text("Combat phase")
    held: list[Any] = []

    def hold(route: Any) -> None:
        held.append(route)

    referee.route("**/counters/panel?*", hold)
    with referee.expect_request("**/counters/panel?*"):
        tap(referee, referee.get_by_role("button", name="By division"))
    with referee.expect_response(lambda r: r.url.endswith("/turn/advance")) as answered:
        tap(referee, referee.locator("[data-next-step]"))
        assert held, "the panels' read was never asked for"
        for route in held:
            route.continue_()
        referee.unroute("**/counters/panel?*", hold)
    assert answered.value.ok, answered.value.text()
    expect(now).not_to_contain_text("Combat phase")
    expect(referee.get_by_role("button", name="By division")).to_have_attribute("aria-pressed", "true")


@pytest.mark.parametrize("size", [TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE, REFEREE_SCREEN], ids=str)
def test_the_page_of_counters_at_each_size(new_page: Any, size: dict[str, int]) -> None:
    referee = new_page(size)
    gid, made, ids = seeded(referee, club=False)  # no club data: the card offers the five terrain lines too
    attacker = new_page(size)
    join_by_api(attacker, made["join_codes"]["attacker"])
    attacker.goto(f"/games/{gid}/counters")
    expect(attacker.locator("[data-counters-page][data-loaded='4']")).to_be_visible()
    screenshot(attacker, "counters")
    attack_to_odds(attacker, ids, scroll=True)
    # Another counter of the division joins the attack: 8 against 4.
    tap(attacker, attacker.locator(f"[data-counter='{ids['2nd Bn']}']"), scroll=True)
    expect(attacker.locator("[data-play-odds]")).to_contain_text("Attack strength 8")
    expect(attacker.locator("[data-play-title]")).to_contain_text("1st Bn + 2nd Bn at RIR 261")
    expect(attacker.get_by_role("group", name="Terrain").get_by_role("button")).to_have_count(5)
    # Every die of the card on screen and uncovered (off screen, nothing is at its centre).
    attacker.locator(".play-dice").evaluate("(el) => el.scrollIntoView({block: 'nearest'})")
    for n in range(1, 7):
        die = attacker.locator(".play-dice").get_by_role("button", name=f"Die showing {n}", exact=True)
        assert centre_on_top(attacker, die)["onTop"], (n, size)
    screenshot(attacker, "counters-odds")
    assert small_targets(attacker) == []
    assert_no_horizontal_scroll(attacker)
    assert serious_violations(attacker) == []
