"""A bound of 2mm Earth 1418 through the API, act by act: each played in the step that permits it and undone
(/undo), and the same act out of its step refused with the rule (a 4xx naming the step or the field, the rule
in full beside it, the printed line as its source)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from tests.app.games.conftest import advance_to, new_game, start_game

EARTH = "2mm-earth-1418"


class Table:
    """A game made from the lobby, its forces added by hand: each side an SF (a battalion) of line companies of
    two platoons, the attacker's two companies 12 cm (120 scale metres) from the defender's one: in range, and
    in an assault's reach."""

    def __init__(self, c: TestClient) -> None:
        self.c = c
        self.g = new_game(c, {"ruleset": EARTH, "name": "A bound"})
        self.ids: dict[str, int] = {}
        for side, coys, y in (("attacker", ("coy", "2nd coy"), 40.0), ("defender", ("coy",), 52.0)):
            sf = self.add(side, f"{side} SF", level="battalion", kind="formation", quality="line")
            for i, name in enumerate(coys):
                coy = self.add(side, f"{side} {name}", parent_id=sf, level="company", kind="line-inf")
                for n, x in ((1, 50.0 + 10 * i), (2, 52.5 + 10 * i)):
                    platoon = f"{side} {name} {n}" if i else f"{side} {n}"
                    self.add(
                        side,
                        platoon,
                        parent_id=coy,
                        level="platoon",
                        kind="line-inf",
                        base="line-inf",
                        x=x,
                        y=y,
                    )

    def roll(
        self, resolver: str, who: dict[str, str], unit: str, target: str | None = None, **body: Any
    ) -> Any:
        ids = {"unit_id": self.ids[unit], **({"target_id": self.ids[target]} if target else {})}
        return self.c.post(f"/api/v1/games/{self.g.id}/resolve/{resolver}", headers=who, json={**ids, **body})

    def add(self, side: str, name: str, **unit: Any) -> int:
        r = self.c.post(
            f"/api/v1/games/{self.g.id}/units",
            headers=self.g.referee,
            json={"side": side, "name": name, **unit},
        )
        assert r.status_code == 201, r.text
        self.ids[name] = r.json()["unit"]["id"]
        return int(self.ids[name])

    def unit(self, name: str) -> dict[str, Any]:
        return dict(
            self.c.get(f"/api/v1/games/{self.g.id}/units/{self.ids[name]}", headers=self.g.referee).json()
        )

    def edit(self, name: str, who: dict[str, str], **values: Any) -> Any:
        body = {"version": self.unit(name)["version"], **values}
        return self.c.put(f"/api/v1/games/{self.g.id}/units/{self.ids[name]}", headers=who, json=body)

    def move(self, name: str, who: dict[str, str], x: float, y: float) -> Any:
        body = {"x": x, "y": y, "facing_deg": 90}
        return self.c.post(f"/api/v1/games/{self.g.id}/units/{self.ids[name]}/move", headers=who, json=body)

    def undo(self, answer: Any, who: dict[str, str]) -> None:
        assert answer.status_code in (200, 201), answer.text
        r = self.c.post(f"/api/v1/games/{self.g.id}/events/{answer.json()['event_id']}/undo", headers=who)
        assert r.status_code == 200, r.text


def refused_with_the_rule(r: Any) -> dict[str, Any]:
    """A refusal of the rules of play: 409, its sentence, the rule in full and the printed line it comes from."""
    assert r.status_code == 409, r.text
    body = dict(r.json())
    assert body["detail"] and body["why"] and body["source"], body
    return body


@pytest.fixture
def table(sqlite_client: TestClient) -> Table:
    t = Table(sqlite_client)
    start_game(sqlite_client, t.g)
    return t


