"""Fixtures for persisted campaigns: one created through the API with both sides joined, and a player
that picks legal actions the way a table would."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rules.firestorm.data import TROOP_BY_ID


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class Seats:
    id: int
    organiser: dict[str, str]
    german: dict[str, str]
    bef: dict[str, str]
    codes: dict[str, str]

    def of(self, side: str) -> dict[str, str]:
        return self.german if side == "german" else self.bef


def new_campaign(http: Any, payload: dict[str, Any] | None = None) -> Seats:
    r = http.post("/api/v1/campaigns", json=payload or {"name": "Test campaign"})
    assert r.status_code == 201, r.text
    body = r.json()
    assert set(body["join_codes"]) == {"german", "bef"}
    tokens = {}
    for side, code in body["join_codes"].items():
        j = http.post("/api/v1/campaigns/join", json={"code": code.lower()})  # codes are read aloud
        assert j.status_code == 200, j.text
        assert j.json()["side"] == side and j.json()["campaign_id"] == body["campaign"]["id"]
        tokens[side] = bearer(j.json()["token"])
    return Seats(
        body["campaign"]["id"],
        bearer(body["organiser_token"]),
        tokens["german"],
        tokens["bef"],
        body["join_codes"],
    )


@pytest.fixture
def seats(client: TestClient) -> Seats:
    return new_campaign(client)


def choose(snapshot: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], list[int], str | None]:
    """A legal action from the listing, seeded dice for it, and the side whose decision it is."""
    a = snapshot["legal_actions"][0]
    state = snapshot["state"]
    t = a["type"]
    act: dict[str, Any] = {"type": t}
    if t == "attack":
        o = rng.choice(a["options"])
        troops = o["troops"]
        if state["turn"] == 3 and state["battle"] < 2:  # one AIF brigade attacks with both its troops
            b = TROOP_BY_ID[troops[0]].brigade
            troops = [x for x in troops if TROOP_BY_ID[x].brigade == b]
        act |= {"from_area": o["from_area"], "to_area": o["to_area"], "troops": troops[:2]}
    elif t == "defend":
        act["troops"] = a["troops"][: rng.randint(0, 2)]
    elif t == "retreat":
        act["moves"] = {x: rng.choice(a["areas"]) for x in a["troops"]}
    elif t == "advance":
        first = a["survivors_first"]
        act["troops"] = (first + [x for x in a["candidates"] if x not in first])[: rng.randint(0, 3)]
    elif t == "redeploy":
        act |= {
            "side": a["side"],
            "moves": {k: v[0] for k, v in a["moves"].items() if v and rng.random() < 0.3},
        }
    elif t == "reinforce":
        ar = a["areas"]
        act |= {"side": a["side"], "areas": ar[:2] if a["side"] == "german" else [ar["13"][0], ar["15"][0]]}
    return act, [rng.randint(1, 6) for _ in range(a["dice"])], a.get("side")
