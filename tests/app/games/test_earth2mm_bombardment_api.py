"""A 2mm Earth 1418 bombardment through the API: ordered with the high commands, landing on its circle as the
bound enters EXECUTING (2), its card's shots laid by the firing side (`shots`, at most half on one platoon and
the battery's in all: a 4xx naming the field otherwise), the hits waiting on the company hit, undone in one."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.app.games.conftest import advance_to, new_game, start_game

EARTH = "2mm-earth-1418"
# The attacker's map square (2, 3) of 6" squares (15.24 cm): its centre, where the circle lands.
SQUARE_CENTRE = (2.5 * 15.24, 3.5 * 15.24)


def _add(c: TestClient, g: Any, side: str, name: str, **unit: Any) -> int:
    r = c.post(f"/api/v1/games/{g.id}/units", headers=g.referee, json={"side": side, "name": name, **unit})
    assert r.status_code == 201, r.text
    return int(r.json()["unit"]["id"])


def test_a_bombardment_lands_on_its_circle_and_its_shots_are_laid_by_the_firing_side(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    g = new_game(c, {"ruleset": EARTH, "name": "A bombardment"})
    sf = _add(c, g, "attacker", "1st Artillery", level="battalion", kind="formation", quality="line")
    battery = _add(c, g, "attacker", "A Battery", parent_id=sf, level="company", kind="field-guns")
    for n, x in ((1, 20.0), (2, 22.0)):
        _add(
            c,
            g,
            "attacker",
            f"Gun {n}",
            parent_id=battery,
            level="platoon",
            kind="field-guns",
            base="field-guns",
            x=x,
            y=5.0,
        )
    sf = _add(c, g, "defender", "II Battalion", level="battalion", kind="formation", quality="line")
    coy = _add(c, g, "defender", "1 Coy", parent_id=sf, level="company", kind="line-inf")
    x0, y0 = SQUARE_CENTRE
    platoons = [
        _add(
            c,
            g,
            "defender",
            f"Plt {n}",
            parent_id=coy,
            level="platoon",
            kind="line-inf",
            base="line-inf",
            x=x0 + dx,
            y=y0,
            facing_deg=270.0,
        )
        for n, dx in ((1, -2.0), (2, 0.0), (3, 2.0))
    ]
    start_game(c, g)
    item = {"kind": "circle-bombardment", "battery": "A Battery", "grid": [35.0, 60.0]}
    r = c.post(
        f"/api/v1/games/{g.id}/fireplans/attacker/items",
        headers=g.attacker,
        json={"arrival_turn": 1, "item": item},
    )
    assert r.status_code == 201, r.text
    advance_to(c, g, "execute-2")

    cards = c.get(f"/api/v1/games/{g.id}/arrivals", headers=g.defender).json()["cards"]
    (card,) = cards
    # Two 75/77 field gun bases, Arming 2: 4 shots; "up to half the shots on a single target".
    assert card["shots"] == 4 and card["lands"] == [round(x0, 2), round(y0, 2)]
    assert sorted(s["unit_id"] for s in card["stands"]["full"]) == sorted(platoons)
    assert {s["times"] for s in card["stands"]["full"]} == {2}

    apply = f"/api/v1/games/{g.id}/arrivals/{card['item_id']}/apply"
    p1, p2, p3 = (str(p) for p in platoons)
    r = c.post(apply, headers=g.attacker, json={"shots": {p1: 3}})
    assert r.status_code == 422 and "shots." + p1 in r.text, r.text
    r = c.post(apply, headers=g.attacker, json={"shots": {p1: 2, p2: 2, p3: 1}})
    assert r.status_code == 422 and '"shots"' in r.text, r.text
    r = c.post(apply, headers=g.attacker, json={})
    assert r.status_code == 422 and '"shots"' in r.text, r.text
    r = c.post(apply, headers=g.defender, json={"shots": {p1: 1}})
    assert r.status_code == 403, r.text

    # Line infantry R4, stationary in the open -2R: two 6s hit; the other two shots roll 1s, and the field
    # guns' +1 lifts one of them to a hit.
    r = c.post(apply, headers=g.attacker, json={"dice": {p1: [6, 6], p2: [1, 1]}})
    assert r.status_code == 200, r.text
    event = r.json()["event"]
    assert [x["resolution"]["total"] for x in event["payload"]["rolls"]] == [2, 1]
    company = c.get(f"/api/v1/games/{g.id}/units/{coy}", headers=g.referee).json()
    assert (company["hits_to_allocate"], company["hits_from"]) == (3, battery)

    undone = c.post(f"/api/v1/games/{g.id}/events/{event['id']}/undo", headers=g.attacker)
    assert undone.status_code == 200, undone.text
    company = c.get(f"/api/v1/games/{g.id}/units/{coy}", headers=g.referee).json()
    assert company["hits_to_allocate"] == 0
