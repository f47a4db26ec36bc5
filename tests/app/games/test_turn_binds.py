"""The step and the side bind every roll (issue 37): out of its turn a side's stand card offers nothing and says
why in one sentence, `/resolve` refuses with the step named (the rule as `why`, its line as `source`), `/ask`
answers the odds and says what `/resolve` would refuse, and the referee's override is played and recorded."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from rules.flanders_fields.book.sequence import TURN_SOURCE
from tests.app.games.conftest import Game, advance_to, new_game, units_by_ref

GB_BN = "mons-1914/gb/infantry-brigade-1/infantry-battalion-1"
WAIT = "It is the German battalion orders step: wait for your turn."


def events(c: TestClient, g: Game) -> list[dict[str, Any]]:
    return list(c.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json())


def test_out_of_turn_the_card_offers_nothing_and_resolve_names_the_step(client: TestClient) -> None:
    g = new_game(client)
    advance_to(client, g, "battalion-orders")  # the German turn
    units = units_by_ref(client, g)
    company, mg = units[f"{GB_BN}/rifle-company-1"], units[f"{GB_BN}/mmg-1"]
    platoon = units[f"{GB_BN}/rifle-company-1/rifle-platoon-1"]
    for stand in (platoon, mg):
        card = client.get(f"/api/v1/games/{g.id}/units/{stand['id']}/acts", headers=g.defender).json()
        assert card["acts"] == [] and card["refused"]["detail"] == WAIT
        assert card["refused"]["source"] == TURN_SOURCE

    logged = len(events(client, g))
    order = {"unit_id": company["id"], "dice": [6]}
    r = client.post(f"/api/v1/games/{g.id}/resolve/order-roll", headers=g.defender, json=order)
    assert r.status_code == 409 and r.json()["detail"] == WAIT
    assert r.json()["source"] == TURN_SOURCE and "one side moving and firing" in r.json()["why"]
    assert r.json()["current"]["step"]["id"] == "battalion-orders"
    assert len(events(client, g)) == logged
    # A question is answered, with what /resolve would say now beside it.
    asked = client.post(f"/api/v1/games/{g.id}/ask/order-roll", headers=g.defender, json=order)
    assert asked.status_code == 200 and asked.json()["resolution"]["outcome_key"]
    assert asked.json()["refused"]["detail"] == WAIT
    mine = units[
        "mons-1914/de/infantry-regiment-1/infantry-battalion-1/rifle-company-1"
    ]  # the German's own, in its step
    own = client.post(
        f"/api/v1/games/{g.id}/ask/order-roll", headers=g.attacker, json={"unit_id": mine["id"]}
    )
    assert own.status_code == 200 and own.json()["refused"] is None

    # The override is the referee's: a player asking for it is refused; the referee's is played and logged.
    assert (
        client.post(
            f"/api/v1/games/{g.id}/resolve/order-roll", headers=g.defender, json={**order, "override": True}
        ).status_code
        == 403
    )
    done = client.post(
        f"/api/v1/games/{g.id}/resolve/order-roll", headers=g.referee, json={**order, "override": True}
    )
    assert done.status_code == 200, done.text
    [ev] = [e for e in events(client, g) if e["id"] == done.json()["event_id"]]
    assert ev["payload"]["override"]["by"] == "referee"
    assert ev["payload"]["override"]["refused"] == r.json()["why"]


def test_a_roll_belongs_to_the_steps_that_list_it(client: TestClient) -> None:
    g = new_game(client, {"name": "1918", "period": "late", "attacker_nation": "german"})
    advance_to(client, g, "support-orders")
    r = client.post(f"/api/v1/games/{g.id}/resolve/rolling-barrage", headers=g.attacker, json={"dice": [3]})
    assert r.status_code == 409, r.text
    assert r.json()["detail"] == (
        "It is the German support orders step: make the rolling barrage roll in the rolling barrages step."
    )
    assert "ORDER SEQUENCE NOTES, 5" in r.json()["source"]


def test_the_side_not_moving_shoots_only_by_the_referee_s_leave(client: TestClient) -> None:
    g = new_game(client)
    advance_to(client, g, "battalion-orders")
    units = units_by_ref(client, g)
    mg = units[f"{GB_BN}/mmg-1"]
    german = units["mons-1914/de/infantry-regiment-1/infantry-battalion-1/rifle-company-1/rifle-platoon-1"]
    # The case: the British MG shoots a German platoon in the German battalion orders.
    shot = {"unit_id": mg["id"], "target_id": german["id"], "dice": [5]}
    out = client.post(f"/api/v1/games/{g.id}/resolve/shooting", headers=g.defender, json=shot)
    assert out.status_code == 409 and out.json()["detail"] == WAIT
    assert "the defenders may shoot as the attackers close" in out.json()["why"]
    # "the defenders may shoot as the attackers close": the referee sees them close and allows it.
    # (Its range and the rest overridden too; the server rolls the target's and its beaten zone's dice.)
    allowed = {**shot, "dice": None, "override": True}
    back = client.post(f"/api/v1/games/{g.id}/resolve/shooting", headers=g.referee, json=allowed)
    assert back.status_code == 200, back.text
    [ev] = [e for e in events(client, g) if e["id"] == back.json()["event_id"]]
    assert ev["payload"]["override"]["refused"].startswith(out.json()["why"])
