"""The fire-plan rehearsal API on both backends: a side rehearses its own plan against the enemy's stands as
they stand now; the opponent is refused, and nothing of the opponent's plan comes back."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.app.games.conftest import Game, units_by_ref

# The British plan of tests/rules/flanders_fields/test_rehearsal.py: batteries on the German start line.
BRITISH = [
    {"arrival_turn": 1, "item": {"kind": "aiming-point", "grid": [112, 168], "battery": "1", "turns": 2}},
    {"arrival_turn": 2, "item": {"kind": "aiming-point", "grid": [72, 168], "battery": "2"}},
]
GERMAN_SECRET = {
    "arrival_turn": 1,
    "item": {"kind": "aiming-point", "grid": [31, 157], "battery": "Geheim-7"},
}


def write(c: TestClient, g: Game, side: str, items: list[dict[str, Any]]) -> list[int]:
    who = g.attacker if side == "attacker" else g.defender
    out = []
    for body in items:
        r = c.post(f"/api/v1/games/{g.id}/fireplans/{side}/items", headers=who, json=body)
        assert r.status_code == 201, r.text
        out.append(r.json()["id"])
    return out


def url(g: Game, side: str) -> str:
    return f"/api/v1/games/{g.id}/fireplans/{side}/rehearsal"


def test_a_side_rehearses_its_own_plan_against_the_enemy_stands(client: TestClient, mons: Game) -> None:
    c, g = client, mons
    ids = write(c, g, "defender", BRITISH)
    write(c, g, "attacker", [GERMAN_SECRET])
    r = c.post(url(g, "defender"), headers=g.defender, json={"turns": 2})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["method"] == "exact" and body["turns"] == 2 and body["side"] == "defender"
    units = units_by_ref(c, g)
    german = {str(u["id"]) for u in units.values() if u["side"] == "attacker"}
    hit = [s for t in body["turn_by_turn"] for s in t["stands"]]
    assert hit and {s["stand"] for s in hit} <= german  # only enemy stands are targets
    for s in hit:
        total = sum(s["markers"].values()) + s["killed"]
        assert abs(total - 1) < 1e-5 and 0 <= s["killed"] < 1
    assert any(s["killed"] > 0 for s in hit)  # a deviated landing may only graze a stand (no kill at -2)
    # Turn 1 brings battery 1 only; turn 2 battery 1 again and battery 2.
    whats = [[(v["item"], v["what"]) for v in t["volleys"]] for t in body["turn_by_turn"]]
    one, two = (
        (str(ids[0]), "aiming point, battery 1 (field gun)"),
        (str(ids[1]), "aiming point, battery 2 (field gun)"),
    )
    assert whats == [[one], [one, two]]
    # Nothing of the German plan: not its battery, its grid reference or its item.
    assert "Geheim" not in r.text and "[31" not in r.text
    assert {v["item"] for t in body["turn_by_turn"] for v in t["volleys"]} == {str(i) for i in ids}
    # The referee may rehearse either side; a howitzer firer is named per item.
    ref = c.post(
        url(g, "defender"), headers=g.referee, json={"turns": 1, "firers": {str(ids[0]): "field-howitzer"}}
    )
    assert ref.status_code == 200 and "field howitzer" in ref.json()["turn_by_turn"][0]["volleys"][0]["what"]


def test_the_opponent_and_strangers_are_refused(client: TestClient, mons: Game) -> None:
    c, g = client, mons
    write(c, g, "defender", BRITISH)
    assert c.post(url(g, "defender"), headers=g.attacker, json={}).status_code == 403
    assert c.post(url(g, "defender")).status_code == 401
    # A token is for one game: another game's (or a missing game's) rehearsal is refused like its other routes.
    other = c.post("/api/v1/games/999999/fireplans/defender/rehearsal", headers=g.referee, json={})
    assert other.status_code == 403
    # The defender cannot rehearse the attacker's plan (that would reveal it).
    refused = c.post(url(g, "attacker"), headers=g.defender, json={})
    assert refused.status_code == 403 and "Geheim" not in refused.text


def test_limits_name_the_field(client: TestClient, mons: Game) -> None:
    c, g = client, mons
    ids = write(c, g, "defender", BRITISH)

    def refused(body: Any, field: str, side: str = "defender") -> None:
        r = c.post(url(g, side), headers=g.referee, json=body)
        assert r.status_code == 422, r.text
        where = [".".join(str(p) for p in d["loc"] if p != "body") for d in r.json()["detail"]]
        assert any(w.startswith(field) for w in where), where

    refused({"turns": 0}, "turns")
    refused({"turns": 21}, "turns")
    refused({"samples": 5000}, "samples")
    refused({"seed": -1}, "seed")
    refused({"turns": "3"}, "turns")  # numbers are numbers
    refused({"firers": {str(ids[0]): "infantry"}}, "firers")
    refused({"firers": {"12345": "field-gun"}}, "firers.12345")
    refused({"sos": [{"grid": [60, 168], "turn": 1}] * 9}, "sos")
    refused({"sos": [{"grid": [60, 168], "turn": 1}]}, "sos", side="attacker")
    refused({"bogus": 1}, "bogus")
    assert c.post(url(g, "nobody"), headers=g.referee, json={}).status_code == 422


def test_gas_is_sampled_with_its_error(client: TestClient, mons: Game) -> None:
    c, g = client, mons
    write(
        c,
        g,
        "attacker",
        [{"arrival_turn": 1, "item": {"kind": "gas", "grid": [60, 160], "gas": "offensive", "wind_deg": 90}}],
    )
    r = c.post(url(g, "attacker"), headers=g.attacker, json={"turns": 2, "samples": 30, "seed": 5})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["method"] == "sampled" and body["samples"] == 30 and body["seed"] == 5
    hit = [s for t in body["turn_by_turn"] for s in t["stands"]]
    assert hit and all("standard_error" in s for s in hit)
    again = c.post(url(g, "attacker"), headers=g.attacker, json={"turns": 2, "samples": 30, "seed": 5}).json()
    assert again["turn_by_turn"] == body["turn_by_turn"]
    # Sampling the wind is bounded: too many courses over too many turns is refused, naming `samples`.
    big = c.post(url(g, "attacker"), headers=g.attacker, json={"turns": 20, "samples": 2000})
    assert big.status_code == 422 and big.json()["detail"][0]["loc"][-1] == "samples"
