"""Vimy Ridge through the API, as a club plays it without its map: the game made from the lobby's form, its
counters and the club's key hexes entered, a bombardment and an attack played and undone, a night turn's
refusals, the running tally and an instant win. The hex numbers and counters are a club example (a test
fixture), not map facts; the rules' answers are proved in tests/rules (the golden play script)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests import csrf
from tests.app.games.conftest import new_game, result_line, start_game

HEXES = {
    "peaks": [f"{1101 + i}" for i in range(13)],
    "vimy_town": [f"{1801 + i}" for i in range(12)],
    "petit_vimy_town": ["1534", "1535"],
    "la_folie_woods": ["1207"],
    "easternmost": [f"{2001 + i}" for i in range(10)],
    "trench_hexsides": [["0910", "1010"]],
    "turn_track": [
        "Morning",
        "Day",
        "Night",
        "Morning",
        "Day",
        "Night",
        "Morning",
        "Day",
        "Night",
        "Morning",
        "Day",
    ],
    "artillery_track": [[8, 5], [8, 5], [4, 2]] + [[8, 5]] * 8,
    "aircraft": 3,
}


def test_a_vimy_game_from_the_lobby_is_played_undone_and_won(sqlite_client: TestClient) -> None:
    http = sqlite_client
    assert 'name="ruleset" value="vimy-ridge"' in http.get("/").text
    g = new_game(http, {"name": "Vimy", "ruleset": "vimy-ridge"})
    api = f"/api/v1/games/{g.id}"

    def counter(side: str, name: str, division: str, hexno: str) -> int:
        made = http.post(
            f"{api}/units", headers=g.referee, json={"side": side, "name": name, "level": "counter"}
        )
        assert made.status_code == 201, made.text
        uid = int(made.json()["unit"]["id"])
        values = {"hex": hexno, "division": division, "attack": 4, "defence": 4, "attack_depleted": 2}
        edited = http.put(
            f"{api}/units/{uid}", headers=g.referee, json={"version": 1, **values, "defence_depleted": 2}
        )
        assert edited.status_code == 200, edited.text
        return uid

    first = counter("attacker", "1st Bn", "1st Canadian", "0910")
    second = counter("attacker", "2nd Bn", "1st Canadian", "1009")
    other = counter("attacker", "18th Bn", "2nd Canadian", "0911")
    german = counter("defender", "RIR 261", "79th Reserve", "1010")

    # The referee board reads the counters in Vimy's words (the rule set's report), with no table.
    signed_in = http.post(
        "/join", data=csrf.form(http, {"code": g.body["referee_token"]}), follow_redirects=False
    )
    assert signed_in.status_code == 303, signed_in.text
    board = http.get(f"/games/{g.id}/referee")
    assert board.status_code == 200, board.text[-2000:]
    # A counter without a group unit is its own block: its name in the head, its words on its tile, each once.
    assert board.text.count(">RIR 261</span>") == 1 and board.text.count("Division: 79th Reserve") == 1
    http.cookies.clear()

    def roll(resolver: str, body: dict[str, Any], who: dict[str, str]) -> Any:
        return http.post(f"{api}/resolve/{resolver}", headers=who, json=body)

    # The club's values, entered by the referee in set-up (as its editor saves them): one the book prints
    # otherwise is refused naming the field.
    version = http.get(f"{api}/turn", headers=g.referee).json()["version"]
    wrong = {**HEXES, "artillery_track": [[8, 5], [7, 5]] + [[8, 5]] * 9}
    refused = http.patch(api, headers=g.referee, json={"version": version, "club": wrong})
    assert refused.status_code == 422 and "artillery_track" in refused.json()["field"], refused.text
    entered = http.patch(api, headers=g.referee, json={"version": version, "club": HEXES})
    assert entered.status_code == 200, entered.text

    turn = start_game(http, g)
    assert (turn["turn"], turn["side_to_move"], turn["step"]["id"]) == (1, "attacker", "movement")
    version = http.get(f"{api}/turn", headers=g.referee).json()["version"]
    # The German seat may not move the Allied phase on: told whose turn it is as the book and its page name
    # the side (it said "the attacker's" where the page says "The Canadian player ...": session 21's hostile pass).
    forged = http.post(f"{api}/turn/advance", headers=g.defender, json={"version": version})
    assert (
        forged.status_code == 403 and forged.json()["detail"] == "Wait for your turn: it is the Canadian's."
    ), forged.text
    turn = http.post(f"{api}/turn/advance", headers=g.attacker, json={"version": version}).json()["turn"]
    assert turn["step"]["id"] == "bombardment"  # Zero Hour: the Allied movement phase moves nothing (15.2)

    # The page of counters reads the club's track: its first box as printed (11.1), night where the club's moon is.
    track = http.get(f"{api}/counters", headers=g.attacker).json()["track"]
    assert [(t["label"], t["dark"]) for t in track[:3]] == [
        ("9 April (Morning)", False),
        ("9 April (Day)", False),
        ("9 April (Night)", True),
    ]

    # A bombardment with gas at Zero Hour (two markers, a 1 hits), then undone.
    shot = {
        "fields": {"markers": 2, "gas": True, "observed": "observed"},
        "dice": [1, 6],
        "target_id": german,
    }
    hit = roll("bombardment", shot, g.attacker)
    assert hit.status_code == 200, hit.text
    assert {"unit": german, "field": "depleted", "before": False, "after": True} in hit.json()["changes"]
    undone = http.post(f"{api}/events/{hit.json()['event_id']}/undo", headers=g.referee)
    assert undone.status_code == 200, undone.text
    units = {u["id"]: u for u in http.get(f"{api}/units", headers=g.defender).json()}
    assert units[german]["depleted"] is False

    # The combat phase: one division's attack across the trench hexside (filled on the trench line), undone.
    version = http.get(f"{api}/turn", headers=g.referee).json()["version"]
    http.post(f"{api}/turn/advance", headers=g.attacker, json={"version": version})
    mixed = {"fields": {"attackers": [first, other]}, "dice": [1], "unit_id": first, "target_id": german}
    assert "18.3" in roll("attack", mixed, g.attacker).json()["detail"]
    attack = {"fields": {"attackers": [first, second]}, "dice": [1], "unit_id": first, "target_id": german}
    fought = roll("attack", attack, g.attacker)
    assert fought.status_code == 200, fought.text
    resolution = fought.json()["resolution"]
    assert resolution["outcome_key"] == "Ex" and resolution["line"] == "Trench hexside, Woods"
    # The exact odds of every result on the +4, +5 column: "1 ... Ex" and "2 ... Ex" of the six die rows.
    assert resolution["probabilities"]["Ex"] == pytest.approx(2 / 6)
    assert sum(resolution["probabilities"].values()) == pytest.approx(1)
    assert http.post(f"{api}/events/{fought.json()['event_id']}/undo", headers=g.referee).status_code == 200

    # To the night turn (3): its refusals.
    for _ in range(10):
        version = http.get(f"{api}/turn", headers=g.referee).json()["version"]
        moved_on = http.post(f"{api}/turn/advance", headers=g.referee, json={"version": version})
        assert moved_on.status_code == 200, moved_on.text
    turn = http.get(f"{api}/turn", headers=g.referee).json()
    assert (turn["turn"], turn["side_to_move"], turn["step"]["id"]) == (3, "attacker", "movement")
    version = next(u for u in http.get(f"{api}/units", headers=g.attacker).json() if u["id"] == second)[
        "version"
    ]
    night_move = http.put(
        f"{api}/units/{second}", headers=g.attacker, json={"version": version, "hex": "1011"}
    )
    assert night_move.status_code == 409 and "13.1" in night_move.json()["detail"], night_move.text
    assert len(night_move.json()["detail"]) <= 120
    for _ in ("bombardment", "combat"):
        now = http.get(f"{api}/turn", headers=g.referee).json()["version"]
        http.post(f"{api}/turn/advance", headers=g.attacker, json={"version": now})
    night_attack = roll("attack", attack, g.attacker)
    assert night_attack.status_code == 409 and "13.1" in night_attack.json()["detail"], night_attack.text

    # The tally, then an instant win: an Allied counter enters a Vimy town hex (by the referee's override at night).
    state = http.get(f"{api}/state", headers=g.attacker).json()
    assert state["board"]["tally"]["points"] == {"attacker": 0, "defender": 0}
    win = http.put(
        f"{api}/units/{second}", headers=g.referee, json={"version": version, "hex": "1801", "override": True}
    )
    assert win.status_code == 200, win.text
    tally = http.get(f"{api}/state", headers=g.defender).json()["board"]["tally"]
    assert tally["outcome"]["winner"] == "attacker" and "instant win" in tally["outcome"]["reason"]
    # The same tally as the game's score (GET /score, the shape every rule set's score takes).
    score = http.get(f"{api}/score", headers=g.defender)
    assert score.status_code == 200, score.text
    held = {o["id"]: o["holder"] for o in score.json()["objectives"]}
    assert held == {
        "peaks": None,
        "supply-1534": None,
        "easternmost": None,
        "vimy-town": "attacker",
        "petit-vimy-town": None,
    }
    # 12.1 "The Allied player wins instantly as of the moment ...": the game is over with that act, its result
    # the win and its rule, no referee's End needed (and none taken).
    result = http.get(f"{api}/result", headers=g.attacker).json()
    assert result["winner"] == "attacker" and "12.1" in result["source"], result
    assert result["ended_by"] == "decided" and "instant win" in result["reason"], result
    assert http.get(f"{api}/turn", headers=g.referee).json()["status"] == "finished"
    version = http.get(f"{api}/turn", headers=g.referee).json()["version"]
    assert http.post(f"{api}/finish", headers=g.referee, json={"version": version}).status_code == 409
    # Issue 62: each side's counters page and the referee's board say who won in the book's names (12.1 "The
    # Canadian player wins"), why and the rule; the report in the same words.
    for headers, page in ((g.attacker, "counters"), (g.defender, "counters"), (g.referee, "referee")):
        said = result_line(http, g, page, headers)
        assert said.startswith("Game over · Canadian victory. Instant win: an Allied unit entered"), said
        assert "12.1" in said and "ttacker" not in said, said
    report = result_line(http, g, "report", g.defender)
    assert "Canadian victory" in report and "ttacker" not in report, report


def _counter(cid: str, division: str, hexno: str) -> dict[str, Any]:
    state = {"hex": hexno, "division": division, "attack": 4, "defence": 3, "attack_depleted": 2}
    return {"id": cid, "name": cid, "level": "counter", "kind": "infantry", "state": state}


def test_a_club_shares_its_values_as_a_scenario_file(sqlite_client: TestClient) -> None:
    """The club's counters and key hexes as a scenario file (docs/scenario-format.md, `board`): a value the
    book prints otherwise is refused naming the field; a game made from it starts with them."""
    http = sqlite_client
    doc: dict[str, Any] = {
        "format": "firestep-scenario/1",
        "title": "Our Vimy (club example)",
        "ruleset": "vimy-ridge",
        "period": None,
        "table": {"width_cm": 1, "length_cm": 1},
        "board": {**HEXES, "peaks": HEXES["peaks"][:12]},
        "sides": {
            "attacker": {"nationality": "allied", "forces": [_counter("ca-1", "1st Canadian", "0910")]},
            "defender": {"nationality": "german", "forces": [_counter("de-261", "79th Reserve", "1534")]},
        },
    }
    refused = http.post("/api/v1/scenarios", json=doc)
    assert refused.status_code == 422 and "board.peaks" in refused.text, refused.text
    doc["board"] = HEXES
    # Its counters as their set-up places them (19.1: "one German unit per hex"): a second one refused.
    crowded = {
        **doc,
        "sides": {
            **doc["sides"],
            "defender": {
                "nationality": "german",
                "forces": [
                    _counter("de-261", "79th Reserve", "1534"),
                    _counter("de-262", "79th Reserve", "1534"),
                ],
            },
        },
    }
    refused = http.post("/api/v1/scenarios", json=crowded)
    assert refused.status_code == 422 and "19.1" in refused.json()["detail"], refused.text
    assert "sides.defender.forces.1" in refused.text
    stored = http.post("/api/v1/scenarios", json=doc)
    assert stored.status_code == 201, stored.text
    g = new_game(http, {"scenario": stored.json()["id"]})
    state = http.get(f"/api/v1/games/{g.id}/state", headers=g.referee).json()
    assert state["board"]["peaks"] == HEXES["peaks"] and state["board"]["aircraft"] == 3
    units = http.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    assert {u["hex"] for u in units} == {"0910", "1534"}


def test_an_eliminated_counter_enters_as_a_replacement_from_its_card(sqlite_client: TestClient) -> None:
    """The card of an eliminated counter offers its return with the hex it enters, in one act (issue 62: it
    offered a hexless "Return depleted" that left it off the map with no card to bring it on): in the night's
    Allied movement phase, refused outside an Allied trench hex (11.3), then in one, depleted."""
    http = sqlite_client
    g = new_game(http, {"name": "Vimy", "ruleset": "vimy-ridge"})
    api = f"/api/v1/games/{g.id}"
    made = {}
    for side, name, division, hexno in (
        ("attacker", "1st Bn", "1st Canadian", "0501"),
        ("defender", "RIR 261", "79th Reserve", "1301"),
    ):
        unit = http.post(
            f"{api}/units", headers=g.referee, json={"side": side, "name": name, "level": "counter"}
        )
        uid = int(unit.json()["unit"]["id"])
        values = {"hex": hexno, "division": division, "attack": 4, "defence": 3, "attack_depleted": 2}
        http.put(
            f"{api}/units/{uid}", headers=g.referee, json={"version": 1, **values, "defence_depleted": 1}
        )
        made[name] = uid
    version = http.get(f"{api}/turn", headers=g.referee).json()["version"]
    assert http.patch(api, headers=g.referee, json={"version": version, "club": HEXES}).status_code == 200
    start_game(http, g)
    allied = made["1st Bn"]
    gone = http.get(f"{api}/units", headers=g.referee).json()
    version = next(u["version"] for u in gone if u["id"] == allied)
    out = {
        "version": version,
        "eliminated": True,
        "override": True,
    }  # the referee's override, as a result would
    assert http.put(f"{api}/units/{allied}", headers=g.referee, json=out).status_code == 200
    for _ in range(20):  # on to the night's Allied movement phase (turn 3 on the club's track)
        turn = http.get(f"{api}/turn", headers=g.referee).json()
        if (turn["turn"], turn["side_to_move"], turn["step"]["id"]) == (3, "attacker", "movement"):
            break
        http.post(f"{api}/turn/advance", headers=g.referee, json={"version": turn["version"]})
    card = http.get(f"{api}/units/{allied}/acts", headers=g.attacker).json()
    back = [o for o in card["offers"] if o["kind"] == "place" and not o["refused"]]
    assert [(o["label"], o["values"]) for o in back] == [("Enter as a replacement", {"eliminated": False})]
    assert card["edits"] == []  # no hexless return
    version = next(
        u["version"] for u in http.get(f"{api}/units", headers=g.attacker).json() if u["id"] == allied
    )
    entry = {"version": version, "hex": "0502", "eliminated": False}
    refused = http.put(f"{api}/units/{allied}", headers=g.attacker, json=entry)
    assert refused.status_code == 409 and "11.3" in refused.json()["detail"], refused.text
    entered = http.put(f"{api}/units/{allied}", headers=g.attacker, json={**entry, "hex": "0910"})
    assert entered.status_code == 200, entered.text
    assert (entered.json()["unit"]["hex"], entered.json()["unit"]["depleted"]) == ("0910", True)
