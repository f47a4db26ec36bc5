"""A side's artillery plan for a bound, through the API (2mm Earth 1418: "Artillery plans are done on a map",
each bound's kept secret until it lands): written for the current bound only while the bound allows it,
sealed by the side or as the bound leaves its last planning step for artillery, landing item by item at its
executing step, a new plan each bound, and every bound's seal verified after the game."""

from __future__ import annotations

import html
from typing import Any

from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from tests.app.games.conftest import Game, advance_to, new_game, start_game

EARTH = "2mm-earth-1418"


def plans(c: TestClient, g: Game) -> dict[str, dict[str, Any]]:
    return {p["side"]: p for p in c.get(f"/api/v1/games/{g.id}/fireplans", headers=g.defender).json()}


def write(c: TestClient, g: Game, side: str, turn: int, item: dict[str, Any]) -> Any:
    return c.post(
        f"/api/v1/games/{g.id}/fireplans/{side}/items",
        headers=getattr(g, side),
        json={"arrival_turn": turn, "item": item},
    )


def events(c: TestClient, g: Game, kind: str) -> list[dict[str, Any]]:
    return [e for e in c.get(f"/api/v1/games/{g.id}/events", headers=g.defender).json() if e["kind"] == kind]


def test_a_bound_plan_is_written_sealed_and_lands_item_by_item(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g = new_game(c, {"ruleset": EARTH, "name": "Sealed bounds"})
    api = f"/api/v1/games/{g.id}/fireplans"
    bombardment = {"kind": "circle-bombardment", "battery": "A Battery", "grid": [61.5, 97.25]}
    naval = {"kind": "naval-railway-bombardment", "battery": "Railway Guns", "grid": [43.5, 120.75]}

    # In set-up there is no bound to plan for: a plan sealed each bound is written in its bound.
    early = write(c, g, "attacker", 1, bombardment)
    assert early.status_code == 422 and early.json()["field"] == "arrival_turn", early.text
    needs = c.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["next"]["needs"]
    assert not [n for n in needs if "fire plan" in n]
    start_game(c, g)

    # Bound 1, high commands: each side writes its own plan for this bound only.
    later = write(c, g, "attacker", 2, bombardment)
    assert later.status_code == 422 and later.json()["field"] == "arrival_turn", later.text
    mine = write(c, g, "attacker", 1, bombardment)
    assert mine.status_code == 201, mine.text
    theirs = write(c, g, "defender", 1, naval)
    assert theirs.status_code == 201, theirs.text
    assert c.get(f"{api}/attacker/items", headers=g.defender).status_code == 403
    assert c.get(f"{api}/attacker/items/{mine.json()['id']}", headers=g.defender).status_code == 404

    # The attacker seals its own: the commitment is published, the plan no longer changes.
    sealed = c.post(f"{api}/attacker/lock", headers=g.attacker)
    assert sealed.status_code == 200, sealed.text
    assert sealed.json()["locked"] is True and sealed.json()["turn"] == 1
    assert write(c, g, "attacker", 1, bombardment).status_code == 409
    assert c.delete(f"{api}/attacker/items/{mine.json()['id']}", headers=g.attacker).status_code == 409
    assert plans(c, g)["defender"]["locked"] is False

    # Leaving the last step that allows the artillery plan seals the defender's as it stands.
    advance_to(c, g, "plan-reserve")
    assert all(p["locked"] for p in plans(c, g).values())
    locked = events(c, g, "fire-plan-locked")
    assert [(e["payload"]["side"], e["payload"]["turn"]) for e in locked] == [
        ("attacker", 1),
        ("defender", 1),
    ]
    assert all(set(e["payload"]) == {"side", "turn", "commitment", "capacity"} for e in locked)
    refused = write(c, g, "defender", 1, naval)
    assert refused.status_code == 409 and refused.json()["why"], refused.text

    # Nothing has landed before its step; the bombardment lands as execute-2 starts, revealed and verified.
    advance_to(c, g, "execute-1")
    assert events(c, g, "fire-plan-arrival") == []
    advance_to(c, g, "execute-2")
    [landed] = events(c, g, "fire-plan-arrival")
    assert landed["step"] == "execute-2" and landed["payload"]["item"]["data"]["grid"] == bombardment["grid"]
    assert landed["payload"]["verified"] is True
    assert c.get(f"{api}/attacker/items/{mine.json()['id']}", headers=g.defender).status_code == 200
    assert c.get(f"{api}/defender/items/{theirs.json()['id']}", headers=g.attacker).status_code == 404
    advance_to(c, g, "execute-10")
    assert [e["payload"]["item"]["data"]["grid"] for e in events(c, g, "fire-plan-arrival")][1:] == [
        naval["grid"]
    ]

    # Bound 2: a new, empty plan for each side; bound 1's items stay where they landed.
    advance_to(c, g, "high-commands")
    assert {s: (p["locked"], p["turn"]) for s, p in plans(c, g).items()} == {
        "attacker": (False, 2),
        "defender": (False, 2),
    }
    assert write(c, g, "attacker", 2, bombardment).status_code == 201

    # Over, each bound's plan of each side checks against the commitment published when it was sealed.
    version = c.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["version"]
    assert c.post(f"/api/v1/games/{g.id}/finish", headers=g.referee, json={"version": version}).is_success
    for side, who in (("attacker", g.defender), ("defender", g.attacker)):
        verified = c.get(f"{api}/{side}/verify", headers=who).json()
        assert verified["verified"] is True and [t["turn"] for t in verified["turns"]] == [1]
        assert all(t["recomputed"] == t["commitment"] for t in verified["turns"])


def test_the_plan_is_written_only_in_the_steps_that_allow_it(sqlite_client: TestClient) -> None:
    """Out of its steps, writing or sealing the plan is refused with the rule."""
    c = sqlite_client
    g = new_game(c, {"ruleset": EARTH, "name": "Out of step"})
    start_game(c, g)
    advance_to(c, g, "plan-line")
    item = {"kind": "circle-bombardment", "battery": "A Battery", "grid": [60, 100]}
    for r in (
        write(c, g, "attacker", 1, item),
        c.post(f"/api/v1/games/{g.id}/fireplans/defender/lock", headers=g.defender),
    ):
        assert r.status_code == 409, r.text
        assert r.json()["why"] and r.json()["source"], r.text


def test_a_bombardment_of_the_demo_battle_lands_on_its_circle_and_is_fired_then_undone(
    sqlite_client: TestClient,
) -> None:
    """The shipped demo battle: the British battery's bombardment on the German MG company's grid square lands
    on its circle in step (2); the firing side lays its shots platoon by platoon, and takes them back."""
    c = sqlite_client
    g = new_game(c, {"scenario": "earth2mm-demo-ferme"})
    start_game(c, g)
    item = {"kind": "circle-bombardment", "battery": "18-pounder Battery", "grid": [38, 84]}
    assert write(c, g, "attacker", 1, item).status_code == 201
    advance_to(c, g, "execute-2")
    [card] = c.get(f"/api/v1/games/{g.id}/arrivals", headers=g.defender).json()["cards"]
    under = {s["name"]: s["key"] for s in card["stands"]["full"]}
    assert len(under) == 2 and card["lands"] == [38.1, 83.82]  # the centre of its 6" grid square
    api = f"/api/v1/games/{g.id}/arrivals/{card['item_id']}/apply"
    refused = c.post(api, headers=g.defender, json={})
    assert refused.status_code == 403, refused.text  # the firing side's (or the referee's) to lay
    # Half the battery's 4 shots on a single target, the company (erratum bombardment-target): one a platoon.
    half = c.post(api, headers=g.attacker, json={"dice": {key: [6, 6] for key in under.values()}})
    assert half.status_code == 422 and half.json()["field"] == "dice", half.text
    fired = c.post(api, headers=g.attacker, json={"dice": {key: [6] for key in under.values()}})
    assert fired.status_code == 200, fired.text
    hit = c.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    waiting = [u["hits_to_allocate"] for u in hit if u["name"] == "MG-Kompanie"]
    assert waiting == [2]
    undone = c.post(f"/api/v1/games/{g.id}/events/{fired.json()['event']['id']}/undo", headers=g.attacker)
    assert undone.status_code == 200, undone.text
    after = c.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    assert [u["hits_to_allocate"] for u in after if u["name"] == "MG-Kompanie"] == [0]


def test_a_plan_holds_only_its_own_rule_sets_kinds(sqlite_client: TestClient) -> None:
    """The items' schema takes every game's kinds: a Flanders Fields plan refuses 2mm's bombardment by name."""
    c = sqlite_client
    g = new_game(c)  # Mons 1914, in set-up: its plan is open
    r = write(c, g, "attacker", 1, {"kind": "circle-bombardment", "battery": "A Battery", "grid": [60, 100]})
    assert r.status_code == 422 and r.json()["field"] == "item.kind", r.text
    assert "circle-bombardment" in r.json()["detail"]


def test_the_plan_page_offers_its_lock_exactly_when_the_act_would_take_it(sqlite_client: TestClient) -> None:
    """The newcomer pass of s11: in set-up the page offered "Lock the plan" for a plan sealed each bound, and the tap
    was refused in a fragment of a sentence. The page and the act read one function (fireplans.lock_refusal): in
    set-up, its sentence where the button was; in a bound, the button, and the act takes it."""
    c = sqlite_client
    g = new_game(c, {"ruleset": EARTH, "name": "Sealed bounds"})
    c.cookies.set(COOKIE_NAME, g.attacker["Authorization"].removeprefix("Bearer "))
    page = c.get(f"/games/{g.id}/fire-plan?side=attacker").text
    refused = c.post(f"/api/v1/games/{g.id}/fireplans/attacker/lock", headers=g.attacker)
    assert refused.status_code == 409, refused.text
    said = refused.json()["detail"]
    assert 'value="lock"' not in page and f"data-lock-refused>{html.escape(said)}</p>" in page, said
    assert said[0].isupper() and said.endswith(".") and "start the game first" in said
    start_game(c, g)
    assert 'value="lock"' in c.get(f"/games/{g.id}/fire-plan?side=attacker").text
    assert c.post(f"/api/v1/games/{g.id}/fireplans/attacker/lock", headers=g.attacker).status_code == 200
