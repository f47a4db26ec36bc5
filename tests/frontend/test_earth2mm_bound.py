"""One bound of 2mm Earth 1418's demo battle played by touch on three devices (issue 40): the referee's screen
(1920x1080), the attacker's landscape tablet and the defender's portrait tablet. The acts under test are tapped
on the map (each at most 4 taps and a die each): a high command (undone and given again), a plan with its
target, a dig-in, the sealed bombardment's shots laid on the platoons under its circle, an assault's shot and
its hits allocated in the shooter's order, the melee and its hits by the book's order, and a recovery die;
every other act of the bound is seeded through the API. Each result reaches the other devices' maps live, and
axe-core finds no serious violation on any of them. The refusals and citations are the API tier's
(tests/app/games/test_earth2mm_*.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.axe import serious_violations
from tests.frontend.conftest import REFEREE_SCREEN, TABLET_LANDSCAPE, TABLET_PORTRAIT
from tests.frontend.games import bearer, join_by_api, open_maps, seed_game, settled
from tests.frontend.test_map_play import Taps

pytestmark = pytest.mark.browser


class Battle:
    """The demo battle seeded through the API as its referee: units by name, the turn moved on step by step."""

    def __init__(self, referee: Any) -> None:
        self.page = referee
        self.id, self.answer = seed_game(referee, {"scenario": "earth2mm-demo-ferme"})
        self.api = f"/api/v1/games/{self.id}"
        self.ref = bearer(self.answer["referee_token"])
        self.units = {u["name"]: u for u in self.get("units")}

    def get(self, path: str) -> Any:
        r = self.page.request.get(f"{self.api}/{path}", headers=self.ref)
        assert r.ok, r.text()
        return r.json()

    def post(self, path: str, body: dict[str, Any], who: dict[str, str] | None = None) -> Any:
        r = self.page.request.post(f"{self.api}/{path}", headers=who or self.ref, data=body)
        assert r.ok, r.text()
        return r.json()

    def uid(self, name: str) -> int:
        return int(self.units[name]["id"])

    def advance_to(self, step: str) -> None:
        turn = self.get("turn")
        for _ in range(20):
            if turn["status"] == "playing" and turn["step"]["id"] == step:
                return
            # Each answer is the turn now: no second read.
            turn = self.post("turn/advance", {"version": turn["version"]})["turn"]
        raise AssertionError(f"no step {step}")

    def edit(self, changes: dict[str, dict[str, Any]]) -> None:
        """Each named unit's fields set by hand, each edit carrying the version read in one list of the units."""
        versions = {u["id"]: u["version"] for u in self.get("units")}
        for name, values in changes.items():
            uid = self.uid(name)
            r = self.page.request.put(
                f"{self.api}/units/{uid}", headers=self.ref, data={"version": versions[uid], **values}
            )
            assert r.ok, r.text()

    def shoot_and_allocate(self, shooter: str, target: str, dice: list[int]) -> None:
        ids = {"unit_id": self.uid(shooter), "target_id": self.uid(target)}
        self.post("resolve/shoot", {**ids, "dice": dice, "apply": True})
        self.post("resolve/allocate-hits", {**ids, "apply": True})

    def stand(self, name: str) -> tuple[float, float]:
        u = self.units[name]
        return float(u["x"]), float(u["y"])


def shows(page: Any, unit_id: int, field: str, value: Any) -> None:
    """The page's live map holds the unit's field at `value` (read from the stream, never reloaded)."""
    page.wait_for_function(
        "([id, field, value]) => JSON.stringify(window.firestepMap.model.units.get(id)?.[field]) === value",
        arg=[unit_id, field, json.dumps(value)],
        timeout=10_000,
    )


def done(page: Any) -> None:
    page.get_by_role("button", name="Done", exact=True).tap()


def aimed(taps: Taps, b: Battle, stand: str, act: str, target: str) -> None:
    """The last card closed, then the stand, its card's act and the act's target tapped (3 taps)."""
    done(taps.page)
    taps.stand(*b.stand(stand))
    taps.button(act)
    taps.stand(*b.stand(target))


