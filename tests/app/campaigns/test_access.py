"""Who may do what in a persisted campaign: no token 401; players only for their own side (403); the
organiser for anyone, and alone may undo or correct the map; stale versions 409 with the current state."""

from __future__ import annotations

import threading
from typing import Any

import httpx
from fastapi.testclient import TestClient

from rules.firestorm.data import load_adjacency
from tests.app.campaigns.conftest import Seats, new_campaign
from tests.app.games.conftest import live_url  # noqa: F401  (the app on a real server, both backends)

INITIATIVE = {"action": {"type": "initiative"}, "dice": []}
# "D-2 into C-3" is the first of the turn's fixed attacks (Initial Deployment).
ATTACK = {"type": "attack", "from_area": "D-2", "to_area": "C-3", "troops": ["group-i"]}


def act(client: Any, s: Seats, who: dict[str, str], body: dict[str, Any]) -> Any:
    return client.post(f"/api/v1/campaigns/{s.id}/actions", headers=who, json=body)


def test_no_token_is_401_and_a_wrong_token_403(client: TestClient, seats: Seats) -> None:
    s = seats
    base = f"/api/v1/campaigns/{s.id}"
    for method, path, body in (
        ("GET", "/legal-actions", None),
        ("GET", "/log", None),
        ("GET", "/result", None),
        ("POST", "/actions", {**INITIATIVE, "version": 1}),
        ("POST", "/undo", {"version": 1}),
        ("PUT", "/map", {"adjacency": None, "version": 1}),
    ):
        r = client.request(method, base + path, json=body)
        assert r.status_code == 401, (path, r.text)
        r = client.request(method, base + path, json=body, headers={"Authorization": "Bearer nonsense"})
        assert r.status_code == 401, (path, r.text)
    other = new_campaign(client)
    r = client.get(f"{base}/legal-actions", headers=other.german)
    assert r.status_code == 403 and "another campaign" in r.json()["why"]
    # The lobby needs no token; an unknown campaign is 404, an unknown code 422 (a field naming nothing).
    assert client.get(base).status_code == 200
    assert client.get("/api/v1/campaigns/999999").status_code == 404
    assert client.post("/api/v1/campaigns/join", json={"code": "AAAAA-AAAAA"}).status_code == 422


def test_players_act_only_for_their_own_side(client: TestClient, seats: Seats) -> None:
    s = seats
    assert act(client, s, s.bef, {**INITIATIVE, "version": 1}).status_code == 200  # a shared step
    # Turn 1: "The German player is automatically the attacker": the BEF may not choose the attack.
    r = act(client, s, s.bef, {"action": ATTACK, "version": 2})
    assert r.status_code == 403 and "german" in r.json()["why"]
    assert act(client, s, s.german, {"action": ATTACK, "version": 2}).status_code == 200
    r = act(client, s, s.german, {"action": {"type": "defend", "troops": []}, "version": 3})
    assert r.status_code == 403
    # The organiser may act for either side.
    r = act(client, s, s.organiser, {"action": {"type": "defend", "troops": ["25-bde"]}, "version": 3})
    assert r.status_code == 200 and r.json()["entry"]["actor"] == "referee"
    for who in (s.german, s.bef):
        assert (
            client.post(f"/api/v1/campaigns/{s.id}/undo", headers=who, json={"version": 4}).status_code == 403
        )
        r = client.put(f"/api/v1/campaigns/{s.id}/map", headers=who, json={"adjacency": None, "version": 4})
        assert r.status_code == 403


def test_a_stale_version_is_409_with_the_current_state(client: TestClient, seats: Seats) -> None:
    s = seats
    assert act(client, s, s.german, {**INITIATIVE, "version": 1}).status_code == 200
    r = act(client, s, s.bef, {**INITIATIVE, "version": 1})  # the other tablet had not seen it
    assert r.status_code == 409
    current = r.json()["current"]
    assert current["version"] == 2 and current["state"]["phase"] == "attack"
    assert current["legal_actions"][0]["type"] == "attack"
    log = client.get(f"/api/v1/campaigns/{s.id}/log", headers=s.bef).json()
    assert [e["kind"] for e in log] == ["created", "action"]


