"""How a game is won, over the API (issue 55): Mons 1914 played to a result (a German stand onto a bridge
changes the score live on another device's stream, the referee's call on the contested bridge recorded, the
game ended with its winner in the report), the same for the 2mm demonstration battle (ended by itself as its
last bound ends), and the score's answers refused to a hostile client."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from tests.app.games.conftest import Game, new_game, result_line, start_game
from tests.app.games.test_live_and_concurrency import Listener
from tests.app.test_stream_frames import caught_up, stream

FERME = Path(__file__).parents[3] / "rules/earth2mm/data/scenarios/earth2mm-demo-ferme.json"


def score(http: Any, g: Game, who: dict[str, str] | None = None) -> dict[str, Any]:
    r = http.get(f"/api/v1/games/{g.id}/score", headers=who or g.defender)
    assert r.status_code == 200, r.text
    return dict(r.json())


def objective(s: dict[str, Any], oid: str) -> dict[str, Any]:
    return next(o for o in s["objectives"] if o["id"] == oid)


def points(s: dict[str, Any]) -> dict[str, int]:
    return {side["side"]: side["points"] for side in s["sides"]}


def a_stand(http: Any, g: Game, side: str, base: str) -> dict[str, Any]:
    units = http.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    return next(u for u in units if u["side"] == side and u["base"] == base and u["x"] is not None)


def move(http: Any, g: Game, unit: dict[str, Any], x: float, y: float, facing: float) -> dict[str, Any]:
    body = {"x": x, "y": y, "facing_deg": facing, "override": True}
    r = http.post(f"/api/v1/games/{g.id}/units/{unit['id']}/move", headers=g.referee, json=body)
    assert r.status_code == 200, r.text
    return dict(r.json())


def scored_frame(listener: Listener, oid: str, holder: str | None) -> dict[str, Any]:
    """The first frame whose score has objective `oid` held by `holder` (frames without a score skipped)."""
    for _ in range(20):
        _, frame = listener.take(1)[0]
        if "score" in frame and objective(frame["score"], oid)["holder"] == holder:
            return frame
    raise AssertionError(f"no frame with {oid} held by {holder}")


def finish(http: Any, g: Game) -> None:
    version = http.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["version"]
    r = http.post(f"/api/v1/games/{g.id}/finish", headers=g.referee, json={"version": version})
    assert r.status_code == 200, r.text


@pytest.mark.storage  # the score read from the log and carried live (PostgreSQL: woken by NOTIFY)
def test_mons_is_played_to_a_result_the_bridges_scored_live(live_url: str) -> None:
    with httpx.Client(base_url=live_url, timeout=30) as http:
        g = new_game(http)
        start_game(http, g)
        before = score(http, g)
        assert [o["id"] for o in before["objectives"]] == ["bridge-1", "bridge-2"]
        assert objective(before, "bridge-1")["geometry"]["type"] == "Polygon"
        assert points(before) == {"attacker": 0, "defender": 0}
        assert [c["side"] for c in before["clocks"] if c["running"]] == ["attacker"]  # the side to move's
        # Another device (the British player's map) follows the stream.
        british = Listener(stream(live_url, g, "map"), g.defender)
        caught_up(http, g, (british, g.defender))

        german = a_stand(http, g, "attacker", "infantry-platoon")  # a 3 x 1.5 cm base
        move(http, g, german, 40.0, 120.0, 90.0)  # onto bridge 1 (x 37..43, y 117..123)
        frame = scored_frame(british, "bridge-1", "attacker")
        assert frame["kind"] == "move" and points(frame["score"]) == {"attacker": 1, "defender": 0}
        assert objective(frame["score"], "bridge-1")["stands"] == [german["id"]]

        # A British platoon 0.25 cm onto the bridge's far edge: nobody holds it, and it is contested.
        tommy = a_stand(http, g, "defender", "infantry-platoon")
        move(http, g, tommy, 40.0, 123.5, 270.0)
        bridge = objective(scored_frame(british, "bridge-1", None)["score"], "bridge-1")
        assert bridge["contested"] and bridge["stands"] == []

        # Only the referee calls it; the call is an event of the log, carried live.
        call = {"objective_id": "bridge-1", "side": "attacker"}
        refused = http.post(f"/api/v1/games/{g.id}/score/calls", headers=g.defender, json=call)
        assert refused.status_code == 403
        r = http.post(f"/api/v1/games/{g.id}/score/calls", headers=g.referee, json=call)
        assert r.status_code == 200, r.text
        assert r.json()["event"]["kind"] == "objective-called"
        assert r.json()["event"]["payload"]["side"] == "attacker"
        called = objective(scored_frame(british, "bridge-1", "attacker")["score"], "bridge-1")
        assert called["called_by_referee"] and not called["contested"]
        # The referee's call is undone in one, as any act: the table's contest is back on every device.
        event_id = r.json()["event"]["id"]
        assert (
            http.post(f"/api/v1/games/{g.id}/events/{event_id}/undo", headers=g.defender).status_code == 403
        )
        assert http.post(f"/api/v1/games/{g.id}/events/{event_id}/undo", headers=g.referee).is_success
        uncalled = objective(scored_frame(british, "bridge-1", None)["score"], "bridge-1")
        assert uncalled["contested"] and not uncalled["called_by_referee"]
        r = http.post(f"/api/v1/games/{g.id}/score/calls", headers=g.referee, json=call)
        assert r.status_code == 200, r.text
        assert objective(scored_frame(british, "bridge-1", "attacker")["score"], "bridge-1")[
            "called_by_referee"
        ]

        # The clock has charged the side to move alone; paused by the referee, it stops for everyone, live.
        r = http.post(f"/api/v1/games/{g.id}/clock/pause", headers=g.referee)
        assert r.status_code == 200, r.text
        clocks = {c["side"]: c for c in r.json()["sides"]}
        assert clocks["attacker"]["used_seconds"] > 0 and clocks["defender"]["used_seconds"] == 0
        paused = british.take(1)[0][1]
        assert (
            paused["kind"] == "clock-paused"
            and paused["clock"]["paused"]
            and paused["clock"]["running"] == []
        )
        later = http.get(f"/api/v1/games/{g.id}/clock", headers=g.defender).json()
        assert later["sides"] == r.json()["sides"]  # not a moment charged to anyone while paused

        finish(http, g)
        # Issue 62: the end's frame carries the result line to the pages already open, as the server renders it.
        ended = next(f for _, f in (british.take(1)[0] for _ in range(5)) if f["kind"] == "game-finished")
        assert (
            "Game over · Attacker victory." in ended["result"] and "The attacker wins by 1" in ended["result"]
        )
        result = http.get(f"/api/v1/games/{g.id}/result", headers=g.defender).json()
        assert result["winner"] == "attacker" and result["points"] == {"attacker": 1, "defender": 0}
        assert result["ended_by"] == "referee" and result["ended_at_turn"] == 1
        report = http.get(f"/api/v1/games/{g.id}/report", headers=g.defender).json()
        assert report["result"]["winner"] == "attacker"
        assert report["story"]["ending"] == result["words"] and "the attacker wins" in result["words"]
        assert "The referee called Bridge 1 for the attacker." in report["story"]["turns"][0]["sentences"]
        british.close()


@pytest.mark.long  # six bounds of steps advanced
def test_the_2mm_demo_battle_ends_by_itself_as_its_last_bound_ends(client: TestClient) -> None:
    g = new_game(client, {"scenario": "earth2mm-demo-ferme"})
    start_game(client, g)
    s = score(client, g)
    # "the defender holds them": both objectives the defender's until an attacking stand alone is in one.
    assert s["last_turn"] == 6 and s["turn_word"] == "bound"
    assert points(s) == {"attacker": 0, "defender": 2}
    units = client.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    for i, u in enumerate(u for u in units if u["side"] == "defender" and u["base"] == "elite-inf"):
        move(client, g, u, 59.0 + 2 * i, 100.0, 270.0)  # the farm's garrison falls back
    assert points(score(client, g)) == {"attacker": 0, "defender": 2}  # an empty farm is still the defender's
    attacker = a_stand(client, g, "attacker", "line-inf")
    move(client, g, attacker, 62.0, 76.0, 90.0)  # into the Ferme du Bois
    assert points(score(client, g)) == {"attacker": 1, "defender": 1}
    while client.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["status"] == "playing":
        version = client.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["version"]
        r = client.post(f"/api/v1/games/{g.id}/turn/advance", headers=g.referee, json={"version": version})
        assert r.status_code == 200, r.text
    result = client.get(f"/api/v1/games/{g.id}/result", headers=g.attacker).json()
    assert result["ended_by"] == "last-turn" and result["ended_at_turn"] == 6
    assert result["winner"] is None and result["points"] == {"attacker": 1, "defender": 1}
    story = client.get(f"/api/v1/games/{g.id}/report", headers=g.attacker).json()["story"]
    assert story["ending"].startswith("Game over in bound 6") and "a draw" in story["ending"]
    # Issue 62: the map of either side and the referee's board say it first, with the rule.
    source = result["source"]
    assert source
    for headers, page in ((g.attacker, "map"), (g.defender, "map"), (g.referee, "referee")):
        said = result_line(client, g, page, headers)
        assert said.startswith("Game over · A draw at 1 victory point each. (") and source in said, said
    client.cookies.set(COOKIE_NAME, g.attacker["Authorization"].removeprefix("Bearer "))
    page = client.get(f"/games/{g.id}/report")  # the report page, and its print, end with the result
    client.cookies.clear()
    assert page.status_code == 200 and story["ending"] in page.text
    again = client.post(f"/api/v1/games/{g.id}/finish", headers=g.referee, json={"version": 10_000})
    assert again.status_code == 409


def test_a_hostile_call_is_refused_naming_the_field(client: TestClient) -> None:
    g = new_game(client)
    url = f"/api/v1/games/{g.id}/score/calls"
    not_yet = client.post(url, headers=g.referee, json={"objective_id": "bridge-1", "side": None})
    assert not_yet.status_code == 409  # in set-up: nothing is called before the game starts
    start_game(client, g)
    for body, field in (
        ({"objective_id": "bridge-9", "side": None}, "objective_id"),
        ({"objective_id": "x" * 41, "side": None}, "objective_id"),
        ({"objective_id": "bridge-1", "side": "referee"}, "side"),
        ({"objective_id": "bridge-1"}, "side"),
    ):
        r = client.post(url, headers=g.referee, json=body)
        assert r.status_code == 422, (body, r.text)
        assert field in r.text
        if body["objective_id"] == "bridge-9":  # its choices said once (it read "pick one of ...: pick ...")
            assert r.json()["detail"] == "No such objective in this game: pick bridge-1 or bridge-2.", r.text
    assert client.get(f"/api/v1/games/{g.id}/result", headers=g.referee).status_code == 404


def test_the_game_does_not_end_over_a_contested_objective_whose_call_lapsed(client: TestClient) -> None:
    # Issue 64: the referee called the contested bridge; the stands then changed (the German left, the British
    # stand at its edge alone): the call lapsed and the bridge is contested again. "End the game" is refused
    # naming it until it is called; the report then says how each objective was settled and the story who took
    # which and when; after the end no call is taken.
    g = new_game(client)
    start_game(client, g)
    german, tommy = (
        a_stand(client, g, "attacker", "infantry-platoon"),
        a_stand(client, g, "defender", "infantry-platoon"),
    )
    move(client, g, german, 40.0, 120.0, 90.0)  # onto bridge 1 (x 37..43, y 117..123)
    move(client, g, tommy, 40.0, 123.5, 270.0)  # 0.25 cm onto its far edge: nobody's, contested
    call = f"/api/v1/games/{g.id}/score/calls"
    assert client.post(
        call, headers=g.referee, json={"objective_id": "bridge-1", "side": "attacker"}
    ).is_success
    left = move(client, g, german, 40.0, 100.0, 90.0)
    bridge = objective(score(client, g), "bridge-1")
    assert (bridge["holder"], bridge["settled"], bridge["lapsed_call"]) == (
        "defender",
        "contested",
        "attacker",
    )
    version = client.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["version"]
    refused = client.post(f"/api/v1/games/{g.id}/finish", headers=g.referee, json={"version": version})
    assert refused.status_code == 409
    assert refused.json()["detail"] == "Bridge 1 is contested: call it before the game ends."

    called = client.post(call, headers=g.referee, json={"objective_id": "bridge-1", "side": "defender"})
    assert called.is_success
    finish(client, g)
    result = client.get(f"/api/v1/games/{g.id}/result", headers=g.attacker).json()
    settled = {
        o["id"]: (o["settled"], o["settled_words"], o["first_taken_by"], o["first_taken_turn"])
        for o in result["objectives"]
    }
    assert settled == {
        "bridge-1": ("called", "called by the referee for the defender", "attacker", 1),
        "bridge-2": ("held", "held by nobody", None, None),
    }
    client.cookies.set(COOKIE_NAME, g.attacker["Authorization"].removeprefix("Bearer "))
    page = client.get(f"/games/{g.id}/report").text  # the report in words: in which turn, no "0 of 0" line
    client.cookies.clear()
    assert (
        "first held by the attacker in turn 1." in page and ">0 of 0<" not in page and ">none in it<" in page
    )
    sentences = client.get(f"/api/v1/games/{g.id}/report", headers=g.attacker).json()["story"]["turns"][0]
    told = [s for s in sentences["sentences"] if "Bridge 1" in s]
    assert told == [
        "The attacker took Bridge 1.",
        "Bridge 1 was held by nobody.",
        "The referee called Bridge 1 for the attacker.",
        "The referee's call on Bridge 1 lapsed as the stands moved: they gave it to the defender.",
        "The referee called Bridge 1 for the defender.",
    ]
    late = client.post(call, headers=g.referee, json={"objective_id": "bridge-1", "side": "attacker"})
    assert late.status_code == 409
    over = objective(score(client, g), "bridge-1")
    assert (
        over["settled"] == "called" and not over["contested"]
    )  # nothing left for the board to offer a call on
    # Nor is anything before the end undone, the referee's call or a move (the result was scored on them).
    for event_id in (called.json()["event"]["id"], left["event_id"]):
        undo = client.post(f"/api/v1/games/{g.id}/events/{event_id}/undo", headers=g.referee)
        assert undo.status_code == 409, undo.text
        assert (
            undo.json()["detail"]
            == "The game is over: its result stands, and nothing before the end is undone."
        )
    assert client.get(f"/api/v1/games/{g.id}/result", headers=g.attacker).json()["winner"] == result["winner"]


def test_the_2mm_last_bound_waits_for_the_call_on_the_contested_farm(client: TestClient) -> None:
    # Issue 64: the game's end by itself (its last bound over) waits, as the referee's End does, for the call
    # on an objective contested with no call: the turn says so, the advance and the End are refused naming
    # the farm, and once the referee has called it the next advance ends the game, the farm settled by the call.
    doc = json.loads(FERME.read_text())
    imported = client.post("/api/v1/scenarios", json={**doc, "id": "ferme-one-bound", "turns": 1})
    assert imported.status_code == 201, imported.text
    g = new_game(client, {"scenario": "ferme-one-bound"})
    start_game(client, g)
    units = client.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    for i, u in enumerate(u for u in units if u["side"] == "defender" and u["base"] == "elite-inf"):
        move(client, g, u, 59.0 + 2 * i, 100.0, 270.0)  # the farm's garrison falls back
    move(client, g, a_stand(client, g, "attacker", "line-inf"), 62.0, 80.5, 90.0)  # onto the farm's edge
    farm = objective(score(client, g), "ferme-du-bois")
    assert (farm["holder"], farm["settled"]) == ("attacker", "contested")
    turn = client.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()
    while turn["next"]["action"] == "advance":
        turn = client.post(
            f"/api/v1/games/{g.id}/turn/advance", headers=g.referee, json={"version": turn["version"]}
        ).json()["turn"]
    assert turn["next"]["title"] == "the game ends"
    assert turn["next"]["needs"] == ["the referee's call on Ferme du Bois (contested)"]
    for url, said in (
        ("turn/advance", "Ferme du Bois is contested: the referee calls it before the game ends."),
        ("finish", "Ferme du Bois is contested: call it before the game ends."),
    ):
        r = client.post(f"/api/v1/games/{g.id}/{url}", headers=g.referee, json={"version": turn["version"]})
        assert (r.status_code, r.json()["detail"]) == (409, said)
    call = {"objective_id": "ferme-du-bois", "side": "defender"}
    assert client.post(f"/api/v1/games/{g.id}/score/calls", headers=g.referee, json=call).is_success
    turn = client.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()
    assert "needs" not in turn["next"]
    r = client.post(
        f"/api/v1/games/{g.id}/turn/advance", headers=g.attacker, json={"version": turn["version"]}
    )
    assert r.status_code == 200, r.text
    result = client.get(f"/api/v1/games/{g.id}/result", headers=g.attacker).json()
    assert (result["ended_by"], result["winner"], result["points"]) == (
        "last-turn",
        "defender",
        {"attacker": 0, "defender": 2},
    )
    farm = objective(result, "ferme-du-bois")
    assert (farm["settled"], farm["settled_words"]) == ("called", "called by the referee for the defender")


def test_a_finished_games_board_names_no_side_to_move(sqlite_client: TestClient) -> None:
    """The newcomer's pass of session 17: the referee's board of a game over read "Game over" and, beside it,
    "Turn 1" and "Attacker to move"."""
    g = new_game(sqlite_client)
    start_game(sqlite_client, g)
    sqlite_client.cookies.set(COOKIE_NAME, g.referee["Authorization"].removeprefix("Bearer "))
    assert "Attacker to move" in sqlite_client.get(f"/games/{g.id}/referee").text
    finish(sqlite_client, g)
    board = sqlite_client.get(f"/games/{g.id}/referee").text
    sqlite_client.cookies.clear()
    assert "Game over" in board and "to move</span>" not in board
    # Nor a marker's button (session 23's hostile pass tapped the board's 175 "+S" after the end).
    assert "add-marker" not in board and "/markers" not in board and "data-override-toggle" not in board
    assert '<span class="turn-big">Ended in turn 1</span>' in board


def test_no_override_of_the_referee_changes_a_finished_games_table(sqlite_client: TestClient) -> None:
    """Session 23's hostile pass: after the end the referee's `override` still put a marker on a stand, moved one,
    renamed one and added a unit (each 200, logged), and the result is scored from the table as it stands."""
    c = sqlite_client
    g = new_game(c)
    start_game(c, g)
    stand = a_stand(c, g, "attacker", "infantry-platoon")
    finish(c, g)
    api = f"/api/v1/games/{g.id}"
    before = c.get(f"{api}/result", headers=g.referee).json()
    events = len(c.get(f"{api}/events", headers=g.referee).json())
    version = c.get(f"{api}/units/{stand['id']}", headers=g.referee).json()["version"]
    for method, path, body in (
        ("POST", f"units/{stand['id']}/markers", {"delta": 1}),
        ("POST", f"units/{stand['id']}/move", {"x": 33.0, "y": 44.0, "version": version}),
        ("PUT", f"units/{stand['id']}", {"version": version, "name": "Renamed after the end"}),
        ("POST", "units", {"side": "attacker", "name": "Late", "level": "stand"}),
    ):
        r = c.request(method, f"{api}/{path}", headers=g.referee, json={**body, "override": True})
        assert r.status_code == 409, (path, r.status_code, r.text)
        assert r.json()["detail"] == "The game is over: nothing on the table changes any more.", path
        assert "override" not in r.json()["current"], path  # not offered where it cannot be had
    # A roll too, in the same words (it said "Start the game first: it is in finished, not playing.").
    roll = {"unit_id": stand["id"], "dice": [6], "override": True}
    rolled = c.post(f"{api}/resolve/order-roll", headers=g.referee, json=roll)
    assert rolled.status_code == 409 and rolled.json()["detail"].startswith("The game is over"), rolled.text
    # A player is told the game is over, not to try again as after another device's change (which it said).
    late = c.post(f"{api}/turn/advance", headers=g.attacker, json={"version": version})
    assert late.status_code == 409 and late.json()["said"] == late.json()["detail"], late.text
    assert late.json()["detail"].startswith("The game is over")
    assert len(c.get(f"{api}/events", headers=g.referee).json()) == events
    assert c.get(f"{api}/result", headers=g.referee).json() == before
