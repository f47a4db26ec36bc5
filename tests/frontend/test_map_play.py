"""Playing the turn from the map (issue 26): on the Mons game in play, by touch on the attacker's tablet or
phone, an MG shot in at most 5 taps, a rifle "Killed" in at most 5, an order roll in at most 3; no key, no
scroll, and nothing drawn over what is tapped. What they do on every device is test_standard_turn.py's, which
plays a whole turn at the tablets' sizes. Here, on one seeded game and one page resized through the sizes, the
taps' layout at the other sizes, what the card leaves clear (issue 41), the targets a shot may not take, and a
stand's card out of its side's turn (issue 37); and a company's move in one drag."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.axe import serious_violations
from tests.frontend.conftest import (
    ARTIFACTS,
    IN_SIGHT,
    PHONE,
    REFEREE_SCREEN,
    TABLET_LANDSCAPE,
    TABLET_PORTRAIT,
    centre_on_top,
    screenshot,
)
from tests.frontend.games import (
    at_rest,
    bearer,
    create_mons_game,
    join,
    join_by_api,
    map_at,
    resized,
    seed_game,
    settled,
)
from tests.frontend.test_map import screen_point
from tests.frontend.test_map_card_clear import labels_over_stands
from tests.frontend.test_screens import night_picture

pytestmark = pytest.mark.browser

# The whole turn runs at the tablets' sizes (test_standard_turn.py); the attacker's taps are checked at the others.
SIZES = {"landscape": TABLET_LANDSCAPE, "portrait": TABLET_PORTRAIT, "phone": PHONE, "screen": REFEREE_SCREEN}
OTHER_SIZES = {name: size for name, size in SIZES.items() if name != "landscape"}
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


class Taps:
    """Taps by touch at what the player sees: each target must already be on screen, in view (no scroll) and
    the topmost thing at its centre (nothing drawn over it)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.count = 0

    def _tap(self, x: float, y: float) -> None:
        vw, vh = self.page.viewport_size["width"], self.page.viewport_size["height"]
        assert 0 <= x < vw and 0 <= y < vh, (x, y)
        self.page.touchscreen.tap(x, y)
        self.count += 1

    def stand(self, x_cm: float, y_cm: float) -> None:
        settled(self.page)
        point = self.page.evaluate(f"([x, y]) => ({IN_SIGHT})(x, y)", [x_cm, y_cm])
        on_map = self.page.evaluate(
            "([x, y]) => Boolean(document.elementFromPoint(x, y)?.closest('[data-map-canvas]'))",
            [point["x"], point["y"]],
        )
        assert on_map, f"something is drawn over the stand at {point}"
        self._tap(point["x"], point["y"])

    def button(self, name: str, within: Any = None, tap: bool = True) -> None:
        """The button, on screen and uncovered at its centre, tapped (or, with `tap` false, counted as the tap
        the flow makes there: the flow at the reference size taps it and proves what it does)."""
        target = (within or self.page).get_by_role("button", name=name, exact=True)
        expect(target).to_be_visible()  # one button (strict), shown
        # Its centre and what is on top there, read in one evaluate: a live frame may redraw the card between
        # two reads.
        at = centre_on_top(self.page, target)
        if not at["onTop"]:
            self.page.screenshot(path=ARTIFACTS / f"map-play-covered-{name}.png")
        assert at["onTop"], f"{name!r} is out of sight or covered at {at['x']:.0f},{at['y']:.0f}"
        if tap:
            self._tap(at["x"], at["y"])
        else:
            vw, vh = self.page.viewport_size["width"], self.page.viewport_size["height"]
            assert 0 <= at["x"] < vw and 0 <= at["y"] < vh, at
            self.count += 1


def api_of(game_id: int) -> str:
    return f"/api/v1/games/{game_id}"


def units_of(page: Any, game_id: int) -> dict[int, dict[str, Any]]:
    return {u["id"]: u for u in page.request.get(f"{api_of(game_id)}/units").json()}


