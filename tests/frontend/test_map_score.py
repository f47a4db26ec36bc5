"""How a game is won, as a person sees it (issue 55): on Mons at 1180x820 by touch, the bridges drawn on the map
with their holder, each side's points and clock in view in the tool bar's chip, and the referee's call on a
contested bridge in two taps (its label, then the side), which the attacker's map shows at once, with no reload.
Then the layout alone at the other three sizes: the chip in sight and uncovered, its dashboard one tap away,
each objective with its holder in the dashboard's first view, and axe-core on the map with the dashboard open
and on the referee screen's score card. And on the phone, a bridge's card opened while a stand is being moved
ends the move."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from rules.registry import get_game_rules
from tests.frontend.axe import serious_violations
from tests.frontend.conftest import PHONE, REFEREE_SCREEN, TABLET_LANDSCAPE, TABLET_PORTRAIT, screenshot
from tests.frontend.games import at_rest, bearer, join_by_api, seed_game, settled
from tests.frontend.test_map import start_game
from tests.frontend.test_map_play import attacker_on_map, open_map

pytestmark = pytest.mark.browser

# The shipped Mons' bridge 1: the square 37..43 x 117..123 cm (its table_objectives).
BRIDGE_1_SOUTH_EDGE = 117.0


def tap_on_top(page: Any, locator: Any) -> None:
    """A finger on the middle of what the player sees, with nothing over it there."""
    settled(page)
    box = locator.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    assert 0 <= x < page.viewport_size["width"] and 0 <= y < page.viewport_size["height"], (x, y)
    assert locator.evaluate("(el, [x, y]) => el.contains(document.elementFromPoint(x, y))", [x, y]), box
    page.touchscreen.tap(x, y)


def in_sight(page: Any, locator: Any) -> None:
    """On screen, and the topmost thing at its middle."""
    box = locator.bounding_box()
    assert box is not None
    size = page.viewport_size
    assert box["x"] >= 0 and box["y"] >= 0, box
    assert box["x"] + box["width"] <= size["width"] and box["y"] + box["height"] <= size["height"], box
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    assert locator.evaluate("(el, [x, y]) => el.contains(document.elementFromPoint(x, y))", [x, y]), box


def test_the_bridges_the_score_and_the_referees_call_by_touch(new_page: Any) -> None:
    referee = new_page(TABLET_LANDSCAPE)
    game_id, created = seed_game(referee)
    token = created["referee_token"]
    api = f"/api/v1/games/{game_id}"
    start_game(referee, game_id, token)
    # A German platoon just short of bridge 1 (its front edge 0.5 cm off the bridge's): within the tape's 1 cm,
    # so the bridge is contested, for the referee's call.
    units = referee.request.get(f"{api}/units").json()
    platoon = next(u for u in units if u["side"] == "attacker" and u["kind"] == "rifle-platoon" and u["x"])
    depth = get_game_rules("flanders-fields").book.kit.bases[platoon["base"]].depth_cm
    to = {"x": 40.0, "y": BRIDGE_1_SOUTH_EDGE - 0.5 - depth / 2, "facing_deg": 90, "override": True}
    moved = referee.request.post(f"{api}/units/{platoon['id']}/move", data=to, headers=bearer(token))
    assert moved.ok, moved.text()
    bridge = next(
        o for o in referee.request.get(f"{api}/score").json()["objectives"] if o["id"] == "bridge-1"
    )
    assert bridge["contested"] and bridge["holder"] is None

    attacker = new_page(TABLET_LANDSCAPE)
    join_by_api(attacker, created["join_codes"]["attacker"])
    open_map(attacker, game_id)
    open_map(referee, game_id)

    # The bridges drawn, under the stands; their holders in words on their labels.
    expect(referee.locator("path[data-objective-shape]")).to_have_count(2)
    label = referee.locator(".objective-tag[data-objective=bridge-1]")
    expect(label).to_have_attribute("data-contested", "true")
    expect(label).to_contain_text("Contested")
    expect(referee.locator(".objective-tag[data-objective=bridge-2]")).to_contain_text("Nobody's · 1 VP")
    panes = referee.evaluate(
        "() => ['objectives', 'stands', 'objective-labels', 'markerPane'].map((p) => Number(getComputedStyle("
        "window.firestepMap.leaflet.getPane(p)).zIndex))"
    )
    # The areas and their labels under the stands, the handles and the stand labels (Leaflet's marker pane).
    assert panes[0] < panes[2] < panes[1] < panes[3], panes

    # The score and the clock in view: each side's points, each side's time.
    chip = referee.locator("[data-score-chip]")
    in_sight(referee, chip)
    expect(chip.locator("[data-side-points=attacker] b")).to_have_text("0")
    expect(chip.locator("[data-side-points=defender] b")).to_have_text("0")
    expect(chip.locator("[data-side-clock]")).to_have_count(2)
    expect(chip.locator("[data-score-flag]")).to_have_text("1 contested")

    # The referee's call in two taps: the bridge, then whose it is.
    asked: list[str] = []
    attacker.on("request", lambda r: asked.append(r.url))
    tap_on_top(referee, label)
    card = referee.locator("[data-panel=objective]")
    expect(card.get_by_role("heading", name="Bridge 1")).to_be_visible()
    with referee.expect_response(lambda r: r.url.endswith("/score/calls")) as called:
        tap_on_top(referee, card.get_by_role("button", name="Defender's", exact=True))
    assert called.value.status == 200, called.value.text()
    expect(label).to_contain_text("Defender's · 1 VP")
    expect(card.locator("[data-objective-holder]")).to_contain_text(
        "Held by the defender, as the referee called it"
    )
    screenshot(referee, "map-score-called")
    bridge = next(
        o for o in referee.request.get(f"{api}/score").json()["objectives"] if o["id"] == "bridge-1"
    )
    assert (bridge["holder"], bridge["called_by_referee"]) == ("defender", True)

    # The attacker's map follows its stream: the call and the point it gives, with no reload.
    expect(attacker.locator(".objective-tag[data-objective=bridge-1]")).to_have_attribute(
        "data-holder", "defender"
    )
    expect(attacker.locator("[data-score-chip] [data-side-points=defender] b")).to_have_text("1")
    # ... from the frame alone: no read of its panels nor of the turn's chip (the call changes no turn; a read
    # after each such frame made the act later: session 20's bench). A request sent after the frame was taken
    # is reported after any it made (the browser's events come in order).
    attacker.evaluate("() => fetch('/health')")
    assert [u for u in asked if "/health" in u] and not [
        u for u in asked if "/map/turn" in u or "/panel" in u
    ]
    expect(attacker.locator("[data-objective-shape=bridge-1]")).to_have_class("objective holder-defender")

    # The other sizes, layout only: the chip in sight, its dashboard in one tap, nothing serious for axe-core.
    found: list[str] = []
    for size in (TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE, REFEREE_SCREEN):
        referee.set_viewport_size(size)
        referee.wait_for_function("() => !document.querySelector('[data-map-panel]').hidden")
        referee.locator("[data-panel-close]").click()
        settled(referee)
        in_sight(referee, chip)
        tap_on_top(referee, chip)
        dashboard = referee.locator("[data-panel=score]")
        expect(dashboard.locator("[data-score-side=defender] [data-points]")).to_have_text("1")
        expect(dashboard.locator("[data-objective=bridge-1]")).to_contain_text("Held by the defender")
        expect(dashboard.locator("[data-clock-side]")).to_have_count(2)  # game-clock.js: each side's time
        in_sight(referee, dashboard.get_by_role("heading", name="Score"))
        # Each bridge with its holder in the dashboard's first view, with no scrolling (the phone's sheet too).
        for objective in dashboard.locator("[data-objective]").all():
            in_sight(referee, objective)
        screenshot(referee, "map-score-dashboard")
        found += [f"map at {size['width']}: {v}" for v in serious_violations(referee)]
    # A seal's check in the panels a frame swapped in: one tap, the server's sentence (app/pages/plan_verify.py).
    seal = referee.locator("[data-panel=score] [data-verify]").first
    seal.get_by_role("button", name="Check the attacker's").click()
    expect(seal.locator("[data-verify-result]")).to_contain_text("Match: with no item (none was sealed)")
    referee.goto(f"/games/{game_id}/referee")
    card_chip = referee.locator(".score-bar [data-score-chip]")
    tap_on_top(referee, card_chip)
    expect(referee.locator("#score-card [data-objective=bridge-1]")).to_contain_text("Held by the defender")
    screenshot(referee, "referee-score-card")
    found += [f"referee: {v}" for v in serious_violations(referee)]
    assert not found, "\n".join(found)


def test_a_bridge_tapped_while_moving_ends_the_move(new_page: Any) -> None:
    """The newcomer pass, on the phone: Move tapped on a stand's card, then a bridge's label, opened the bridge's
    card with the move still on and its "Tap where … goes." gone (a tap clears the notices), and the next stand
    tapped had the first one moved onto it. The bridge's card ends the move, as any other card does: the next
    stand tapped opens its own card and nothing has moved."""
    phone, taps, game_id, units = attacker_on_map(new_page, PHONE)
    # An attacker's stand and then another, each the one with most room round it (a finger's reach on the phone's
    # whole table is some 7 cm: a tap in reach of two stands offers both).
    placed = [u for u in units if u["base"] and u["x"] is not None]

    def room(u: dict[str, Any]) -> float:
        return min(math.dist((u["x"], u["y"]), (v["x"], v["y"])) for v in placed if v is not u)

    first = max((u for u in placed if u["side"] == "attacker"), key=room)
    other = max((u for u in placed if u is not first), key=room)
    moves: list[str] = []
    phone.on("request", lambda r: moves.append(r.url) if r.url.endswith("/move") else None)

    taps.stand(first["x"], first["y"])
    card = phone.locator("[data-panel=stand]")
    expect(card.locator("[data-stand-name]")).to_be_visible()
    taps.button("Move", card)
    expect(phone.locator(".net-status .notice", has_text="goes.")).to_be_visible()
    tap_on_top(phone, phone.locator(".objective-tag[data-objective=bridge-1]"))
    expect(phone.locator("[data-panel=objective]").get_by_role("heading", name="Bridge 1")).to_be_visible()

    # The next stand tapped once the card has docked and the map is still (a phone's card pans the table).
    at_rest(phone, f"[data-stand='{other['id']}']")
    taps.stand(other["x"], other["y"])
    name = phone.evaluate(
        f"() => window.firestepMap.nameOf(window.firestepMap.model.units.get({other['id']})).plain"
    )
    expect(card.locator("[data-stand-name]")).to_have_text(name)
    expect(phone.locator("[data-map-page]")).to_have_attribute("data-mode", "idle")
    now = phone.request.get(f"/api/v1/games/{game_id}/units/{first['id']}").json()
    assert (now["x"], now["y"], moves) == (first["x"], first["y"], [])


def moving_one(new_page: Any) -> tuple[Any, Any, Any, dict[str, Any], dict[str, Any], list[str]]:
    """The attacker's player on the map at 1180x820, Move tapped on the card of the stand with most room round
    it (its "Tap where … goes." shown): the page, its taps, the card, that stand, the other
    attacker's stand with most room, and the /move requests sent from here on."""
    player, taps, game_id, units = attacker_on_map(new_page, TABLET_LANDSCAPE)
    placed = [u for u in units if u["base"] and u["x"] is not None]

    def room(u: dict[str, Any]) -> float:
        return min(math.dist((u["x"], u["y"]), (v["x"], v["y"])) for v in placed if v is not u)

    first = {**max((u for u in placed if u["side"] == "attacker"), key=room), "game": game_id}
    other = max((u for u in placed if u["id"] != first["id"] and u["side"] == "attacker"), key=room)
    moves: list[str] = []
    player.on("request", lambda r: moves.append(r.url) if r.url.endswith("/move") else None)
    taps.stand(first["x"], first["y"])
    card = player.locator("[data-panel=stand]")
    expect(card.locator("[data-stand-name]")).to_be_visible()
    taps.button("Move", card)
    expect(player.locator(".net-status .notice", has_text="goes.")).to_be_visible()
    return player, taps, card, first, other, moves


