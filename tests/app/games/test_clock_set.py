"""The clock the referee sets (issue 64) over the API: each side's limits in seconds, set and changed as one
logged act and undone in one; and the rules tournaments add, as settings of the clock: a player stops it for a
dispute (only the referee restarts it), a side out of time finishes the act under way and then acts no more,
and the game ends as a turn starts with both sides under the set time.

Time is made to have passed by logging the game's events earlier (`played_ago`), so no test waits for it."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.app.games.conftest import Game, new_game, played_ago, start_game, units_by_ref


def clock(client: TestClient, g: Game) -> dict[str, Any]:
    r = client.get(f"/api/v1/games/{g.id}/clock", headers=g.referee)
    assert r.status_code == 200, r.text
    return dict(r.json())


def advance(client: TestClient, g: Game, who: dict[str, str]) -> dict[str, Any]:
    v = client.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["version"]
    r = client.post(f"/api/v1/games/{g.id}/turn/advance", headers=who, json={"version": v})
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_the_referee_sets_each_sides_limits_in_seconds_and_undoes_them_in_one(
    sqlite_client: TestClient,
) -> None:
    client = sqlite_client
    g = new_game(client, {"scenario": "mons-1914", "clock": {"game_minutes": 120}})
    url = f"/api/v1/games/{g.id}/clock/limits"
    body = {"game_seconds": {"attacker": 5400, "defender": 4530}, "turn_seconds": {"defender": 45}}
    assert client.put(url, headers=g.attacker, json=body).status_code == 403
    r = client.put(url, headers=g.referee, json=body)
    assert r.status_code == 200, r.text
    limits = r.json()["limits"]
    assert limits["game_seconds"] == {"attacker": 5400, "defender": 4530}
    assert limits["turn_seconds"] == {"attacker": None, "defender": 45}
    defender = next(s for s in r.json()["sides"] if s["side"] == "defender")
    assert defender["remaining_seconds"] == 4530 and defender["turn_remaining_seconds"] == 45

    events = client.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json()
    logged = next(e for e in reversed(events) if e["kind"] == "clock-limits-set")
    undo = f"/api/v1/games/{g.id}/events/{logged['id']}/undo"
    assert client.post(undo, headers=g.attacker).status_code == 403  # not a player's act to take back
    assert client.post(undo, headers=g.referee).status_code == 200
    after = clock(client, g)["limits"]  # the limits chosen as the game was created hold again
    assert after["game_seconds"] == {"attacker": 7200, "defender": 7200}
    assert after["turn_seconds"] == {"attacker": None, "defender": None}


def test_a_player_stops_the_clock_for_a_dispute_only_where_the_settings_allow_it(
    sqlite_client: TestClient,
) -> None:
    client = sqlite_client
    plain = new_game(client)
    start_game(client, plain)
    assert client.post(f"/api/v1/games/{plain.id}/clock/dispute", headers=plain.defender).status_code == 403

    g = new_game(client, {"scenario": "mons-1914", "clock": {"dispute_pause": True}})
    start_game(client, g)
    r = client.post(f"/api/v1/games/{g.id}/clock/dispute", headers=g.defender)
    assert r.status_code == 200 and r.json()["paused"] and r.json()["dispute"], r.text
    assert client.post(f"/api/v1/games/{g.id}/clock/resume", headers=g.defender).status_code == 403
    assert client.post(f"/api/v1/games/{g.id}/clock/pause", headers=g.attacker).status_code == 403
    r = client.post(f"/api/v1/games/{g.id}/clock/resume", headers=g.referee)
    assert r.status_code == 200 and not r.json()["paused"] and not r.json()["dispute"]
    story = client.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json()
    assert any(e["kind"] == "clock-paused" and e["payload"].get("by") == "defender" for e in story)


@pytest.mark.storage  # the acts logged since the side ran out, compared in each backend's times
def test_a_side_out_of_time_finishes_the_act_under_way_then_acts_no_more(client: TestClient) -> None:
    g = new_game(
        client, {"scenario": "mons-1914", "clock": {"game_seconds": {"attacker": 60}, "finish_act": True}}
    )
    units = units_by_ref(client, g)
    start_game(client, g)
    advance(client, g, g.attacker)  # on to the battalion orders
    companies = [u for u in units.values() if u["side"] == "attacker" and u["level"] == "company"]
    played_ago(client, g, 120)  # the attacker's minute ran out a minute ago
    assert clock(client, g)["out_of_time"] == ["attacker"]

    order = f"/api/v1/games/{g.id}/resolve/order-roll"
    first = client.post(order, headers=g.attacker, json={"unit_id": companies[0]["id"], "dice": [6]})
    assert first.status_code == 200, first.text  # the act under way, finished
    second = client.post(order, headers=g.attacker, json={"unit_id": companies[1]["id"], "dice": [6]})
    assert second.status_code == 409, second.text
    assert second.json()["source"] == "firestep: the game clock" and "out of time" in second.json()["detail"]
    version = client.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["version"]
    moved_on = client.post(
        f"/api/v1/games/{g.id}/turn/advance", headers=g.attacker, json={"version": version}
    )
    assert moved_on.status_code == 409, moved_on.text  # nor moves the game on (hostile pass: it did, 200)

    given = client.post(
        f"/api/v1/games/{g.id}/clock/give", headers=g.referee, json={"side": "attacker", "seconds": 600}
    )
    assert given.status_code == 200 and given.json()["out_of_time"] == [], given.text
    again = client.post(order, headers=g.attacker, json={"unit_id": companies[1]["id"], "dice": [6]})
    assert again.status_code == 200, again.text


def test_the_game_ends_as_a_turn_starts_with_both_sides_under_the_set_time(sqlite_client: TestClient) -> None:
    client = sqlite_client
    ten = {"attacker": 600, "defender": 600}
    g = new_game(client, {"scenario": "mons-1914", "clock": {"game_seconds": ten, "end_under_seconds": 300}})
    start_game(client, g)
    played_ago(client, g, 400)  # the attacker has 200 s left, the defender all its 600
    turn = advance(client, g, g.referee)["turn"]
    while turn["side_to_move"] == "attacker":
        turn = advance(client, g, g.referee)["turn"]
    assert turn["status"] == "playing"  # the defender's turn starts: only the attacker is under 5 min
    played_ago(client, g, 400)  # the defender's turn has taken 400 s: 200 s left
    while turn["status"] == "playing" and turn["turn"] == 1:
        turn = advance(client, g, g.referee)["turn"]
    assert turn["status"] == "finished" and turn["turn"] == 1
    events = client.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json()
    assert events[-1]["kind"] == "game-finished" and events[-1]["payload"]["reason"] == "clock"
    result = client.get(f"/api/v1/games/{g.id}/result", headers=g.referee).json()
    assert result["ended_by"] == "clock" and "ended by the clock" in result["words"]


def test_the_clocks_end_waits_for_the_call_on_a_contested_objective(sqlite_client: TestClient) -> None:
    # Hostile pass (issue 64: no uncalled objective): the game the clock's settings end as a turn starts waits,
    # as its last turn's end does, for the referee's call on an objective contested with no call; it ended
    # "by the clock" with Bridge 1 settled by the stands' chance ("contested at the end") before.
    from tests.app.games.test_play_to_a_result import a_stand, move, objective, score

    client = sqlite_client
    ten = {"attacker": 600, "defender": 600}
    g = new_game(client, {"scenario": "mons-1914", "clock": {"game_seconds": ten, "end_under_seconds": 300}})
    start_game(client, g)
    move(client, g, a_stand(client, g, "attacker", "infantry-platoon"), 40.0, 120.0, 90.0)  # onto bridge 1
    move(client, g, a_stand(client, g, "defender", "infantry-platoon"), 40.0, 123.5, 270.0)  # at its edge
    assert objective(score(client, g), "bridge-1")["settled"] == "contested"
    played_ago(client, g, 400)  # the attacker has 200 s left
    turn = advance(client, g, g.referee)["turn"]
    while turn["side_to_move"] == "attacker":
        turn = advance(client, g, g.referee)["turn"]
    played_ago(client, g, 400)  # and the defender: the next turn's start ends the game
    while turn["next"]["action"] == "advance":
        turn = advance(client, g, g.referee)["turn"]
    assert turn["next"]["action"] == "end-turn" and turn["turn"] == 1  # the defender's turn's last step
    assert turn["next"]["needs"] == ["the referee's call on Bridge 1 (contested)"]
    r = client.post(
        f"/api/v1/games/{g.id}/turn/advance", headers=g.referee, json={"version": turn["version"]}
    )
    assert (r.status_code, r.json().get("detail")) == (
        409,
        "Bridge 1 is contested: the referee calls it before the game ends.",
    )
    call = {"objective_id": "bridge-1", "side": "defender"}
    assert client.post(f"/api/v1/games/{g.id}/score/calls", headers=g.referee, json=call).is_success
    turn = advance(client, g, g.attacker if turn["side_to_move"] == "attacker" else g.defender)["turn"]
    assert turn["status"] == "finished"
    result = client.get(f"/api/v1/games/{g.id}/result", headers=g.referee).json()
    assert result["ended_by"] == "clock"
    assert objective(result, "bridge-1")["settled"] == "called"


@pytest.mark.storage  # the acts logged since the side ran out, compared in each backend's times
def test_a_side_out_of_its_turns_time_acts_once_then_its_card_offers_nothing(client: TestClient) -> None:
    # Issue 64's newcomer pass: the attacker's turn clock over (-1:49), its card still offered the order roll and
    # firestep's roll was taken: the act under way. The second is refused and the card offers no act, with why.
    g = new_game(
        client, {"scenario": "mons-1914", "clock": {"turn_seconds": {"attacker": 60}, "finish_act": True}}
    )
    units = units_by_ref(client, g)
    start_game(client, g)
    advance(client, g, g.attacker)  # on to the battalion orders
    companies = [u for u in units.values() if u["side"] == "attacker" and u["level"] == "company"]
    played_ago(client, g, 169)  # the attacker's turn minute ran out 1:49 ago
    assert clock(client, g)["out_of_time"] == ["attacker"]
    order = f"/api/v1/games/{g.id}/resolve/order-roll"
    first = client.post(order, headers=g.attacker, json={"unit_id": companies[0]["id"]})  # firestep rolls
    assert first.status_code == 200, first.text
    card = client.get(f"/api/v1/games/{g.id}/units/{companies[1]['id']}/acts", headers=g.attacker).json()
    assert card["acts"] == [] and card["edits"] == [], card
    assert card["refused"]["source"] == "firestep: the game clock", card["refused"]
    second = client.post(order, headers=g.attacker, json={"unit_id": companies[1]["id"]})
    assert second.status_code == 409 and "out of time" in second.json()["detail"], second.text
