"""A side's secret objective over the API (issue 69): given by the referee at set-up, read by its own side only,
sealed as the game starts (both sides' commitments published to every seat, whatever each holds), scored by the
server, revealed as it scores, and verified by the other side against the commitment published. That no other
route nor stream shows it before then is the secrets walk's (tests/app/hostile/test_secrets_walk.py)."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from tests.app.games.conftest import Game, new_game, start_game
from tests.app.games.test_play_to_a_result import a_stand, move, points, score
from tests.app.hostile.test_secrets import token_of

HILL = {
    "type": "Feature",
    "geometry": {"type": "Point", "coordinates": [61.5, 88.5]},
    "properties": {"name": "Hill of the Sealed Orders", "vp": 3, "scored": "first_taken"},
}


def panel(client: TestClient, g: Game, who: dict[str, str]) -> str:
    cookie = {"Cookie": f"{COOKIE_NAME}={token_of(who)}"}
    r = client.get(f"/games/{g.id}/score/panel?view=map", headers=cookie)
    assert r.status_code == 200, r.text
    return r.text


def verify(client: TestClient, g: Game, who: dict[str, str], side: str) -> Any:
    return client.get(f"/api/v1/games/{g.id}/objectives/{side}/verify", headers=who)


def test_a_secret_objective_is_sealed_unseen_scored_revealed_and_verified(client: TestClient) -> None:
    g = new_game(client)
    give = f"/api/v1/games/{g.id}/objectives/secret"
    assert (
        client.post(give, headers=g.defender, json={"side": "attacker", "objective": HILL}).status_code == 403
    )
    bad = client.post(give, headers=g.referee, json={"side": "attacker", "objective": {**HILL, "vp": 3}})
    assert bad.status_code == 422 and bad.json()["errors"][0]["loc"][-1] == "vp"
    r = client.post(give, headers=g.referee, json={"side": "attacker", "objective": HILL})
    assert r.status_code == 201, r.text
    hill = r.json()["id"]
    # Nor is one written onto the board, which every device reads.
    version = client.get(f"/api/v1/games/{g.id}", headers=g.referee).json()["version"]
    board = {
        "type": "FeatureCollection",
        "features": [{**HILL, "properties": {**HILL["properties"], "secret_to": "attacker"}}],
    }
    patched = client.patch(
        f"/api/v1/games/{g.id}", headers=g.referee, json={"version": version, "table_objectives": board}
    )
    assert patched.status_code == 422 and "secret_to" in patched.text
    assert re.fullmatch(r"secret-[0-9a-f]{8}", hill)  # drawn: no number to count the side's secrets by
    # Sent again (a double tap, a replay, another device): refused by its name, not kept twice to score twice.
    again = client.post(give, headers=g.referee, json={"side": "attacker", "objective": HILL})
    assert again.status_code == 422 and again.json()["field"] == "name", again.text
    assert "already holds a secret objective of that name" in again.json()["detail"]
    hidden = {**HILL, "properties": {**HILL["properties"], "name": "Hill of the Sealed\u200b Orders "}}
    unseen = client.post(give, headers=g.referee, json={"side": "attacker", "objective": hidden})
    assert unseen.status_code == 422, unseen.text  # a zero-width space is no other name (the hostile pass)
    # A rule set keeping its own score (Vimy Ridge's) would never score one: refused (the hostile pass: 201).
    vimy = new_game(client, {"name": "Vimy", "ruleset": "vimy-ridge"})
    given = f"/api/v1/games/{vimy.id}/objectives/secret"
    refused = client.post(given, headers=vimy.referee, json={"side": "attacker", "objective": HILL})
    assert refused.status_code == 409 and "keep their own score" in refused.json()["detail"], refused.text

    # Set-up: the attacker reads it as its own secret, the defender nothing of it.
    own = score(client, g, g.attacker)
    assert [(o["id"], o["secret_to"], o["revealed"]) for o in own["objectives"] if o["secret_to"]] == [
        (hill, "attacker", False)
    ]
    assert "Secret: only you see this" in panel(client, g, g.attacker)
    for text in (
        client.get(f"/api/v1/games/{g.id}/score", headers=g.defender).text,
        panel(client, g, g.defender),
    ):
        assert hill not in text and "Sealed Orders" not in text

    start_game(client, g)
    # Both sides' commitments, on every seat's panel: the same two whether a side holds one secret or none.
    sealed = {
        side: re.search(
            rf"The {side}'s secret objectives, sealed as the game started: <code[^>]*>(\w+)<",
            panel(client, g, g.defender),
        )
        for side in ("attacker", "defender")
    }
    assert all(m and len(m.group(1)) == 64 for m in sealed.values())
    commitment = sealed["attacker"].group(1)  # type: ignore[union-attr]
    not_yet = verify(client, g, g.defender, "attacker")
    assert not_yet.status_code == 409 and hill not in not_yet.text
    # The defender holds none: the attacker's check of it says the same "not yet" (none is not told from some).
    none = verify(client, g, g.attacker, "defender")
    assert (none.status_code, none.json()["detail"].replace("defender", "attacker")) == (
        409,
        not_yet.json()["detail"],
    )
    mine = verify(client, g, g.attacker, "attacker").json()  # its own side checks the whole tree
    assert (
        mine["verified"] and mine["padding_salt"] and [i["objective"]["id"] for i in mine["items"]] == [hill]
    )
    # A call, logged for every seat, waits for the reveal.
    call = {"objective_id": hill, "side": "attacker"}
    assert client.post(f"/api/v1/games/{g.id}/score/calls", headers=g.referee, json=call).status_code == 409

    # A German stand takes the hill: the server scores it, and the scoring reveals it to the defender.
    move(client, g, a_stand(client, g, "attacker", "infantry-platoon"), 61.5, 88.5, 90.0)
    seen = score(client, g, g.defender)
    revealed = next(o for o in seen["objectives"] if o["id"] == hill)
    assert revealed["revealed"] and revealed["holder"] == "attacker" and points(seen)["attacker"] == 3
    checked = verify(client, g, g.defender, "attacker")
    assert checked.status_code == 200, checked.text
    body = checked.json()
    assert body["verified"] and body["commitment"] == body["recomputed"] == commitment
    assert body["padding_salt"] is None and len(body["items"][0]["path"]) == 6  # 64 leaves, whatever it holds