def test_high_commands_planning_and_digging_in_each_played_and_undone(table: Table) -> None:
    t, g = table, table.g
    # High commands: the attacker commands its SF, and takes it back.
    commanded = t.edit("attacker SF", g.attacker, high_command="advance")
    assert commanded.json()["unit"]["high_command"] == "advance", commanded.text
    t.undo(commanded, g.attacker)
    assert t.unit("attacker SF")["high_command"] == ""
    # Out of step: a sub-unit plans in its own planning step, not in high commands.
    refused_with_the_rule(t.edit("attacker coy", g.attacker, sub_plan="move"))
    assert t.edit("attacker SF", g.attacker, high_command="advance").status_code == 200
    assert t.edit("defender SF", g.defender, high_command="hold").status_code == 200
    # A command not in the book is refused naming the field.
    wrong = t.edit("defender SF", g.defender, high_command="charge")
    assert wrong.status_code == 422 and wrong.json()["field"] == "high_command", wrong.text

    # The line plans: a move at the enemy company, undone; then digging in, undone.
    advance_to(t.c, g, "plan-line")
    refused_with_the_rule(t.edit("attacker SF", g.attacker, high_command="hold"))
    planned = t.edit("attacker coy", g.attacker, sub_plan="move", plan_target=t.ids["defender coy"])
    assert planned.status_code == 200, planned.text
    t.undo(planned, g.attacker)
    assert (t.unit("attacker coy")["sub_plan"], t.unit("attacker coy")["plan_target"]) == ("", None)
    dug = t.edit("defender coy", g.defender, sub_plan="stay put", digging_in=True)
    assert dug.status_code == 200 and dug.json()["unit"]["digging_in"] is True, dug.text
    t.undo(dug, g.defender)
    assert t.unit("defender coy")["digging_in"] is False


def test_moving_in_the_sub_units_own_step_played_and_undone(table: Table) -> None:
    t, g = table, table.g
    assert t.edit("attacker SF", g.attacker, high_command="advance").status_code == 200
    advance_to(t.c, g, "plan-line")
    assert t.edit("attacker coy", g.attacker, sub_plan="move").status_code == 200
    # Moving is an executing step's: not while the sides plan.
    refused_with_the_rule(t.move("attacker 1", g.attacker, 50, 45))
    advance_to(t.c, g, "execute-7")
    moved = t.move("attacker 1", g.attacker, 50, 45)
    assert moved.status_code == 200, moved.text
    assert (t.unit("attacker 1")["y"], t.unit("attacker coy")["moved_this_bound"]) == (45, True)
    t.undo(moved, g.attacker)
    assert (t.unit("attacker 1")["y"], t.unit("attacker coy")["moved_this_bound"]) == (40, False)


def test_a_shot_its_hits_allocated_and_a_recovery_each_played_and_undone(table: Table) -> None:
    t, g = table, table.g
    assert t.edit("attacker SF", g.attacker, high_command="advance").status_code == 200
    assert t.edit("defender SF", g.defender, high_command="hold").status_code == 200
    advance_to(t.c, g, "plan-line")
    for coy in ("attacker coy", "attacker 2nd coy"):
        assert t.edit(coy, g.attacker, sub_plan="move", plan_target=t.ids["defender coy"]).status_code == 200

    # A line company in the open shoots in step (5), not in step (4) with the dug in.
    advance_to(t.c, g, "execute-4")
    refused_with_the_rule(t.roll("shoot", g.attacker, "attacker coy", "defender coy", dice=[6]))
    advance_to(t.c, g, "execute-5")
    # The shot: its dice pool from the table (2 bases of Arming r1: one die), a hit waiting for the shooter
    # to allocate; undone, and shot again.
    shot = t.roll("shoot", g.attacker, "attacker coy", "defender coy", dice=[6])
    assert shot.status_code == 200, shot.text
    assert (t.unit("defender coy")["hits_to_allocate"], t.unit("defender coy")["hits_from"]) == (
        1,
        t.ids["attacker coy"],
    )
    t.undo(shot, g.attacker)
    assert (t.unit("defender coy")["hits_to_allocate"], t.unit("defender coy")["shot_at_by"]) == (0, [])
    assert t.roll("shoot", g.attacker, "attacker coy", "defender coy", dice=[6]).status_code == 200
    # The step names the shooter's card as where the hit is allocated, and the board's "End the game" list
    # opens that card on the map in one tap (issue 64).
    turn = t.c.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()
    waiting = turn["needs"].index("allocate the 1 hit(s) on defender coy")
    assert turn["needs_cards"][waiting] == t.ids["attacker coy"]
    board = t.c.get(
        f"/games/{g.id}/referee", headers={"Cookie": f"{COOKIE_NAME}={g.body['referee_token']}"}
    ).text
    assert f'href="/games/{g.id}/map#stand-{t.ids["attacker coy"]}"' in board
    # The aggressor allocates it on the base it chooses; undone, and allocated again.
    hit = t.roll(
        "allocate-hits", g.attacker, "attacker coy", "defender coy", fields={"order": [t.ids["defender 2"]]}
    )
    assert hit.status_code == 200, hit.text
    assert (t.unit("defender 2")["base_injury"], t.unit("defender 1")["base_injury"]) == ("fresh", "")
    t.undo(hit, g.attacker)
    assert t.unit("defender 2")["base_injury"] == ""
    again = t.roll(
        "allocate-hits", g.attacker, "attacker coy", "defender coy", fields={"order": [t.ids["defender 2"]]}
    )
    assert again.status_code == 200, again.text
    # A second company shoots at it: the injured base is under fire from a new shooter.
    assert t.roll("shoot", g.attacker, "attacker 2nd coy", "defender coy", dice=[1]).status_code == 200
    # It rolls its recovery die (<= its Resilience 4) after the shots, not while the sides move; at the end of
    # the bound its injury turns old; undone.
    advance_to(t.c, g, "execute-6")
    refused_with_the_rule(t.roll("recovery", g.defender, "defender 2", dice=[1]))
    advance_to(t.c, g, "end-of-bound")
    recovered = t.roll("recovery", g.defender, "defender 2", dice=[1])
    assert recovered.status_code == 200, recovered.text
    assert t.unit("defender 2")["base_injury"] == "old"
    t.undo(recovered, g.defender)
    assert t.unit("defender 2")["base_injury"] == "fresh"


