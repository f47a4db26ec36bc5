"""GET units answers from the game's version (issue 88): its ETag names the game's version and the seat's view
of the units, a request carrying it is answered 304 reading the game's row and no unit, each seat's view has its
own tag (a tag never answers one seat with another's units), and an act moves it on."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.app.games.conftest import new_game, start_game
from tests.app.games.test_reads_once import statements


def test_units_answer_304_on_the_tag_they_were_read_with_until_an_act_moves_it_on(client: TestClient) -> None:
    g = new_game(client)
    start_game(client, g)
    url = f"/api/v1/games/{g.id}/units"
    read = client.get(url, headers=g.attacker)
    tag = read.headers.get("etag", "")
    assert read.status_code == 200 and tag and read.json(), read.headers
    with statements(client) as ran:
        again = client.get(url, headers={**g.attacker, "If-None-Match": tag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag
    # Besides the seat's token, one statement: the game's row (its version and status, its log's newest id).
    read_for_it = [s for s in ran if "token" not in s]
    assert len(read_for_it) == 1 and "FROM game WHERE game.id" in read_for_it[0], ran
    assert not [s for s in ran if "FROM unit" in s], ran
    # Each seat its own tag: the other side's (its secrets hidden otherwise) is never answered 304 to this one.
    seats = {"attacker": g.attacker, "defender": g.defender, "referee": g.referee}
    tags = {seat: client.get(url, headers=h).headers["etag"] for seat, h in seats.items()}
    assert len(set(tags.values())) == len(tags) == 3, tags
    assert tags["attacker"] == tag
    assert client.get(url, headers={**g.attacker, "If-None-Match": tags["defender"]}).status_code == 200
    # An act: the tag moves on, and the one held gets the units as they are now.
    mine = next(
        u for u in read.json() if u["side"] == "attacker" and u["x"] is not None and u["level"] == "platoon"
    )
    marked = client.post(f"{url}/{mine['id']}/markers", headers=g.attacker, json={"delta": 1})
    assert marked.status_code == 200, marked.text
    after = client.get(url, headers={**g.attacker, "If-None-Match": tag})
    assert after.status_code == 200 and after.headers["etag"] not in (tag, "")
    assert next(u for u in after.json() if u["id"] == mine["id"]) != mine