def company_stands(units: dict[int, dict[str, Any]], stand: dict[str, Any]) -> list[int]:
    return [
        u["id"]
        for u in units.values()
        if u["parent_id"] == stand["parent_id"] and u["base"] and not u["killed"]
    ]


def placed(units: dict[int, dict[str, Any]], side: str, kind: str) -> list[dict[str, Any]]:
    return sorted(
        (u for u in units.values() if u["side"] == side and u["kind"] == kind and u["x"] is not None),
        key=lambda u: (u["y"], u["x"]),
    )


def set_up(referee: Any) -> tuple[int, dict[str, Any], dict[str, Any]]:
    """The Mons game (seeded through the API, `referee` its referee) with a German MG 40 cm and a German platoon
    12 cm in front of two British platoons of different companies (moved in set-up), then started and in the
    German battalion orders. Returns the id, the API's answer (join codes, referee token) and those four
    stands."""
    game_id, answer = seed_game(referee)
    as_referee = bearer(answer["referee_token"])
    api = api_of(game_id)
    units = units_of(referee, game_id)
    british = placed(units, "defender", "rifle-platoon")
    mg_target = british[0]
    rifle_target = next(u for u in british if u["parent_id"] != mg_target["parent_id"])
    mg = placed(units, "attacker", "mmg")[0]
    rifle = next(u for u in placed(units, "attacker", "rifle-platoon") if u["parent_id"] != mg["parent_id"])
    # The attacker's edge is y = 0: the German stands go in front of their targets, facing them.
    moves = {mg["id"]: (mg_target, 40.0), rifle["id"]: (rifle_target, 12.0)}
    for unit_id, (target, gap) in moves.items():
        moved = referee.request.post(
            f"{api}/units/{unit_id}/move",
            headers=as_referee,
            data={"x": target["x"], "y": target["y"] - gap, "facing_deg": 90},
        )
        assert moved.status == 200, moved.text()
    # Mons starts its MGs on their pack animals: the referee has this one unpacked to shoot.
    mg_version = referee.request.get(f"{api}/units/{mg['id']}", headers=as_referee).json()["version"]
    unpacked = referee.request.put(
        f"{api}/units/{mg['id']}", headers=as_referee, data={"version": mg_version, "packed": False}
    )
    assert unpacked.status == 200, unpacked.text()
    # Started, on to the battalion orders, and the MG ordered: a shot is one of its actions (issue 37); the
    # rifle's company is ordered from the map before the rifle shoots.
    ordered(referee, game_id, as_referee, "attacker", [mg["id"]])
    units = units_of(referee, game_id)
    return game_id, answer, {"mg": units[mg["id"]], "mg_target": units[mg_target["id"]],
                            "rifle": units[rifle["id"]], "rifle_target": units[rifle_target["id"]]}  # fmt: skip


def ordered(referee: Any, game_id: int, as_referee: dict[str, str], side: str, unit_ids: list[int]) -> None:
    """The game on to `side`'s battalion-orders step (started if need be), and each of `unit_ids` (battalion MGs,
    rifle companies) ordered there by the referee with a 6."""
    api = api_of(game_id)
    while True:
        turn = referee.request.get(f"{api}/turn", headers=as_referee).json()
        if turn["side_to_move"] == side and (turn["step"] or {}).get("id") == "battalion-orders":
            break
        moved = referee.request.post(
            f"{api}/turn/advance", data={"version": turn["version"]}, headers=as_referee
        )
        assert moved.status == 200, moved.text()
    for unit_id in unit_ids:
        rolled = referee.request.post(
            f"{api}/resolve/order-roll", data={"unit_id": unit_id, "dice": [6]}, headers=as_referee
        )
        assert rolled.status == 200, rolled.text()


