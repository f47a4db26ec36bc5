"""A scenario's victory condition met in a game (issue 69; its kinds are proved at the rules tier,
tests/rules/core/test_victory.py): every seat is told it, the game goes on until the referee chooses, in one
tap, to play on (logged, chosen once) or to end it with the condition's result, which the result names."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient

from tests.app.games.conftest import new_game, start_game
from tests.app.games.test_play_to_a_result import a_stand, move, objective, score
from tests.app.test_score_panel import fragment, words

MONS = Path(__file__).parents[3] / "rules/flanders_fields/data/scenarios/mons-1914.json"


def test_a_condition_met_is_told_and_the_referee_plays_on_or_ends_the_game_on_it(
    sqlite_client: TestClient,
) -> None:
    http = sqlite_client
    doc = json.loads(MONS.read_text())
    bridge = doc["table_objectives"]["features"][0]
    bridge["properties"] = {
        "name": "Bridge 1",
        "vp": 2,
        "scored": "held_turns",
        "turns": 2,
        "consecutive": True,
    }
    taken = {"kind": "objective_taken", "objective": "bridge-1", "side": "defender"}
    made = http.post("/api/v1/scenarios", json={**doc, "id": "mons-sudden", "victory_conditions": [taken]})
    assert made.status_code == 201, made.text
    g = new_game(http, {"scenario": "mons-sudden"})
    # In set-up the referee's edit of the table's objectives keeps the one a condition names.
    only_2 = {"type": "FeatureCollection", "features": doc["table_objectives"]["features"][1:]}
    edit = {"version": g.body["game"]["version"], "table_objectives": only_2}
    r = http.patch(f"/api/v1/games/{g.id}", headers=g.referee, json=edit)
    assert (r.status_code, r.json()["field"]) == (422, "table_objectives"), r.text
    start_game(http, g)
    move(http, g, a_stand(http, g, "defender", "infantry-platoon"), 40.0, 120.0, 270.0)  # onto bridge 1
    s = score(http, g, g.attacker)
    assert (objective(s, "bridge-1")["turns"], objective(s, "bridge-1")["consecutive"]) == (2, True)
    said = "Scenario victory condition 1: the defender took Bridge 1, in turn 1."
    assert [(m["number"], m["winner"], m["words"], m["played_on"]) for m in s["met"]] == [
        (1, "defender", said, False)
    ]
    assert s["status"] == "playing"  # nothing ends by itself
    # Every seat is told; only the referee is offered the choice, one tap each.
    seen = fragment(http, g, g.attacker, "map")
    assert said in words(seen) and "victory condition met" in words(seen) and "/score/conditions" not in seen
    offered = fragment(http, g, g.referee, "board")
    assert offered.count(f'data-api="/api/v1/games/{g.id}/score/conditions"') == 2
    assert "End the game: Defender wins Play on" in words(offered), words(offered)
    # Above the board, not in the score's card (the newcomer pass: the referee missed it and played on).
    dashboard, alert = offered.split("data-score-met-alert", 1)
    assert "/score/conditions" not in dashboard and alert.count("/score/conditions") == 2
    assert "data-score-met-alert" in http.get(f"/games/{g.id}/referee").text
    url = f"/api/v1/games/{g.id}/score/conditions"
    http.cookies.clear()
    assert http.post(url, headers=g.defender, json={"condition": 1, "choice": "end"}).status_code == 403
    for beyond in (11, 2):  # past the format's ten, and past this scenario's one ("not met" before)
        r = http.post(url, headers=g.referee, json={"condition": beyond, "choice": "play-on"})
        assert (r.status_code, r.json()["field"]) == (422, "condition"), r.text
    on = http.post(url, headers=g.referee, json={"condition": 1, "choice": "play-on"})
    assert on.status_code == 200, on.text
    assert on.json()["event"]["kind"] == "victory-played-on" and on.json()["score"]["met"][0]["played_on"]
    assert http.post(url, headers=g.referee, json={"condition": 1, "choice": "play-on"}).status_code == 409
    assert "The referee chose to play on." in words(fragment(http, g, g.attacker, "map"))
    http.cookies.clear()
    ended = http.post(url, headers=g.referee, json={"condition": 1, "choice": "end"})
    assert ended.status_code == 200 and ended.json()["score"]["status"] == "finished", ended.text
    result = http.get(f"/api/v1/games/{g.id}/result", headers=g.attacker).json()
    assert (result["ended_by"], result["winner"]) == ("condition", "defender")
    assert result["source"] == "The scenario's victory condition 1"
    said = (
        "ended by the referee on the scenario's victory condition 1: the defender took Bridge 1, in turn 1 ("
    )
    assert said in result["words"], result["words"]
