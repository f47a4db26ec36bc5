"""Vimy Ridge's seats tried as a hostile player would (issue 62's hostile pass): a combat's result is applied by
the counter's owner (the standard rules), once, only in the combat phase, never in set-up; a counter is added only
in set-up (a new one in play could stand on a key hex at once); the club's key-hex lists are as long as the
book prints them. The hex numbers and counters are a test's, not map facts."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.app.games.conftest import Game, advance_to, new_game, start_game
from tests.app.games.test_vimy_ridge import HEXES


def _counter(http: TestClient, g: Game, side: str, division: str, where: str) -> int:
    state = {"hex": where, "division": division, "attack": 6, "defence": 4}
    state |= {"attack_depleted": 3, "defence_depleted": 2}
    body = {"side": side, "name": f"{division} {where}", "level": "counter", "state": state}
    made = http.post(f"/api/v1/games/{g.id}/units", headers=g.referee, json=body)
    assert made.status_code == 201, made.text
    return int(made.json()["unit"]["id"])


def _edit(http: TestClient, g: Game, who: dict[str, str], uid: int, **values: Any) -> Any:
    units = http.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    version = next(u["version"] for u in units if u["id"] == uid)
    return http.put(f"/api/v1/games/{g.id}/units/{uid}", headers=who, json={"version": version, **values})


def _attack(http: TestClient, g: Game, attacker: int, defender: int) -> None:
    body = {"unit_id": attacker, "target_id": defender, "fields": {"attackers": [attacker]}, "dice": [1]}
    rolled = http.post(f"/api/v1/games/{g.id}/resolve/attack", headers=g.attacker, json=body)
    assert rolled.status_code == 200 and rolled.json()["resolution"]["outcome_key"] == "D2", rolled.text


def test_a_combat_result_is_applied_by_the_counter_s_owner_once(sqlite_client: TestClient) -> None:
    http = sqlite_client
    g = new_game(http, {"name": "Vimy", "ruleset": "vimy-ridge"})
    allied = _counter(http, g, "attacker", "1st Canadian", "0910")
    german = _counter(http, g, "defender", "79th Reserve", "1010")
    # In set-up, a "retreat" rewrote the other side's counter whole: its hex, name, division and strengths.
    zero = {"attack": 0, "defence": 0, "attack_depleted": 0, "defence_depleted": 0}
    forged = _edit(http, g, g.defender, allied, applied_result="retreated", hex="2001", name="Mine", **zero)
    assert forged.status_code == 403, forged.text
    moved = _edit(http, g, g.attacker, allied, applied_result="retreated", hex="0909")
    assert moved.status_code == 409 and "combat phase" in moved.json()["detail"], moved.text
    start_game(http, g)
    advance_to(http, g, "combat")
    _attack(http, g, allied, german)  # 6 against 4 on Clear, a die of 1: D2
    # The owner applies a result to his own counter, choosing how to take the loss (the standard rules): the
    # Allied seat chose the German counter's loss for it.
    taken = _edit(http, g, g.attacker, german, applied_result="depleted", depleted=True)
    assert taken.status_code == 403, taken.text
    applied = _edit(http, g, g.defender, german, applied_result="retreated", hex="1111")
    assert applied.status_code == 200, applied.text
    # One result applied once: D2 was a retreat, and then a step lost besides on the same result.
    lost = _edit(http, g, g.defender, german, applied_result="depleted", depleted=True)
    assert lost.status_code == 409 and "already" in lost.json()["detail"], lost.text
    units = {u["id"]: u for u in http.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()}
    assert (units[german]["depleted"], units[german]["hex"]) == (False, "1111")


def test_a_player_adds_no_counter_once_play_has_started(sqlite_client: TestClient) -> None:
    http = sqlite_client
    g = new_game(http, {"name": "Vimy", "ruleset": "vimy-ridge"})
    api = f"/api/v1/games/{g.id}"
    version = http.get(f"{api}/turn", headers=g.referee).json()["version"]
    assert http.patch(api, headers=g.referee, json={"version": version, "club": HEXES}).status_code == 200
    start_game(http, g)
    # A fresh 99-99 counter typed onto a Vimy town hex mid-game, by a player's own seat.
    state = {"hex": HEXES["vimy_town"][0], "division": "1st Canadian", "attack": 99, "defence": 99}
    body = {"side": "attacker", "name": "Forged", "level": "counter", "state": state}
    added = http.post(f"{api}/units", headers=g.attacker, json=body)
    assert added.status_code == 409 and "11.3" in added.json()["detail"], added.text
    assert http.get(f"{api}/units", headers=g.referee).json() == []


def test_the_club_s_key_hex_lists_are_as_long_as_the_book_prints(sqlite_client: TestClient) -> None:
    http = sqlite_client
    g = new_game(http, {"name": "Vimy", "ruleset": "vimy-ridge"})
    api = f"/api/v1/games/{g.id}"
    version = http.get(f"{api}/turn", headers=g.referee).json()["version"]
    # 13 different peaks, repeated to 200,000 entries (1.6 MB), were stored and read by every tally.
    for key in ("peaks", "vimy_town", "petit_vimy_town"):
        padded = {**HEXES, key: HEXES[key] * (200_000 // len(HEXES[key]))}
        r = http.patch(api, headers=g.referee, json={"version": version, "club": padded})
        assert r.status_code == 422 and r.json()["field"].startswith(f"club.{key}"), r.text[:300]


def test_a_combat_result_is_applied_only_to_a_counter_in_this_phase_s_attack(
    sqlite_client: TestClient,
) -> None:
    http = sqlite_client
    g = new_game(http, {"name": "Vimy", "ruleset": "vimy-ridge"})
    allied = _counter(http, g, "attacker", "1st Canadian", "0910")
    german = _counter(http, g, "defender", "79th Reserve", "1010")
    other = _counter(http, g, "defender", "79th Reserve", "1810")
    start_game(http, g)
    advance_to(http, g, "combat")
    # No attack rolled: the German seat eliminates its own counter far from any Allied one.
    r = _edit(http, g, g.defender, other, applied_result="eliminated", eliminated=True)
    assert r.status_code == 409 and "no attack rolled" in r.json()["detail"], r.text
    # Once rolled (D2), only on its counters and only as it reads: the defender's loss, not the attacker's.
    _attack(http, g, allied, german)
    r = _edit(http, g, g.defender, other, applied_result="eliminated", eliminated=True)
    assert r.status_code == 409, r.text
    r = _edit(http, g, g.attacker, allied, applied_result="eliminated", eliminated=True)
    assert r.status_code == 409 and "D2" in r.json()["detail"], r.text
    r = _edit(http, g, g.defender, german, applied_result="eliminated", eliminated=True)
    assert r.status_code == 200, r.text


def test_a_die_the_game_rolled_is_not_a_player_s_to_take_back(sqlite_client: TestClient) -> None:
    http = sqlite_client
    g = new_game(http, {"name": "Vimy", "ruleset": "vimy-ridge"})
    allied = _counter(http, g, "attacker", "1st Canadian", "0910")
    german = _counter(http, g, "defender", "79th Reserve", "1010")
    start_game(http, g)
    advance_to(http, g, "combat")
    # The hostile pass: the Allied seat undid the server's roll and rolled again until a D result came up.
    body = {"unit_id": allied, "target_id": german, "fields": {"attackers": [allied]}}
    rolled = http.post(f"/api/v1/games/{g.id}/resolve/attack", headers=g.attacker, json=body)
    assert rolled.status_code == 200 and rolled.json()["resolution"]["rolled_by_server"], rolled.text
    undo = f"/api/v1/games/{g.id}/events/{rolled.json()['event_id']}/undo"
    taken = http.post(undo, headers=g.attacker)
    assert taken.status_code == 403 and "referee" in taken.json()["detail"], taken.text
    # Nor is the same attack rolled again (a counter attacks once a combat phase).
    again = http.post(f"/api/v1/games/{g.id}/resolve/attack", headers=g.attacker, json=body)
    assert again.status_code == 409 and "once" in again.json()["detail"], again.text
    assert http.post(undo, headers=g.referee).status_code == 200
