"""Arrived fire-plan fire on the map (issue 26): on the Mons game in play, the attacker's bombardment planned
for turn 1 over defender stands arrives as the turn starts; on the attacker's device (1180x820, 820x1180,
390x844 and 1920x1080), by touch, it is opened and applied to its covered stands in at most 3 taps, and every
covered stand's marker is then on the defender's map and on the referee board. One tap undoes it. The card
passes axe-core, its controls are 44 px targets and the page never scrolls sideways. The whole flow runs at the
reference size (1180x820); the attacker's card is checked at the other sizes on the same game once the fire is
undone, and then the server rolls it."""

from __future__ import annotations

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
    small_targets,
)
from tests.frontend.games import bearer, join_by_api, open_maps, seed_game, sign_in
from tests.frontend.test_map_card_clear import labels_over_stands

pytestmark = pytest.mark.browser

# Planned fire "pre-registered" (erratum planned-fire-deviation): it lands on the stands it was aimed at.
GAME = {"scenario": "mons-1914", "variants": {"planned-fire-deviation": "pre-registered"}}


def api(page: Any, method: str, url: str, data: dict[str, Any] | None = None, token: str = "") -> Any:
    """An API call as `token`, or as the page's own seat (its `token`)."""
    response = page.request.fetch(url, method=method, data=data or {}, headers=bearer(token or page.token))
    assert response.ok, response.text()
    return response.json()


def mons_with_a_bombardment(new_page: Any, viewport: dict[str, int]) -> tuple[int, str, Any, Any]:
    """The game seeded through the API and seated on the attacker's and the defender's devices, the attacker's
    plan holding a bombardment on turn 1 on the defender stand nearest the table's middle, and the game started
    (so it has arrived). Returns its id, the referee's token and the two pages."""
    attacker = new_page(viewport)
    game_id, body = seed_game(attacker, GAME)  # as the referee (the API only), then seated as the attacker
    referee = body["referee_token"]
    attacker.token = join_by_api(attacker, body["join_codes"]["attacker"])
    defender = new_page(PHONE if viewport != PHONE else TABLET_PORTRAIT)
    defender.token = join_by_api(defender, body["join_codes"]["defender"])
    units = api(attacker, "GET", f"/api/v1/games/{game_id}/units", token=referee)
    width = float(body["game"]["table_width_cm"])
    stands = [u for u in units if u["side"] == "defender" and u["x"] is not None and not u["off_table"]]
    target = min(stands, key=lambda u: abs(u["x"] - width / 2) + u["y"] / 1000)
    api(
        attacker,
        "POST",
        f"/api/v1/games/{game_id}/fireplans/attacker/items",
        {"arrival_turn": 1, "item": {"kind": "bombardment", "grid": [target["x"], target["y"]]}},
    )
    version = api(attacker, "GET", f"/api/v1/games/{game_id}/turn", token=referee)["version"]
    api(attacker, "POST", f"/api/v1/games/{game_id}/turn/advance", {"version": version}, token=referee)
    return game_id, referee, attacker, defender


def open_map(page: Any, game_id: int) -> None:
    page.goto(f"/games/{game_id}/map")
    expect(page.locator("svg[data-table-map][data-loaded]")).to_have_count(1)
    expect(page.locator("[data-map-page][data-live-connected]")).to_have_count(1)


def markers_on_map(page: Any, unit_id: int) -> int:
    return int(page.evaluate(f"() => window.firestepMap.model.units.get({unit_id})?.suppression || 0"))


def apply_by_touch(
    attacker: Any, card: dict[str, Any], covered: list[dict[str, Any]], apply: bool = True
) -> Any:
    """Open the arrival, enter the dice, Apply: at most 3 taps, every covered stand named, 44 px targets and no
    sideways scroll; the card's block is returned with its effect shown. Without `apply`, Apply is seen on screen
    and uncovered but not tapped (what it does is the flow's at the reference size)."""
    taps = 0
    tool = attacker.locator("[data-arrivals-tool]")
    expect(tool).to_have_text("1 arrival")
    tool.tap()
    taps += 1
    block = attacker.locator(f"[data-arrival='{card['item_id']}']")
    expect(block.locator("[data-arrival-under='full']")).to_contain_text("Fully under")
    if attacker.viewport_size == TABLET_LANDSCAPE:  # the roll above the fold of the landscape tablet
        expect(block.get_by_role("button", name="Roll and apply")).to_be_in_viewport(ratio=1)
    # The lists name every covered stand; the fire is drawn on the map where it lands.
    shown = block.inner_text()
    for s in covered:
        assert s["name"] in shown
    assert attacker.locator("[data-map-page]").get_attribute("data-board-items") == "1"
    # Its label sits off the stands it lands on (issue 41).
    assert labels_over_stands(attacker, ".board-label") == [], attacker.viewport_size
    block.get_by_text("Enter the dice rolled at the table").tap()
    taps += 1
    # Typed, not tapped: one action (a 4), and a 6 for every stand under it at full or -2.
    block.locator("[data-die='action']").fill("4")
    for s in covered:
        block.locator(f"[data-die='{s['unit_id']}'][data-index='0']").fill("6")
    # And a 1 for each stand too close to call: a die left to firestep would stand, its Undo the referee's (issue 89).
    for s in card["stands"]["close"]:
        block.locator(f"[data-die='{s['unit_id']}'][data-index='0']").fill("1")
    assert not small_targets(attacker), small_targets(attacker)
    assert_no_horizontal_scroll(attacker)
    if attacker.viewport_size == TABLET_LANDSCAPE:
        assert serious_violations(attacker) == []
    button = block.get_by_role("button", name="Apply these dice")
    if apply:
        button.tap()
    else:
        at = button.evaluate(
            """(el) => { el.scrollIntoView({block: "nearest"}); const r = el.getBoundingClientRect();
                 const x = r.x + r.width / 2, y = r.y + r.height / 2;
                 return x >= 0 && y >= 0 && x < innerWidth && y < innerHeight && el.contains(document.elementFromPoint(x, y)); }"""
        )
        assert at, f"Apply is covered at {attacker.viewport_size}"
    taps += 1
    assert taps <= 3
    if apply:
        # The effect first, in words naming the stands hit; the dice and each stand's result folded beneath it.
        expect(block.locator("[data-arrival-effect]")).to_contain_text(covered[0]["name"])
        record = block.locator("[data-arrival-dice-record]")
        expect(record).to_contain_text("1 turn of fire")
        assert record.get_attribute("open") is None
    return block


