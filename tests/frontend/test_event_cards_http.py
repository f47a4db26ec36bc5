"""The event-card lookup's writes from a hostile device, without a browser: a side never picks its cards (a
card posted by suit and rank is not recorded), a card it does not hold is not played (refused in words, no
500), and nothing it is sent names the other side's hand."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests import csrf

URL = "/lookup/flanders-fields/random-event"


def join_code(created: str, side: str) -> str:
    return created[created.index(f'data-join-code="{side}">') :].split(">", 1)[1].split("<", 1)[0].strip()


def test_a_side_neither_picks_nor_plays_what_it_does_not_hold(client: TestClient) -> None:
    c = client
    created = c.post("/games/new", data=csrf.form(c, {"scenario": "mons-1914"})).text
    gid = max(g["id"] for g in c.get("/api/v1/games").json())
    version = c.get(f"/api/v1/games/{gid}").json()["version"]
    assert c.post(
        f"/api/v1/games/{gid}/turn/advance", json={"version": version}, headers=csrf.header(c)
    ).is_success
    side = c.get(f"/api/v1/games/{gid}").json()["side_to_move"]
    # The referee records the Queen of Diamonds, entered by suit and rank, for the side to move.
    recorded = c.post(
        URL, data=csrf.form(c, {"_game": gid, "card.0.suit": "D", "card.0.rank": "Q", "action": "record"})
    )
    assert (
        recorded.status_code == 200
        and "data-recorded-event" in recorded.text
        and "Good Shooting" in recorded.text
    )
    # The card drawn and the hand, and no dump of what the draw wrote to the board after them.
    assert "Applied to the game" not in recorded.text and "cards_left" not in recorded.text
    rival = "defender" if side == "attacker" else "attacker"

    # The side to move posts the card it would like: nothing is recorded.
    c.cookies.clear()
    assert (
        c.post(
            "/join", data=csrf.form(c, {"code": join_code(created, side)}), follow_redirects=False
        ).status_code
        == 303
    )
    picked = c.post(
        URL, data=csrf.form(c, {"_game": gid, "card.0.suit": "H", "card.0.rank": "A", "action": "record"})
    )
    assert picked.status_code == 200 and "data-recorded-event" not in picked.text
    assert "a side does not pick its cards" in picked.text
    assert c.get(f"/api/v1/games/{gid}/me").json()["event_hand"] == ["QD"]

    # The other side: playing the card it does not hold is refused in words; nothing names that card.
    c.cookies.clear()
    assert (
        c.post(
            "/join", data=csrf.form(c, {"code": join_code(created, rival)}), follow_redirects=False
        ).status_code
        == 303
    )
    played = c.post(URL, data=csrf.form(c, {"_game": gid, "action": "play.QD"}))
    assert played.status_code == 200 and "Not played" in played.text
    for page in (played.text, c.get(f"{URL}?game={gid}").text):
        assert "Good Shooting" not in page and not re.search(r'data-card="QD"', page)
    assert c.get(f"/api/v1/games/{gid}/me").json()["event_hand"] == []


def test_the_map_offers_a_side_its_draw_and_the_referee_none(client: TestClient) -> None:
    """The map's tool bar: "Draw a card" for a side where firestep deals, "Enter a card" (suit, then rank)
    where the game draws from the club's own pack; the referee enters draws in the lookup."""
    c = client
    for variants, tool in (({}, "Draw a card"), ({"events-pack": "club"}, "Enter a card")):
        created = c.post("/api/v1/games", json={"scenario": "mons-1914", "variants": variants}).json()
        gid = created["game"]["id"]
        for code, offered in ((created["join_codes"]["attacker"], True), (created["referee_token"], False)):
            c.cookies.clear()
            joined = c.post("/join", data=csrf.form(c, {"code": code}), follow_redirects=False)
            assert joined.status_code == 303, joined.text
            page = c.get(f"/games/{gid}/map").text
            assert ("data-cards-tool" in page) is offered
            if offered:
                assert re.search(rf"data-cards-tool[^>]*>{tool}<", page), tool
                assert ("data-card-rank" in page) is bool(variants)
                # Each tap is the page's own write (api-action.js, through the outbox), its answer the server's
                # reading of the draw read into the panel: the ten of diamonds entered, or firestep's draw.
                write = (
                    f'/api/v1/games/{gid}/cards/drawn" data-body=\'{{"cards": ["10D"]}}\''
                    if variants
                    else (f"/api/v1/games/{gid}/resolve/")
                )
                assert (
                    f'data-api="{write}' in page and f'data-done="/games/{gid}/map/cards/{{event}}"' in page
                )
