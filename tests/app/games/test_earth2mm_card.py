"""A 2mm stand's card through the API (GET .../units/{id}/acts): besides its rolls, the unit edits of the
bound's planning, each offered only in the step its act belongs to and with the values the rules allow there
(its formation's high command; its sub-unit's plan, by the high commands chart, and digging in); a shot's dice
are one pool and the allocation of hits takes the shooter's order."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.app.games.conftest import Game, advance_to, new_game, start_game
from tests.app.games.test_earth2mm_bound import Table


def card(c: TestClient, g: Game, who: dict[str, str], unit: int) -> dict[str, Any]:
    r = c.get(f"/api/v1/games/{g.id}/units/{unit}/acts", headers=who)
    assert r.status_code == 200, r.text
    return dict(r.json())


def edits(answer: dict[str, Any]) -> dict[str, list[Any]]:
    return {e["field"]: [ch["value"] for ch in e["choices"]] for e in answer["edits"]}


def test_the_card_offers_each_planning_edit_in_its_step_with_the_values_allowed(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    g = new_game(c, {"scenario": "earth2mm-demo-ferme"})
    start_game(c, g)
    units = {u["name"]: u for u in c.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()}
    platoon, coy, sf = (units[n] for n in ("A Company, platoon 1", "A Company", "1st Battalion"))

    # High commands: the base's formation is commanded from its card; nothing is planned yet.
    first = card(c, g, g.attacker, platoon["id"])
    assert edits(first) == {"high_command": ["advance", "hold", "assault", "retreat"]}
    assert first["edits"][0]["unit_id"] == sf["id"] and first["refused"] is None
    assert card(c, g, g.defender, platoon["id"]) == {
        "acts": [],
        "edits": [],
        "refused": None,
        "offers": [],
        "first": "",
    }
    version = c.get(f"/api/v1/games/{g.id}/units/{sf['id']}", headers=g.attacker).json()["version"]
    put = c.put(
        f"/api/v1/games/{g.id}/units/{sf['id']}",
        headers=g.attacker,
        json={"version": version, "high_command": "advance"},
    )
    assert put.status_code == 200, put.text

    # The line's planning step: under ADVANCE the chart allows a move (its target tapped, not needed), and
    # digging in; the command is no longer offered, and another planning step offers the line nothing.
    advance_to(c, g, "plan-reserve")
    assert card(c, g, g.attacker, platoon["id"])["edits"] == []
    advance_to(c, g, "plan-line")
    planning = card(c, g, g.attacker, platoon["id"])
    assert edits(planning) == {"sub_plan": ["move"], "digging_in": [True]}
    [plan, _] = planning["edits"]
    assert plan["unit_id"] == coy["id"]
    assert plan["choices"][0] | {"value": None} == {
        "value": None,
        "label": "Move",
        "target": "plan_target",
        "needs_target": False,
    }
    # The target is a base tapped on the map: the plan names its sub-unit.
    enemy = units["1. Kompanie, platoon 1"]
    version = c.get(f"/api/v1/games/{g.id}/units/{coy['id']}", headers=g.attacker).json()["version"]
    put = c.put(
        f"/api/v1/games/{g.id}/units/{coy['id']}",
        headers=g.attacker,
        json={"version": version, "sub_plan": "move", "plan_target": enemy["id"]},
    )
    assert put.status_code == 200 and put.json()["unit"]["plan_target"] == enemy["parent_id"], put.text


def test_a_shot_rolls_one_pool_and_its_hits_are_allocated_in_the_shooters_order(
    sqlite_client: TestClient,
) -> None:
    t = Table(sqlite_client)
    start_game(sqlite_client, t.g)
    g = t.g
    assert t.edit("attacker SF", g.attacker, high_command="advance").status_code == 200
    advance_to(t.c, g, "plan-line")
    assert (
        t.edit("attacker coy", g.attacker, sub_plan="move", plan_target=t.ids["defender coy"]).status_code
        == 200
    )
    advance_to(t.c, g, "execute-5")
    [shoot] = card(t.c, g, g.attacker, t.ids["attacker 1"])["acts"]
    assert (shoot["pool"], shoot["order"]) == (True, "")
    assert t.roll("shoot", g.attacker, "attacker coy", "defender coy", dice=[6]).status_code == 200
    [allocate] = card(t.c, g, g.attacker, t.ids["attacker 1"])["acts"]
    assert (allocate["label"], allocate["dice"], allocate["order"]) == ("Allocate hits", 0, "order")
