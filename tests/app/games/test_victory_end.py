"""Every kind of a scenario's victory condition ends a game with its winner, in both rule sets with a score
(issue 89: "a side broken" and "points reached" were never seen to end one): an objective taken, points reached
(by a first-taken objective, an objective held for a number of turns and a side's secret objective alike), a side
broken; the referee ends the game on the condition met (the call the board's "End the game: … wins" writes), and
every seat's result, its result line and the report say the condition's winner and why. When each kind is met is
the rules tier's (tests/rules/core/test_victory.py); the taps, the browser's (tests/frontend/test_victory_end.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.app.games.conftest import Game, new_game, result_line, start_game
from tests.app.games.test_play_to_a_result import a_stand, move, score

RULES = Path(__file__).parents[3] / "rules"
MONS = RULES / "flanders_fields/data/scenarios/mons-1914.json"
FERME = RULES / "earth2mm/data/scenarios/earth2mm-demo-ferme.json"
FARM = {  # a side's secret objective at a free spot of the Mons table
    "type": "Feature",
    "geometry": {"type": "Point", "coordinates": [60.0, 60.0]},
    "properties": {"name": "Hold the farm", "vp": 2, "scored": "first_taken"},
}


def scenario(
    http: TestClient, path: Path, sid: str, scored: dict[str, dict[str, Any]], *conditions: Any
) -> None:
    """The scenario of `path` as `sid`, its objectives' scoring replaced by `scored` (by id), with `conditions`."""
    doc = json.loads(path.read_text())
    for f in doc["table_objectives"]["features"]:
        f["properties"] = {**f["properties"], **scored.get(f["id"], {})}
    made = http.post("/api/v1/scenarios", json={**doc, "id": sid, "victory_conditions": list(conditions)})
    assert made.status_code == 201, made.text


def onto_bridge_1(http: TestClient, g: Game) -> None:
    move(http, g, a_stand(http, g, "attacker", "infantry-platoon"), 40.0, 120.0, 90.0)


def onto_bridge_2(http: TestClient, g: Game) -> None:
    move(http, g, a_stand(http, g, "attacker", "infantry-platoon"), 80.0, 120.0, 90.0)


def a_turn_on_bridge_1(http: TestClient, g: Game) -> None:
    onto_bridge_1(http, g)
    turn_ends(http, g)


def turn_ends(http: TestClient, g: Game) -> None:
    turn = http.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()
    while turn["turn"] == 1:  # the referee moves the game on until turn 1 has ended
        r = http.post(
            f"/api/v1/games/{g.id}/turn/advance", headers=g.referee, json={"version": turn["version"]}
        )
        assert r.status_code == 200, r.text
        turn = r.json()["turn"]


def a_defender_platoon_destroyed(http: TestClient, g: Game) -> None:
    platoon = a_stand(http, g, "defender", "infantry-platoon")
    for _ in range(3):  # three suppressions kill a stand (Flanders Fields)
        r = http.post(
            f"/api/v1/games/{g.id}/units/{platoon['id']}/markers",
            headers=g.referee,
            json={"delta": 1, "override": True},
        )
        assert r.status_code == 200, r.text


def the_farm_secretly_taken(http: TestClient, g: Game) -> None:
    move(http, g, a_stand(http, g, "attacker", "infantry-platoon"), 60.0, 60.0, 90.0)


def into_the_ferme(http: TestClient, g: Game) -> None:
    units = http.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    for i, u in enumerate(u for u in units if u["side"] == "defender" and u["base"] == "elite-inf"):
        move(http, g, u, 59.0 + 2 * i, 100.0, 270.0)  # the farm's garrison falls back
    move(http, g, a_stand(http, g, "attacker", "line-inf"), 62.0, 76.0, 90.0)


def a_bound_in_the_ferme(http: TestClient, g: Game) -> None:
    into_the_ferme(http, g)
    turn_ends(http, g)


Case = tuple[Path, dict[str, dict[str, Any]], dict[str, Any], Callable[[TestClient, Game], None], str, str]
CASES: dict[str, Case] = {
    "ff-objective-taken": (
        MONS,
        {},
        {"kind": "objective_taken", "objective": "bridge-1", "side": "attacker"},
        onto_bridge_1,
        "attacker",
        "the attacker took Bridge 1, in turn 1",
    ),
    "ff-points-first-taken": (
        MONS,
        {"bridge-2": {"scored": "first_taken", "vp": 2}},
        {"kind": "points", "points": 2},
        onto_bridge_2,
        "attacker",
        "the attacker reached 2 victory points first, in turn 1",
    ),
    "ff-points-held-turns": (
        MONS,
        {"bridge-1": {"scored": "held_turns", "turns": 1, "vp": 2}},
        {"kind": "points", "points": 2},
        a_turn_on_bridge_1,
        "attacker",
        "the attacker reached 2 victory points first, in turn 1",
    ),
    "ff-points-secret": (
        MONS,
        {},
        {"kind": "points", "points": 2},
        the_farm_secretly_taken,
        "attacker",
        "the attacker reached 2 victory points first, in turn 1",
    ),
    "ff-side-broken": (
        MONS,
        {},
        {"kind": "side_broken", "side": "defender", "stands_lost": 1},
        a_defender_platoon_destroyed,
        "attacker",
        "the defender has lost 1% of its stands: the attacker wins, in turn 1",
    ),
    "2mm-objective-taken": (
        FERME,
        {},
        {"kind": "objective_taken", "objective": "ferme-du-bois", "side": "attacker"},
        into_the_ferme,
        "attacker",
        "the attacker took Ferme du Bois, in bound 1",  # the book's turn: it read "in turn 1" before
    ),
    "2mm-points": (
        FERME,
        {"ferme-du-bois": {"scored": "each_turn", "vp": 2}},
        {"kind": "points", "points": 2},
        a_bound_in_the_ferme,
        "attacker",
        "the attacker reached 2 victory points first, in bound 1",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_kind_of_victory_condition_ends_the_game_with_its_winner_for_every_seat(
    sqlite_client: TestClient, case: str
) -> None:
    http = sqlite_client
    path, scored, condition, play, winner, said = CASES[case]
    sid = f"victory-{case}"
    scenario(http, path, sid, scored, condition)
    g = new_game(http, {"scenario": sid})
    if case == "ff-points-secret":  # the referee's, at set-up
        given = http.post(
            f"/api/v1/games/{g.id}/objectives/secret",
            headers=g.referee,
            json={"side": "attacker", "objective": FARM},
        )
        assert given.status_code == 201, given.text
    start_game(http, g)
    play(http, g)
    met = score(http, g, g.defender)["met"]
    assert [(m["number"], m["winner"]) for m in met] == [(1, winner)], met
    assert said in met[0]["words"]
    ended = http.post(
        f"/api/v1/games/{g.id}/score/conditions", headers=g.referee, json={"condition": 1, "choice": "end"}
    )
    assert ended.status_code == 200, ended.text
    for seat, page in ((g.attacker, "map"), (g.defender, "map"), (g.referee, "referee")):
        result = http.get(f"/api/v1/games/{g.id}/result", headers=seat).json()
        assert (result["ended_by"], result["winner"]) == ("condition", winner), result
        assert result["reason"] == said and result["source"] == "The scenario's victory condition 1"
        assert said[:1].upper() + said[1:] in result_line(http, g, page, seat)
    story = http.get(f"/api/v1/games/{g.id}/report", headers=g.defender).json()["story"]
    assert f"the scenario's victory condition 1: {said}" in story["ending"], story["ending"]
