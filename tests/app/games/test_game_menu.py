"""A game's menu names the board for the seat reading it (the newcomer pass of issue 67): a player's menu linked
"Referee", the referee's screen as it read it, from every page of the game. The board is every seat's (its log,
its score, a seat's word to start or end at an event's table), so a player's menu links it as the Board; only the
referee's names it Referee."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.app.games.conftest import new_game


def menu(client: TestClient, token: str, path: str) -> tuple[list[str], str]:
    """The main menu's links (their words) and the page's title, for the device holding `token`."""
    client.cookies.set("firestep_token", token)
    try:
        page = client.get(path).text
    finally:
        client.cookies.clear()
    nav = re.search(r'<nav aria-label="Main" class="mainnav">(.*?)</nav>', page, re.S)
    assert nav, page[:500]
    title = re.search(r"<title>(.*?)</title>", page, re.S)
    assert title
    return [w.strip() for w in re.findall(r"<a [^>]*>([^<]*)</a>", nav.group(1))], title.group(1)


def test_only_the_referees_menu_names_the_referee_screen(client: TestClient) -> None:
    g = new_game(client)
    for side in ("attacker", "defender"):
        token = getattr(g, side)["Authorization"].removeprefix("Bearer ")
        for path in (f"/games/{g.id}/map", f"/games/{g.id}/referee"):
            links, _ = menu(client, token, path)
            assert "Referee" not in links and links[0] == "Board", (side, path, links)
        assert menu(client, token, f"/games/{g.id}/referee")[1].startswith("Board · ")
    links, title = menu(client, g.referee["Authorization"].removeprefix("Bearer "), f"/games/{g.id}/referee")
    assert links[0] == "Referee" and title.startswith("Referee · ")
