"""Seats that stay their holder's (issue 63), on SQLite and PostgreSQL: the result slip both players sign
carries no seat's code; a lost tablet gets its seat back only on the organiser's word (a code the organiser's
tap makes, good once, for a few minutes); printing the round's join cards writes nothing (printing twice prints
the same cards, a cross-site link voids nothing), and new codes are the organiser's POST."""

from __future__ import annotations

import html
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlmodel import Session

from app.core.db import make_engine
from app.data.models import utcnow
from app.errors import RuleRefused
from app.services import event_seats, tournament_results
from app.services.seating import Viewer
from app.services.writing import unit_of_work
from tests import csrf
from tests.app.events.test_event_day import SCENARIO, bearer, new_event, register

SEAT_CODE = re.compile(r"\b\d+-[ad]-[0-9a-f]{16}\b")


def committed_table(c: httpx.Client, rounds: int = 1) -> tuple[int, dict[str, str], dict[str, Any]]:
    """An event of two players and `rounds` rounds, its first committed: (event id, the organiser's headers, the
    table's seats). A test client or a client of a live server."""
    event_id, organiser = new_event(c, rounds=rounds)  # type: ignore[arg-type]
    register(c, event_id, organiser, n=2)  # type: ignore[arg-type]
    assert c.post(
        f"/api/v1/events/{event_id}/rounds", headers=organiser, json={"scenario": SCENARIO}
    ).is_success
    seats = c.post(f"/api/v1/events/{event_id}/rounds/1/commit", headers=organiser).json()["seats"][0]
    return event_id, organiser, seats


def as_organiser(c: TestClient, organiser: dict[str, str]) -> None:
    c.cookies.set("firestep_organiser", organiser["Authorization"].removeprefix("Bearer "))


@pytest.mark.storage
def test_a_seat_goes_to_a_new_tablet_only_on_the_organisers_word(client: TestClient) -> None:
    c = client
    event_id, organiser, seats = committed_table(c)
    table_id, game_id = seats["table_id"], seats["game_id"]
    victim = bearer(c.post("/api/v1/join", json={"code": seats["join_codes"]["attacker"]}).json()["token"])
    thief = bearer(c.post("/api/v1/join", json={"code": seats["join_codes"]["defender"]}).json()["token"])

    # The slip both players sign: the result and their names, no code for either seat.
    as_organiser(c, organiser)
    slip = c.get(f"/events/{event_id}/tables/{table_id}/slip")
    assert slip.status_code == 200 and "Player 0" in slip.text and "round 1, table 1 result" in slip.text
    assert not SEAT_CODE.search(slip.text) and "<svg" not in slip.text
    c.cookies.clear()

    # Only the event's organiser gives a seat to a new device: not a seat, not another event's organiser.
    offer = f"/api/v1/events/{event_id}/tables/{table_id}/rekey"
    assert c.post(offer, json={"side": "attacker"}).status_code == 401
    assert c.post(offer, headers=thief, json={"side": "attacker"}).status_code == 401
    _, stranger = new_event(c, rounds=1)
    assert c.post(offer, headers=stranger, json={"side": "attacker"}).status_code == 403
    assert c.post(offer, headers=organiser, json={"side": "referee"}).status_code == 422
    given = c.post(offer, headers=organiser, json={"side": "attacker"})
    assert given.status_code == 200, given.text
    code = given.json()["code"]

    # The code is the attacker's alone, and once: its side forged or its MAC changed, it is nothing.
    number, _, mac = code.split("-")
    for forged in (f"{number}-d-{mac}", f"{number}-a-{mac[::-1]}", f"{number}-a-{'é' * 16}"):
        assert c.post("/api/v1/events/rekey", json={"code": forged}).status_code in (404, 422)
    back = c.post("/api/v1/events/rekey", json={"code": code})
    assert back.status_code == 200 and back.json()["side"] == "attacker"
    assert c.get(f"/api/v1/games/{game_id}/me", headers=victim).status_code == 401  # the lost tablet's gone
    assert c.get(f"/api/v1/games/{game_id}/me", headers=thief).status_code == 200  # the other seat kept
    assert (
        c.get(f"/api/v1/games/{game_id}/me", headers=bearer(back.json()["token"])).json()["role"]
        == "attacker"
    )
    assert c.post("/api/v1/events/rekey", json={"code": code}).status_code == 422  # spent

    # A code not taken up in time lapses; in time, the same code works.
    late = c.post(offer, headers=organiser, json={"side": "defender"}).json()["code"]
    app = c.app  # type: ignore[attr-defined]
    app.state.clock = lambda: utcnow() + timedelta(minutes=event_seats.REKEY_MINUTES, seconds=5)
    assert c.post("/api/v1/events/rekey", json={"code": late}).status_code == 422
    app.state.clock = utcnow
    assert c.post("/api/v1/events/rekey", json={"code": late}).json()["side"] == "defender"


