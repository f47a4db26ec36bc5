"""The fire-plan rehearsal API on both backends: a side rehearses its own plan against the enemy's stands as
they stand now; the opponent is refused, and nothing of the opponent's plan comes back."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from rules.flanders_fields.planning.scenarios import SCENARIOS
from tests.app.games.conftest import Game, new_game, units_by_ref

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
        where = [".".join(str(p) for p in d["loc"] if p != "body") for d in r.json()["errors"]]
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
    assert big.status_code == 422 and big.json()["errors"][0]["loc"][-1] == "samples"


def firewaltz_game(c: TestClient, variants: dict[str, str] | None = None) -> tuple[Game, list[float]]:
    """Mons played late: the Germans attack, so their plan may hold a Firewaltz; aimed (from the German rear
    edge, the table's own frame) at a British stand."""
    g = new_game(c, {"scenario": "mons-1914", "period": "late", "variants": variants or {}})
    british = next(p for ref, p in SCENARIOS["mons-1914"].placements.items() if "/gb/" in ref)
    grid = [round(british["center"][0], 1), round(british["center"][1], 1)]
    item = {"kind": "firewaltz", "grid": grid, "target": "trench-line"}
    write(c, g, "attacker", [{"arrival_turn": 1, "item": item}])
    return g, grid


def test_a_german_late_war_firewaltz_is_rehearsed_by_the_readings_asked_for(client: TestClient) -> None:
    c = client
    g, _ = firewaltz_game(c)
    r = c.post(url(g, "attacker"), headers=g.attacker, json={"turns": 1})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["not_rehearsed"] == []  # it used to be skipped as "the item has no grid reference"
    volley = body["turn_by_turn"][0]["volleys"][0]
    assert volley["what"].startswith("Firewaltz on a trench line") and volley["deviates"] is True
    assert volley["stands"] and body["turn_by_turn"][0]["stands"]
    told = " ".join(body["assumptions"])
    assert "Firewaltz item is one attack" in told and "planned-fire-deviation: deviates" in told
    assert body["readings"]["planned-fire-deviation"] == "deviates"
    # The request picks the other reading: the attack falls where it was planned.
    asked = {"turns": 1, "variants": {"planned-fire-deviation": "pre-registered"}}
    planned = c.post(url(g, "attacker"), headers=g.attacker, json=asked).json()
    assert planned["readings"]["planned-fire-deviation"] == "pre-registered"
    assert planned["turn_by_turn"][0]["volleys"][0]["deviates"] is False
    aimed = volley["stands"][0]

    def killed(answer: dict[str, Any]) -> float:
        return next(s["killed"] for s in answer["turn_by_turn"][0]["stands"] if s["stand"] == aimed)

    assert killed(planned) > killed(body)
    # So does the game, by its variants.
    g2, _ = firewaltz_game(c, {"planned-fire-deviation": "pre-registered"})
    by_game = c.post(url(g2, "attacker"), headers=g2.attacker, json={"turns": 1}).json()
    assert by_game["readings"]["planned-fire-deviation"] == "pre-registered"
    bad = c.post(url(g, "attacker"), headers=g.attacker, json={"variants": {"planned-fire-deviation": "x"}})
    assert bad.status_code == 422 and bad.json()["errors"][0]["loc"][-1] == "planned-fire-deviation"


def test_the_rule_set_lists_the_rehearsals_readings_as_errata(client: TestClient) -> None:
    errata = {e["id"]: e for e in client.get("/api/v1/rulesets/flanders-fields").json()["errata"]}
    for erratum, default, other in (
        ("artillery-two-actions", "fire-twice", "fire-once"),
        ("artillery-roll-per", "battery", "brigade"),
        ("planned-fire-deviation", "deviates", "pre-registered"),
        ("firewaltz-strong-point-cover", "hard", "fortified"),
    ):
        e = errata[erratum]
        assert e["default"] == default and [r["id"] for r in e["readings"]] == [default, other]
        assert all(r["source"].startswith("Flanders Fields") and r["text"] for r in e["readings"])
