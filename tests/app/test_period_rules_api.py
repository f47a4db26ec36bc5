"""Over HTTP, every resolver and dataset keeps the rules of its period and turn: 422 naming the rule.

Flanders Fields: the 1914 to mid 1915 playsheet's order sequence opens "1 SUPPORT ORDERS - DIVISION/REGIMENT/
BRIGADE", with no "1 ROLL D6 FOR DEEP SUPPRESSION (DS) FACTOR" and no "2 ROLLING BARRAGES - ADVANCE AND ROLL
EFFECTS" as the mid and late playsheets have. Firestorm: "The German player is automatically the attacker in
all four battles" (turn 1); "At the end of turn 2 all tank Firestorm Troops that remain in play from both
sides are removed."
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

FF = "/api/v1/rulesets/flanders-fields"
FIRESTORM = "/api/v1/rulesets/firestorm-villers-bretonneux"


def refused(client: TestClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    r = client.post(path, json=body)
    assert r.status_code == 422, r.text
    [error] = r.json()["errors"]
    return dict(error)


@pytest.mark.parametrize(
    ("resolver_id", "body"),
    [
        ("artillery-action", {"deep_suppression": 1, "dice": [6]}),
        ("sos", {"deep_suppression": 2, "dice": [3]}),
        ("order-roll", {"unit": "regimental-artillery", "deep_suppression": 1, "dice": [5]}),
    ],
)
def test_deep_suppression_penalty_before_mid_1915(
    reading_client: TestClient, resolver_id: str, body: dict[str, Any]
) -> None:
    error = refused(reading_client, f"{FF}/{resolver_id}", {"period": "early", **body})
    assert error["loc"] == ["body", "deep_suppression"] and error["allowed"] == [0]
    assert "Deep Suppression" in error["msg"] and "early" in error["msg"]
    assert reading_client.post(f"{FF}/{resolver_id}", json={"period": "mid", **body}).status_code == 200


@pytest.mark.parametrize(
    ("resolver_id", "body", "rule"),
    [
        ("deep-suppression", {"dice": [6]}, "Deep Suppression"),
        ("rolling-barrage", {"cover": "medium", "dice": [4]}, "Rolling barrages"),
        ("barrage-duration", {"dice": [3]}, "Rolling barrages"),
        ("barrage-danger", {"distance_cm": 3, "dice": [5, 4]}, "Rolling barrages"),
    ],
)
def test_steps_the_early_playsheet_does_not_have(
    reading_client: TestClient, resolver_id: str, body: dict[str, Any], rule: str
) -> None:
    error = refused(reading_client, f"{FF}/{resolver_id}", {"period": "early", **body})
    assert error["loc"] == ["body", "period"] and error["allowed"] == ["mid", "late"]
    assert error["msg"].startswith(f"{rule}: not in the early period")
    for period in ("mid", "late"):
        assert reading_client.post(f"{FF}/{resolver_id}", json={"period": period, **body}).status_code == 200


def test_early_artillery_action_dataset_is_what_the_resolver_applies(reading_client: TestClient) -> None:
    # Early playsheet: "ARTILLERY WITH LINE OF SIGHT 1-2 = No Action 3-5 = 1 Action 6+ = 2 Actions", the same
    # as "ARTILLERY FIRING FROM OFF TABLE": no +1.
    for period in ("early", "mid", "late"):
        table = reading_client.get(f"{FF}/artillery-action-table", params={"period": period}).json()
        answer = reading_client.post(
            f"{FF}/artillery-action", json={"period": period, "line_of_sight": True, "dice": [3]}
        ).json()
        assert table["open_sights_bonus"] == answer["total"] - 3, period
        assert ("deep_suppression" in table) is (period != "early")
    early = reading_client.get(f"{FF}/artillery-action-table", params={"period": "early"}).json()
    assert early["open_sights_bonus"] == 0


def battle(**body: Any) -> dict[str, Any]:
    return {"from_area": "D-2", "to_area": "C-3", "dice": [3, 3], **body}


def test_firestorm_battle_keeps_the_turn_rules(reading_client: TestClient) -> None:
    path = f"{FIRESTORM}/battle"
    error = refused(
        reading_client,
        path,
        battle(turn=1, attacker="bef", from_area="C-3", to_area="D-2", attacker_troops=["hmg"]),
    )
    assert error["loc"] == ["body", "attacker"] and error["allowed"] == ["german"]
    assert "automatically the attacker" in error["msg"]
    for turn in (3, 4):
        error = refused(
            reading_client,
            path,
            battle(
                turn=turn, attacker="german", attacker_troops=["stoss"], defender_troops=["hmg", "whippet"]
            ),
        )
        assert error["loc"] == ["body", "defender_troops", 1] and "whippet" not in error["allowed"]
        assert "removed at the end of turn 2" in error["msg"]
    ok = reading_client.post(
        path,
        json=battle(turn=2, attacker="german", attacker_troops=["heavy-tank"], defender_troops=["whippet"]),
    )
    assert ok.status_code == 200, ok.text
    error = refused(
        reading_client, path, battle(turn=1, battle=2, attacker="german", attacker_troops=["stoss"])
    )
    assert error["loc"] == ["body", "to_area"] and error["allowed"] == ["D-3->C-4"]


def test_the_offered_pass_applies_as_offered(reading_client: TestClient) -> None:
    campaign = f"{FIRESTORM}/campaign"
    state = reading_client.post(f"{campaign}/new", json={}).json()["state"]
    # Every German Firestorm Troop destroyed: the German initiative of turn 1 has no attack to make.
    for t in state["troops"]:
        if t["side"] == "german":
            t.update(status="destroyed", area=None)
    r = reading_client.post(
        f"{campaign}/apply", json={"state": state, "action": {"type": "initiative"}, "dice": []}
    )
    assert r.status_code == 200, r.text
    body = reading_client.post(f"{campaign}/legal-actions", json={"state": r.json()["state"]}).json()
    [offered] = body["legal_actions"]
    assert offered["type"] == "pass" and offered["side"] == "german"
    action = {"type": offered["type"], "side": offered["side"]}
    applied = reading_client.post(
        f"{campaign}/apply", json={"state": body["state"], "action": action, "dice": []}
    )
    assert applied.status_code == 200, applied.text
    assert applied.json()["events"][0]["event"] == "battle forfeited"
    error = refused(
        reading_client,
        f"{campaign}/apply",
        {"state": body["state"], "action": {"type": "pass", "side": "bef"}, "dice": []},
    )
    assert error["loc"] == ["body", "action", "side"] and error["allowed"] == ["german"]
    assert "initiative" in error["msg"]
