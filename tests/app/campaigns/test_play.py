"""A Firestorm campaign played from set-up to its result through the persisted API, on SQLite and
PostgreSQL: each decision by the side whose it is, the shared rolls by either player, dice given."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from rules.firestorm import campaign
from rules.firestorm.data import VP_AREAS
from tests.app.campaigns.conftest import Seats, choose


def play_to_the_end(client: TestClient, s: Seats, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    posted: list[dict[str, Any]] = []
    snap = client.get(f"/api/v1/campaigns/{s.id}/legal-actions", headers=s.german).json()
    for n in range(400):
        if snap["state"]["phase"] == "finished":
            break
        act, dice, side = choose(snap, rng)
        who = s.of(side) if side else (s.german, s.bef)[n % 2]
        body = {"action": act, "dice": dice, "version": snap["version"]}
        r = client.post(f"/api/v1/campaigns/{s.id}/actions", headers=who, json=body)
        assert r.status_code == 200, r.text
        got = r.json()
        assert got["version"] == snap["version"] + 1 and got["entry"]["dice"] == dice
        assert got["entry"]["rolled_by_server"] is False
        posted.append(body)
        snap = got
    return posted


def test_campaign_plays_from_set_up_to_a_result(client: TestClient, seats: Seats) -> None:
    s = seats
    posted = play_to_the_end(client, s, seed=1918)
    res = client.get(f"/api/v1/campaigns/{s.id}/result", headers=s.bef)
    assert res.status_code == 200
    result = res.json()
    assert result["final"] is True and result["turn"] == 4
    # "Campaign Victory Point Table": the seven areas' points all go to whoever holds them, plus
    # "Each Firestorm Troop captured 10 points".
    assert sum(result["points"].values()) == sum(VP_AREAS.values()) + 10 * sum(
        result["captured_troops"].values()
    )
    # "ENTENTE STRATEGIC VICTORY WIN BY 150 CAMPAIGN POINTS" ... "OPERATIONAL ... 100", "TACTICAL ... 50";
    # "The Entente side wins if it has more Campaign Victory Points then the Central powers."
    g, b = result["points"]["german"], result["points"]["bef"]
    level = next(
        (lv for at, lv in ((150, "strategic"), (100, "operational"), (50, "tactical")) if abs(g - b) >= at),
        "",
    )
    winner = "bef" if b > g else "german"
    assert result["outcome_key"] == (
        "draw" if g == b else f"{winner} {level}".strip() if level else f"{winner} victory"
    )

    log = client.get(f"/api/v1/campaigns/{s.id}/log", headers=s.organiser).json()
    actions = [e for e in log if e["kind"] == "action"]
    assert log[0]["kind"] == "created" and len(actions) == len(posted)
    assert [e["version"] for e in log] == list(range(1, len(log) + 1))
    # "First turn has 4, second has 5, third has 5 and the fourth has 3" battles (Turns).
    fought: dict[int, int] = {}
    for e in actions:
        for ev in e["events"]:
            if ev["event"] in ("battle", "great war result", "battle forfeited"):
                fought[e["turn"]] = fought.get(e["turn"], 0) + 1
    assert fought == {1: 4, 2: 5, 3: 5, 4: 3}

    # The stored state is exactly what the pure state machine gives for the logged actions and dice.
    state = campaign.new_campaign()
    for e in actions:
        state, _ = campaign.apply(state, e["action"], e["dice"])
    final = client.get(f"/api/v1/campaigns/{s.id}/legal-actions", headers=s.bef).json()
    assert final["state"] == state.model_dump(mode="json")
    assert final["legal_actions"] == [] and final["result"] == result

    lobby = client.get(f"/api/v1/campaigns/{s.id}").json()
    assert lobby["phase"] == "finished" and lobby["version"] == len(log)
    assert any(c["id"] == s.id for c in client.get("/api/v1/campaigns").json())


def test_the_server_rolls_when_no_dice_are_given(client: TestClient, seats: Seats) -> None:
    s = seats
    # Turn 1: "The German player is automatically the attacker in all four battles": initiative takes no dice.
    r = client.post(
        f"/api/v1/campaigns/{s.id}/actions",
        headers=s.bef,
        json={"action": {"type": "initiative"}, "version": 1},
    )
    assert r.status_code == 200, r.text
    assert r.json()["entry"]["dice"] == [] and r.json()["state"]["current"]["attacker"] == "german"
    # The first fixed attack is "D-2 into C-3" (Initial Deployment).
    attack = {"type": "attack", "from_area": "D-2", "to_area": "C-3", "troops": ["group-i", "48-rir"]}
    r = client.post(
        f"/api/v1/campaigns/{s.id}/actions", headers=s.german, json={"action": attack, "version": 2}
    )
    assert r.status_code == 200, r.text
    r = client.post(
        f"/api/v1/campaigns/{s.id}/actions",
        headers=s.bef,
        json={"action": {"type": "defend", "troops": ["25-bde"]}, "version": 3},
    )
    assert r.status_code == 200, r.text
    r = client.post(
        f"/api/v1/campaigns/{s.id}/actions",
        headers=s.german,
        json={"action": {"type": "resolve"}, "version": 4},
    )
    assert r.status_code == 200, r.text
    entry = r.json()["entry"]
    assert entry["rolled_by_server"] is True and len(entry["dice"]) == 2
    assert all(1 <= d <= 6 for d in entry["dice"])


def test_bad_actions_are_422_naming_the_field(client: TestClient, seats: Seats) -> None:
    s = seats
    url = f"/api/v1/campaigns/{s.id}/actions"
    r = client.post(url, headers=s.organiser, json={"action": {"type": "resolve"}, "version": 1})
    assert r.status_code == 422
    assert r.json()["errors"][0]["loc"] == ["body", "action", "type"]
    assert r.json()["errors"][0]["allowed"] == ["initiative"]
    r = client.post(
        url, headers=s.organiser, json={"action": {"type": "initiative"}, "dice": [3], "version": 1}
    )
    assert r.status_code == 422 and r.json()["errors"][0]["loc"] == ["body", "dice"]
    r = client.post(url, headers=s.organiser, json={"action": {"type": "initiative"}, "version": 0})
    assert r.status_code == 422 and r.json()["errors"][0]["loc"] == ["body", "version"]
    # A refused action changes nothing.
    assert client.get(f"/api/v1/campaigns/{s.id}").json()["version"] == 1