def die_for(
    page: Any, token: str, game_id: int, firer: dict[str, Any], target: dict[str, Any], outcome: str
) -> list[int]:
    """The dice that give `outcome` for this shot, asked of the table (the rules' own thresholds) as `token`:
    the target's die, and a 1 (no effect) for each other stand the shot attacks (its beaten zone)."""
    shot = {"unit_id": firer["id"], "target_id": target["id"]}
    url = f"{api_of(game_id)}/ask/shooting"
    others = len(
        page.request.post(url, headers=bearer(token), data=shot).json()["resolution"].get("also", [])
    )
    for die in range(1, 7):
        asked = page.request.post(url, headers=bearer(token), data={**shot, "dice": [die, *[1] * others]})
        assert asked.status == 200, asked.text()
        if asked.json()["resolution"]["outcome_key"] == outcome:
            return [die, *[1] * others]
    raise AssertionError(f"no die gives {outcome}: {asked.json()['resolution']}")


def open_map(page: Any, game_id: int) -> None:
    page.goto(f"/games/{game_id}/map")
    expect(page.locator("svg[data-table-map][data-loaded]")).to_have_count(1)
    expect(page.locator("[data-map-page][data-live-connected]")).to_have_count(1)


def attacker_on_map(new_page: Any, viewport: dict[str, int]) -> tuple[Any, Taps, int, list[dict[str, Any]]]:
    """A Mons 1914 game created from the start page by the referee's device, the attacker's player joined by its
    code on a device of `viewport` and on the map: its page, its taps, the game's id and its units."""
    referee = new_page(TABLET_LANDSCAPE, has_touch=False)
    game_id, codes = create_mons_game(referee)
    player = new_page(viewport)
    join(player, codes["attacker"])
    open_map(player, game_id)
    return player, Taps(player), game_id, player.request.get(f"/api/v1/games/{game_id}/units").json()


def no_scroll(page: Any) -> None:
    scrolled = page.evaluate(
        "() => [window.scrollY, ...[...document.querySelectorAll('[data-map-panel]')].map((p) => p.scrollTop)]"
    )
    assert scrolled == [0] * len(scrolled), scrolled


def docs_picture(attacker: Any) -> None:
    """The README's picture of a shot applied from the map, under `make screenshots` only (it copies it to docs/);
    it checks nothing."""
    if os.environ.get("FIRESTEP_DOCS_SCREENSHOTS") != "1":
        return
    size = attacker.viewport_size
    shot = ARTIFACTS / f"docs-map-shot-{size['width']}x{size['height']}.png"
    attacker.screenshot(path=str(shot))
    shutil.copyfile(shot, DOCS / shot.name.removeprefix("docs-"))
    night_picture(attacker, f"map-shot-night-{size['width']}x{size['height']}.png")


def shoot(
    attacker: Any,
    firer: dict[str, Any],
    target: dict[str, Any],
    dice: list[int],
    outcome: str,
    axe: bool = False,
    apply: bool = True,
    clear: tuple[list[int], list[int]] | None = None,
) -> list[str]:
    """Firer, Shoot, target, `dice` (die_for's for `outcome`), Apply by touch, each tap on screen and uncovered, in
    at most 5 taps (one more for each other stand the shot attacks: a die each) and with no scroll; with `axe`,
    axe-core's serious findings on the card with the answer and its Apply are returned. Without `apply`, Apply is
    seen on screen and uncovered but not tapped, and the card is left by its Cancel. With `clear` (the firer's
    line, the target's company), the card leaves each of those stands on screen and uncovered: the line with the
    firer's card open, and the line and the company once the target is picked (issue 41)."""
    taps = Taps(attacker)
    taps.stand(firer["x"], firer["y"])
    if clear:
        expect(attacker.get_by_role("button", name="Shoot", exact=True)).to_be_visible()
        settled(attacker)
        assert covered(attacker, clear[0]) == [], attacker.viewport_size
    taps.button("Shoot")
    expect(attacker.locator("[data-play-prompt]")).to_be_visible()
    taps.stand(target["x"], target["y"])
    if clear:
        expect(attacker.locator(".play-dice").first).to_be_visible()
        settled(attacker)
        assert covered(attacker, clear[0] + clear[1]) == [], attacker.viewport_size
    for row, die in enumerate(dice):
        taps.button(f"Die showing {die}", within=attacker.locator(".play-dice").nth(row))
    expect(attacker.locator(f"[data-play-outcome='{outcome}']")).to_be_visible()
    found = serious_violations(attacker) if axe else []
    taps.button("Apply", tap=apply)
    assert taps.count <= 4 + len(dice)
    no_scroll(attacker)
    if apply:
        expect(attacker.locator("[data-play-done]")).to_be_visible()
    else:
        attacker.get_by_role("button", name="Cancel", exact=True).tap()
    return found


