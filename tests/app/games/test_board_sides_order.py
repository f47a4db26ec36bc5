"""The referee board's sides in the server's HTML (issue 26): a seat's own side first, the referee's board in the
game's order. That each seat's first own stand is on its first screen at every size is the browser's
(tests/frontend/test_board_seat_first.py)."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.app.games.conftest import new_game


def test_each_seat_has_its_own_side_first_and_the_referee_the_games_order(client: TestClient) -> None:
    game = new_game(client)
    for seat, expected in (
        (game.referee, ["attacker", "defender"]),
        (game.attacker, ["attacker", "defender"]),
        (game.defender, ["defender", "attacker"]),
    ):
        client.cookies.set("firestep_token", seat["Authorization"].removeprefix("Bearer "))  # a page reads it
        board = client.get(f"/games/{game.id}/referee")
        assert board.status_code == 200, board.text
        assert re.findall(r'<section class="side" data-side="(\w+)"', board.text) == expected, seat


def test_each_side_s_heading_names_its_nation_as_the_other_pages_do(client: TestClient) -> None:
    """The board's headings read "Attacker german", "Defender british": the nation as stored, where the join
    card, the created page and the counters say "German" (the newcomer pass)."""
    game = new_game(client)
    client.cookies.set("firestep_token", game.referee["Authorization"].removeprefix("Bearer "))
    board = client.get(f"/games/{game.id}/referee").text
    assert re.findall(r'<h2>(\w+) <span class="muted">([^<]*)</span></h2>', board) == [
        ("Attacker", "German"),
        ("Defender", "British"),
    ]
