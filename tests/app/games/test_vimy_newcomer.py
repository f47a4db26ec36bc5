"""Vimy Ridge as a newcomer's game plays it: no club data entered (no key hexes, no trench hexsides), the
counters set up at the door, the combat card's terrain line offered and its odds shown before the die, the
result applied by either seat; the club's data refused to a player seat once the game has started. The hex
numbers and counters are a club example (a test fixture), not map facts."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.services.counters import roll_options
from tests.app.games.conftest import Game, advance_to, new_game, start_game

LINES = ["Peak", "Trench hexside, Woods", "Town, Hill, La Folie Farm", "River", "Clear"]


def _counter(http: TestClient, g: Game, side: str, name: str, division: str, where: str) -> Any:
    made = http.post(
        f"/api/v1/games/{g.id}/units",
        headers=g.referee,
        json={"side": side, "name": name, "level": "counter"},
    )
    assert made.status_code == 201, made.text
    uid = int(made.json()["unit"]["id"])
    values = {"hex": where, "division": division, "attack": 6, "defence": 4}
    values |= {"attack_depleted": 3, "defence_depleted": 2}
    set_up = http.put(f"/api/v1/games/{g.id}/units/{uid}", headers=g.referee, json={"version": 1, **values})
    assert set_up.status_code == 200, set_up.text
    return uid


def _game(http: TestClient) -> tuple[Game, int, int]:
    g = new_game(http, {"name": "Vimy", "ruleset": "vimy-ridge"})
    allied = _counter(http, g, "attacker", "2nd Bde", "1st Canadian", "0910")
    german = _counter(http, g, "defender", "RIR 262", "79th Reserve", "1010")
    start_game(http, g)
    return g, allied, german


def test_a_combat_is_rolled_from_the_card_with_no_club_data(sqlite_client: TestClient) -> None:
    http = sqlite_client
    g, allied, german = _game(http)
    api = f"/api/v1/games/{g.id}"
    # The page names the phase at every step, each turn with its date; the score says what wins (12.1).
    board = http.get(f"{api}/counters", headers=g.attacker).json()
    assert board["steps"] == ["Movement phase", "Bombardment (end of the movement phase)", "Combat phase"]
    assert [t["label"] for t in board["track"]][:4] == [
        "9 April (Morning)",
        "9 April (Day)",
        "9 April (Evening)",
        "10 April (Morning)",
    ]
    sides = {s["side"]: s for s in http.get(f"{api}/score", headers=g.defender).json()["sides"]}
    assert sides["attacker"]["needed"] == 2 and sides["defender"]["needed"] is None
    advance_to(http, g, "combat")  # Zero Hour: turn 1 begins with the Allied combat phase (15.2)
    card = http.get(f"{api}/units/{allied}/acts", headers=g.attacker).json()
    attack = next(a for a in card["acts"] if a["resolver"] == "attack")
    assert "terrain" in attack["options"]
    # The card offers the book's five terrain lines by name, a default the players see and change.
    terrain = roll_options("vimy-ridge")["attack"]["terrain"]
    assert [terrain["labels"][v] for v in terrain["values"]] == LINES
    assert terrain["default"] in terrain["values"]
    # The odds before the die with the card's own fields: the default line, and each line offered.
    body: dict[str, Any] = {"unit_id": allied, "target_id": german, "fields": {"attackers": [allied]}}
    asked = http.post(f"{api}/ask/attack", headers=g.attacker, json=body)
    assert asked.status_code == 200, asked.text
    assert asked.json()["refused"] is None and asked.json()["odds_words"], asked.json()
    for value, line in zip(terrain["values"], LINES, strict=True):
        chosen = {**body, "fields": {**body["fields"], "terrain": value}}
        odds = http.post(f"{api}/ask/attack", headers=g.attacker, json=chosen).json()
        assert odds["resolution"]["line"] == line
        assert sum(odds["resolution"]["probabilities"].values()) == pytest.approx(1)
    # Clear, +2 (6 - 4): a die of 1 reads "D2" on its column.
    rolled = http.post(
        f"{api}/resolve/attack", headers=g.attacker, json={**body, "dice": [1], "fields": {**body["fields"]}}
    )
    assert rolled.status_code == 200, rolled.text
    assert rolled.json()["resolution"]["outcome_key"] == "D2"
    # The result applied by the counter's owner (the standard rules): the German seat retreats its counter from
    # its card (a retreat or an advance with the hex typed); the Allied seat may not.
    moves = [o for o in http.get(f"{api}/units/{german}/acts", headers=g.defender).json()["offers"]]
    offered = {o["label"]: o["values"] for o in moves if o["kind"] == "place" and o["refused"] is None}
    # D2 falls on the defender (crt-codes): a move of its own counter is its retreat (combat-phase-move).
    assert offered == {"Retreat": {"applied_result": "retreated"}, "Move to another hex": {}}
    version = next(u for u in http.get(f"{api}/units", headers=g.defender).json() if u["id"] == german)[
        "version"
    ]
    retreat = {"version": version, "hex": "1111", "applied_result": "retreated"}
    assert http.put(f"{api}/units/{german}", headers=g.attacker, json=retreat).status_code == 403
    applied = http.put(f"{api}/units/{german}", headers=g.defender, json=retreat)
    assert applied.status_code == 200, applied.text
    logged = http.get(f"{api}/events", headers=g.referee).json()
    last = logged["events"][-1] if isinstance(logged, dict) else logged[-1]
    assert last["actor"] == "defender", last
    # The Allied seat applies no step lost to its own counter: D2 falls on the defender alone.
    version = next(u for u in http.get(f"{api}/units", headers=g.attacker).json() if u["id"] == allied)[
        "version"
    ]
    lost = http.put(
        f"{api}/units/{allied}",
        headers=g.attacker,
        json={"version": version, "depleted": True, "applied_result": "depleted"},
    )
    assert lost.status_code == 409 and "D2" in lost.json()["detail"], lost.text


def test_a_counter_is_checked_at_the_door_and_a_refused_one_leaves_nothing_behind(
    sqlite_client: TestClient,
) -> None:
    http = sqlite_client
    g = new_game(http, {"name": "Vimy", "ruleset": "vimy-ridge"})
    api = f"/api/v1/games/{g.id}"

    def add(side: str, division: str, where: str, **more: Any) -> Any:
        state = {"hex": where, "division": division, "attack": 4, "defence": 3} | more
        body = {"side": side, "name": f"{division} {where}", "level": "counter", "state": state}
        return http.post(f"{api}/units", headers=g.referee, json=body)

    first = add("attacker", "1st Canadian", "0910")
    assert first.status_code == 201, first.text
    assert first.json()["unit"]["hex"] == "0910" and first.json()["unit"]["attack"] == 4
    refused = [
        add("attacker", "1st Canadian", "99999"),
        add("attacker", "1st Canadian", "\u00b9\u2075\u00b3\u2074"),  # superscript 1534
        add("attacker", "1st Canadian", "\u0661\u0665\u0663\u0664"),  # Arabic-Indic 1534
        add("attacker", "1st Canadian", "\uff11\uff15\uff13\uff14"),  # full-width 1534
        add("attacker", "1st Canadian", "0911", attack=999),
        add("attacker", "1st Canadian", "0911", attack_depleted=5),  # above its full attack of 4
        add("attacker", "2nd Canadian", "0910"),  # 20.2: one Allied unit per hex
        add("defender", "5th Guards", "1210"),  # 19.1 names three German divisions
    ]
    for r in refused:
        assert r.status_code in (409, 422), r.text
        sentence = r.json()["detail"]
        assert len(sentence) <= 120 and sentence.endswith("."), sentence
    assert [r.status_code for r in refused[-2:]] == [409, 409]
    assert "20.2" in refused[-2].json()["detail"] and "19.1" in refused[-1].json()["detail"]
    # Nothing of a refused counter is left behind.
    assert [u["hex"] for u in http.get(f"{api}/units", headers=g.referee).json()] == ["0910"]
    # A hex set by an edit is held to the same four ASCII digits, in one whole sentence.
    uid = first.json()["unit"]["id"]
    bad = http.put(
        f"{api}/units/{uid}",
        headers=g.referee,
        json={"version": first.json()["unit"]["version"], "hex": "99999"},
    )
    assert bad.status_code == 422 and bad.json()["detail"].endswith("such as 1534."), bad.text