def test_one_bound_of_the_demo_battle_by_touch_on_three_devices(new_page: Any) -> None:
    referee = new_page(REFEREE_SCREEN)
    b = Battle(referee)
    attacker = new_page(TABLET_LANDSCAPE)
    attacker_token = join_by_api(attacker, b.answer["join_codes"]["attacker"])
    defender = new_page(TABLET_PORTRAIT)
    defender_token = join_by_api(defender, b.answer["join_codes"]["defender"])
    b.advance_to("high-commands")
    open_maps(b.id, referee, attacker, defender)
    a_taps, d_taps = Taps(attacker), Taps(defender)
    found: list[str] = []

    # High commands: the attacker commands its battalion from a platoon's card (3 taps), undoes it, gives it
    # again; the rest of the commands and the bombardment's sealed plan are seeded.
    sf = b.uid("1st Battalion")
    for again in (False, True):
        a_taps.stand(*b.stand("A Company, platoon 1"))
        a_taps.button("Command 1st Battalion")
        a_taps.button("Assault")
        expect(attacker.locator("[data-edit-done]")).to_be_visible()
        shows(referee, sf, "high_command", "assault")
        if not again:
            found += [f"attacker: {v}" for v in serious_violations(attacker)]
            a_taps.button("Undo")
            shows(defender, sf, "high_command", "")
            # The next tap once "Taken back." is read and the map has settled (its row may move the table).
            expect(attacker.locator(".net-status .notice", has_text="Taken back.")).to_be_visible()
            settled(attacker)
    assert a_taps.count == 7
    held = ("Field Artillery Brigade", "I. Bataillon", "Sturmbataillon", "Feldartillerie-Abteilung")
    b.edit(
        {"2nd Reserve Battalion": {"high_command": "advance"}} | {n: {"high_command": "hold"} for n in held}
    )
    item = {"kind": "circle-bombardment", "battery": "18-pounder Battery", "grid": [38, 84]}
    b.post("fireplans/attacker/items", {"arrival_turn": 1, "item": item}, bearer(attacker_token))
    cordon = {"kind": "smoke-cordon", "batteries": ["77-mm-Batterie"], "grid": [20, 50]}
    b.post("fireplans/defender/items", {"arrival_turn": 1, "item": cordon}, bearer(defender_token))

    # The planning steps: the attacker's A Company plans its assault on 1. Kompanie (3 taps: the chart allows
    # it only that plan under ASSAULT, its target tapped); the defender's 2. Kompanie digs in (2 taps).
    b.advance_to("plan-artillery")
    b.edit({battery: {"sub_plan": "stay put"} for battery in ("18-pounder Battery", "77-mm-Batterie")})
    b.advance_to("plan-reserve")
    b.edit({"Tank Company": {"sub_plan": "move", "plan_target": b.uid("1. Kompanie")}})
    b.advance_to("plan-line")
    done(attacker)
    a_taps.stand(*b.stand("A Company, platoon 1"))
    a_taps.button("Plan A Company")
    expect(attacker.locator("[data-edit-prompt]")).to_be_visible()
    a_taps.stand(*b.stand("1. Kompanie, platoon 1"))
    expect(attacker.locator("[data-edit-done]")).to_be_visible()
    shows(defender, b.uid("A Company"), "plan_target", b.uid("1. Kompanie"))
    b.edit({"1. Kompanie": {"sub_plan": "stay put", "plan_target": b.uid("A Company")}})
    b.advance_to("plan-heavy-weapons")
    b.edit({"Machinegun Company": {"sub_plan": "assault", "plan_target": b.uid("1. Kompanie")}})
    b.advance_to("plan-elite")
    d_taps.stand(*b.stand("2. Kompanie, platoon 1"))
    d_taps.button("Dig in")
    expect(defender.locator("[data-edit-done]")).to_be_visible()
    shows(attacker, b.uid("2. Kompanie"), "digging_in", True)
    found += [f"defender: {v}" for v in serious_violations(defender)]
    assert d_taps.count == 2

    # Executing step (2): the sealed bombardment lands on its circle and the defender's smoke cordon across
    # the wind, both drawn and labelled on every map; the attacker lays a shot on each MG platoon under the
    # circle by tapping them and rolls (4 taps): the MG company is under its fire on the defender's map. The
    # British MGs' shot and its hit are seeded.
    b.advance_to("execute-2")
    for page in (referee, attacker, defender):
        expect(page.locator("[data-map-page][data-board-items='2']")).to_have_count(1)
        expect(page.locator(".board-label", has_text="Smoke cordon of the defender")).to_have_count(1)
    a_taps.count = 0
    a_taps.button("1 arrival")
    for platoon in ("MG-Kompanie, platoon 1", "MG-Kompanie, platoon 2"):
        a_taps.stand(*b.stand(platoon))
    expect(attacker.locator("[data-arrival-shots='2']")).to_be_visible()
    a_taps.button("Roll 2 shots and apply")
    expect(attacker.locator("[data-arrival-effect]")).to_be_visible()
    assert a_taps.count == 4
    shows(defender, b.uid("MG-Kompanie"), "shot_at_by", [b.uid("18-pounder Battery")])
    found += [f"referee: {v}" for v in serious_violations(referee)]
    b.shoot_and_allocate("Machinegun Company, platoon 1", "1. Kompanie, platoon 1", [1, 1])

    # Executing step (5): the tanks' shot is seeded; under a new shooter's fire, 1. Kompanie's injured
    # platoon 1 rolls its recovery die on the defender's tablet (3 taps) and recovers.
    b.advance_to("execute-5")
    b.shoot_and_allocate("Tank Company, platoon 1", "1. Kompanie, platoon 1", [1, 1, 1])
    d_taps.count = 0
    d_taps.stand(*b.stand("1. Kompanie, platoon 1"))
    d_taps.button("Recovery die")
    d_taps.button("2")
    expect(defender.locator("[data-play-done]")).to_be_visible()
    assert d_taps.count == 3
    shows(attacker, b.uid("1. Kompanie, platoon 1"), "base_injury", "old")

    # The assault: A Company moves into contact (seeded), shoots as it assaults (one die of its pool: 5
    # taps) and allocates its hit on the platoon it chooses (4 taps).
    b.advance_to("execute-6")
    for n, x in ((1, 30.0), (2, 32.0), (3, 34.0)):
        b.post(f"units/{b.uid(f'A Company, platoon {n}')}/move", {"x": x, "y": 63, "facing_deg": 90})
    b.units = {u["name"]: u for u in b.get("units")}
    b.advance_to("execute-9")
    a_taps.count = 0
    aimed(a_taps, b, "A Company, platoon 1", "Assault shooting", "1. Kompanie, platoon 1")
    expect(attacker.locator("[data-play-pool='1']")).to_be_visible()
    a_taps.button("6")
    a_taps.button("Apply")
    expect(attacker.locator("[data-play-done]")).to_be_visible()
    shows(defender, b.uid("1. Kompanie"), "hits_to_allocate", 1)
    aimed(a_taps, b, "A Company, platoon 1", "Allocate hits", "1. Kompanie, platoon 3")
    expect(attacker.locator("[data-play-order='1']")).to_be_visible()
    a_taps.button("Apply")
    expect(attacker.locator("[data-play-done]")).to_be_visible()
    assert a_taps.count == 9
    shows(defender, b.uid("1. Kompanie, platoon 3"), "base_injury", "fresh")
    shows(referee, b.uid("1. Kompanie"), "hits_to_allocate", 0)

    # The melee: A Company's pool of three dice in base contact (7 taps), its two hits by the book's order
    # (4 taps): they fall on 1. Kompanie's injured platoons 1 and 2, removed from every map.
    b.advance_to("melee")
    a_taps.count = 0
    aimed(a_taps, b, "A Company, platoon 1", "Melee", "1. Kompanie, platoon 1")
    for row, die in enumerate((6, 5, 1)):
        a_taps.button(str(die), within=attacker.locator(".play-dice").nth(row))
    a_taps.button("Apply")
    shows(defender, b.uid("1. Kompanie"), "hits_to_allocate", 2)
    aimed(a_taps, b, "A Company, platoon 1", "Allocate hits", "1. Kompanie, platoon 1")
    a_taps.button("Book's order")
    expect(attacker.locator("[data-play-done]")).to_be_visible()
    assert a_taps.count == 11
    for page in (referee, defender):
        for n in (1, 2):
            expect(page.locator(f"[data-stand='{b.uid(f'1. Kompanie, platoon {n}')}']")).to_have_count(0)
    assert not found, "\n".join(found)