@pytest.mark.storage
def test_printing_the_round_cards_writes_nothing_and_new_codes_are_a_post(client: TestClient) -> None:
    c = client
    event_id, organiser, seats = committed_table(c)
    committed = seats["join_codes"]
    sheet_url = f"/events/{event_id}/rounds/1/sheet"

    def printed() -> dict[str, str]:
        page = c.get(sheet_url)
        assert page.status_code == 200
        return dict(re.findall(r'data-seat="(attacker|defender)">([A-Z0-9-]+)<', page.text))

    def printed_by(who: dict[str, str]) -> dict[str, str]:
        c.cookies.clear()
        as_organiser(c, who)
        return printed()

    first = printed_by(organiser)
    assert (
        "round 1 · German attack on the BEF somewhere near Mons" in c.get(sheet_url).text
    )  # the name, no slug
    assert first == committed and printed() == first  # the cards the commit made, however often printed
    # A cross-site link opened by the organiser (a GET, no form token) voids nothing: the cards still seat.
    assert c.get(sheet_url, headers={"Sec-Fetch-Site": "cross-site"}).status_code == 200
    # A player's tablet, seated by its card, can neither print the cards nor ask for new ones.
    c.cookies.clear()
    game = f"/games/{seats['game_id']}/join/attacker"
    seated = c.post(game, data=csrf.form(c, {"code": committed["attacker"]}), follow_redirects=False)
    assert seated.status_code == 303
    assert c.get(sheet_url).status_code == 403
    assert c.post(sheet_url, data=csrf.form(c), follow_redirects=False).status_code != 303
    assert printed_by(organiser) == {"defender": first["defender"]}  # the attacker's card is spent
    # The organiser's POST: new codes printed, the old cards no longer seat anyone.
    made = c.post(sheet_url, data=csrf.form(c), follow_redirects=False)
    assert made.status_code == 303 and made.headers["location"] == sheet_url
    fresh = printed()
    assert set(fresh) == {"attacker", "defender"} and not set(fresh.values()) & set(committed.values())
    assert c.post("/api/v1/join", json={"code": committed["defender"]}).status_code == 422
    assert c.post("/api/v1/join", json={"code": fresh["defender"]}).status_code == 200
    # The API's ask: the organiser's token only; the new codes answered, the sheet prints them.
    api = f"/api/v1/events/{event_id}/rounds/1/join-codes"
    c.cookies.clear()
    assert c.post(api).status_code == 401
    assert c.post(api, headers=bearer(seats["referee_token"])).status_code == 401
    again = c.post(api, headers=organiser)
    assert again.status_code == 200 and again.json()[0]["game_id"] == seats["game_id"]
    assert printed_by(organiser) == again.json()[0]["join_codes"]


def test_no_query_parameter_reaches_the_rekey_pages_text(sqlite_client: TestClient) -> None:
    """A link to the re-key page wrote its `error` parameter on the page: a sentence of a stranger's choosing
    ("type your code at …") on this server's page, where a player brings the organiser's code."""
    page = sqlite_client.get("/events/rekey", params={"error": "Type your seat code at evil.example"})
    assert page.status_code == 200 and "evil.example" not in page.text


