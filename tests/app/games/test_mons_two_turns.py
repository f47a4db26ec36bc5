"""The first two turns of the Mons 1914 specimen game played through the API, on SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from fastapi.testclient import TestClient

from tests.app.games.conftest import Game, units_by_ref, unpacked

GB = "mons-1914/gb/infantry-brigade-1"
BN1 = f"{GB}/infantry-battalion-1"
DE_BN1 = "mons-1914/de/infantry-regiment-1/infantry-battalion-1"


def turn(c: TestClient, g: Game) -> dict[str, Any]:
    r = c.get(f"/api/v1/games/{g.id}/turn", headers=g.referee)
    assert r.status_code == 200
    return r.json()


def advance(c: TestClient, g: Game, who: dict[str, str]) -> dict[str, Any]:
    r = c.post(f"/api/v1/games/{g.id}/turn/advance", headers=who, json={"version": turn(c, g)["version"]})
    assert r.status_code == 200, r.text
    return r.json()


def mg_fire(c: TestClient, g: Game, who: dict[str, str], unit_id: int) -> dict[str, Any]:
    r = c.post(f"/api/v1/games/{g.id}/units/{unit_id}/markers", headers=who, json={"delta": 1, "fire": "mg"})
    assert r.status_code == 200, r.text
    return r.json()


def resolve(
    c: TestClient, g: Game, who: dict[str, str], resolver: str, body: dict[str, Any]
) -> dict[str, Any]:
    r = c.post(f"/api/v1/games/{g.id}/resolve/{resolver}", headers=who, json=body)
    assert r.status_code == 200, r.text
    return dict(r.json())


def canonical(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def test_first_two_turns_of_mons(client: TestClient, mons: Game) -> None:
    c, g = client, mons
    units = units_by_ref(c, g)
    # "Two Infantry Regiments each with three infantry battalions" and "one Infantry Brigade of four battalions"
    battalions = [u for u in units.values() if u["kind"] == "infantry-battalion"]
    assert sum(u["side"] == "attacker" for u in battalions) == 6
    assert sum(u["side"] == "defender" for u in battalions) == 4
    # "one battalion from each of the German regiments and one British battalion are off table"
    assert (
        units[f"{GB}/infantry-battalion-4"]["off_table"]
        and units[f"{BN1}/rifle-company-1/rifle-platoon-1"]["x"]
    )

    # Set-up: the game waits for the fire plans. The German writes one aiming point for turn 2 and locks.
    t = turn(c, g)
    assert t["status"] == "setup" and t["next"]["action"] == "start"
    item = c.post(
        f"/api/v1/games/{g.id}/fireplans/attacker/items",
        headers=g.attacker,
        json={"arrival_turn": 2, "item": {"kind": "aiming-point", "grid": [64, 120], "battery": "1"}},
    )
    assert item.status_code == 201, item.text
    item_id = item.json()["id"]
    locked = c.post(f"/api/v1/games/{g.id}/fireplans/attacker/lock", headers=g.attacker)
    assert locked.status_code == 200 and len(locked.json()["commitment"]) == 64
    # The defender sees the commitment at once, but not the item.
    plans = c.get(f"/api/v1/games/{g.id}/fireplans", headers=g.defender).json()
    assert {p["side"]: p["commitment"] for p in plans}["attacker"] == locked.json()["commitment"]
    assert (
        c.get(f"/api/v1/games/{g.id}/fireplans/attacker/items/{item_id}", headers=g.defender).status_code
        == 404
    )
    # A locked plan cannot change.
    again = c.post(
        f"/api/v1/games/{g.id}/fireplans/attacker/items",
        headers=g.attacker,
        json={"arrival_turn": 3, "item": {"kind": "deep-suppression"}},
    )
    assert again.status_code == 409

    # Only the referee starts the game; the defender's empty plan is locked with it.
    assert (
        c.post(
            f"/api/v1/games/{g.id}/turn/advance", headers=g.attacker, json={"version": t["version"]}
        ).status_code
        == 403
    )
    # Mons: "all machineguns start on pack animals": the referee has the MG of this story unpacked in set-up,
    # where it costs nothing (in the game it takes an action, test_game_orders).
    unpacked(c, g, units[f"{DE_BN1}/mmg-company-1/mmg-1"]["id"])
    started = advance(c, g, g.referee)
    kinds = [e["kind"] for e in started["events"]]
    assert kinds == ["fire-plan-locked", "game-started", "turn-started"]
    t = started["turn"]
    # 1914 playsheet: "1 SUPPORT ORDERS", "2 BATTALION ORDERS", "3 MOVE COMMAND STANDS"; attackers start.
    assert [s["id"] for s in t["sequence"]] == ["support-orders", "battalion-orders", "move-command-stands"]
    assert (t["turn"], t["side_to_move"], t["step"]["id"]) == (1, "attacker", "support-orders")

    # -- Turn 1, German --------------------------------------------------------------------------------------
    # Rifle companies are ordered, and so move and fire, in "2 BATTALION ORDERS": "Battalion Rifle Companies
    # ... “Action” are; REMOVE A SUPPRESSION LEVEL, FIRE or MOVE."
    a = advance(c, g, g.attacker)
    assert a["turn"]["step"]["id"] == "battalion-orders"
    # A platoon moves as one of its company's actions: company 2 is ordered first ("5-6 = 2 Actions").
    platoon = units[f"{DE_BN1}/rifle-company-2/rifle-platoon-1"]
    resolve(c, g, g.attacker, "order-roll", {"unit_id": platoon["parent_id"], "dice": [6]})
    roll = c.post(
        f"/api/v1/games/{g.id}/resolve/movement",
        headers=g.attacker,
        json={"unit_id": platoon["id"], "fields": {"mover": "infantry", "terrain": "cross-country"}},
    )
    assert roll.status_code == 200, roll.text
    roll_id = roll.json()["event_id"]
    assert roll.json()["resolution"]["resolver"] == "movement"
    # The German moves the platoon 20 cm forward, then thinks again and undoes it (no roll since).
    y0 = platoon["y"]
    moved = c.post(
        f"/api/v1/games/{g.id}/units/{platoon['id']}/move",
        headers=g.attacker,
        json={"x": platoon["x"], "y": y0 + 20, "facing_deg": 90},
    )
    assert moved.status_code == 200 and moved.json()["unit"]["y"] == y0 + 20
    undo = c.post(f"/api/v1/games/{g.id}/events/{moved.json()['event_id']}/undo", headers=g.attacker)
    assert undo.status_code == 200 and undo.json()["reverses_id"] == moved.json()["event_id"]
    assert c.get(f"/api/v1/games/{g.id}/units/{platoon['id']}", headers=g.attacker).json()["y"] == y0
    # Undoing twice is a conflict; the British may not move German stands; a player may not undo a roll.
    assert (
        c.post(f"/api/v1/games/{g.id}/events/{moved.json()['event_id']}/undo", headers=g.attacker).status_code
        == 409
    )
    bad = c.post(
        f"/api/v1/games/{g.id}/units/{platoon['id']}/move", headers=g.defender, json={"x": 1, "y": 1}
    )
    assert bad.status_code == 403
    assert c.post(f"/api/v1/games/{g.id}/events/{roll_id}/undo", headers=g.attacker).status_code == 403
    moved = c.post(
        f"/api/v1/games/{g.id}/units/{platoon['id']}/move",
        headers=g.attacker,
        json={"x": platoon["x"], "y": y0 + 15, "facing_deg": 90},
    )
    assert moved.status_code == 200

    # German MG fire suppresses a British platoon: "if the suppression is caused by MACHINE GUNS, MORTARS OR
    # ARTILLERY the whole company to which the platoon belongs is suppressed."
    company1 = [u for r, u in units.items() if r.startswith(f"{BN1}/rifle-company-1/")]
    fired = mg_fire(c, g, g.attacker, company1[0]["id"])
    assert sorted(ch["unit"] for ch in fired["changes"]) == sorted(u["id"] for u in company1)
    assert all(ch["after"] == 1 for ch in fired["changes"])
    # Rifle fire suppresses the target only.
    other = units[f"{BN1}/rifle-company-2/rifle-platoon-1"]
    rifle = c.post(
        f"/api/v1/games/{g.id}/units/{other['id']}/markers",
        headers=g.attacker,
        json={"delta": 1, "fire": "rifle"},
    )
    assert [ch["unit"] for ch in rifle.json()["changes"]] == [other["id"]]
    # A British marker on the German battalion commander ...
    hq = units[f"{DE_BN1}/battalion-command-1"]
    mg_fire(c, g, g.defender, hq["id"])
    # The German orders his first rifle company inside the game; the table supplies the modifiers.
    # 1914 playsheet: "Battalion Rifle Companies ... 2-4 = 1 Action, 5-6 = 2 Actions" and "-1 ... for each
    # suppression marker on the unit's command stand": a 6 less the one marker is 5, two actions.
    co1 = units[f"{DE_BN1}/rifle-company-1"]
    order = resolve(c, g, g.attacker, "order-roll", {"unit_id": co1["id"], "dice": [6]})
    filled = {f["field"]: f["value"] for f in order["filled"]}
    assert (filled["unit"], filled["quality"], filled["command_suppression"]) == (
        "rifle-company",
        "experienced",
        1,
    )
    assert filled["platoon_beyond_25cm"] is False and filled["in_gas"] is False
    assert [(m["value"], m["label"]) for m in order["resolution"]["modifiers"]] == [
        (-1, "Suppression markers on the command stand (1)")
    ]
    assert (order["resolution"]["total"], order["resolution"]["outcome"]) == (5, {"actions": 2})
    assert order["changes"] == [
        {"unit": co1["id"], "field": "actions_left", "before": 0, "after": 2},
        {"unit": co1["id"], "field": "ordered_turn", "before": 0, "after": 1},  # once a turn
    ]
    # An MG is ordered as a crewed weapon ("always classed as Experienced"), under the same commander:
    # "Individual Battalion MGs ... 3-5 = 2 Actions": a 4 less the marker is 3; a move and a shot.
    mg = units[f"{DE_BN1}/mmg-company-1/mmg-1"]
    mg_order = resolve(c, g, g.attacker, "order-roll", {"unit_id": mg["id"], "dice": [4]})
    assert {f["field"]: f["value"] for f in mg_order["filled"]}["unit"] == "battalion-mg"
    assert mg_order["resolution"]["outcome"] == {"actions": 2}
    # The MG goes forward to the river and fires at a British platoon of company 3. Range, cover and sight
    # come from the table: the bases are 51.45 cm apart (4.5 cm across, 51.25 cm up the table); open ground
    # counts as soft cover for the veterans ("Experienced and Veteran troops in what would otherwise be deemed
    # Open Ground are classed as being in Soft Cover"). "MG - Max 70cm 3 4 4 5": soft, suppress on 4.
    c.post(f"/api/v1/games/{g.id}/units/{mg['id']}/move", headers=g.attacker, json={"x": 10, "y": 118})
    # Another British platoon stands nearer (48 cm): "The initial point of aim for a machine gun must be the
    # nearest troops", so the referee lets it fire anyway (issue 37), and the log records the override.
    company3 = [u for r, u in units.items() if r.startswith(f"{BN1}/rifle-company-3/")]
    shot = resolve(
        c,
        g,
        g.referee,
        "shooting",
        {"unit_id": mg["id"], "target_id": company3[0]["id"], "dice": [4], "override": True},
    )
    filled = {f["field"]: f["value"] for f in shot["filled"]}
    assert filled["firer"] == "mg" and filled["cover"] == "soft" and filled["direct_line_of_sight"] is True
    assert filled["range_cm"] == 51.45 and filled["target_is_command"] is False
    assert shot["resolution"]["thresholds"] == {"suppress": 4, "kill": 5}
    assert shot["resolution"]["outcome"] == "suppressed"
    # MG fire: "the whole company to which the platoon belongs is suppressed"; the shot spends an action.
    hit = sorted(ch["unit"] for ch in shot["changes"] if ch["field"] == "suppression")
    assert hit == sorted(u["id"] for u in company3)
    assert [ch["after"] for ch in shot["changes"] if ch["field"] == "actions_left"] == [0]
    advance(c, g, g.attacker)
    end = advance(c, g, g.attacker)
    # ... is gone at the end of the German turn: "Battalion and higher command stands who recover
    # automatically at the end of their turn".
    assert c.get(f"/api/v1/games/{g.id}/units/{hq['id']}", headers=g.referee).json()["suppression"] == 0
    assert [e["kind"] for e in end["events"]][:2] == ["end-of-turn", "turn-started"]
    assert (end["turn"]["turn"], end["turn"]["side_to_move"]) == (1, "defender")

    # -- Turn 1, British ----------------------------------------------------------------------------------
    # A rifle platoon recovers in its battalion's orders ("REMOVE A SUPPRESSION LEVEL, FIRE or MOVE").
    assert advance(c, g, g.defender)["turn"]["step"]["id"] == "battalion-orders"
    # "The only method of recovering from Battle Suppression is by the use of an Action": none ordered yet.
    rec = c.post(f"/api/v1/games/{g.id}/units/{other['id']}/markers", headers=g.defender, json={"delta": -1})
    assert rec.status_code == 409 and "no action left: roll its order first" in rec.json()["detail"]
    rec = c.post(
        f"/api/v1/games/{g.id}/units/{other['id']}/markers",
        headers=g.referee,
        json={"delta": -1, "spend_action": False},
    )
    assert rec.status_code == 200 and rec.json()["unit"]["suppression"] == 0
    # A heroic action fails on a 2: "if a failure the platoon is immediately destroyed"; once per player.
    hero = units[f"{GB}/infantry-battalion-2/rifle-company-1/rifle-platoon-1"]
    h = c.post(
        f"/api/v1/games/{g.id}/resolve/heroic-action",
        headers=g.defender,
        json={"unit_id": hero["id"], "dice": [2]},
    )
    assert h.status_code == 200, h.text
    assert h.json()["changes"][0] == {"unit": hero["id"], "field": "killed", "before": False, "after": True}
    h2 = c.post(
        f"/api/v1/games/{g.id}/resolve/heroic-action",
        headers=g.defender,
        json={"unit_id": hero["id"], "dice": [6]},
    )
    assert h2.status_code == 422
    for _ in range(2):
        last = advance(c, g, g.defender)

    # -- Turn 2, German: the planned aiming point arrives by itself and checks against the commitment -----
    assert (last["turn"]["turn"], last["turn"]["side_to_move"]) == (2, "attacker")
    arrival = next(e for e in last["events"] if e["kind"] == "fire-plan-arrival")
    p = arrival["payload"]
    assert p["verified"] is True and p["item"]["id"] == item_id
    # The leaf and the hashes on its way up the commitment tree (as the plan's how_to_check says).
    node = hashlib.sha256(canonical({"item": p["item"], "salt": p["salt"]})).hexdigest()
    assert node == p["leaf"] and "leaves" not in p
    for depth, sibling in enumerate(p["path"]):
        pair = [sibling, node] if p["slot"] >> depth & 1 else [node, sibling]
        node = hashlib.sha256(canonical(pair)).hexdigest()
    root = hashlib.sha256(canonical({"game": g.id, "side": "attacker", "root": node})).hexdigest()
    assert root == locked.json()["commitment"]
    seen = c.get(f"/api/v1/games/{g.id}/fireplans/attacker/items/{item_id}", headers=g.defender)
    assert seen.status_code == 200 and seen.json()["verified"] is True
    state = c.get(f"/api/v1/games/{g.id}/state", headers=g.defender).json()
    assert state["board"]["fire"][0]["point"] == [64, 120]  # the attacker's grid is the table frame

    # MG fire three times on two British companies: "THREE SUPPRESSIONS ON ANY UNIT EQUALS A KILL".
    company2 = [u for r, u in units.items() if r.startswith(f"{BN1}/rifle-company-2/")]
    for company in (company1, company2):
        for _ in range(3 - max(1 if company is company1 else 0, 0)):
            mg_fire(c, g, g.attacker, company[0]["id"])
    now = units_by_ref(c, g)
    for u in company1 + company2:
        assert now[u["ref"]]["killed"] is True
    # 8 of the battalion's 16 rifle platoons lost: "If a battalion's RIFLE PLATOONS are reduced to 50% it
    # must roll morale."
    assert now[BN1]["morale_due"] is True
    assert any("morale tests due" in n for n in turn(c, g)["needs"])
    # The British roll it at once; veterans +1 ("Veteran Troops +1"): a 2 makes 3, "2-3 Retreat 20cm, become
    # Suppressed, abandon crewed weapons" (MORALE). Company 3, already suppressed, stays at one marker.
    morale = resolve(c, g, g.defender, "morale", {"unit_id": now[BN1]["id"], "dice": [2]})
    filled = {f["field"]: f["value"] for f in morale["filled"]}
    assert (filled["starting_platoons"], filled["lost_platoons"], filled["quality"]) == (16, 8, "veteran")
    assert morale["resolution"]["outcome_key"] == "retreat-20" and morale["resolution"]["retreat_cm"] == 20
    after = units_by_ref(c, g)
    assert after[BN1]["morale_due"] is False and after[BN1]["morale_stage"] == 1
    assert after[f"{BN1}/mmg-1"]["crew_abandoned"] is True and after[f"{BN1}/mmg-1"]["suppression"] == 1
    assert after[f"{BN1}/rifle-company-4/rifle-platoon-1"]["suppression"] == 1
    assert all(after[u["ref"]]["suppression"] == 1 for u in company3)
    for _ in range(6):
        last = advance(c, g, g.attacker if turn(c, g)["side_to_move"] == "attacker" else g.defender)
    assert (last["turn"]["turn"], last["turn"]["side_to_move"]) == (3, "attacker")

    # -- The log and the after-action report ------------------------------------------------------------------
    report = c.get(f"/api/v1/games/{g.id}/report", headers=g.referee).json()
    assert [t["turn"] for t in report["turns"]] == [0, 1, 2, 3]
    bn1 = next(
        b
        for b in report["losses_by_battalion"]
        if b["name"] == now[BN1]["name"] and b["side"] == "defender" and b["unit_id"] == now[BN1]["id"]
    )
    assert (bn1["rifle_platoons"], bn1["rifle_platoons_lost"]) == (16, 8)
    # 9 British bases lost: "Multiply the number of playing bases ... by 15 ... one third will be dead, one
    # third lightly wounded ..., one sixth crippled ... and one sixth badly wounded" (half men: errata default).
    assert report["casualties_by_side"]["defender"] == {
        **report["casualties_by_side"]["defender"],
        "bases": 9,
        "men": 135,
        "killed": 45,
        "lightly_wounded": 45,
        "crippled": 22,
        "badly_wounded": 23,
    }
    # The story of the game in the book's words: each turn's losses, the companies suppressed, the heroic
    # action and the morale test, the plan that arrived; the most decisive act first (effect times how unlikely).
    assert [t["sentences"] for t in report["story"]["turns"]] == [
        [
            "The defender lost 1 stand (2/1 Coy 1).",
            "Suppressed: the attacker's 1/1 Bn (1 stand); the defender's 1/1 Coy (4 stands), 1/2 Coy (1 stand), "
            "1/3 Coy (4 stands).",
            "The defender's 2/1 Coy Plt 1 attempted a heroic action: platoon destroyed.",
        ],
        [
            "The defender lost 8 stands (1/1 Coy 4, 1/2 Coy 4).",
            "Suppressed: the defender's 1 Bn (2 stands), 1/4 Coy (4 stands).",
            "The defender's 1 Bn tested its morale: retreat 20cm, become Suppressed, abandon crewed weapons.",
            "Arrived: the attacker's planned aiming point.",
        ],
        ["No stand was lost."],
    ]
    assert [(m["event_id"], m["odds"], m["decisiveness"]) for m in report["story"]["decisive"]] == [
        (morale["event_id"], "1 in 3", "4/1"),  # six stands suppressed at 1/3
        (shot["event_id"], "1 in 6", "10/3"),  # four at 1/6
        (h.json()["event_id"], "2 in 3", "1/3"),  # one lost at 2/3
    ]
    assert report["story"]["decisive"][0]["words"] == (
        "The defender's 1 Bn tested its morale: retreat 20cm, become Suppressed, abandon crewed weapons. "
        "Suppressed: the defender's 1 Bn (2 stands), 1/4 Coy (4 stands)."
    )
    events = c.get(f"/api/v1/games/{g.id}/events", headers=g.defender).json()
    ids = [e["id"] for e in events]
    assert ids == sorted(ids)
    # The German's plan edits are kept with the German side, not in the log the British read.
    assert "fire-plan-item" not in {e["kind"] for e in events}
    edits = c.get(f"/api/v1/games/{g.id}/fireplans/attacker/edits", headers=g.attacker).json()
    assert [(e["action"], e["item"]["id"]) for e in edits] == [("added", item_id)]