def test_two_devices_at_once_never_both_apply(live_url: str) -> None:  # noqa: F811
    with httpx.Client(base_url=live_url, timeout=30) as http:
        s = new_campaign(http)
    barrier = threading.Barrier(2)
    codes: list[int] = []

    def device(headers: dict[str, str]) -> None:
        with httpx.Client(base_url=live_url, timeout=30) as http:
            barrier.wait()
            codes.append(act(http, s, headers, {**INITIATIVE, "version": 1}).status_code)

    threads = [threading.Thread(target=device, args=(h,)) for h in (s.german, s.bef)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    assert sorted(codes) == [200, 409]
    with httpx.Client(base_url=live_url, timeout=30) as http:
        log = http.get(f"/api/v1/campaigns/{s.id}/log", headers=s.organiser).json()
    assert [e["kind"] for e in log] == ["created", "action"] and log[1]["version"] == 2


def test_undo_restores_the_previous_state_as_a_new_entry(client: TestClient, seats: Seats) -> None:
    s = seats
    base = f"/api/v1/campaigns/{s.id}"
    states = [client.get(f"{base}/legal-actions", headers=s.organiser).json()["state"]]
    for version, who, body in (
        (1, s.german, INITIATIVE),
        (2, s.german, {"action": ATTACK}),
        (3, s.bef, {"action": {"type": "defend", "troops": ["25-bde"]}}),
    ):
        r = act(client, s, who, {**body, "version": version})
        assert r.status_code == 200, r.text
        states.append(r.json()["state"])
    r = client.post(f"{base}/undo", headers=s.organiser, json={"version": 3})
    assert r.status_code == 409 and r.json()["current"]["version"] == 4
    r = client.post(f"{base}/undo", headers=s.organiser, json={"version": 4})
    assert r.status_code == 200
    assert r.json()["state"] == states[2] and r.json()["version"] == 5
    entry = r.json()["entry"]
    assert entry["kind"] == "undo" and entry["action"]["type"] == "defend"
    # A second undo goes one further back; the log keeps everything, marking what was taken back.
    r = client.post(f"{base}/undo", headers=s.organiser, json={"version": 5})
    assert r.status_code == 200 and r.json()["state"] == states[1]
    log = client.get(f"{base}/log", headers=s.bef).json()
    assert [(e["kind"], e["undone"]) for e in log] == [
        ("created", False),
        ("action", False),
        ("action", True),
        ("action", True),
        ("undo", False),
        ("undo", False),
    ]
    assert log[4]["reverses_id"] == log[3]["id"] and log[5]["reverses_id"] == log[2]["id"]
    # Play goes on from the restored state: the attack again, differently.
    other = {**ATTACK, "troops": ["group-i", "207-rir"]}
    assert act(client, s, s.german, {"action": other, "version": 6}).status_code == 200
    r = client.post(f"{base}/undo", headers=s.organiser, json={"version": 7})
    assert r.status_code == 200 and r.json()["state"] == states[1]
    r = client.post(f"{base}/undo", headers=s.organiser, json={"version": 8})
    assert r.status_code == 200 and r.json()["state"] == states[0]
    r = client.post(f"{base}/undo", headers=s.organiser, json={"version": 9})
    assert r.status_code == 422 and r.json()["errors"][0]["msg"] == "there is no action left to undo"


def test_the_organiser_corrects_the_map_before_the_first_action(client: TestClient, seats: Seats) -> None:
    s = seats
    base = f"/api/v1/campaigns/{s.id}"
    adj = {k: list(v) for k, v in load_adjacency().items()}
    adj["A-1"].append("A-3")  # the organiser reads the map as A-1 touching Cachy
    adj["A-3"].append("A-1")
    r = client.put(f"{base}/map", headers=s.organiser, json={"adjacency": adj, "version": 1})
    assert r.status_code == 200, r.text
    assert "A-3" in r.json()["state"]["adjacency"]["A-1"] and r.json()["version"] == 2
    broken = {**adj, "A-1": ["A-2", "B-1", "A-3", "E-3"]}  # not symmetric: E-3 does not list A-1
    r = client.put(f"{base}/map", headers=s.organiser, json={"adjacency": broken, "version": 2})
    assert r.status_code == 422 and r.json()["errors"][0]["loc"][:2] == ["body", "adjacency"]
    r = client.put(
        f"{base}/map", headers=s.organiser, json={"adjacency": {}, "version": 2}
    )  # a map of no area
    assert r.status_code == 422 and r.json()["errors"][0]["loc"][:2] == ["body", "adjacency"], r.text
    assert len(r.json()["said_why"]) <= 120, r.json()["said_why"]  # it listed every area: 285 characters
    assert act(client, s, s.german, {**INITIATIVE, "version": 2}).status_code == 200
    r = client.put(f"{base}/map", headers=s.organiser, json={"adjacency": None, "version": 3})
    assert r.status_code == 403 and "before the first action" in r.json()["why"]
    assert client.post(f"{base}/undo", headers=s.organiser, json={"version": 3}).status_code == 200
    r = client.put(f"{base}/map", headers=s.organiser, json={"adjacency": None, "version": 4})
    assert r.status_code == 200 and "A-3" not in r.json()["state"]["adjacency"]["A-1"]


def test_a_campaign_id_is_a_number_so_get_join_is_no_campaign(client: TestClient) -> None:
    """GET /api/v1/campaigns/join names no campaign: only POST joins, so it is 405 naming POST, not a 422
    about campaign_id. Numbers out of range are still refused naming the field, as for games."""
    r = client.get("/api/v1/campaigns/join")
    assert r.status_code == 405 and r.headers["allow"] == "POST"
    for bad in ("0", "2147483648"):
        r = client.get(f"/api/v1/campaigns/{bad}")
        assert r.status_code == 422 and r.json()["errors"][0]["loc"] == ["path", "campaign_id"], r.text
    assert client.get("/api/v1/campaigns/nonsense/log").status_code == 404