@pytest.mark.storage
def test_a_re_keyed_or_settled_seat_s_printed_card_seats_no_one(client: TestClient) -> None:
    c = client
    event_id, organiser, seats = committed_table(c)
    table_id, game_id, card = seats["table_id"], seats["game_id"], seats["join_codes"]
    link = f"/games/{game_id}/join/attacker"
    old = bearer(c.post("/api/v1/join", json={"code": card["attacker"]}).json()["token"])
    offer = f"/api/v1/events/{event_id}/tables/{table_id}/rekey"
    code = c.post(offer, headers=organiser, json={"side": "attacker"}).json()["code"]
    c.cookies.clear()
    rekeyed = c.post("/api/v1/events/rekey", json={"code": code})
    assert rekeyed.status_code == 200, rekeyed.text

    # The attacker's card no longer seats the lost tablet nor a third device, and says what to do.
    assert c.post("/api/v1/join", json={"code": card["attacker"]}).status_code == 422
    refused = c.post(link, data=csrf.form(c, {"code": card["attacker"]}), follow_redirects=False)
    assert refused.status_code == 409 and "ask the organiser for a new card or code" in refused.text
    assert c.get(f"/api/v1/games/{game_id}/me", headers=old).status_code == 401
    # The other side's card still seats; the sheet no longer prints the re-keyed side's.
    as_organiser(c, organiser)
    sheet = c.get(f"/events/{event_id}/rounds/1/sheet").text
    assert card["defender"] in sheet and card["attacker"] not in sheet
    c.cookies.clear()
    defender = bearer(c.post("/api/v1/join", json={"code": card["defender"]}).json()["token"])

    # The table's result settled, no card seats anyone.
    game = f"/api/v1/games/{game_id}"
    referee = bearer(seats["referee_token"])
    version = c.get(f"{game}/turn", headers=referee).json()["version"]
    assert c.post(f"{game}/finish", headers=referee, json={"version": version}).status_code == 200
    url = f"/api/v1/events/{event_id}/tables/{table_id}"
    again = c.post(offer, headers=organiser, json={"side": "attacker"}).json()["code"]
    c.cookies.clear()
    taken = c.post("/api/v1/events/rekey", json={"code": again})
    assert taken.status_code == 200, taken.text
    attacker = bearer(taken.json()["token"])
    assert c.post(f"{url}/confirm", headers=attacker).status_code == 200
    assert c.post(f"{url}/confirm", headers=defender).json()["status"] == "confirmed"
    assert c.post("/api/v1/join", json={"code": card["defender"]}).status_code == 422
    refused = c.post(
        f"/games/{game_id}/join/defender",
        data=csrf.form(c, {"code": card["defender"]}),
        follow_redirects=False,
    )
    assert refused.status_code == 409 and "result is settled" in refused.text


@pytest.mark.storage
def test_the_table_page_shows_the_result_it_asks_a_player_to_confirm(client: TestClient) -> None:
    c = client
    event_id, _, seats = committed_table(c)
    game_id, page = seats["game_id"], f"/events/{event_id}/tables/{seats['table_id']}"
    link = f"/games/{game_id}/join/attacker"
    assert c.post(link, data=csrf.form(c, {"code": seats["join_codes"]["attacker"]})).status_code == 200
    assert "Confirm the result as" not in c.get(page).text  # still played: nothing to confirm
    game, referee = f"/api/v1/games/{game_id}", bearer(seats["referee_token"])
    version = c.get(f"{game}/turn", headers=referee).json()["version"]
    assert c.post(f"{game}/finish", headers=referee, json={"version": version}).status_code == 200
    text = c.get(page).text
    assert (
        "Confirm the result as Player 0" in text
        and "A draw: Player 0 0, Player 1 0" in text
        and "Result: " in text
    )
    assert "Offered, for both players to confirm" in text


