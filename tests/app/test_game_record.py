"""The log read as a game record: the side, the unit's unambiguous name, the change and the roll, the turn;
Undo offered only where app.services.undo accepts it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient

from app.pages.game_record import Record
from app.services.unit_names import display_names
from rules.registry import get_game_rules
from tests.app.games.conftest import new_game, start_game


def test_marker_move_roll_and_turn_read_like_a_game_record(client: TestClient) -> None:
    game = new_game(client)
    start_game(client, game)
    units = [
        SimpleNamespace(**u, pk=u["id"])
        for u in client.get(f"/api/v1/games/{game.id}/units", headers=game.referee).json()
    ]
    names = display_names(units)
    by_ref = {u.ref: u for u in units}
    platoon = by_ref["mons-1914/gb/infantry-brigade-1/infantry-battalion-1/rifle-company-2/rifle-platoon-3"]
    r = client.post(
        f"/api/v1/games/{game.id}/units/{platoon.id}/markers",
        headers=game.attacker,
        json={"delta": 1, "fire": "mg"},
    )
    assert r.status_code == 200, r.text
    mover = by_ref["mons-1914/de/infantry-regiment-1/infantry-battalion-1/rifle-company-1/rifle-platoon-1"]
    r = client.post(
        f"/api/v1/games/{game.id}/units/{mover.id}/move",
        headers=game.referee,
        json={"x": mover.x + 3, "y": mover.y + 4, "override": True},
    )
    assert r.status_code == 200, r.text
    company = by_ref["mons-1914/de/infantry-regiment-1/infantry-battalion-1/rifle-company-2"]
    r = client.post(
        f"/api/v1/games/{game.id}/resolve/order-roll",
        headers=game.referee,
        json={"unit_id": company.id, "dice": [5], "override": True},  # in the support orders
    )
    assert r.status_code == 200, r.text
    events: list[dict[str, Any]] = client.get(f"/api/v1/games/{game.id}/events", headers=game.referee).json()
    record = Record(names, {u.id: u for u in units}, get_game_rules("flanders-fields"))
    lines = {e["kind"]: record.entry(e).line for e in events}
    # MG fire suppresses the whole company: the target by name, the rest counted.
    assert lines["marker"] == (
        "Defender · 1/2 Coy Plt 3 · +1 suppression; 3 more stands +1 suppression (MG fire) · by attacker · turn 1"
    )
    assert lines["move"] == "Attacker · 1/1/1 Coy Plt 1 · moved 5 cm · by referee · turn 1"
    assert (
        lines["roll"]
        == "Attacker · 1/1/2 Coy · Order roll: the players rolled 5 → actions 2 · actions left 2 · by referee · turn 1"
    )
    assert lines["turn-started"] == "System · Turn begins · turn 1"


def test_a_company_moved_as_one_counts_its_stands_without_more() -> None:
    # A company's move changes its stands, none of its own: "3 more stands moved 5 cm" counted more than what
    # (this stop's newcomer pass, on the card's Undo).
    record = Record({}, {}, get_game_rules("flanders-fields"))
    moved = [
        {"unit": uid, "field": field, "before": at, "after": at + 3 + 1 * (field == "y")}
        for uid in (2, 3, 4)
        for field, at in (("x", 10.0), ("y", 20.0))
    ]
    assert record.changes(moved, main=1) == "3 stands moved 5 cm"
    assert record.changes([*moved, {"unit": 1, "field": "x", "before": 0.0, "after": 5.0}], main=1) == (
        "moved 5 cm; 3 more stands moved 5 cm"
    )


def test_undo_is_offered_where_the_undo_rules_accept_it() -> None:
    marker = {"id": 10, "kind": "marker", "actor": "attacker", "reverses_id": None}
    roll = {"id": 9, "kind": "roll", "actor": "attacker", "reverses_id": None}
    may = Record.may_undo
    assert may(marker, "attacker", set(), 9, "playing")
    assert not may(marker, "defender", set(), 9, "playing")  # not their own
    assert not may(marker, "attacker", set(), 11, "playing")  # before the last die roll
    assert not may(marker, "attacker", {10}, 9, "playing")  # already undone
    assert not may(marker, "attacker", set(), 9, "finished")
    assert not may(roll, "attacker", set(), 9, "playing")  # a roll is the referee's call
    assert may(roll, "referee", set(), 9, "playing")
    assert not may(marker, "referee", set(), 9, "finished")  # after the end nothing is undone (issue 64)
    assert not may(
        {"id": 11, "kind": "undo", "actor": "referee", "reverses_id": 10}, "referee", set(), 0, "playing"
    )


def test_a_value_given_over_the_tables_reads_as_the_players_claim() -> None:
    # Issue 52: a shot on a range by the tape reads as the claim it is on the record's line.
    mg = SimpleNamespace(pk=1, parent_id=None, side="attacker", name="MG", kind="mmg", level="stand")
    why = "by the tape: 5 cm; the map measures 199 cm"
    payload = {
        "resolver": "shooting",
        "unit_id": 1,
        "target_id": 2,
        "resolution": {"dice": [4], "outcome_key": "suppressed"},
        "filled": [{"field": "range_cm", "value": 5, "why": why, "given": True, "table": 199.0}],
        "changes": [],
    }
    event = {"id": 9, "turn": 2, "kind": "roll", "actor": "attacker", "payload": payload}
    record = Record({1: "1/1 MG"}, {1: mg}, get_game_rules("flanders-fields"))
    assert (
        record.entry(event).line
        == f"Attacker · 1/1 MG · Shooting: the players rolled 4 → suppressed ({why}) · turn 2"
    )


def test_a_roll_says_whose_dice_and_a_count_as_counted() -> None:
    # Issue 69: the log says which rolls firestep rolled, and a roll entered as a count says the count.
    mg = SimpleNamespace(pk=1, parent_id=None, side="attacker", name="MG", kind="mmg", level="stand")
    record = Record({1: "1/1 MG"}, {1: mg}, get_game_rules("flanders-fields"))

    def line(resolution: dict[str, Any]) -> str:
        payload = {"resolver": "shoot", "unit_id": 1, "resolution": resolution, "changes": []}
        return record.entry(
            {"id": 9, "turn": 2, "kind": "roll", "actor": "attacker", "payload": payload}
        ).line

    assert "Shoot: firestep rolled 4 → suppressed" in line(
        {"dice": [4], "outcome_key": "suppressed", "rolled_by_server": True}
    )
    count = {"dice": 3, "reached": 2, "reach": 4, "odds": "3/8"}
    said = line({"dice": [4, 4, 3], "outcome_key": "2 hits", "rolled_by_server": False, "count": count})
    assert "Shoot: the players rolled 2 of 3 dice reaching 4+ → 2 hits" in said, said
    # Issue 89: a bonus's die lifted to the number, as the count says it.
    lifted = {**count, "reached": 1, "lifted": True, "lift": 3}
    said = line({"dice": [4, 3, 1], "outcome_key": "2 hits", "rolled_by_server": False, "count": lifted})
    assert (
        "Shoot: the players rolled 1 of 3 dice reaching 4+, another lifted to it by the bonus → 2 hits"
        in said
    )
    # And the dice reaching it rolled again (a shot at a vehicle): how many reached it again.
    again = {**count, "again": 1}
    said = line(
        {"dice": [4, 4, 3, 5, 1, 1], "outcome_key": "1 hit", "rolled_by_server": False, "count": again}
    )
    assert "Shoot: the players rolled 2 of 3 dice reaching 4+, 1 of them again → 1 hit" in said, said


def test_an_arrived_items_dice_are_each_marked_as_the_players_or_firesteps() -> None:
    # Issue 89: a card's dice given at the table and the rest rolled by firestep, each said as whose they are.
    record = Record({}, {}, get_game_rules("flanders-fields"))

    def rolled(dice: list[int], by_server: bool) -> dict[str, Any]:
        return {"unit_id": None, "resolver": "r", "resolution": {"dice": dice, "rolled_by_server": by_server}}

    payload = {"effect": "1 turn of fire", "rolls": [rolled([4], False), rolled([2, 6], True)], "changes": []}
    line = record.entry(
        {"id": 9, "turn": 2, "kind": "arrival-fire", "actor": "attacker", "payload": payload}
    ).line
    assert "1 turn of fire" in line and "the players rolled 4; firestep rolled 2, 6" in line, line


def test_a_melee_is_logged_as_the_melee_the_player_made() -> None:
    # The newcomer pass: 2mm's melee (its shooting resolver, the m side of Arming) was logged "Shoot".
    stand = SimpleNamespace(pk=1, parent_id=None, side="attacker", name="A", kind="line-inf", level="stand")
    record = Record({1: "A Coy Plt 1"}, {1: stand}, get_game_rules("2mm-earth-1418"))
    for melee, said in (
        (True, "Melee: the players rolled 3, 5 → 2 hits"),
        (False, "Shoot: the players rolled 3, 5 → 2 hits"),
    ):
        payload = {
            "resolver": "shoot",
            "unit_id": 1,
            "request": {"melee": melee},
            "resolution": {"dice": [3, 5], "outcome_key": "2 hits"},
            "changes": [],
        }
        event = {"id": 9, "turn": 2, "kind": "roll", "actor": "attacker", "payload": payload}
        assert said in record.entry(event).line, record.entry(event).line


def test_a_game_ended_on_a_victory_condition_says_which() -> None:
    # The newcomer pass: the referee's end on victory condition 1 read "Referee · Game over · turn 3".
    record = Record({}, {}, get_game_rules("flanders-fields"))
    payload = {"reason": "condition", "condition": 1, "turn": 3}
    event = {"id": 9, "turn": 3, "kind": "game-finished", "actor": "referee", "payload": payload}
    assert record.entry(event).line == "Referee · Game over: ended on victory condition 1 · turn 3"


def test_an_action_spent_reads_as_spent_with_what_is_left() -> None:
    # Issue 64: an unpack that spends an action read "unpacked, -1 actions left".
    mg = SimpleNamespace(pk=1, parent_id=None, side="attacker", name="MG", kind="mmg", level="stand")
    changes = [
        {"unit": 1, "field": "packed", "before": True, "after": False},
        {"unit": 1, "field": "actions_left", "delta": -1, "after": 1},
    ]
    event = {
        "id": 9,
        "turn": 2,
        "kind": "unit-update",
        "actor": "attacker",
        "payload": {"unit_id": 1, "changes": changes},
    }
    record = Record({1: "1/1 MG"}, {1: mg}, get_game_rules("flanders-fields"))
    assert (
        record.entry(event).line
        == "Attacker · 1/1 MG · Unit update: unpacked, 1 action spent, 1 left · turn 2"
    )