def shows_card_of(page: Any, card: Any, unit: dict[str, Any]) -> None:
    """The card shows the stand's name, and no Move or pick waits."""
    name = page.evaluate(
        f"() => window.firestepMap.nameOf(window.firestepMap.model.units.get({unit['id']})).plain"
    )
    expect(card.locator("[data-stand-name]")).to_have_text(name)
    expect(page.locator("[data-map-page]")).to_have_attribute("data-mode", "idle")


def unmoved(page: Any, unit: dict[str, Any], moves: list[str]) -> None:
    """The stand where it was, on the server, and no move sent."""
    now = page.request.get(f"/api/v1/games/{unit['game']}/units/{unit['id']}").json()
    assert (now["x"], now["y"], moves) == (unit["x"], unit["y"], [])


@pytest.mark.parametrize("ends_sentence", ["ok", "menu"])
def test_a_move_without_its_sentence_is_over(new_page: Any, ends_sentence: str) -> None:
    """The newcomer pass: Move tapped, then its "Tap where … goes." gone (its OK, or the Menu opened and closed:
    any control's tap clears it, the tool bar's zoom as well) left the Move on, unsaid, and the next
    stand tapped had the first moved onto it. A Move lasts as long as its sentence: the next stand tapped opens
    its own card and nothing has moved."""
    player, taps, card, first, other, moves = moving_one(new_page)
    sentence = player.locator(".net-status .notice", has_text="goes.")
    if ends_sentence == "ok":
        tap_on_top(player, sentence.locator(".notice-dismiss"))
    else:
        menu = player.locator("summary", has_text="Menu").first
        tap_on_top(player, menu)
        tap_on_top(player, menu)
    expect(sentence).to_have_count(0)
    at_rest(player, f"[data-stand='{other['id']}']")
    taps.stand(other["x"], other["y"])
    shows_card_of(player, card, other)
    unmoved(player, first, moves)


