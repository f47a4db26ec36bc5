"""Who may see and change what: referee, each side's player, and nobody without a token."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.data.models import Token
from app.services.seating import digest
from tests.app.games.conftest import bearer, new_game, units_by_ref

PROTECTED = [
    ("get", "/units"),
    ("get", "/state"),
    ("get", "/turn"),
    ("get", "/events"),
    ("get", "/report"),
    ("get", "/fireplans"),
    ("get", "/fireplans/attacker/items"),
    ("get", "/stream"),
    ("post", "/turn/advance"),
    ("post", "/resolve/movement"),
]


@pytest.mark.parametrize(("method", "path"), PROTECTED)
def test_no_token_is_401_and_unknown_token_is_401(sqlite_client: TestClient, method: str, path: str) -> None:
    g = new_game(sqlite_client)
    url = f"/api/v1/games/{g.id}{path}"
    kwargs = {"json": {"version": 1}} if method == "post" else {}
    r = getattr(sqlite_client, method)(url, **kwargs)
    assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
    r = getattr(sqlite_client, method)(url, headers=bearer("not-a-token"), **kwargs)
    assert r.status_code == 401


def test_token_of_another_game_is_403(sqlite_client: TestClient) -> None:
    a, b = new_game(sqlite_client), new_game(sqlite_client)
    assert sqlite_client.get(f"/api/v1/games/{b.id}/units", headers=a.attacker).status_code == 403
    assert sqlite_client.get(f"/api/v1/games/{b.id}/units", headers=b.attacker).status_code == 200


def test_cookie_token_is_accepted_and_query_token_refused(sqlite_client: TestClient) -> None:
    g = new_game(sqlite_client)
    # Joining sets the cookie the web UI keeps.
    j = sqlite_client.post("/api/v1/join", json={"code": g.codes["defender"].lower().replace("-", "")})
    assert j.status_code == 200 and j.cookies.get("firestep_token") == j.json()["token"]
    me = sqlite_client.get(f"/api/v1/games/{g.id}/me")  # the client sends the cookie back
    assert me.json() == {"game_id": g.id, "role": "defender", "event_hand": []}
    sqlite_client.cookies.clear()
    # Never in the query string: URLs end up in access logs (tests/app/hostile/test_access.py has the rest).
    r = sqlite_client.get(f"/api/v1/games/{g.id}/me?token={j.json()['token']}")
    assert r.status_code == 401 and "query string" in r.json()["why"]
    assert sqlite_client.post("/api/v1/join", json={"code": "WRONG-CODE1"}).status_code == 422


def test_tokens_and_codes_are_stored_hashed(client: TestClient) -> None:
    from sqlmodel import Session, select

    g = new_game(client)
    token = g.referee["Authorization"].removeprefix("Bearer ")
    with Session(client.app.state.engine) as s:  # type: ignore[attr-defined]
        hashes = [t.token_hash for t in s.exec(select(Token).where(Token.game_id == g.id))]
    secret = client.app.state.settings.secret_key  # type: ignore[attr-defined]
    assert token not in hashes and digest(secret, token) in hashes


def test_a_player_changes_only_their_own_side(client: TestClient) -> None:
    g = new_game(client)
    units = units_by_ref(client, g)
    de = next(u for u in units.values() if u["side"] == "attacker" and u["kind"] == "rifle-platoon")
    gb = next(u for u in units.values() if u["side"] == "defender" and u["kind"] == "rifle-platoon")
    url = f"/api/v1/games/{g.id}/units"
    assert client.post(f"{url}/{gb['id']}/move", headers=g.attacker, json={"x": 5, "y": 5}).status_code == 403
    assert (
        client.put(f"{url}/{gb['id']}", headers=g.attacker, json={"version": 1, "limbered": True}).status_code
        == 403
    )
    assert client.post(f"{url}/{de['id']}/move", headers=g.attacker, json={"x": 5, "y": 5}).status_code == 200
    # The referee changes everything.
    assert (
        client.post(f"{url}/{gb['id']}/move", headers=g.referee, json={"x": 9, "y": 170}).status_code == 200
    )
    # Both sides see the whole table and both sides' markers.
    assert {u["side"] for u in client.get(url, headers=g.defender).json()} == {"attacker", "defender"}
    # Plans: only one's own.
    plan = f"/api/v1/games/{g.id}/fireplans"
    item = {"arrival_turn": 1, "item": {"kind": "deep-suppression"}}
    assert client.post(f"{plan}/defender/items", headers=g.attacker, json=item).status_code == 403
    assert client.post(f"{plan}/defender/lock", headers=g.attacker).status_code == 403
    # Game edits and starting the game are the referee's.
    assert (
        client.patch(
            f"/api/v1/games/{g.id}", headers=g.attacker, json={"version": 1, "name": "x"}
        ).status_code
        == 403
    )


def test_the_other_sides_plan_is_secret_until_it_arrives(client: TestClient) -> None:
    g = new_game(client)
    plan = f"/api/v1/games/{g.id}/fireplans"
    made = client.post(
        f"{plan}/defender/items",
        headers=g.defender,
        json={"arrival_turn": 1, "item": {"kind": "aiming-point", "grid": [20, 30], "battery": "A"}},
    )
    assert made.status_code == 201
    item_id = made.json()["id"]
    # Not an empty answer: a refusal.
    assert client.get(f"{plan}/defender/items", headers=g.attacker).status_code == 403
    assert client.get(f"{plan}/defender/items/{item_id}", headers=g.attacker).status_code == 404
    assert client.get(f"{plan}/defender/verify", headers=g.attacker).status_code == 403
    assert [i["id"] for i in client.get(f"{plan}/defender/items", headers=g.defender).json()] == [item_id]
    assert client.get(f"{plan}/defender/items", headers=g.referee).status_code == 200
    # It arrives at the start of the defender's turn 1 (the attacker moves first).
    state = client.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()
    client.post(f"/api/v1/games/{g.id}/turn/advance", headers=g.referee, json={"version": state["version"]})
    assert client.get(f"{plan}/defender/items/{item_id}", headers=g.attacker).status_code == 404
    for _ in range(3):
        v = client.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["version"]
        assert (
            client.post(
                f"/api/v1/games/{g.id}/turn/advance", headers=g.attacker, json={"version": v}
            ).status_code
            == 200
        )
    seen = client.get(f"{plan}/defender/items/{item_id}", headers=g.attacker)
    assert seen.status_code == 200 and seen.json()["verified"] is True
    # The defender's grid [20, 30] is measured from its own rear left corner: table frame (100, 150).
    assert seen.json()["item"]["data"]["grid"] == [20, 30]
    board = client.get(f"/api/v1/games/{g.id}/state", headers=g.attacker).json()["board"]
    assert board["fire"][0]["point"] == [100, 150]
    # The whole plan is the opponent's to verify once the game is over.
    v = client.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["version"]
    assert (
        client.post(f"/api/v1/games/{g.id}/finish", headers=g.referee, json={"version": v}).status_code == 200
    )
    whole = client.get(f"{plan}/defender/verify", headers=g.attacker)
    assert whole.status_code == 200 and whole.json()["verified"] is True


def test_undo_rules(client: TestClient) -> None:
    g = new_game(client)
    units = units_by_ref(client, g)
    de = next(u for u in units.values() if u["side"] == "attacker" and u["kind"] == "rifle-platoon")
    # Started, and on to the battalion orders, where rifle platoons move.
    for who in (g.referee, g.attacker):
        v = client.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["version"]
        client.post(f"/api/v1/games/{g.id}/turn/advance", headers=who, json={"version": v})
    order = {"unit_id": de["parent_id"], "dice": [6]}  # its company ordered: a move is one of its actions
    assert (
        client.post(f"/api/v1/games/{g.id}/resolve/order-roll", headers=g.attacker, json=order).status_code
        == 200
    )
    move = client.post(
        f"/api/v1/games/{g.id}/units/{de['id']}/move", headers=g.attacker, json={"x": 5, "y": 20}
    )
    assert move.status_code == 200, move.text
    ev = move.json()["event_id"]
    # Not the other player's to undo.
    assert client.post(f"/api/v1/games/{g.id}/events/{ev}/undo", headers=g.defender).status_code == 403
    bn = next(u for u in units.values() if u["side"] == "attacker" and u["level"] == "battalion")
    roll = client.post(
        f"/api/v1/games/{g.id}/resolve/morale", headers=g.attacker, json={"unit_id": bn["id"], "apply": False}
    )
    assert roll.status_code == 200, roll.text
    # A die has been rolled since: the player can no longer undo the move; the referee can.
    assert client.post(f"/api/v1/games/{g.id}/events/{ev}/undo", headers=g.attacker).status_code == 403
    # A player takes back its own roll only while it is the game's latest event: after another, it is the
    # referee's call.
    later = client.post(
        f"/api/v1/games/{g.id}/resolve/morale", headers=g.attacker, json={"unit_id": bn["id"], "apply": False}
    )
    assert later.status_code == 200, later.text
    assert (
        client.post(
            f"/api/v1/games/{g.id}/events/{roll.json()['event_id']}/undo", headers=g.attacker
        ).status_code
        == 403
    )
    r = client.post(f"/api/v1/games/{g.id}/events/{roll.json()['event_id']}/undo", headers=g.referee)
    assert r.status_code == 200 and r.json()["kind"] == "undo"
    r = client.post(f"/api/v1/games/{g.id}/events/{ev}/undo", headers=g.referee)
    assert r.status_code == 200
    back = client.get(f"/api/v1/games/{g.id}/units/{de['id']}", headers=g.attacker).json()
    assert (back["x"], back["y"]) == (de["x"], de["y"])
    # The move's action is given back to its company with it.
    company = client.get(f"/api/v1/games/{g.id}/units/{de['parent_id']}", headers=g.attacker).json()
    assert company["actions_left"] == 2 and company["action_under_way"] is None
    # The log keeps everything: undo appends, never deletes.
    kinds = [e["kind"] for e in client.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json()]
    assert kinds.count("move") == 1 and kinds.count("roll") == 3 and kinds.count("undo") == 2