def order_roll(attacker: Any, stand: dict[str, Any], roll: bool = True) -> None:
    """Stand, the die on the card's Order roll by touch (its odds beside it): 2 taps, each on screen and
    uncovered (without `roll`, the die is seen but not tapped)."""
    taps = Taps(attacker)
    taps.stand(stand["x"], stand["y"])
    group = attacker.get_by_role("group", name="Order roll", exact=True)
    expect(group.locator("[data-direct-odds]")).to_contain_text("Odds: ")  # asked of the table
    taps.button("Die showing 5", within=group, tap=roll)
    assert taps.count <= 2
    if roll:
        expect(attacker.locator("[data-play-done]")).to_be_visible()


def line_of(units: dict[int, dict[str, Any]], stand: dict[str, Any], level: str) -> list[int]:
    """The stands on the table under the stand's `level` formation."""

    def under(u: dict[str, Any], top: int) -> bool:
        while u:
            if u["id"] == top:
                return True
            u = units.get(u["parent_id"])  # type: ignore[assignment]
        return False

    top = units[stand["parent_id"]]
    while top["level"] != level:
        top = units[top["parent_id"]]
    return [
        u["id"]
        for u in units.values()
        if u["base"] and u["x"] is not None and not u["killed"] and not u["off_table"] and under(u, top["id"])
    ]


def covered(page: Any, ids: list[int], by_stand: bool = True) -> list[int]:
    """The stands whose centre is off screen or under something else than the stand itself (or, without
    `by_stand`, than the map's canvas)."""
    found: list[int] = page.evaluate(
        """([ids, byStand]) => { const m = window.firestepMap; const r = m.leaflet.getContainer().getBoundingClientRect();
             return ids.filter((id) => { const u = m.model.units.get(id);
               const p = m.leaflet.latLngToContainerPoint(m.toLL([u.x, u.y]));
               const x = r.left + p.x, y = r.top + p.y;
               if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return true;
               const el = document.elementFromPoint(x, y);
               return !(el && (byStand ? el.dataset.stand === String(id) : el.closest('[data-map-canvas]'))); }); }""",
        [ids, by_stand],
    )
    return found