def test_an_assault_and_its_melee_each_played_and_undone(table: Table) -> None:
    t, g = table, table.g
    assert t.edit("attacker SF", g.attacker, high_command="assault").status_code == 200
    assert t.edit("defender SF", g.defender, high_command="hold").status_code == 200
    advance_to(t.c, g, "plan-line")
    assault = t.edit("attacker coy", g.attacker, sub_plan="assault", plan_target=t.ids["defender coy"])
    assert assault.status_code == 200, assault.text
    # Assaulting troops move in step (6): 11 cm into base contact, within twice their 6 cm.
    advance_to(t.c, g, "execute-6")
    first = t.move("attacker 1", g.attacker, 50, 51)
    t.undo(first, g.attacker)
    assert t.unit("attacker 1")["y"] == 40
    for n, x in ((1, 50.0), (2, 52.5)):
        assert t.move(f"attacker {n}", g.attacker, x, 51).status_code == 200
    # Melee is fought in the melee step, with the bases in contact.
    advance_to(t.c, g, "execute-7")
    refused_with_the_rule(
        t.roll("shoot", g.attacker, "attacker coy", "defender coy", fields={"melee": True}, dice=[6, 6])
    )
    advance_to(t.c, g, "melee")
    melee = t.roll("shoot", g.attacker, "attacker coy", "defender coy", fields={"melee": True}, dice=[6, 6])
    assert melee.status_code == 200, melee.text
    assert t.unit("defender coy")["hits_to_allocate"] == 2
    t.undo(melee, g.attacker)
    assert t.unit("defender coy")["hits_to_allocate"] == 0
    # The newcomer pass: against a sub-unit that moved in the open every die hits ("Odds: 2 hits certain"): the card
    # asks no count, its Apply records the certain one (data-count-certain, table-act.js sends it).
    body = {"x": 50.0, "y": 52.0, "facing_deg": 90, "override": True}
    moved = t.c.post(f"/api/v1/games/{g.id}/units/{t.ids['defender 1']}/move", headers=g.referee, json=body)
    assert moved.status_code == 200, moved.text
    t.c.cookies.set(COOKIE_NAME, g.attacker["Authorization"].removeprefix("Bearer "))
    try:
        q = f"act=Melee&target={t.ids['defender 1']}"
        card = t.c.get(f"/games/{g.id}/map/units/{t.ids['attacker 1']}/play/shoot?{q}").text
    finally:
        t.c.cookies.clear()
    assert 'data-count-certain="2"' in card and "data-count-reached" not in card and "data-play-apply" in card
    t.undo(moved, g.referee)
    assert (
        t.roll(
            "shoot", g.attacker, "attacker coy", "defender coy", fields={"melee": True}, dice=[6, 6]
        ).status_code
        == 200
    )
    hits = t.roll("allocate-hits", g.attacker, "attacker coy", "defender coy")
    assert hits.status_code == 200, hits.text
    assert [t.unit(f"defender {n}")["base_injury"] for n in (1, 2)] == ["fresh", "fresh"]
    t.undo(hits, g.attacker)
    assert [t.unit(f"defender {n}")["base_injury"] for n in (1, 2)] == ["", ""]
