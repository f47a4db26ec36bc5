"""A stand's card in play (issue 26): the rolls the rules offer it now, a roll asked of the table without
recording anything, an assault that destroys its loser, and a player taking back its own roll."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.app.games.conftest import Game, advance_to, new_game, unpacked


def units(c: TestClient, g: Game) -> dict[int, dict[str, Any]]:
    return {u["id"]: u for u in c.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()}


def first(us: dict[int, dict[str, Any]], side: str, kind: str) -> dict[str, Any]:
    return next(u for u in us.values() if u["side"] == side and u["kind"] == kind and u["x"] is not None)


def events(c: TestClient, g: Game) -> list[dict[str, Any]]:
    return list(c.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json())


def face_off(c: TestClient, g: Game, attacker: dict[str, Any], defender: dict[str, Any], gap: float) -> None:
    """Put the attacking stand `gap` cm in front of the defending one (in set-up, by the referee)."""
    r = c.post(
        f"/api/v1/games/{g.id}/units/{attacker['id']}/move",
        headers=g.referee,
        json={"x": defender["x"], "y": defender["y"] - gap, "facing_deg": 90},
    )
    assert r.status_code == 200, r.text


def ordered_mg(c: TestClient, g: Game, gap: float) -> tuple[dict[str, Any], dict[str, Any]]:
    """The attackers' first MMG `gap` cm in front of the defenders' first rifle platoon, unpacked and ordered at
    the battalion's orders with a 6 ("6 = 3 Actions"): its shots are the next acts. The MMG and the platoon."""
    us = units(c, g)
    mg, target = first(us, "attacker", "mmg"), first(us, "defender", "rifle-platoon")
    face_off(c, g, mg, target, gap)
    unpacked(c, g, mg["id"])
    advance_to(c, g, "battalion-orders")
    order = {"unit_id": mg["id"], "dice": [6]}
    assert (
        c.post(f"/api/v1/games/{g.id}/resolve/order-roll", headers=g.attacker, json=order).status_code == 200
    )
    return mg, target


def test_each_stand_is_offered_the_rolls_of_its_kind(client: TestClient) -> None:
    g = new_game(client)
    nothing = {"acts": [], "edits": [], "refused": None, "offers": [], "first": ""}
    assert client.get(f"/api/v1/games/{g.id}/units/1/acts", headers=g.attacker).json() == nothing  # in set-up
    unpacked(client, g, first(units(client, g), "attacker", "mmg")["id"])
    advance_to(client, g, "battalion-orders")  # where the battalion's companies and MGs are ordered
    us = units(client, g)
    platoon = first(us, "attacker", "rifle-platoon")
    mg = first(us, "attacker", "mmg")
    # Before its company's order roll a platoon has no action to shoot or assault with ("Actions are; ...
    # FIRE or MOVE"; "Troops require an order to move into contact with an enemy").
    offered = client.get(f"/api/v1/games/{g.id}/units/{platoon['id']}/acts", headers=g.attacker).json()[
        "acts"
    ]
    assert [a["label"] for a in offered] == ["Order roll"]
    order = offered[0]
    # A platoon takes its company's order roll ("ORDERS AND ACTIONS"): the company rolls.
    assert order["unit_id"] == platoon["parent_id"] and us[order["unit_id"]]["kind"] == "rifle-company"
    company = {"unit_id": order["unit_id"], "dice": [5]}  # "5-6 = 2 Actions"
    assert client.post(
        f"/api/v1/games/{g.id}/resolve/order-roll", headers=g.attacker, json=company
    ).is_success
    offered = client.get(f"/api/v1/games/{g.id}/units/{platoon['id']}/acts", headers=g.attacker).json()[
        "acts"
    ]
    assault = next(a for a in offered if a["label"] == "Assault")
    assert assault["dice"] == 2 and assault["target"] and assault["why"].startswith("2 actions left")
    mg_acts = client.get(f"/api/v1/games/{g.id}/units/{mg['id']}/acts", headers=g.attacker).json()
    assert [(a["label"], a["unit_id"]) for a in mg_acts["acts"]] == [("Order roll", mg["id"])]
    # The other side's seat is offered nothing on this stand but a marker placed (its shots place them), the
    # referee everything.
    theirs = client.get(f"/api/v1/games/{g.id}/units/{mg['id']}/acts", headers=g.defender).json()
    assert {**theirs, "offers": []} == nothing and [o["label"] for o in theirs["offers"]] == ["+1 marker"]
    assert client.get(f"/api/v1/games/{g.id}/units/{mg['id']}/acts", headers=g.referee).json() == mg_acts
    # Ordered ("3-5 = 2 Actions"), the MG is not offered its order roll again, and its card says what is left.
    roll = {"unit_id": mg["id"], "dice": [3]}
    assert (
        client.post(f"/api/v1/games/{g.id}/resolve/order-roll", headers=g.attacker, json=roll).status_code
        == 200
    )
    mg_acts = client.get(f"/api/v1/games/{g.id}/units/{mg['id']}/acts", headers=g.attacker).json()["acts"]
    assert [(a["label"], a["why"]) for a in mg_acts] == [("Shoot", "2 actions left")]
    missing = client.get(f"/api/v1/games/{g.id}/units/999999/acts", headers=g.attacker)
    assert missing.status_code == 422 and "unit_id" in missing.text


