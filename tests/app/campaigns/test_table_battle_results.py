"""A campaign battle's result from the game (issue 17), through the API and the pages on SQLite and PostgreSQL:
the game's referee (a game token, not the organiser's) offers who holds the field from the game; every step
of a table battle is a new campaign version; a deleted game's log line never links to a later game."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from tests import csrf
from tests.app.campaigns.conftest import Seats, bearer
from tests.app.campaigns.test_table_battles import (
    _between,
    base,
    finish,
    log_of,
    open_battle,
    to_resolve,
)

TO_RESOLVE_FORMS = [
    {"type": "initiative", "dice_count": "0"},
    {"type": "attack", "from_area": "D-2", "to_area": "C-3", "troops": "group-i"},
    {"type": "defend", "troops": "25-bde"},
]


def offer_url(game_id: int) -> str:
    return f"/api/v1/games/{game_id}/campaign-battle/offer"


def test_the_games_referee_offers_the_result_from_the_game(client: TestClient, seats: Seats) -> None:
    s = seats
    to_resolve(client, s)
    opened = open_battle(client, s)
    tb, game_id = opened["table_battle"], opened["table_battle"]["game_id"]
    referee = bearer(opened["referee_token"])
    # Not before the game is over.
    early = client.post(offer_url(game_id), headers=referee, json={"field_held_by": "attacker"})
    assert early.status_code == 409 and "not over" in early.json()["why"]
    finish(client, game_id, referee)
    # A player of the game may not; nor a campaign token; nor no token.
    player = client.post(f"{base(s)}/{tb['id']}/seat", headers=s.german).json()["token"]
    r = client.post(offer_url(game_id), headers=bearer(player), json={"field_held_by": "attacker"})
    assert r.status_code == 403 and "referee" in r.json()["why"]
    assert client.post(
        offer_url(game_id), headers=s.organiser, json={"field_held_by": "attacker"}
    ).status_code in (
        401,
        403,
    )
    # The same validation as the campaign's offer.
    for body in ({}, {"field_held_by": "sideways"}, {"field_held_by": "attacker", "vp": 3}):
        bad = client.post(offer_url(game_id), headers=referee, json=body)
        assert bad.status_code == 422, body
    assert client.get(f"{base(s)}/{tb['id']}", headers=s.organiser).json()["status"] == "open"

    r = client.post(offer_url(game_id), headers=referee, json={"field_held_by": "defender"})
    assert r.status_code == 200, r.text
    back = r.json()
    assert back["status"] == "offered" and back["field_held_by"] == "defender"
    assert back["offer"]["reasons"] and back["offer"]["defender_vp"] >= 3  # "at least three" for the field
    # The campaign sees the same offer as if its organiser had made it, on a new version, by the table referee.
    seen = client.get(f"{base(s)}/{tb['id']}", headers=s.bef).json()
    assert seen["offer"] == back["offer"] and seen["status"] == "offered"
    entry = [e for e in log_of(client, s) if e["kind"] == "table-battle"][-1]
    assert (entry["action"]["step"], entry["actor"], entry["version"]) == ("offered", "table referee", 6)
    # Any game seat reads it back from the game.
    assert (
        client.get(f"/api/v1/games/{game_id}/campaign-battle", headers=bearer(player)).json()["offer"]
        == (back["offer"])
    )
    # The organiser still confirms it, on the version that shows the offer.
    r = client.post(f"{base(s)}/{tb['id']}/confirm", headers=s.organiser, json={"version": 6})
    assert r.status_code == 200 and r.json()["table_battle"]["status"] == "confirmed"
    # Once applied the game's referee can no longer change it.
    again = client.post(offer_url(game_id), headers=referee, json={"field_held_by": "attacker"})
    assert again.status_code == 409 and "already been applied" in again.json()["why"]


def test_a_game_without_a_campaign_battle_has_nothing_to_offer(client: TestClient) -> None:
    r = client.post("/api/v1/games", json={"forces": [{"side": "attacker", "table_id": "gb-1917"}]})
    assert r.status_code == 201, r.text
    game_id, referee = r.json()["game"]["id"], bearer(r.json()["referee_token"])
    r = client.post(offer_url(game_id), headers=referee, json={"field_held_by": "attacker"})
    assert r.status_code == 404


def test_a_confirm_from_before_the_offer_is_stale(client: TestClient, seats: Seats) -> None:
    s = seats
    to_resolve(client, s)
    opened = open_battle(client, s)
    tb, game_id = opened["table_battle"], opened["table_battle"]["game_id"]
    before_offer = client.get(f"/api/v1/campaigns/{s.id}/legal-actions", headers=s.organiser).json()[
        "version"
    ]
    assert before_offer == 5  # opening the game was a step of its own
    finish(client, game_id, bearer(opened["referee_token"]))
    r = client.post(
        offer_url(game_id), headers=bearer(opened["referee_token"]), json={"field_held_by": "attacker"}
    )
    assert r.status_code == 200, r.text
    # A device still showing the board before the offer may not confirm what it has not seen.
    stale = client.post(f"{base(s)}/{tb['id']}/confirm", headers=s.organiser, json={"version": before_offer})
    assert stale.status_code == 409
    assert stale.json()["current"]["version"] == before_offer + 1
    assert client.get(f"{base(s)}/{tb['id']}", headers=s.organiser).json()["status"] == "offered"
    # One version per log entry.
    versions = [e["version"] for e in log_of(client, s)]
    assert versions == sorted(set(versions)) == list(range(1, len(versions) + 1))


def test_a_deleted_games_log_line_never_links_to_a_later_game(client: TestClient) -> None:
    c = client
    r = c.post("/campaigns/new", data=csrf.form(c, {"name": "Reused ids"}))
    cid = int(_between(r.text, 'data-campaign-created="', '"'))
    bef_code = _between(r.text, 'data-join-code="bef">', "<")
    for version, form in enumerate(TO_RESOLVE_FORMS, start=1):
        r = c.post(f"/campaigns/{cid}/act", data=csrf.form(c, {"version": str(version), **form}))
        assert r.status_code == 200 and 'class="errors"' not in r.text
    r = c.post(f"/campaigns/{cid}/table-battle", data=csrf.form(c), follow_redirects=False)
    game_id = int(r.headers["location"].split("/")[2])
    referee = bearer(_between(c.get(r.headers["location"]).text, "data-referee-token>", "<"))
    board = c.get(f"/campaigns/{cid}").text
    assert f'href="/games/{game_id}/referee"' in board

    assert c.delete(f"/api/v1/games/{game_id}", headers=referee).status_code == 204
    # SQLite gives the next game the deleted one's id (PostgreSQL does not): either way no link to it.
    r = c.post("/api/v1/games", json={"name": "Another evening"})
    assert r.status_code == 201
    later = r.json()["game"]["id"]
    board = c.get(f"/campaigns/{cid}").text
    assert f'href="/games/{later}/' not in board and f'data-game-link="{later}"' not in board
    log = _between(board, 'class="cmp-log"', "</ol>")
    assert log.count("game deleted") >= 2  # the line that opened it, and the line that abandoned it
    assert "Another evening" not in board
    # Deleting it was a step of its own: a new version, logged.
    assert "#6</strong> Table game of turn 1 battle 1 (C-3): game deleted" in log
    # The JSON log too: its table-battle entries name the game as it is now, so none names the later one.
    bef = bearer(c.post("/api/v1/campaigns/join", json={"code": bef_code}).json()["token"])
    api_log = c.get(f"/api/v1/campaigns/{cid}/log", headers=bef).json()
    lines = [e["action"] for e in api_log if e["kind"] == "table-battle"]
    assert len(lines) >= 2 and all(a["game_id"] is None and a["path"] is None for a in lines), lines


def test_the_game_page_asks_its_referee_who_holds_the_field(client: TestClient) -> None:
    c = client
    r = c.post("/campaigns/new", data=csrf.form(c, {"name": "Referee night"}))
    cid = int(_between(r.text, 'data-campaign-created="', '"'))
    german_code = _between(r.text, 'data-join-code="german">', "<")
    for version, form in enumerate(TO_RESOLVE_FORMS, start=1):
        assert (
            c.post(f"/campaigns/{cid}/act", data=csrf.form(c, {"version": str(version), **form})).status_code
            == 200
        )
    r = c.post(f"/campaigns/{cid}/table-battle", data=csrf.form(c), follow_redirects=False)
    game_id = int(r.headers["location"].split("/")[2])
    referee_token = _between(c.get(r.headers["location"]).text, "data-referee-token>", "<")
    # The game's referee on a device of its own: the game's token, no campaign seat.
    table = TestClient(c.app)
    table.cookies.set(COOKIE_NAME, referee_token)
    page = table.get(f"/games/{game_id}/referee").text
    assert "Campaign battle: Referee night" in page and "data-campaign-offer" not in page  # not over yet
    finish(c, game_id, bearer(referee_token))
    page = table.get(f"/games/{game_id}/referee").text
    assert "Result for the campaign: who holds the field?" in page
    form = _between(page, "data-campaign-offer", "</form>")
    assert form.count('name="field_held_by"') == 3
    r = table.post(f"/games/{game_id}/campaign-battle/offer", data=csrf.form(table), follow_redirects=False)
    assert r.status_code == 422 and "tap who holds the field at the end of the game" in r.text
    r = table.post(
        f"/games/{game_id}/campaign-battle/offer",
        data=csrf.form(table, {"field_held_by": "attacker"}),
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"] == f"/games/{game_id}/referee"
    page = table.get(f"/games/{game_id}/referee").text
    assert "who holds the field?" not in page
    assert "Offered to the campaign" in page and "data-campaign-offer-reasons" in page
    assert "waiting for the organiser" in page
    # The organiser's board shows it, to confirm.
    board = c.get(f"/campaigns/{cid}").text
    assert "The table's result" in board and "data-confirm-result" in board
    # The German player's device, seated at the game's attacking side from the campaign page, sees the offer
    # but has no form, and may not post one.
    player = TestClient(c.app)
    assert (
        player.post(
            "/campaigns/join", data=csrf.form(player, {"code": german_code}), follow_redirects=False
        ).status_code
        == 303
    )
    r = player.post(f"/campaigns/{cid}/table-battles/1/play", data=csrf.form(player), follow_redirects=False)
    assert r.status_code == 303
    page = player.get(f"/games/{game_id}/map").text
    assert "Offered to the campaign" in page and 'name="field_held_by"' not in page
    r = player.post(
        f"/games/{game_id}/campaign-battle/offer",
        data=csrf.form(player, {"field_held_by": "defender"}),
        follow_redirects=False,
    )
    assert r.status_code == 403 and "referee" in r.text
