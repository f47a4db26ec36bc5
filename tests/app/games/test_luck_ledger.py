"""The luck ledger of the after-action report (issue 26): rolls made with known dice on the Mons game through
the API, on SQLite and PostgreSQL; the finished game's ledger keeps the odds each resolve answer showed."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from fastapi.testclient import TestClient

from app.services import ledger
from tests.app.games.conftest import Game, new_game, start_game, units_by_ref, unpacked

GB = "mons-1914/gb/infantry-brigade-1"
BN1 = f"{GB}/infantry-battalion-1"
DE_BN1 = "mons-1914/de/infantry-regiment-1/infantry-battalion-1"


def _advance(c: TestClient, g: Game, who: dict[str, str]) -> None:
    version = c.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["version"]
    r = c.post(f"/api/v1/games/{g.id}/turn/advance", headers=who, json={"version": version})
    assert r.status_code == 200, r.text


def _resolve(
    c: TestClient, g: Game, who: dict[str, str], resolver: str, body: dict[str, Any]
) -> dict[str, Any]:
    r = c.post(f"/api/v1/games/{g.id}/resolve/{resolver}", headers=who, json=body)
    assert r.status_code == 200, r.text
    return dict(r.json())


def _play(c: TestClient, g: Game) -> dict[str, tuple[str, dict[str, Any]]]:
    """A few rolls with known dice by both sides, then the referee ends the game. The answers by event id,
    with the side that rolled."""
    units = units_by_ref(c, g)
    unpacked(c, g, units[f"{DE_BN1}/mmg-company-1/mmg-1"]["id"])
    start_game(c, g)
    _advance(c, g, g.attacker)  # to the battalion orders
    co1 = units[f"{DE_BN1}/rifle-company-1"]
    mg = units[f"{DE_BN1}/mmg-company-1/mmg-1"]
    # The British platoon farthest forward, with the MG 30 cm in front of it: the nearest troops, as an MG's
    # first target must be (issue 37).
    british = [u for r, u in units.items() if r.startswith(f"{BN1}/rifle-company-") and u["y"] is not None]
    target = min(british, key=lambda u: u["y"])
    answers = [("attacker", _resolve(c, g, g.attacker, "order-roll", {"unit_id": co1["id"], "dice": [6]}))]
    answers.append(("attacker", _resolve(c, g, g.attacker, "order-roll", {"unit_id": mg["id"], "dice": [3]})))
    ahead = {"x": target["x"], "y": target["y"] - 30, "facing_deg": 90}
    c.post(f"/api/v1/games/{g.id}/units/{mg['id']}/move", headers=g.attacker, json=ahead)
    aimed = {"unit_id": mg["id"], "target_id": target["id"]}
    asked = c.post(f"/api/v1/games/{g.id}/ask/shooting", headers=g.attacker, json=aimed).json()
    behind = [1] * len(asked["resolution"].get("also", []))  # its beaten zone's stands: a 1 does nothing
    # A miss rolled but not applied (a shot applied spends an action, whatever it does), then a hit.
    for die, apply in ((1, False), (6, True)):
        shot = {**aimed, "dice": [die, *behind], "apply": apply}
        answers.append(("attacker", _resolve(c, g, g.attacker, "shooting", shot)))
    for _ in range(2):
        _advance(c, g, g.attacker)
    _advance(c, g, g.defender)  # the British battalion orders
    hero = units[f"{GB}/infantry-battalion-2/rifle-company-1/rifle-platoon-1"]
    answers.append(
        ("defender", _resolve(c, g, g.defender, "heroic-action", {"unit_id": hero["id"], "dice": [2]}))
    )
    version = c.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["version"]
    assert (
        c.post(f"/api/v1/games/{g.id}/finish", headers=g.referee, json={"version": version}).status_code
        == 200
    )
    return {a["event_id"]: (side, a) for side, a in answers}


def test_the_ledger_keeps_the_odds_each_roll_was_shown(client: TestClient, mons: Game) -> None:
    answers = _play(client, mons)
    for who in (mons.referee, mons.attacker, mons.defender):
        got = client.get(f"/api/v1/games/{mons.id}/report", headers=who).json()["ledger"]
        rolls = {r["event_id"]: (side, r) for side, s in got["sides"].items() for r in s["rolls"]}
        assert set(rolls) == set(answers)
        for event_id, (side, answer) in answers.items():
            res = answer["resolution"]
            roll_side, roll = rolls[event_id]
            assert roll_side == side and roll["outcome_key"] == res["outcome_key"]
            assert roll["probabilities_exact"] == res["probabilities_exact"]
            assert roll["probability"] == res["probabilities_exact"][res["outcome_key"]]
        # Expected against actual: the shots' chances added up, and the outcomes counted, from the answers.
        shots = [a["resolution"] for s, a in answers.values() if a["resolution"]["resolver"] == "shooting"]
        table = next(
            r for r in got["sides"]["attacker"]["expected_against_actual"] if r["resolver"] == "shooting"
        )
        assert table["rolls"] == 2
        for row in table["outcomes"]:
            expected = sum(Fraction(s["probabilities_exact"][row["outcome_key"]]) for s in shots)
            assert Fraction(row["expected"]) == expected
            assert row["actual"] == sum(s["outcome_key"] == row["outcome_key"] for s in shots)


def test_a_roll_logged_without_its_odds_says_so() -> None:
    old = {
        "id": 3,
        "turn": 1,
        "kind": "roll",
        "actor": "attacker",
        "side": "attacker",
        "payload": {
            "resolver": "shooting",
            "unit_id": 7,
            "resolution": {"dice": [4], "outcome_key": "suppressed"},
            "changes": [{"unit": 9, "field": "suppression", "before": 0, "after": 1}],
        },
    }
    got = ledger.ledger([old], {7: "attacker", 9: "defender"}, {7: "MMG 1"}, set())
    (roll,) = got["sides"]["attacker"]["rolls"]
    assert roll["odds"] == ledger.NOT_RECORDED and roll["probability"] is None
    assert roll["rolled_by"] == "players"
    assert got["sides"]["attacker"]["expected_against_actual"] == []
    # Undone, it is not in the ledger at all.
    assert ledger.ledger([old], {7: "attacker"}, {}, {3})["sides"]["attacker"]["rolls"] == []


def test_a_planned_bombardments_roll_is_the_planners() -> None:
    # The arrival is logged by the system in the other side's turn: the roll is the side whose plan arrived.
    arrival = {
        "id": 1,
        "turn": 2,
        "kind": "fire-plan-arrival",
        "actor": "system",
        "side": "attacker",
        "payload": {"item": {"side": "defender", "kind": "bombardment"}},
    }
    roll = {
        "id": 2,
        "turn": 2,
        "kind": "arrival-roll",
        "actor": "system",
        "side": "attacker",
        "payload": {
            "resolver": "deep-suppression",
            "changes": [],
            "resolution": {
                "dice": [3],
                "outcome_key": "x",
                "probabilities_exact": {"x": "1/2", "y": "1/2"},
                "rolled_by_server": True,
            },
        },
    }
    got = ledger.ledger([arrival, roll], {}, {}, set())["sides"]
    assert [r["event_id"] for r in got["defender"]["rolls"]] == [2] and got["attacker"]["rolls"] == []
    # firestep rolled it (issue 69: the ledger says whose dice), where the roll above was the players' own.
    assert got["defender"]["rolls"][0]["rolled_by"] == "firestep"
    assert got["defender"]["expected_against_actual"][0]["outcomes"] == [
        {"outcome_key": "x", "expected": "1/2", "expected_approx": 0.5, "actual": 1},
        {"outcome_key": "y", "expected": "1/2", "expected_approx": 0.5, "actual": 0},
    ]


def test_a_card_draw_gives_its_odds_to_the_referee_alone(client: TestClient) -> None:
    # The odds over the pack would tell a side the cards left in it, so the opponent's hand.
    g = new_game(
        client, {"name": "Cards", "period": "mid", "attacker_nation": "german", "defender_nation": "british"}
    )
    start_game(client, g)
    drawn = _resolve(client, g, g.referee, "random-event", {"dice": [13]})  # the attacker's draw
    res = drawn["resolution"]
    for who, shown in ((g.referee, True), (g.attacker, False), (g.defender, False)):
        got = client.get(f"/api/v1/games/{g.id}/report", headers=who).json()["ledger"]
        (roll,) = [r for s in got["sides"].values() for r in s["rolls"] if r["event_id"] == drawn["event_id"]]
        if shown:
            assert roll["probabilities_exact"] == res["probabilities_exact"]
        else:
            assert (roll["probability"], roll["probabilities_exact"], roll["odds"]) == (
                None,
                None,
                ledger.NOT_SHOWN,
            )
