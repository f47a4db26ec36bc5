"""The forces of a campaign battle fought on the table are playable (issue 17): each Firestorm Troop is one
battalion-scale unit of the organisation tables, so every battle turn 1 can have fits the 120 x 180 cm table,
every stand deployed in its side's 15 cm zone, none left off (SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from rules.firestorm.table_battle import TableBattle, table_battle
from tests.app.campaigns.conftest import Seats, bearer
from tests.rules.firestorm.test_table_battle import MAX_STANDS, MIN_STANDS, RATIO, turn_one_battles


def stands(units: list[dict[str, Any]]) -> list[dict[str, Any]]:
    parents = {u["parent_id"] for u in units}
    return [u for u in units if u["id"] not in parents]


def sizes(units: list[dict[str, Any]]) -> dict[str, int]:
    leaves = stands(units)
    return {side: sum(u["side"] == side for u in leaves) for side in ("attacker", "defender")}


def forces_of(b: TableBattle) -> list[dict[str, Any]]:
    """The forces as the campaign's open sends them to create_game."""
    out = []
    for f in b.forces:
        force: dict[str, Any] = {"side": f.side, "table_id": f.table, "name": f.name}
        force |= {k: v for k, v in (("quality", f.quality), ("template", f.template)) if v is not None}
        out.append(force)
    return out


def test_every_turn_one_battle_is_deployed_whole_on_the_table(sqlite_client: TestClient) -> None:
    c = sqlite_client
    seen = set()
    for s in turn_one_battles():
        b = table_battle(s, 1)
        key = tuple((f.side, f.table, f.template, f.quality) for f in b.forces)
        if key in seen:
            continue  # the same forces on another area: the same deployment
        seen.add(key)
        r = c.post(
            "/api/v1/games",
            json={
                "period": b.period,
                "attacker_nation": b.attacker_nation,
                "defender_nation": b.defender_nation,
                "table_width_cm": b.table_width_cm,
                "table_length_cm": b.table_length_cm,
                "forces": forces_of(b),
            },
        )
        assert r.status_code == 201, r.text
        referee = bearer(r.json()["referee_token"])
        units = c.get(f"/api/v1/games/{r.json()['game']['id']}/units", headers=referee).json()
        size = sizes(units)
        assert all(MIN_STANDS <= n <= MAX_STANDS for n in size.values()), (key, size)
        assert max(size.values()) <= RATIO * min(size.values()), (key, size)
        left_off = [u["name"] for u in units if u["off_table"]]
        assert left_off == [], (key, left_off)
    assert len(seen) >= 10


DICE = {"resolve": [6, 1], "destroy": [6], "capture": [6]}


def test_the_largest_fixed_attack_opens_a_playable_game(client: TestClient, seats: Seats) -> None:
    """D-3 into C-4 with the 5th Guard Grenadiers (Stoss) and Group III (A7V) against 23 Bde: 48 stands
    against 8, all on the table (before: 48 against a 195-stand division, most of it off the table): 23 Bde
    halved by the gas (its HQ and 2 of 4 companies, 7 of 13 stands) and its one trench HMG nest."""
    s = seats
    snap = client.get(f"/api/v1/campaigns/{s.id}/legal-actions", headers=s.organiser).json()
    for _ in range(20):  # turn 1's first battle, resolved by hand, then on to the second fixed attack
        (step, *_rest) = snap["legal_actions"]
        action: dict[str, Any] = {"type": step["type"]}
        if step["type"] == "attack":
            option = step["options"][0]
            action |= {k: option[k] for k in ("from_area", "to_area")}
            if option["to_area"] == "C-4":
                action["troops"] = ["g-gr-5", "group-iii"]
            else:
                action["troops"] = option["troops"][:1]
        elif step["type"] == "defend":
            action["troops"] = step["troops"][:1]
        elif step["type"] == "advance":
            action["troops"] = []
        r = client.post(
            f"/api/v1/campaigns/{s.id}/actions",
            headers=s.organiser,
            # The attacker wins by 10 to 5, then destroys and captures 25 Bde: no retreat to choose.
            json={"action": action, "dice": DICE.get(step["type"], []), "version": snap["version"]},
        )
        assert r.status_code == 200, r.text
        snap = r.json()
        current = snap["state"]["current"]
        if snap["state"]["phase"] == "resolve" and current["to_area"] == "C-4":
            break
    assert snap["state"]["current"]["defender_troops"] == ["23-bde"]
    r = client.post(f"/api/v1/campaigns/{s.id}/table-battles", headers=s.organiser, json={"layout_seed": 3})
    assert r.status_code == 201, r.text
    game_id = r.json()["table_battle"]["game_id"]
    units = client.get(f"/api/v1/games/{game_id}/units", headers=bearer(r.json()["referee_token"])).json()
    assert sizes(units) == {"attacker": 48, "defender": 7 + 1}
    assert not [u for u in units if u["off_table"]]