@pytest.mark.storage
def test_an_event_is_made_only_in_a_period_some_scenario_plays(client: TestClient) -> None:
    made = client.post(
        "/api/v1/events",
        json={"name": "Club night", "ruleset": "flanders-fields", "period": "mid", "rounds": 1},
    )
    assert made.status_code == 422 and "period" in made.text and "choose early" in made.text


@pytest.mark.storage
def test_a_re_key_code_works_from_the_start_page_and_its_refusals_name_the_remedy(client: TestClient) -> None:
    c = client
    event_id, organiser, seats = committed_table(c)
    game_id, link = seats["game_id"], f"/games/{seats['game_id']}/join/attacker"
    assert c.post(link, data=csrf.form(c, {"code": seats["join_codes"]["attacker"]})).status_code == 200
    lost = dict(c.cookies)
    offer = f"/api/v1/events/{event_id}/tables/{seats['table_id']}/rekey"
    code = c.post(offer, headers=organiser, json={"side": "attacker"}).json()["code"]

    # The new tablet types the organiser's code into the start page's join field: it takes the seat.
    c.cookies.clear()
    taken = c.post("/join", data=csrf.form(c, {"code": code}), follow_redirects=True)
    assert taken.status_code == 200 and taken.url.path == f"/events/{event_id}/tables/{seats['table_id']}"
    again = c.post("/join", data=csrf.form(c, {"code": code}), follow_redirects=True)
    assert "ask the organiser for a new one" in again.text
    # The lost tablet is told its seat went elsewhere, on whose word, and what to do.
    c.cookies.clear()
    c.cookies.update(lost)
    page = c.get(f"/games/{game_id}/map")
    assert page.status_code == 401 and "The organiser moved this device's seat to another device" in page.text


@pytest.mark.storage
def test_a_printed_card_seats_one_device(client: TestClient) -> None:
    """Issue 63: Ann's card, once Ann joined with it, gave the opponent's phone her seat too (the API, the start
    page and the card's QR link alike) and so her confirmation of the result. Its first use spends it; a later
    one is refused in one sentence naming the remedy, the organiser's re-key, which seats a new device."""
    c = client
    event_id, organiser, seats = committed_table(c)
    ann = seats["join_codes"]["attacker"]
    joined = c.post("/api/v1/join", json={"code": ann})
    assert joined.status_code == 200 and joined.json()["side"] == "attacker"
    again = c.post("/api/v1/join", json={"code": ann.lower()})  # however it is typed
    assert again.status_code == 409
    # The remedy in the organiser's own buttons' words (it said "re-key your seat", which no button says: the
    # newcomer pass), so the player can tell the organiser what to tap.
    sentence = (
        "This join card has already seated a device: ask the organiser to tap your table’s number, then “New tablet"
        " for” you."
    )
    assert len(sentence) <= 120 and again.json()["detail"] == sentence
    as_organiser(c, organiser)
    table_id = seats["table_id"]
    board = html.unescape(c.get(f"/events/{event_id}").text)  # the table's number, a tap to its panel
    assert f'href="/events/{event_id}/tables/{table_id}/desk"' in board
    desk = html.unescape(
        c.get(f"/events/{event_id}/tables/{table_id}/desk", headers={"HX-Request": "true"}).text
    )
    assert re.search(
        r'<button class="button" type="submit" name="side" value="attacker">New tablet for \w', desk
    )
    c.cookies.clear()
    start = c.post("/join", data=csrf.form(c, {"code": ann}), follow_redirects=False)
    assert start.status_code == 409 and sentence in start.text
    link = f"/games/{seats['game_id']}/join/attacker"
    card = c.post(link, data=csrf.form(c, {"code": ann}), follow_redirects=False)
    assert card.status_code == 409 and sentence in card.text
    assert "firestep_token" not in c.cookies
    # The other side's card still seats its first device; the organiser's re-key seats Ann's new one.
    assert c.post("/api/v1/join", json={"code": seats["join_codes"]["defender"]}).status_code == 200
    rekey = c.post(
        f"/api/v1/events/{event_id}/tables/{seats['table_id']}/rekey",
        headers=organiser,
        json={"side": "attacker"},
    ).json()["code"]
    c.cookies.clear()
    back = c.post("/api/v1/events/rekey", json={"code": rekey})
    assert back.status_code == 200, back.text
    assert back.json()["side"] == "attacker"
    assert c.post("/api/v1/join", json={"code": ann}).status_code in (409, 422)


