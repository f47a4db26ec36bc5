"""Arrived fire-plan fire as cards (issue 26), on SQLite and PostgreSQL: the Mons attacker's bombardment on
turn 1 over defender stands arrives, deviated, as a card naming the stands under it in three lists; applied
once with the attacker's dice it writes one event (the luck ledger reads its rolls with their odds), a second
apply is refused, one undo takes it back; the defender reads the card but never the plan's other items."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient

from app.pages.game_record import Record
from app.services.unit_names import display_names
from rules.registry import get_game_rules
from tests.app.games.conftest import Game, new_game, start_game

# Planned fire "pre-registered" (erratum planned-fire-deviation): it lands where it was aimed, over the stands.
ON_TARGET = {"scenario": "mons-1914", "variants": {"planned-fire-deviation": "pre-registered"}}


def plan_bombardment(c: TestClient, g: Game, turn: int = 1) -> tuple[int, dict[str, Any]]:
    """The attacker plans a bombardment on the defender stand nearest the table's middle (the attacker's grid
    is the table frame), and a second, later item the defender must not learn of; the plans are locked."""
    units = c.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    width = c.get(f"/api/v1/games/{g.id}", headers=g.referee).json()["table_width_cm"]
    stands = [u for u in units if u["side"] == "defender" and u["x"] is not None and not u["off_table"]]
    target = min(stands, key=lambda u: abs(u["x"] - width / 2) + u["y"] / 1000)
    grid = [target["x"], target["y"]]
    item = c.post(
        f"/api/v1/games/{g.id}/fireplans/attacker/items",
        headers=g.attacker,
        json={"arrival_turn": turn, "item": {"kind": "bombardment", "grid": grid, "battery": "x"}},
    )
    assert item.status_code == 201, item.text
    later = c.post(
        f"/api/v1/games/{g.id}/fireplans/attacker/items",
        headers=g.attacker,
        json={"arrival_turn": 5, "item": {"kind": "bombardment", "grid": [11, 99]}},
    )
    assert later.status_code == 201
    return int(item.json()["id"]), {"later": later.json()["id"], "target": target}


def test_a_deviated_bombardment_lands_where_its_roll_puts_it(client: TestClient, mons: Game) -> None:
    """By default "When unobserved off table artillery ... arrives roll a deviation dice and 2D6": the card
    lands where the roll the server made as it arrived puts it, and that roll is among the applied rolls."""
    c, g = client, mons
    item_id, _ = plan_bombardment(c, g)
    start_game(c, g)
    card = c.get(f"/api/v1/games/{g.id}/arrivals", headers=g.attacker).json()["cards"][0]
    dev = card["deviation"]
    # "if the result is a 5 or 6 then there is no deviation" ... "2D6 to determine the ... distance".
    assert dev["deviates"] == (dev["dice"][0] <= 4)
    moved = ((card["lands"][0] - card["aimed"][0]) ** 2 + (card["lands"][1] - card["aimed"][1]) ** 2) ** 0.5
    assert abs(moved - (dev["dice"][3] + dev["dice"][4] if dev["deviates"] else 0)) < 0.01
    if dev["deviates"]:  # 12 o'clock straight ahead of the attacker's edge (+y), clockwise
        clock = dev["dice"][2] + (6 if dev["dice"][1] >= 4 else 0)
        assert clock == dev["clock"]
    r = c.post(
        f"/api/v1/games/{g.id}/arrivals/{item_id}/apply", headers=g.attacker, json={"dice": {"action": [1]}}
    )
    assert r.status_code == 200, r.text
    rolls = r.json()["event"]["payload"]["rolls"]
    assert rolls[0]["resolver"] == "deviation" and rolls[0]["resolution"]["dice"] == dev["dice"]
    assert rolls[0]["resolution"]["rolled_by_server"] and rolls[0]["resolution"]["probabilities_exact"]
    # A 1: "1 -2 = No Action": no fire, no stand rolled.
    assert len(rolls) == 2 and "no fire" in r.json()["event"]["payload"]["effect"]


def test_a_battery_on_the_table_named_as_the_fire_plan_shows_it_does_not_deviate(
    client: TestClient, mons: Game
) -> None:
    """Only "unobserved off table artillery" deviates (issue 53): the plan names the German howitzers on the
    table by the name the fire plan offers them under ("2 Rgt How Bty"), and their fire lands where aimed."""
    c, g = client, mons
    units = c.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    guns = next(u for u in units if u["side"] == "attacker" and u["kind"] == "howitzer-battery")
    assert guns["x"] is not None and guns["short_name"] != guns["name"]
    item = {"kind": "aiming-point", "grid": [60, 120], "battery": guns["short_name"]}
    planned = c.post(
        f"/api/v1/games/{g.id}/fireplans/attacker/items",
        headers=g.attacker,
        json={"arrival_turn": 1, "item": item},
    )
    assert planned.status_code == 201, planned.text
    start_game(c, g)
    (card,) = c.get(f"/api/v1/games/{g.id}/arrivals", headers=g.attacker).json()["cards"]
    assert card["deviation"] == {} and card["lands"] == card["aimed"] == [60.0, 120.0]
    assert "field howitzer" in card["what"]


def test_a_bombardment_arrives_as_a_card_and_applies_once(client: TestClient) -> None:
    c, g = client, new_game(client, ON_TARGET)
    item_id, extra = plan_bombardment(c, g)
    start_game(c, g)
    api = f"/api/v1/games/{g.id}/arrivals"

    seen = {who: c.get(api, headers=getattr(g, who)) for who in ("attacker", "defender", "referee")}
    assert all(r.status_code == 200 for r in seen.values())
    cards = seen["attacker"].json()["cards"]
    assert [k["item_id"] for k in cards] == [item_id]
    card = cards[0]
    # The defender reads the same card (the item is public from its arrival) and nothing of the later item.
    assert seen["defender"].json()["cards"] == cards
    assert str(extra["later"]) not in seen["defender"].text and "[11, 99]" not in seen["defender"].text

    # Pre-registered: it lands where it was aimed, and no deviation was rolled.
    assert card["lands"] == card["aimed"] and card["deviation"] == {}
    # "a rectangle 10x10cm" centred where it lands.
    xs = [p[0] for p in card["polygon"]]
    ys = [p[1] for p in card["polygon"]]
    assert abs(max(xs) - min(xs) - 10) < 1e-6 and abs(max(ys) - min(ys) - 10) < 1e-6
    assert abs((max(xs) + min(xs)) / 2 - card["lands"][0]) < 0.01

    # Each stand in one list only; full stands roll at full effect, partial ones at -2.
    listed = [s["unit_id"] for under in ("full", "partial", "close") for s in card["stands"][under]]
    assert len(listed) == len(set(listed))
    for s in card["stands"]["full"]:
        assert s["request"]["partial_template"] is False and s["request"]["indirect"] is True
    for s in card["stands"]["partial"]:
        assert s["request"]["partial_template"] is True
    # The battery's order to fire: the 1914 artillery row "1 -2 = No Action 3 - 5 = 1 Action 6+ = 2 Actions".
    assert card["first"]["resolver"] == "artillery-action"
    odds = {k: Fraction(v) for k, v in card["first"]["probabilities_exact"].items()}
    assert odds == {"no-action": Fraction(1, 3), "1-action": Fraction(1, 2), "2-actions": Fraction(1, 6)}
    assert card["first"]["odds_words"] == {"no-action": "1 in 3", "1-action": "1 in 2", "2-actions": "1 in 6"}

    # The defender may not apply the attacker's fire; a die out of range names its roll.
    assert c.post(f"{api}/{item_id}/apply", headers=g.defender, json={}).status_code == 403
    bad = c.post(f"{api}/{item_id}/apply", headers=g.attacker, json={"dice": {"action": [7]}})
    assert bad.status_code == 422 and bad.json()["field"] == "dice.action.0"
    unknown = c.post(f"{api}/{item_id}/apply", headers=g.attacker, json={"dice": {"999999": [3]}})
    assert unknown.status_code == 422 and unknown.json()["field"] == "dice.999999"
    # An item that has not arrived is not found, as one that does not exist.
    assert c.post(f"{api}/{extra['later']}/apply", headers=g.attacker, json={}).status_code == 404

    # One action (a 4), and a 6 for every stand (one too close to call rolls as the card lists it).
    under = [s for u in ("full", "partial", "close") for s in card["stands"][u]]
    assert under, card["stands"]
    dice: dict[str, list[int]] = {"action": [4], **{str(s["unit_id"]): [6] for s in under}}
    before = {u["id"]: u for u in c.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()}
    r = c.post(f"{api}/{item_id}/apply", headers=g.attacker, json={"dice": dice})
    assert r.status_code == 200, r.text
    ev = r.json()["event"]
    assert ev["kind"] == "arrival-fire" and ev["payload"]["item"]["id"] == item_id
    assert ev["payload"]["effect"].startswith(card["what"])
    rolls = ev["payload"]["rolls"]
    # The action and one roll per stand, all with the attacker's dice.
    assert rolls[0]["resolver"] == "artillery-action" and rolls[0]["resolution"]["outcome"]["actions"] == 1
    assert len(rolls) == 1 + len(under)
    assert all(not x["resolution"]["rolled_by_server"] for x in rolls)
    after = {u["id"]: u for u in c.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()}
    hit = [x["unit_id"] for x in rolls[1:] if x["resolution"]["outcome_key"] != "no-effect"]
    assert hit
    for unit_id in hit:
        u, was = after[unit_id], before[unit_id]
        assert u["killed"] or u["suppression"] > was["suppression"], unit_id
    # The card reads as applied, and a second apply is refused in one sentence.
    again = c.post(f"{api}/{item_id}/apply", headers=g.attacker, json={})
    assert again.status_code == 409 and "applied this turn" in again.json()["why"]
    assert c.get(api, headers=g.defender).json()["cards"][0]["applied"]["event_id"] == ev["id"]

    # The game record names the item and its effect.
    units_now = [
        SimpleNamespace(**u, pk=u["id"])
        for u in c.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    ]
    record = Record(display_names(units_now), {u.id: u for u in units_now}, get_game_rules("flanders-fields"))
    line = record.entry(ev).line
    assert card["what"] in line and "1 turn of fire" in line and "rolled 4, 6" in line, line

    # The luck ledger has every roll of it, at its odds.
    ledger = c.get(f"/api/v1/games/{g.id}/report", headers=g.referee)
    assert ledger.status_code == 200, ledger.text
    mine = [x for x in ledger.json()["ledger"]["sides"]["attacker"]["rolls"] if x["event_id"] == ev["id"]]
    assert len(mine) == len(rolls) and all(x["probability"] for x in mine)
    assert mine[0]["probability"] == "1/2"  # one action: "3 - 5 = 1 Action"

    # One undo takes it all back, and it may be applied again (the server rolls every die this time).
    undone = c.post(f"/api/v1/games/{g.id}/events/{ev['id']}/undo", headers=g.referee)
    assert undone.status_code == 200, undone.text
    back = {u["id"]: u for u in c.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()}
    assert all(back[i]["suppression"] == before[i]["suppression"] for i in before)
    assert all(back[i]["killed"] == before[i]["killed"] for i in before)
    assert c.get(api, headers=g.attacker).json()["cards"][0]["applied"] is None
    rolled = c.post(f"{api}/{item_id}/apply", headers=g.attacker, json={})
    assert rolled.status_code == 200, rolled.text
    assert all(x["resolution"]["rolled_by_server"] for x in rolled.json()["event"]["payload"]["rolls"])