def test_a_move_ends_with_another_stands_card_by_keyboard(new_page: Any) -> None:
    """The hostile pass: Move tapped on one stand's card, then the table focused, an arrow to another stand and
    Enter on it showed that stand's card with the Move still on (the card's panel was already shown, so no
    card's rule ran), and a click on the table moved the first. Another stand's card ends the Move; the
    Move's button, pressed while it waits, ends it tapped again; "Move its company" ends it too."""
    player, taps, card, first, _, moves = moving_one(new_page)
    canvas = player.locator("[data-map-canvas]")
    canvas.focus()
    on = "() => Number(document.activeElement.getAttribute('aria-activedescendant')?.split('-').pop())"
    assert player.evaluate(on) == first["id"]
    for key in ("ArrowRight", "ArrowLeft", "ArrowDown", "ArrowUp"):
        player.keyboard.press(key)
        if player.evaluate(on) != first["id"]:
            break
    b = player.evaluate(f"() => window.firestepMap.model.units.get(({on})())")
    assert b["id"] != first["id"]
    player.keyboard.press("Enter")
    shows_card_of(player, card, b)
    unmoved(player, first, moves)
    # Move on this stand's card, then Move again: the second tap ends it (the button no longer pressed).
    taps.button("Move", card)
    move = card.get_by_role("button", name="Move", exact=True)
    expect(move).to_have_attribute("aria-pressed", "true")
    taps.button("Move", card)
    expect(move).to_have_attribute("aria-pressed", "false")
    expect(player.locator("[data-map-page]")).to_have_attribute("data-mode", "idle")
    # Move, then "Move its company": the company's move is on, the single stand's is over.
    taps.button("Move", card)
    expect(player.locator("[data-map-page]")).to_have_attribute("data-mode", "move")
    taps.button("Move its company", card)
    expect(player.locator(".net-status .notice", has_text="Drag")).to_be_visible()
    expect(player.locator("[data-map-page]")).to_have_attribute("data-mode", "idle")
    expect(move).to_have_attribute("aria-pressed", "false")