@pytest.mark.long
def test_the_attackers_taps_at_each_size_and_what_the_card_leaves_clear(new_page: Any) -> None:
    """One game seeded as the flow's (set_up), one page, the map opened once and resized to each size (map_at: as
    it opens there).

    On the landscape tablet, at the view the map opens with, the MG's target picked: every enemy stand's centre
    is on screen with nothing drawn over it (the map is drawn from the seat's own edge and the card docks along
    it); the stands the shot may not take are greyed with their reason, none drawn over; a tap on one says why
    (the rule behind "Why?") and offers no dice; its nearest target is taken from the card's list.

    Tablet portrait, phone and referee screen: the flow's taps at each size, each on screen and uncovered in the
    state the flow taps it, with no scroll, at most 5 taps a shot and 3 an order roll; the last tap of each
    (Apply, the order roll's die) is seen there, not made: what it does is the flow's (test_standard_turn.py),
    so nothing is undone between sizes but the rifle company's order, seeded through the API for its shot.
    axe-core on the card with the shot's answer at each size, and on the in-game lookup of the same game at the
    four sizes (WCAG 2.2 AA). Each shot's dice are asked of the table once: every size plays from the same state.

    The card never hides what is acted on (issue 41), on the portrait tablet and the phone: with the card open
    on the MG every stand of its line (its side's stands) and then of the picked target's company is on screen
    and the topmost thing at its centre, the next stand of the line is tapped with the card open, no label
    crosses a stand, and the tool bar is one row.

    Out of its turn a side's stand card offers nothing (issue 37): the British player taps one of its stands in
    the German battalion orders: the card shows no act, only the sentence naming the step, with the rule behind
    it. Then in its own orders, the defender's landscape tablet shows every enemy stand in sight and clear while
    a target is picked, as the attacker's does."""
    page = new_page(TABLET_LANDSCAPE)
    game_id, answer, s = set_up(page)  # as the referee (the API only), then seated as the attacker
    as_referee = bearer(answer["referee_token"])
    api = api_of(game_id)
    units = units_of(page, game_id)
    token = join_by_api(page, answer["join_codes"]["attacker"])
    mg_dice = die_for(page, token, game_id, s["mg"], s["mg_target"], "suppressed")
    rifle_dice: list[int] = []  # asked once its company is ordered (at the first size)
    line = [u["id"] for u in units.values() if u["side"] == "attacker" and u["base"] and u["x"] is not None
            and not u["killed"] and not u["off_table"]]  # fmt: skip
    company = line_of(units, s["mg_target"], "company")
    found = []

    # The landscape tablet, the MG's target picked: the enemy in sight, and the stands it may not take greyed.
    open_map(page, game_id)
    marks = page.request.get(f"{api}/units/{s['mg']['id']}/targets/shooting", headers=bearer(token)).json()
    shown = next(m for m in marks if units[m["unit_id"]]["x"] is not None)
    taps = Taps(page)
    taps.stand(s["mg"]["x"], s["mg"]["y"])
    taps.button("Shoot")
    expect(page.locator("[data-play-prompt]")).to_be_visible()
    enemy = [u["id"] for u in units.values() if u["side"] != "attacker" and u["base"] and u["x"] is not None]
    assert len(enemy) > 50
    assert covered(page, enemy, by_stand=False) == [], "attacker"
    assert page.locator("[data-map-page]").get_attribute("data-seen-from") == "attacker"
    expect(page.locator("[data-no-target]")).to_have_count(len(marks))
    expect(
        page.locator(f"[data-stand='{shown['unit_id']}'][data-no-target='{shown['mark']}']")
    ).to_have_count(1)
    expect(page.locator(f"[data-stand='{s['mg_target']['id']}'][data-no-target]")).to_have_count(0)
    other = units[shown["unit_id"]]
    taps.stand(other["x"], other["y"])
    expect(page.locator(".notice p").first).to_have_text(shown["refused"])
    expect(page.locator("[data-die]")).to_have_count(0)
    expect(page.locator("[data-play-prompt]")).to_be_visible()
    # The card's list offers the stands on the table only (a stand off it was offered, and picking it was a 422:
    # the newcomer pass of issue 66); its nearest troops taken from it (the map's taps are test_standard_turn's).
    listed = page.locator("[data-target-list] option:not([value=''])").evaluate_all(
        "os => os.map(o => +o.value)"
    )
    off = [i for i in listed if units[i]["x"] is None or units[i]["off_table"]]
    assert enemy and set(listed) <= set(enemy) and off == [], off
    page.locator("[data-target-list]").select_option(str(s["mg_target"]["id"]))
    # A row of dice for the target (and one for each stand of its beaten zone).
    expect(page.locator(".play-dice").first.locator("[data-die]")).to_have_count(6)
    expect(page.locator("[data-no-target]")).to_have_count(0)
    page.get_by_role("button", name="Close the details").tap()

    docs = os.environ.get("FIRESTEP_DOCS_SCREENSHOTS") == "1"  # the README's picture is of a shot applied
    for name, size in OTHER_SIZES.items():
        last = page.request.get(f"{api}/events").json()[-1]["id"]
        map_at(page, size)
        narrow = name in ("portrait", "phone")  # the card docks at the top or the bottom (issue 41's sizes)
        if narrow:
            # Every tool whole on the screen (issue 51: the phone's one scrolled row cut "Key"), the bar in two
            # rows at most.
            boxes = [
                b for b in (t.bounding_box() for t in page.locator(".map-toolbar .tool:visible").all()) if b
            ]
            assert all(b["x"] >= 0 and b["x"] + b["width"] <= size["width"] for b in boxes), size
            assert len({round(b["y"]) for b in boxes}) <= 2, size
        clear = (line, company) if narrow else None
        found += [
            f"map at {name}: {v}"
            for v in shoot(
                page, s["mg"], s["mg_target"], mg_dice, "suppressed", axe=True, apply=docs, clear=clear
            )
        ]
        docs_picture(page)
        if docs:
            page.get_by_role("button", name="Done", exact=True).tap()
        # The next stand of the line, tapped with the MG's card open: its card, and its order roll.
        order_roll(page, s["rifle"], roll=False)
        expect(page.locator("[data-stand-name]")).to_have_text(
            page.evaluate(
                f"() => window.firestepMap.nameOf(window.firestepMap.model.units.get({s['rifle']['id']})).plain"
            )
        )
        ordered(page, game_id, as_referee, "attacker", [s["rifle"]["parent_id"]])
        rifle_dice = rifle_dice or die_for(page, token, game_id, s["rifle"], s["rifle_target"], "killed")
        shoot(page, s["rifle"], s["rifle_target"], rifle_dice, "killed", apply=False)
        page.get_by_role("button", name="Close the details").tap()
        if narrow:
            # The card closed, zoomed in to the labels: none crosses a stand.
            page.evaluate(
                "([x, y]) => { const m = window.firestepMap; m.leaflet.setView(m.toLL([x, y]), m.fitZoom() + 2.5, { animate: false }); }",
                [s["mg_target"]["x"], s["mg_target"]["y"]],
            )
            settled(page)
            screenshot(page, "map-labels")
            expect(page.locator(".stand-label:visible").first).to_be_visible()
            assert labels_over_stands(page) == [], size
        # The referee undoes what the size added (the company's order), newest first: the next size plays on
        # the same table.
        for event in reversed(page.request.get(f"{api}/events?after={last}").json()):
            undone = page.request.post(f"{api}/events/{event['id']}/undo", headers=as_referee)
            assert undone.ok, undone.text()
    page.set_viewport_size(TABLET_LANDSCAPE)
    page.goto(f"/lookup?game={game_id}")
    page.get_by_role("link", name="Shooting").first.click()
    page.wait_for_load_state()
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        found += [f"lookup at {name}: {v}" for v in serious_violations(page)]
    assert not found, "\n".join(found)

    # The defender's landscape tablet: out of its turn its stand's card offers nothing and says why.
    page.set_viewport_size(TABLET_LANDSCAPE)
    join_by_api(page, answer["join_codes"]["defender"])
    open_map(page, game_id)
    Taps(page).stand(s["mg_target"]["x"], s["mg_target"]["y"])
    waiting = page.locator("[data-play-waiting]")
    expect(waiting).to_have_text("It is the German battalion orders step: wait for your turn.")
    expect(waiting).to_have_attribute("title", re.compile("TURN SEQUENCE: “one side moving and firing"))
    expect(page.locator("[data-act], [data-act-direct]")).to_have_count(0)
    page.get_by_role("button", name="Close the details").tap()
    # In its own battalion orders, its company ordered (issue 37), at the view the map opens with: a target
    # picked, the enemy in sight.
    own = placed(units, "defender", "rifle-platoon")[0]
    ordered(page, game_id, as_referee, "defender", [own["parent_id"]])
    newest = page.request.get(f"{api}/events").json()[-1]["id"]
    expect(page.locator("[data-map-page]")).to_have_attribute("data-last-event", str(newest))
    map_at(page, TABLET_LANDSCAPE)
    taps = Taps(page)
    taps.stand(own["x"], own["y"])
    taps.button("Shoot")
    expect(page.locator("[data-play-prompt]")).to_be_visible()
    enemy = [u["id"] for u in units.values() if u["side"] != "defender" and u["base"] and u["x"] is not None]
    assert len(enemy) > 50
    assert covered(page, enemy, by_stand=False) == [], "defender"
    assert page.locator("[data-map-page]").get_attribute("data-seen-from") == "defender"


