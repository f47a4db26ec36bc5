"""Issue 26: the in-game order roll picks the order-roll unit by the unit's own kind. An artillery group
(Mons: "Field Artillery Group 1") rolls as regimental artillery, never as a battalion's rifle companies."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from fastapi.testclient import TestClient

from rules.flanders_fields.book.tables import ORDER_TABLES, actions_for
from tests import csrf
from tests.app.games.conftest import new_game, start_game, units_by_ref


def _odds(unit: str) -> dict[int, Fraction]:
    """Actions per face of one D6 on the early playsheet's table for `unit`, as exact odds."""
    out: dict[int, Fraction] = {}
    for face in range(1, 7):
        n = actions_for(face, ORDER_TABLES["early"][unit].bands)
        out[n] = out.get(n, Fraction(0)) + Fraction(1, 6)
    return out


def _roll(client: TestClient, game: Any, unit_id: int, die: int) -> dict[str, Any]:
    r = client.post(
        f"/api/v1/games/{game.id}/resolve/order-roll",
        headers=game.referee,
        json={"unit_id": unit_id, "dice": [die], "apply": False},
    )
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_an_artillery_group_rolls_as_regimental_artillery(client: TestClient) -> None:
    game = new_game(client)
    start_game(client, game)
    units = units_by_ref(client, game)
    group = units["mons-1914/de/infantry-regiment-1/field-artillery-group-1"]
    assert group["name"] == "Field Artillery Group 1"
    out = _roll(client, game, group["id"], 5)
    filled = {f["field"]: f["value"] for f in out["filled"]}
    # Crewed weapons "are always classed as Experienced"; the unit is the artillery, not rifle companies.
    assert filled["unit"] == "regimental-artillery" and filled["quality"] == "experienced"
    answer = out["resolution"]
    exact = {int(k.removeprefix("actions-")): Fraction(v) for k, v in answer["probabilities_exact"].items()}
    # "ARTILLERY WITH LINE OF SIGHT 1-2 = No Action 3-5 = 1 Action 6+ = 2 Actions": a 5 is one action.
    assert exact == _odds("regimental-artillery") != _odds("rifle-company")
    assert (
        answer["outcome"]["actions"]
        == actions_for(5, ORDER_TABLES["early"]["regimental-artillery"].bands)
        == 1
    )
    # A battery rolls on the same table; a battalion (companies and MGs alike under it) is left to the player.
    battery = units["mons-1914/de/infantry-regiment-1/field-artillery-group-1/field-battery-1"]
    assert {f["field"]: f["value"] for f in _roll(client, game, battery["id"], 5)["filled"]}["unit"] == (
        "regimental-artillery"
    )
    battalion = units["mons-1914/de/infantry-regiment-1/infantry-battalion-1"]
    v = client.get(f"/api/v1/games/{game.id}/turn", headers=game.referee).json()["version"]
    client.post(
        f"/api/v1/games/{game.id}/turn/advance", headers=game.referee, json={"version": v}
    )  # its step
    r = client.post(
        f"/api/v1/games/{game.id}/resolve/order-roll",
        headers=game.referee,
        json={"unit_id": battalion["id"], "dice": [5], "apply": False},
    )
    assert r.status_code == 422 and "unit" in r.text, r.text


def test_the_lookup_presets_an_artillery_groups_roll_as_artillery(sqlite_client: TestClient) -> None:
    c = sqlite_client
    game = new_game(c)
    group = units_by_ref(c, game)["mons-1914/de/infantry-regiment-2/field-artillery-group-1"]
    token = game.referee["Authorization"].removeprefix("Bearer ")
    assert c.post("/join", data=csrf.form(c, {"code": token}), follow_redirects=False).status_code == 303
    page = c.get(f"/lookup/flanders-fields/order-roll?game={game.id}&unit={group['id']}")
    assert page.status_code == 200, page.text
    checked = re.findall(r'name="unit" value="([a-z-]+)"\s*checked', page.text)
    assert checked == ["regimental-artillery"] and "the game cannot tell this" not in page.text
    # A regiment's companies, MGs and guns roll on different tables: the page says the choice is the player's.
    regiment = units_by_ref(c, game)["mons-1914/de/infantry-regiment-2"]
    page = c.get(f"/lookup/flanders-fields/order-roll?game={game.id}&unit={regiment['id']}")
    assert page.status_code == 200 and "the game cannot tell this for the unit picked" in page.text