@pytest.mark.storage
def test_two_devices_joining_with_one_card_at_once_only_one_is_seated(client: TestClient) -> None:
    """The card is spent by one conditional update, not a read then a write: two devices at once, one wins."""
    _, _, seats = committed_table(client)
    both = threading.Barrier(2)

    def join(_: int) -> int:
        both.wait(10)
        return client.post("/api/v1/join", json={"code": seats["join_codes"]["defender"]}).status_code

    with ThreadPoolExecutor(2) as pool:
        assert sorted(pool.map(join, range(2))) == [200, 409]


def test_refereeing_a_table_is_a_post_a_visited_link_mints_no_device(sqlite_client: TestClient) -> None:
    """The organiser's 'Referee' of a table was a GET that gave the browser a new referee device of the game:
    every visit of the link (a cross-site one the organiser opened, a prefetch) added a device for good."""
    from sqlmodel import Session

    from app.services import seating

    c = sqlite_client
    event_id, organiser, seats = committed_table(c)
    table_id, game_id = seats["table_id"], seats["game_id"]
    url = f"/events/{event_id}/tables/{table_id}/referee"

    def devices() -> int:
        with Session(c.app.state.engine) as s:  # type: ignore[attr-defined]
            return len(seating.devices(s, seating.GAME, game_id))

    as_organiser(c, organiser)
    before = devices()
    assert c.get(url, follow_redirects=False).status_code == 405 and devices() == before
    assert c.post(url, follow_redirects=False).status_code == 403 and devices() == before  # no form token
    done = c.post(url, data=csrf.form(c), follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == f"/games/{game_id}/referee"
    assert devices() == before + 1
    assert c.get(f"/api/v1/games/{game_id}/me").json()["role"] == "referee"
    c.cookies.delete("firestep_organiser")
    assert (
        c.post(url, data=csrf.form(c), follow_redirects=False).status_code == 403 and devices() == before + 1
    )


def test_a_device_seated_at_an_event_table_never_takes_the_other_seat(client: TestClient) -> None:
    """Issue 93: the first player to sit scanned the opponent's card too, was seated as both and confirmed the
    result for both. The device keeps its own seat, told why; the other card still seats its player."""
    c = client
    seats: Any = committed_table(c)[2]
    game_id, codes = seats["game_id"], seats["join_codes"]
    sat = c.post(f"/games/{game_id}/join/attacker", data=csrf.form(c, {"code": codes["attacker"]}))
    assert sat.status_code == 200, sat.text
    for confirmed in ("", "yes"):  # not even on the switch-seats step's confirmation
        both = c.post(
            f"/games/{game_id}/join/defender",
            data=csrf.form(c, {"code": codes["defender"], "replace_seat": confirmed}),
        )
        assert both.status_code == 409, both.text
        said = "Each player at table 1 joins on their own device: this one is the attacker's."
        assert said in html.unescape(both.text)
    assert c.get(f"/api/v1/games/{game_id}/me", headers=csrf.header(c)).json()["role"] == "attacker"
    other = TestClient(c.app).post("/api/v1/join", json={"code": codes["defender"]})
    assert other.status_code == 200 and other.json()["side"] == "defender"
    # Its card spent by its player, the seated device is still told why it is not its seat to take, not that the
    # card needs a re-key "of your seat" (the newcomer pass).
    again = c.post(f"/games/{game_id}/join/defender", data=csrf.form(c, {"code": codes["defender"]}))
    assert again.status_code == 409 and said in html.unescape(again.text), again.text[-600:]


@pytest.mark.storage
def test_each_seat_s_card_is_its_own_page_with_its_code_alone(client: TestClient) -> None:
    """The round's sheet prints a card per seat, each on a page of its own: a table's two codes never on one
    sheet of paper, where the first player to sit could scan both (issue 93)."""
    c = client
    event_id, organiser, seats = committed_table(c)
    as_organiser(c, organiser)
    sheet = c.get(f"/events/{event_id}/rounds/1/sheet").text
    assert ".seat { break-after: page;" in sheet
    cards = re.findall(r'<article class="seat" data-card="(\w+)">(.*?)</article>', sheet, re.S)
    assert [side for side, _ in cards] == ["attacker", "defender"]
    for side, card in cards:
        other = "defender" if side == "attacker" else "attacker"
        assert card.count("<svg") == 1 and seats["join_codes"][side] in card
        assert seats["join_codes"][other] not in card
        assert "card alone: hand it to them" in card


@pytest.mark.storage
def test_a_card_its_player_joined_with_says_so_on_the_sheet(client: TestClient) -> None:
    """A seat's card spent by its own player is off the round's sheet (it seats no one now), and the sheet's
    reason names that first: it named only a re-key, a settled result or new cards, none of which had happened
    (the newcomer pass)."""
    c = client
    event_id, organiser, seats = committed_table(c)
    assert c.post("/api/v1/join", json={"code": seats["join_codes"]["attacker"]}).status_code == 200
    c.cookies.clear()
    as_organiser(c, organiser)
    sheet = html.unescape(c.get(f"/events/{event_id}/rounds/1/sheet").text)
    assert seats["join_codes"]["attacker"] not in sheet and seats["join_codes"]["defender"] in sheet
    assert "This seat's card seats no one now (its player joined with it," in sheet


def test_the_round_s_sheet_on_a_screen_says_what_it_is_prints_and_leads_back(
    sqlite_client: TestClient,
) -> None:
    """On the organiser's phone the sheet was bare cards: no heading, no Print button, no way back to the event
    (the newcomer pass). They are the screen's alone: on paper, still a card per seat and nothing else."""
    c = sqlite_client
    event_id, organiser, _ = committed_table(c)
    as_organiser(c, organiser)
    sheet = c.get(f"/events/{event_id}/rounds/1/sheet").text
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in sheet
    head = re.search(r'<header class="sheet-head noprint">(.*?)</header>', sheet, re.S)
    assert head is not None, sheet[:2000]
    assert re.search(r"<h1>[^<]+: round 1 join cards</h1>", head.group(1))
    # The one inline script the pages' policy allows (app.guard.headers.SCRIPTS), as the playsheets' Print.
    assert '<button type="button" onclick="window.print()">Print</button>' in head.group(1)
    assert f'<a href="/events/{event_id}#tables">Back to the event</a>' in head.group(1)
    assert "@media print { .noprint { display: none; } }" in sheet
    assert sheet.index("</header>") < sheet.index('<article class="seat"')  # before the first card's page


def test_a_card_names_whose_seat_it_is_and_the_page_after_joining_says_so(sqlite_client: TestClient) -> None:
    """A card's join page named both players (its game's name), not whose card it was, and after Join nothing
    said whom the device now plays as (the newcomer pass). The page names the card's player and table; the page
    a join leads to, by the card or the start page's box, says once whose seat the device now is."""
    c = sqlite_client
    event_id, organiser, seats = committed_table(c)
    as_organiser(c, organiser)
    sheet = html.unescape(c.get(f"/events/{event_id}/rounds/1/sheet").text)
    names = {side: name for name, side in re.findall(r"<h2>(.+?): the (attacker|defender)</h2>", sheet)}
    assert set(names) == {"attacker", "defender"}
    c.cookies.clear()
    link = f"/games/{seats['game_id']}/join/defender"
    page = html.unescape(c.get(link).text)
    assert f"<h1>{names['defender']}'s seat at table 1</h1>" in page
    assert f"This card is {names['defender']}'s: the defender" in re.sub(r"<[^>]+>", "", page)
    assert f">Join as {names['defender']}</button>" in page

    def said(answer: httpx.Response) -> str:
        found = re.search(
            r'<p class="joined" role="status" data-joined>(.*?)</p>', html.unescape(answer.text)
        )
        return found.group(1) if found else ""

    joined = c.post(link, data=csrf.form(c, {"code": seats["join_codes"]["defender"]}))
    assert joined.status_code == 200, joined.text[-600:]
    assert said(joined).startswith(f"You are {names['defender']}, table 1, the defender")
    assert said(c.get(joined.url.path)) == ""  # once: the page again says nothing more
    other = TestClient(c.app)
    start = other.post("/join", data=csrf.form(other, {"code": seats["join_codes"]["attacker"]}))
    assert said(start).startswith(f"You are {names['attacker']}, table 1, the attacker")


def test_a_device_without_a_seat_at_an_event_table_is_sent_to_its_card(sqlite_client: TestClient) -> None:
    """A second phone refused a spent card, then tapping the game's Board or Map, was told to "enter the join code
    your referee gave you", though an event's table has no referee handing codes out, only the organiser's
    printed cards (the newcomer pass): it is told to scan its seat's card; a game of its own still names the
    referee."""
    c = sqlite_client
    _, _, seats = committed_table(c)
    page = html.unescape(c.get(f"/games/{seats['game_id']}/map").text)
    assert "scan your seat's join card, or enter the code printed on it" in page, page[-1500:]
    assert '<label for="join-code">Join code (on your card)</label>' in page
    assert "your referee gave you" not in page and "referee token" not in page
    own = TestClient(c.app).post("/api/v1/games", json={"scenario": SCENARIO})
    assert own.status_code == 201, own.text
    assert "Enter the join code your referee gave you" in c.get(f"/games/{own.json()['game']['id']}/map").text


def test_a_new_tablet_s_code_is_to_be_typed_where_the_start_page_takes_it(sqlite_client: TestClient) -> None:
    """The organiser's "New tablet for" page said to type the code "at /events/rekey", a path no one types on a
    tablet (the newcomer pass): it names the start page's join box, which takes it."""
    c = sqlite_client
    event_id, organiser, seats = committed_table(c)
    as_organiser(c, organiser)
    offer = c.post(
        f"/events/{event_id}/tables/{seats['table_id']}/rekey", data=csrf.form(c, {"side": "attacker"})
    )
    assert offer.status_code == 200, offer.text[-600:]
    page = html.unescape(offer.text)
    assert "or type the code under <strong>Join a game</strong> on its start page." in page
    assert "/events/rekey</strong>" not in page
    assert '<h2 id="join-h">Join a game</h2>' in c.get("/").text
    # A post naming no seat is asked which, in a whole sentence (the hostile pass: "…, not." ended it).
    unnamed = c.post(f"/events/{event_id}/tables/{seats['table_id']}/rekey", data=csrf.form(c))
    said = re.findall(r'role="alert"><p>(.*?)</p>', html.unescape(unnamed.text))
    assert said == ["Side: pick the attacker's seat or the defender's."], said


def test_another_game_s_code_on_an_event_table_s_card_sends_its_player_to_the_organiser(
    sqlite_client: TestClient,
) -> None:
    """A code of another game typed on an event table's join link was refused with "check it with the referee",
    though at an event the organiser hands the cards out, no referee (the closing note): it names the
    organiser; a game of its own still names the referee."""
    c = sqlite_client
    _, _, seats = committed_table(c)
    own = c.post("/api/v1/games", json={"scenario": SCENARIO})
    assert own.status_code == 201, own.text
    own_id, own_codes = own.json()["game"]["id"], own.json()["join_codes"]

    def alerts(game_id: int, code: str) -> list[str]:
        """The page's alerts, which a screen reader reads out and the browser shows."""
        r = c.post(f"/games/{game_id}/join/attacker", data=csrf.form(c, {"code": code}))
        assert r.status_code == 422, r.text[-600:]
        found = re.findall(r'role="alert"[^>]*>(?:\s*<p>)?\s*([^<]*)', r.text)
        return [html.unescape(a).strip() for a in found]

    said = "That join code is not known here: check it with the organiser."
    assert said in alerts(seats["game_id"], own_codes["attacker"]) and len(said) <= 120
    referee = "That join code is not known here: check it with the referee."
    assert referee in alerts(own_id, seats["join_codes"]["attacker"])


def finished_table(c: TestClient) -> tuple[int, dict[str, Any], dict[str, str]]:
    """An event's committed table whose game the referee has ended: the event, its seats and the attacker's
    seat (its token's header)."""
    event_id, _, seats = committed_table(c)
    game = f"/api/v1/games/{seats['game_id']}"
    referee = bearer(seats["referee_token"])
    version = c.get(f"{game}/turn", headers=referee).json()["version"]
    assert c.post(f"{game}/finish", headers=referee, json={"version": version}).status_code == 200
    attacker = bearer(c.post("/api/v1/join", json={"code": seats["join_codes"]["attacker"]}).json()["token"])
    return event_id, seats, attacker


def confirmations_logged(migrated_url: str, event_id: int) -> int:
    engine = make_engine(migrated_url)
    try:
        with engine.connect() as db:
            return int(
                db.execute(
                    text(
                        "SELECT count(*) FROM tournament_log WHERE tournament_id = :e AND kind = 'confirmed'"
                    ),
                    {"e": event_id},
                ).scalar_one()
            )
    finally:
        engine.dispose()


@pytest.mark.storage
def test_a_seat_confirms_its_tables_result_once(client: TestClient, migrated_url: str) -> None:
    """A seat's confirmation sent again, while the other seat has not confirmed (its first answer lost with a
    killed worker: tests/app/events/test_worker_killed.py), was taken again and logged twice. It is refused,
    naming the rule, and the event's log keeps one confirmation; a dispute after it is refused alike."""
    c = client
    event_id, seats, attacker = finished_table(c)
    url = f"/api/v1/events/{event_id}/tables/{seats['table_id']}"
    assert c.post(f"{url}/confirm", headers=attacker).json()["status"] == "offered"
    again = c.post(f"{url}/confirm", headers=attacker)
    assert again.status_code == 409, again.text
    assert again.json()["detail"] == "Your seat has confirmed table 1's result already (Event results)."
    # Nor does it dispute what it confirmed (its page offers no dispute then; the organiser changes a result).
    disputed = c.post(f"{url}/dispute", headers=attacker, json={"why": "changed my mind"})
    assert disputed.status_code == 409 and disputed.json()["detail"] == again.json()["detail"], disputed.text
    assert confirmations_logged(migrated_url, event_id) == 1


@pytest.mark.storage
def test_a_confirmation_acts_on_the_table_as_the_events_lock_finds_it(
    client: TestClient, migrated_url: str
) -> None:
    """The hostile pass: the table's page read the table before the event's lock, and the confirmation then
    acted on that copy: two confirmations at once each found the table unconfirmed, the seat's second was
    logged again, and a table both seats had confirmed could stay "offered". Read as the lock finds it, the
    late one is refused: here the page's read is held, the seat's confirmation written meanwhile, the page's
    confirmation of the same seat then refused, and the log keeps one."""
    c = client
    event_id, seats, attacker = finished_table(c)
    engine = make_engine(migrated_url)
    try:
        with Session(engine) as page:
            held = tournament_results.get_table(page, event_id, seats["table_id"])  # the page's read
            assert held.status == "playing" and not held.a_confirmed
            url = f"/api/v1/events/{event_id}/tables/{seats['table_id']}/confirm"
            assert c.post(url, headers=attacker).json()["status"] == "offered"  # meanwhile, the same seat
            seat = Viewer(game_id=seats["game_id"], role="attacker")
            with (
                pytest.raises(RuleRefused, match="has confirmed table 1's result already"),
                unit_of_work(page),
            ):
                tournament_results.confirm(page, event_id, seats["table_id"], seat)
    finally:
        engine.dispose()
    assert confirmations_logged(migrated_url, event_id) == 1