def handles_apart(page: Any, stand_ids: list[int]) -> list[str]:
    """What the formation's handles cover, once they are at rest: each other, or a stand's tap target (its base
    and the 44 px finger square about its centre)."""
    at_rest(page, "[data-formation-turn]")
    return page.evaluate(
        """(ids) => { const m = window.firestepMap, box = (s) => document.querySelector(s).getBoundingClientRect();
             const toScreen = """
        + IN_SIGHT
        + """;
             const over = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
             const move = box("[data-formation-move]"), turn = box("[data-formation-turn]"), found = [];
             if (over(move, turn)) found.push("the turn handle over the move handle");
             for (const id of ids) {
               const u = m.model.units.get(id), c = toScreen(u.x, u.y), b = box(`[data-stand='${id}']`);
               const t = { left: Math.min(b.left, c.x - 22), right: Math.max(b.right, c.x + 22),
                           top: Math.min(b.top, c.y - 22), bottom: Math.max(b.bottom, c.y + 22) };
               if (over(move, t)) found.push(`the move handle over stand ${id}`);
               if (over(turn, t)) found.push(`the turn handle over stand ${id}`);
             }
             return found; }""",
        stand_ids,
    )


def test_a_company_moves_in_one_drag_keeping_its_formation(new_page: Any) -> None:
    referee = new_page(REFEREE_SCREEN, has_touch=False)
    game_id, answer = seed_game(referee)
    attacker = new_page(TABLET_LANDSCAPE)
    join_by_api(attacker, answer["join_codes"]["attacker"])
    for page in (referee, attacker):
        open_map(page, game_id)
    units = units_of(referee, game_id)
    stand = placed(units, "attacker", "rifle-platoon")[0]
    company = [u for u in units.values() if u["parent_id"] == stand["parent_id"] and u["x"] is not None]
    referee.mouse.click(*screen_point(referee, stand["x"], stand["y"]))
    referee.get_by_role("button", name="Move its company").click()
    expect(referee.locator("[data-formation-move]")).to_be_visible()
    # The handles clear of each other and of the company's stands' tap targets, at each size the map is
    # drawn at (issue 64: at 1180x820 the turn handle lay over the move handle, and a drag of ✥ turned).
    for size in (TABLET_LANDSCAPE, PHONE, REFEREE_SCREEN):
        resized(referee, size)
        assert handles_apart(referee, [u["id"] for u in company]) == [], size
    box = at_rest(referee, "[data-formation-move]")
    assert box["width"] >= 44 and box["height"] >= 44
    x0, y0 = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    referee.mouse.move(x0, y0)
    referee.mouse.down()
    # The map moves under the pressed handle before the drag's first move (as a card docking or a notice's row
    # moves it): the handle stays, and the drag goes on (it was drawn anew from under the pointer, the drag lost).
    referee.evaluate("() => window.firestepMap.leaflet.panBy([0, 24], { animate: false })")
    for step in range(1, 11):
        referee.mouse.move(x0 + 6 * step, y0 + 3 * step)
    referee.mouse.up()
    referee.wait_for_function(
        "([id, x]) => window.firestepMap.model.units.get(id).x !== x",
        arg=[stand["id"], stand["x"]],
    )
    moved = units_of(referee, game_id)
    shifts = {
        (round(moved[u["id"]]["x"] - u["x"], 1), round(moved[u["id"]]["y"] - u["y"], 1)) for u in company
    }
    assert len(shifts) == 1 and shifts != {(0.0, 0.0)}, shifts  # every stand moved by the same amount
    # One event for the company, and the attacker's map shows every stand where it went.
    log = referee.request.get(f"{api_of(game_id)}/events").json()
    assert log[-1]["kind"] == "move" and len(log[-1]["payload"]["changes"]) >= len(company)
    for u in company:
        attacker.wait_for_function(
            "([id, x, y]) => { const s = window.firestepMap.model.units.get(id);"
            " return Math.abs(s.x - x) < 0.01 && Math.abs(s.y - y) < 0.01; }",
            arg=[u["id"], moved[u["id"]]["x"], moved[u["id"]]["y"]],
        )