def test_asking_the_table_records_nothing_and_says_what_the_dice_would_do(client: TestClient) -> None:
    g = new_game(client)
    mg, target = ordered_mg(client, g, 30)
    logged = len(events(client, g))
    before = units(client, g)
    body = {"unit_id": mg["id"], "target_id": target["id"]}
    odds = client.post(f"/api/v1/games/{g.id}/ask/shooting", headers=g.attacker, json=body)
    assert odds.status_code == 200, odds.text
    filled = {f["field"]: f for f in odds.json()["filled"]}
    assert filled["firer"]["value"] == "mg" and 25 <= filled["range_cm"]["value"] < 30  # base edge to edge
    assert filled["range_cm"]["source"].startswith("Flanders Fields rule book: RANGED COMBAT, WEAPON RANGES")
    assert odds.json()["effects"] == []  # no dice, no answer
    # Each outcome's chance as the card shows it, in the one formatter's words (the story's, the ledger's).
    assert set(odds.json()["odds_words"]) == set(odds.json()["resolution"]["probabilities_exact"])
    assert all(" in " in w or w in ("certain", "never") for w in odds.json()["odds_words"].values())
    thresholds = odds.json()["resolution"]["thresholds"]
    # The stands in its beaten zone roll beside the target (a die each): a 1 does nothing to them.
    dice = [thresholds["suppress"], *[1] * len(odds.json()["resolution"].get("also", []))]
    asked = client.post(f"/api/v1/games/{g.id}/ask/shooting", headers=g.attacker, json={**body, "dice": dice})
    assert asked.json()["resolution"]["outcome_key"] == "suppressed"
    # MG fire suppresses the whole company: one effect per living stand of it, each +1 suppression.
    company = [u["id"] for u in before.values() if u["parent_id"] == target["parent_id"] and u["base"]]
    hit = [(e["unit_id"], e["field"], e["delta"]) for e in asked.json()["effects"] if e.get("delta")]
    # ... and the shot spends one of the MG's actions ("Actions are; REMOVE A SUPPRESSION LEVEL, FIRE or MOVE").
    assert sorted(hit) == sorted([(mg["id"], "actions_left", -1), *((i, "suppression", 1) for i in company)])
    assert len(events(client, g)) == logged and units(client, g) == before
    # The same dice applied: one event naming the target, and the effects asked are the changes made.
    applied = client.post(
        f"/api/v1/games/{g.id}/resolve/shooting",
        headers=g.attacker,
        json={**body, "dice": dice},
    )
    assert applied.status_code == 200, applied.text
    assert (
        len(events(client, g)) == logged + 1 and events(client, g)[-1]["payload"]["target_id"] == target["id"]
    )
    after = units(client, g)
    assert {i: after[i]["suppression"] for i in company} == {i: before[i]["suppression"] + 1 for i in company}
    assert after[mg["id"]]["actions_left"] == before[mg["id"]]["actions_left"] - 1
    # A secret draw is never asked; the other side may not ask for this stand.
    assert (
        client.post(f"/api/v1/games/{g.id}/ask/random-event", headers=g.attacker, json={}).status_code == 422
    )
    assert client.post(f"/api/v1/games/{g.id}/ask/shooting", headers=g.defender, json=body).status_code == 403


