"""A side's secret objective at the game's end (issue 89): one contested by an enemy stand at its edge is offered
its calls in the board's end list (a call reveals it to both sides) and the end waits for none, so the game always
ends; the result says whose secret it was. That its own side's stand on it holds it, not contests it, is the rules tier's
(tests/rules/table/test_objectives.py); the referee's taps, the browser's (tests/frontend/test_end_of_game.py)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.app.games.conftest import new_game, start_game
from tests.app.games.test_play_to_a_result import a_stand, finish, move, objective, score
from tests.app.test_score_panel import fragment, words

FARM = {
    "type": "Feature",
    "geometry": {"type": "Point", "coordinates": [60.0, 60.0]},
    "properties": {"name": "The Farm", "vp": 3, "scored": "game_end"},
}


def test_a_contested_secret_objective_is_called_from_the_end_list_and_the_result_says_whose_it_was(
    sqlite_client: TestClient,
) -> None:
    http = sqlite_client
    g = new_game(http)
    given = http.post(
        f"/api/v1/games/{g.id}/objectives/secret",
        headers=g.referee,
        json={"side": "defender", "objective": FARM},
    )
    assert given.status_code == 201, given.text
    farm = given.json()["id"]
    start_game(http, g)
    call = f"/api/v1/games/{g.id}/score/calls"
    # Held beyond doubt, a secret objective is not called before it scores: the call would reveal it.
    refused = http.post(call, headers=g.referee, json={"objective_id": farm, "side": "defender"})
    assert refused.status_code == 409 and "only while contested" in refused.json()["detail"], refused.text
    move(http, g, a_stand(http, g, "defender", "infantry-platoon"), 60.0, 60.0, 90.0)
    move(
        http, g, a_stand(http, g, "attacker", "infantry-platoon"), 60.0, 61.5, 270.0
    )  # its base 0.75 cm off it
    assert objective(score(http, g, g.referee), farm)["settled"] == "contested"
    # The end list offers its calls (before the fix, none, and "Yes, end the game" waited for it for ever); the end
    # waits for none, as the server's end (which reads the score every seat reads) does not.
    board = fragment(http, g, g.referee, "board")
    assert 'data-end-settle data-contested="0"' in board
    listed = words(board).split("Call it, or leave it as the stands hold it:")[1]
    assert "The Farm" in listed and "Secret: a call reveals it to both sides." in listed
    assert "Defender's Nobody's" in listed, listed
    assert farm not in http.get(f"/api/v1/games/{g.id}/score", headers=g.attacker).text
    called = http.post(call, headers=g.referee, json={"objective_id": farm, "side": "defender"})
    assert called.status_code == 200, called.text
    seen = objective(score(http, g, g.attacker), farm)  # the call, in every seat's log, revealed it
    assert (seen["revealed"], seen["holder"], seen["settled"]) == (True, "defender", "called")
    finish(http, g)
    result = http.get(f"/api/v1/games/{g.id}/result", headers=g.attacker).json()
    said = next(o["settled_words"] for o in result["objectives"] if o["id"] == farm)
    assert said == "the defender's secret objective, called by the referee for the defender"
    assert result["points"]["defender"] >= 3