def test_a_tap_on_the_moving_stand_gives_its_move_up(new_page: Any) -> None:
    """The newcomer pass: Move tapped, then a tap on the same stand (to give the Move up, or a finger's slip)
    wrote a move of a few millimetres, which in play spends the stand's action. A tap on the moving stand itself
    ends its Move with nothing written; its card stays."""
    player, taps, card, first, _, moves = moving_one(new_page)
    taps.stand(first["x"], first["y"])
    expect(player.locator(".net-status .notice", has_text="goes.")).to_have_count(0)
    shows_card_of(player, card, first)
    unmoved(player, first, moves)


def test_a_measure_ends_with_its_panel(new_page: Any) -> None:
    """The newcomer pass: "Measure from here" on a stand's card, then its panel closed with its x, left the
    ruler's point drawn on the table. The measure ends with its panel: nothing of the ruler stays."""
    player, taps, card, *_ = moving_one(new_page)
    taps.button("Move", card)  # the Move given up: its second tap
    taps.button("Measure from here", card)
    expect(player.locator(".ruler-point")).to_have_count(1)
    tap_on_top(player, player.locator("[data-panel-close]"))
    expect(player.locator("[data-map-page]")).to_have_attribute("data-shows", "")
    expect(player.locator(".ruler-point, .ruler-line")).to_have_count(0)


def test_a_stands_outline_goes_with_its_card(new_page: Any) -> None:
    """The newcomer pass: a stand's Move ended by another panel (the Key) left the stand outlined as selected,
    its card gone. The outline is its card's: it goes when another panel takes the card's place."""
    player, taps, _, first, *_ = moving_one(new_page)
    stand = player.locator(f"#map-stand-{first['id']}")
    expect(stand).to_have_class(re.compile(r"\bselected\b"))
    taps.button("Key")
    expect(player.locator("[data-map-page]")).to_have_attribute("data-shows", "legend")
    expect(stand).not_to_have_class(re.compile(r"\bselected\b"))