def test_an_assault_destroys_its_loser(client: TestClient) -> None:
    g = new_game(client)
    us = units(client, g)
    attacker = first(us, "attacker", "rifle-platoon")
    defender = first(us, "defender", "rifle-platoon")
    face_off(client, g, attacker, defender, 3)
    advance_to(client, g, "battalion-orders")
    # "Troops require an order to move into contact with an enemy": its company is ordered first.
    company = {"unit_id": attacker["parent_id"], "dice": [5]}
    assert client.post(
        f"/api/v1/games/{g.id}/resolve/order-roll", headers=g.attacker, json=company
    ).is_success
    body = {"unit_id": attacker["id"], "target_id": defender["id"]}
    asked = client.post(f"/api/v1/games/{g.id}/ask/assault", headers=g.attacker, json=body).json()
    filled = {f["field"]: f["value"] for f in asked["filled"]}
    assert filled["attacker"]["kind"] == "infantry" and filled["defender"]["kind"] == "infantry"
    assert filled["attacker"]["suppressed"] is False and filled["defender"]["in_deep_shelter"] is False
    # A 6 against a 1 wins whatever the factors (at most +/-2 a side here): the defender is destroyed.
    won = client.post(
        f"/api/v1/games/{g.id}/resolve/assault", headers=g.attacker, json={**body, "dice": [6, 1]}
    )
    assert won.json()["resolution"]["outcome_key"] == "attacker-wins", won.text
    assert units(client, g)[defender["id"]]["killed"] is True
    assert units(client, g)[attacker["id"]]["killed"] is False


def test_a_player_takes_back_its_own_roll_only_while_it_is_the_latest(client: TestClient) -> None:
    g = new_game(client)
    advance_to(client, g, "battalion-orders")
    us = units(client, g)
    company = next(u for u in us.values() if u["side"] == "attacker" and u["kind"] == "rifle-company")
    roll = client.post(
        f"/api/v1/games/{g.id}/resolve/order-roll",
        headers=g.attacker,
        json={"unit_id": company["id"], "dice": [5]},
    ).json()
    granted = units(client, g)[company["id"]]["actions_left"]
    assert granted > 0
    # The defender may not take it back; the attacker may, while nothing has happened since.
    assert (
        client.post(
            f"/api/v1/games/{g.id}/events/{roll['event_id']}/undo", headers=g.defender, json={}
        ).status_code
        == 403
    )
    undone = client.post(f"/api/v1/games/{g.id}/events/{roll['event_id']}/undo", headers=g.attacker, json={})
    assert undone.status_code == 200, undone.text
    assert units(client, g)[company["id"]]["actions_left"] == 0
    again = client.post(
        f"/api/v1/games/{g.id}/resolve/order-roll",
        headers=g.attacker,
        json={"unit_id": company["id"], "dice": [5]},
    ).json()
    mg = first(us, "attacker", "mmg")
    client.post(
        f"/api/v1/games/{g.id}/resolve/order-roll",
        headers=g.attacker,
        json={"unit_id": mg["id"], "dice": [3]},
    )
    late = client.post(f"/api/v1/games/{g.id}/events/{again['event_id']}/undo", headers=g.attacker, json={})
    assert late.status_code == 403  # an older roll is the referee's call