def test_an_arrived_bombardment_is_applied_in_three_taps_at_every_size_and_shows_everywhere(
    new_page: Any,
) -> None:
    """The flow at the reference size on three devices; then, on the same game, the attacker's card at 820x1180,
    390x844 and 1920x1080 and the server's own roll ("Roll and apply"), as the defender reads it."""
    game_id, referee_token, attacker, defender = mons_with_a_bombardment(new_page, TABLET_LANDSCAPE)
    referee = new_page(TABLET_LANDSCAPE)
    sign_in(referee, referee_token)
    card = api(attacker, "GET", f"/api/v1/games/{game_id}/arrivals")["cards"][0]
    covered = [s for u in ("full", "partial") for s in card["stands"][u]]
    assert covered, card["stands"]
    referee.goto(f"/games/{game_id}/referee", wait_until="commit")  # loaded beside the two maps
    open_maps(game_id, attacker, defender)
    expect(referee.locator(f"#unit-{covered[0]['unit_id']}")).to_have_count(1)
    before = {s["unit_id"]: markers_on_map(defender, s["unit_id"]) for s in covered}

    block = apply_by_touch(attacker, card, covered)
    effect = block.locator("[data-arrival-effect]")

    # Every covered stand is hit (a 6 kills in the open and suppresses in cover): on the defender's map and the
    # referee board, by the live stream.
    units = {u["id"]: u for u in api(referee, "GET", f"/api/v1/games/{game_id}/units", token=referee_token)}
    for s in covered:
        u = units[s["unit_id"]]
        assert u["killed"] or u["suppression"] > before[s["unit_id"]], u
        if u["killed"]:
            defender.wait_for_function(
                f"() => window.firestepMap.model.units.get({u['id']})?.killed === true"
            )
        else:
            defender.wait_for_function(
                f"() => (window.firestepMap.model.units.get({u['id']})?.suppression || 0) === {u['suppression']}"
            )
            expect(referee.locator(f"#unit-{u['id']} .marker")).to_have_count(u["suppression"])
    # The defender's card shows the same effect.
    defender.locator("[data-arrivals-tool]").tap()
    expect(defender.locator("[data-arrival-effect]")).to_have_text(effect.inner_text())

    # One tap undoes it, on every device.
    block.locator("[data-arrival-undo]").tap()
    expect(block.get_by_role("button", name="Roll and apply")).to_have_count(1)
    for s in covered:
        defender.wait_for_function(
            f"() => (window.firestepMap.model.units.get({s['unit_id']})?.suppression || 0) === {before[s['unit_id']]}"
            f" && !window.firestepMap.model.units.get({s['unit_id']})?.killed"
        )

    # The card at the other sizes, the fire undone: opened and its dice entered by touch, Apply seen where it is
    # tapped (at most 3 taps, 44 px targets, no sideways scroll; applying and undoing are the flow's above).
    for viewport in (TABLET_PORTRAIT, PHONE, REFEREE_SCREEN):
        attacker.set_viewport_size(viewport)
        open_map(attacker, game_id)
        apply_by_touch(attacker, card, covered, apply=False)
    # The server rolls every die ("Roll and apply"): whatever it rolled, the defender's card (open since the
    # flow's) says the same.
    attacker.get_by_role("button", name="Roll and apply").tap()
    effect = attacker.locator("[data-arrival-effect]")
    expect(attacker.locator("[data-arrival-dice-record]")).to_contain_text("Bombardment of the attacker")
    event = api(attacker, "GET", f"/api/v1/games/{game_id}/arrivals")["cards"][0]["applied"]
    assert effect.get_attribute("data-arrival-effect") == str(event["event_id"])
    said = " ".join(event["said"]) or "Nothing changes on the table."
    expect(defender.locator("[data-arrival-effect]")).to_have_text(said)
    # The defender reads it but has no button to apply or undo the attacker's fire.
    expect(defender.locator("[data-arrival-undo], [data-arrival-apply]")).to_have_count(0)
