"""At an event's table its organiser is the referee, away from the table, so the two seats start and end their
game themselves (issue 63's newcomer pass: the organiser started and ended every table's game, 25 clicks a
round, and a table's result waited for it): each seat says it is ready, and the game starts (set-up) or ends
(play) at the second word. One seat alone cannot (a fire plan still being written is locked by the start; an
end is the result both confirm); a word to end lapses once anything is played after it; a seat takes its word
back in one undo; a game at no event's table is still started and ended by its referee alone."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from tests import csrf
from tests.app.events.test_event_day import bearer
from tests.app.events.test_event_seats import committed_table


def seated(c: TestClient) -> tuple[str, dict[str, dict[str, str]]]:
    """A committed event table's game and each seat's headers (each joined with its card's code)."""
    seats: Any = committed_table(c)[2]
    heads = {
        side: bearer(c.post("/api/v1/join", json={"code": seats["join_codes"][side]}).json()["token"])
        for side in ("attacker", "defender")
    }
    heads["organiser"] = bearer(seats["referee_token"])
    return f"/api/v1/games/{seats['game_id']}", heads


def turn(c: TestClient, game: str, who: dict[str, str]) -> dict[str, Any]:
    answer: dict[str, Any] = c.get(f"{game}/turn", headers=who).json()
    return answer


def test_the_two_seats_start_their_game_each_saying_it_is_ready(client: TestClient) -> None:
    c = client
    game, heads = seated(c)
    t = turn(c, game, heads["attacker"])
    assert t["status"] == "setup" and t["seats_start_and_end"] is True and t["ready"] == []
    said = c.post(f"{game}/turn/advance", headers=heads["attacker"], json={"version": t["version"]})
    assert said.status_code == 200, said.text
    assert [e["kind"] for e in said.json()["events"]] == ["side-ready"]
    t = turn(c, game, heads["defender"])
    assert t["status"] == "setup" and t["ready"] == ["attacker"]
    again = c.post(f"{game}/turn/advance", headers=heads["attacker"], json={"version": t["version"]})
    assert again.status_code == 409 and "the defender says it next" in again.json()["detail"]
    started = c.post(f"{game}/turn/advance", headers=heads["defender"], json={"version": t["version"]})
    assert started.status_code == 200, started.text
    kinds = [e["kind"] for e in started.json()["events"]]
    assert kinds[0] == "side-ready" and "game-started" in kinds
    assert turn(c, game, heads["attacker"])["status"] == "playing"


def test_a_seat_takes_its_word_back_in_one_undo(client: TestClient) -> None:
    c = client
    game, heads = seated(c)
    t = turn(c, game, heads["attacker"])
    said = c.post(f"{game}/turn/advance", headers=heads["attacker"], json={"version": t["version"]}).json()
    word = said["events"][0]["id"]
    assert c.post(f"{game}/events/{word}/undo", headers=heads["attacker"]).status_code == 200
    t = turn(c, game, heads["defender"])
    assert t["ready"] == []
    # The defender's word alone starts nothing now.
    alone = c.post(f"{game}/turn/advance", headers=heads["defender"], json={"version": t["version"]})
    assert [e["kind"] for e in alone.json()["events"]] == ["side-ready"]
    assert turn(c, game, heads["defender"])["status"] == "setup"


def test_the_two_seats_end_their_game_and_a_word_lapses_once_play_goes_on(client: TestClient) -> None:
    c = client
    game, heads = seated(c)
    for side in ("attacker", "defender"):
        c.post(
            f"{game}/turn/advance",
            headers=heads[side],
            json={"version": turn(c, game, heads[side])["version"]},
        )
    t = turn(c, game, heads["attacker"])
    assert t["status"] == "playing" and t["ready"] == []
    word = c.post(f"{game}/finish", headers=heads["attacker"], json={"version": t["version"]})
    assert word.status_code == 200 and word.json()["status"] == "playing", word.text
    assert turn(c, game, heads["defender"])["ready"] == ["attacker"]
    # The side to move plays on (its next step): the attacker's word lapses, and the defender's alone ends nothing.
    mover = turn(c, game, heads["attacker"])["side_to_move"]
    moved = c.post(
        f"{game}/turn/advance", headers=heads[mover], json={"version": turn(c, game, heads[mover])["version"]}
    )
    assert moved.status_code == 200, moved.text
    assert turn(c, game, heads["defender"])["ready"] == []
    alone = c.post(
        f"{game}/finish",
        headers=heads["defender"],
        json={"version": turn(c, game, heads["defender"])["version"]},
    )
    assert alone.status_code == 200 and alone.json()["status"] == "playing"
    ended = c.post(
        f"{game}/finish",
        headers=heads["attacker"],
        json={"version": turn(c, game, heads["attacker"])["version"]},
    )
    assert ended.status_code == 200 and ended.json()["status"] == "finished", ended.text


def test_away_from_an_event_only_the_referee_starts_and_ends_the_game(client: TestClient) -> None:
    c = client
    made = c.post("/api/v1/games", json={"scenario": "mons-1914"}).json()
    game = f"/api/v1/games/{made['game']['id']}"
    player = bearer(c.post("/api/v1/join", json={"code": made["join_codes"]["attacker"]}).json()["token"])
    t = turn(c, game, player)
    assert "ready" not in t and not t.get("seats_start_and_end")
    refused = c.post(f"{game}/turn/advance", headers=player, json={"version": t["version"]})
    assert refused.status_code == 403 and "Ask the referee" in refused.json()["detail"]
    referee = bearer(made["referee_token"])
    assert c.post(f"{game}/turn/advance", headers=referee, json={"version": t["version"]}).status_code == 200
    t = turn(c, game, player)
    refused = c.post(f"{game}/finish", headers=player, json={"version": t["version"]})
    assert refused.status_code == 403 and "Ask the referee" in refused.json()["detail"]


def test_the_seats_board_offers_its_word_and_says_whose_is_awaited(client: TestClient) -> None:
    """The board's turn panel (every device's, swapped live) offers a seat 'Ready to start', then says it waits
    for the other side; in play 'End the game…' offers 'Yes, ready to end' and says who asked; ended, the
    table's result to confirm (issue 63 newcomer pass: no way on from the board but Map, then its tool bar)."""
    c = client
    event_id, _, seats = committed_table(c)
    game_id = seats["game_id"]
    game = f"/api/v1/games/{game_id}"
    joined = TestClient(c.app).post("/api/v1/join", json={"code": seats["join_codes"]["attacker"]})
    attacker = bearer(joined.json()["token"])
    link = f"/games/{game_id}/join/defender"
    assert c.post(link, data=csrf.form(c, {"code": seats["join_codes"]["defender"]})).status_code == 200
    board = f"/games/{game_id}/referee"
    assert "Ready to start" in c.get(board).text
    c.post(f"{game}/turn/advance", headers=attacker, json={"version": turn(c, game, attacker)["version"]})
    assert "The attacker is ready: the game starts as you say so." in c.get(board).text
    c.post(
        f"{game}/turn/advance", headers=csrf.header(c), json={"version": turn(c, game, attacker)["version"]}
    )
    text = c.get(board).text
    assert "Ready to start" not in text and "Yes, ready to end" in text
    c.post(f"{game}/finish", headers=attacker, json={"version": turn(c, game, attacker)["version"]})
    text = c.get(board).text
    assert "The attacker is ready to end the game." in text
    assert "<summary>End the game… (the attacker is ready)</summary>" in text  # said on it closed too
    # Ended, the board offers the table's result to confirm, one tap (it was Map, then the map's tool bar).
    c.post(f"{game}/finish", headers=csrf.header(c), json={"version": turn(c, game, attacker)["version"]})
    text = c.get(board).text
    link = f'<a class="button primary" href="/events/{event_id}/tables/{seats["table_id"]}" data-event-table>'
    assert f"{link}Table 1's result: confirm it</a>" in text


def started(c: TestClient, game: str, heads: dict[str, dict[str, str]]) -> int:
    """The game started by both seats' words: the attacker's word's id."""
    words = [
        c.post(
            f"{game}/turn/advance",
            headers=heads[side],
            json={"version": turn(c, game, heads[side])["version"]},
        )
        for side in ("attacker", "defender")
    ]
    assert turn(c, game, heads["attacker"])["status"] == "playing"
    word: int = words[0].json()["events"][0]["id"]
    return word


def test_the_seats_end_no_game_before_it_starts_nor_take_back_the_word_that_started_it(
    client: TestClient,
) -> None:
    """Both seats' words to end in set-up ended a game never played (its score a result, its plans shown), and a
    word to start was taken back after the start (issue 63 hostile pass)."""
    c = client
    game, heads = seated(c)
    for side in ("attacker", "defender"):
        early = c.post(
            f"{game}/finish", headers=heads[side], json={"version": turn(c, game, heads[side])["version"]}
        )
        assert early.status_code == 409 and "has not started" in early.json()["detail"], early.text
    assert turn(c, game, heads["attacker"])["status"] == "setup"
    word = started(c, game, heads)
    back = c.post(f"{game}/events/{word}/undo", headers=heads["attacker"])
    assert back.status_code == 409 and "has started" in back.json()["detail"], back.text
    # Nor does a seat's board offer it (session 19's newcomer pass: its Undo was offered, then refused).
    board = c.get(game.replace("/api/v1", "") + "/referee").text
    words = re.findall(r'<li class="event"[^>]*data-kind="side-ready">.*?</li>', board, re.S)
    assert len(words) == 2 and not any("/undo" in w for w in words), words


def test_a_move_taken_back_after_a_word_to_end_lapses_it(client: TestClient) -> None:
    """An undo changes the table as a move does: the other seat's word to end lapses, and the game ends on the
    table both saw (issue 63 hostile pass: the attacker took a move back, then its word ended the game)."""
    c = client
    game, heads = seated(c)
    started(c, game, heads)
    a = heads["attacker"]
    assert c.post(f"{game}/turn/advance", headers=a, json={"version": turn(c, game, a)["version"]}).is_success
    units = c.get(f"{game}/units", headers=heads["organiser"]).json()
    platoon = next(u for u in units if u["side"] == "attacker" and u["kind"] == "rifle-platoon")
    order = {"unit_id": platoon["parent_id"], "dice": [6]}
    assert c.post(f"{game}/resolve/order-roll", headers=a, json=order).is_success
    move = c.post(f"{game}/units/{platoon['id']}/move", headers=a, json={"x": 5, "y": 20})
    assert move.status_code == 200, move.text
    d = heads["defender"]
    assert c.post(f"{game}/finish", headers=d, json={"version": turn(c, game, d)["version"]}).is_success
    assert c.post(f"{game}/events/{move.json()['event_id']}/undo", headers=a).status_code == 200
    assert turn(c, game, a)["ready"] == []
    alone = c.post(f"{game}/finish", headers=a, json={"version": turn(c, game, a)["version"]})
    assert alone.status_code == 200 and alone.json()["status"] == "playing", alone.text


def test_a_word_to_end_with_an_objective_contested_is_refused_naming_the_organiser(
    client: TestClient,
) -> None:
    """The seats' referee is their event's organiser, away from the table: the refusal named 'the referee', whom
    no one at the table is (issue 63 hostile pass)."""
    c = client
    game, heads = seated(c)
    started(c, game, heads)
    units = c.get(f"{game}/units", headers=heads["organiser"]).json()
    for side, y, facing in (("attacker", 120.0, 90.0), ("defender", 123.5, 270.0)):  # both at Bridge 1
        stand = next(u for u in units if u["side"] == side and u["base"] == "infantry-platoon" and u["x"])
        at = {"x": 40.0, "y": y, "facing_deg": facing, "override": True}
        assert c.post(f"{game}/units/{stand['id']}/move", headers=heads["organiser"], json=at).is_success
    a = heads["attacker"]
    word = c.post(f"{game}/finish", headers=a, json={"version": turn(c, game, a)["version"]})
    assert (word.status_code, word.json()["detail"]) == (
        409,
        "Bridge 1 is contested: the organiser calls it before the game ends.",
    )
    assert turn(c, game, heads["defender"])["ready"] == []


def test_where_a_seat_lands_in_set_up_it_is_shown_where_its_game_starts(client: TestClient) -> None:
    """A seat joins onto its fire plan; its game starts on the board, whose tab is named 'Referee': the page
    links it (issue 63 newcomer pass: nothing there said where the game starts)."""
    c = client
    seats: Any = committed_table(c)[2]
    game_id = seats["game_id"]
    joined = c.post(
        f"/games/{game_id}/join/attacker", data=csrf.form(c, {"code": seats["join_codes"]["attacker"]})
    )
    assert joined.status_code == 200 and joined.url.path == f"/games/{game_id}/fire-plan", joined.url
    board = f'<a class="button primary" href="/games/{game_id}/referee#turn" data-ready-link>'
    assert f"{board}Ready to start? Say so on the board</a>" in joined.text
    game = f"/api/v1/games/{game_id}"
    organiser = bearer(seats["referee_token"])
    started = c.post(
        f"{game}/turn/advance", headers=organiser, json={"version": turn(c, game, organiser)["version"]}
    )
    assert started.status_code == 200, started.text
    assert "data-ready-link" not in c.get(f"/games/{game_id}/fire-plan").text  # started: no longer
