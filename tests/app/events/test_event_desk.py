"""The organiser's desk and the table's page without a browser (issue 63): an event form refused keeps what
was typed and says what to do in one sentence; a seat is offered the confirmation only once the act would take
it; the game's map links its table's page; a result typed from a paper slip asks no reason, one overriding
what both players confirmed does."""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient

from app.club.qr import svg
from tests import csrf
from tests.app.events.test_event_day import SCENARIO, bearer, new_event, register
from tests.app.league.test_league import new_league


def test_an_event_form_left_without_a_period_is_refused_keeping_what_was_typed(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    # The form offers each rule set with each period a scenario plays (one choice, session 18's pass); a
    # forged one with no period is refused in the rules' sentence, keeping what was typed.
    choices = re.findall(r'<option value="([^"]*)"[^>]*>([^<]+)</option>', c.get("/events").text)
    assert ("flanders-fields/early", "Flanders Fields, 1914 to mid 1915") in choices
    assert ("vimy-ridge/", "Vimy Ridge: Arras Diversion") in choices
    assert "flanders-fields/late" not in dict(choices)  # no scenario of it: no event of it
    form = {"name": "Saturday at Ypres", "game": "flanders-fields/", "rounds": "4"}
    page = c.post("/events", data=csrf.form(c, form), follow_redirects=False)
    assert page.status_code == 200 and "firestep_organiser" not in c.cookies
    assert "Period: give the event&#39;s period (choose early)" in page.text
    assert 'value="Saturday at Ypres"' in page.text and 'value="4"' in page.text
    api = c.post("/api/v1/events", json={"name": "Club night", "ruleset": "flanders-fields"})
    assert api.status_code == 422 and api.json()["field"] == "period"
    # The hostile pass of session 19: a period of a rule set with none was dropped unsaid, a campaign's rule set
    # made an event no round of could be drafted, a choice the form never offers was read as one.
    for ruleset, period, field in (
        ("vimy-ridge", "early", "period"),
        ("firestorm-villers-bretonneux", None, "ruleset"),
    ):
        made = c.post("/api/v1/events", json={"name": "Club night", "ruleset": ruleset, "period": period})
        assert made.status_code == 422 and made.json()["field"] == field, made.text
    for game in ("flanders-fields", "", "x" * 10_000):
        page = c.post("/events", data=csrf.form(c, {**form, "game": game}), follow_redirects=False)
        assert page.status_code == 200 and "Game: choose one of the form&#39;s games." in page.text, game[:20]


def test_the_table_offers_what_the_pipeline_takes_and_the_organiser_types_a_slip(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    event_id, organiser = new_event(c, rounds=1)
    register(c, event_id, organiser, n=4)
    assert c.post(
        f"/api/v1/events/{event_id}/rounds", headers=organiser, json={"scenario": SCENARIO}
    ).is_success
    seats = c.post(f"/api/v1/events/{event_id}/rounds/1/commit", headers=organiser).json()["seats"]
    first, second = seats
    table_page = f"/events/{event_id}/tables/{first['table_id']}"

    # The attacker's tablet, seated by its card: the map links the table's page; no confirmation while playing.
    joined = c.post(
        f"/games/{first['game_id']}/join/attacker",
        data=csrf.form(c, {"code": first["join_codes"]["attacker"]}),
        follow_redirects=False,
    )
    assert joined.status_code == 303
    assert f'href="{table_page}" data-event-table' in c.get(f"/games/{first['game_id']}/map").text
    # The start page lists the club's games, not the event's (they are its page's); the seat's own to resume.
    start = c.get("/").text
    resume = start.split('id="games-h"')[0]
    assert f"/games/{first['game_id']}/map" in resume and start.count("<li><span><strong>") == 1
    playing = c.get(table_page).text
    assert "Confirm the result as" not in playing
    assert (
        f'start the game and end it on <a href="/games/{first["game_id"]}/referee#turn">its board</a>'
        in playing
    )
    referee = bearer(first["referee_token"])
    game = f"/api/v1/games/{first['game_id']}"
    version = c.get(f"{game}/turn", headers=referee).json()["version"]
    assert c.post(f"{game}/finish", headers=referee, json={"version": version}).is_success
    assert "Confirm the result as" in c.get(table_page).text  # ended: now the act takes it
    # The organiser's panel of the table says so too, and so does the board as it opens, before its stream's
    # first frame (the newcomer pass: "0 with a result to confirm" and "Playing" until then, or for good
    # without the stream).
    c.cookies.set("firestep_organiser", organiser["Authorization"].removeprefix("Bearer "))
    panel = c.get(f"{table_page}/desk", headers={"HX-Request": "true"}).text
    assert 'class="ev-badge offered">Result offered<' in panel, panel
    board = c.get(f"/events/{event_id}").text
    assert re.search(
        r'"playing">1</strong> playing · <strong data-count="offered">1</strong> with a result', board
    )
    assert board.count('class="ev-badge offered" data-status>Result offered<') == 1
    c.cookies.delete("firestep_organiser")
    assert c.post(f"{table_page}/confirm", data=csrf.form(c), follow_redirects=False).status_code == 303
    defender = bearer(c.post("/api/v1/join", json={"code": first["join_codes"]["defender"]}).json()["token"])
    url = f"/api/v1/events/{event_id}/tables"
    confirmed = c.post(f"{url}/{first['table_id']}/confirm", headers=defender).json()
    assert (
        confirmed["status"] == "confirmed"
    )  # both tables' words: the event counts it, nothing asked of the desk

    # The other table played on paper: its result typed with no reason; overriding a confirmed one asks one.
    typed = {"winner": "b", "a_points": 2, "b_points": 5}
    assert c.put(f"{url}/{second['table_id']}/result", headers=organiser, json=typed).status_code == 200
    override = c.put(f"{url}/{first['table_id']}/result", headers=organiser, json=typed)
    assert override.status_code == 422 and override.json()["field"] == "why"
    reasoned = {**typed, "why": "the slip both signed says so"}
    assert (
        c.put(f"{url}/{first['table_id']}/result", headers=organiser, json=reasoned).json()["status"]
        == "altered"
    )
    # The seat's page says the organiser set the result and why, not who had confirmed the one it replaced.
    page = c.get(table_page).text
    assert "The organiser's reason: <bdi>the slip both signed says so</bdi>" in page
    assert "Confirmed by" not in page and "Confirm the result as" not in page
    c.cookies.set("firestep_organiser", organiser["Authorization"].removeprefix("Bearer "))
    panels = "".join(c.get(f"/events/{event_id}/tables/{s['table_id']}/desk").text for s in seats)
    assert "Set it" in panels and panels.count('name="why"') == 0  # neither table is confirmed now: no reason


@pytest.mark.storage
def test_the_round_end_prints_in_the_events_own_time_zone(client: TestClient) -> None:
    c = client
    made = {"name": "Club night", "ruleset": "flanders-fields", "period": "early", "rounds": 1}
    for zone in ("Mars/Olympus", "../../etc/passwd", "Europe"):  # a name, never a path read
        wrong = c.post("/api/v1/events", json={**made, "time_zone": zone})
        assert wrong.status_code == 422 and wrong.json()["field"] == "time_zone"
    created = c.post("/api/v1/events", json={**made, "time_zone": "Australia/Sydney"}).json()
    event_id, organiser = created["event"]["id"], bearer(created["organiser_token"])
    register(c, event_id, organiser, n=2)
    assert c.post(
        f"/api/v1/events/{event_id}/rounds", headers=organiser, json={"scenario": SCENARIO}
    ).is_success
    assert c.post(f"/api/v1/events/{event_id}/rounds/1/commit", headers=organiser).is_success
    timer = {"ends_at": "2026-11-25T09:30:00Z"}  # 20:30 in Sydney (daylight saving time, UTC+11)
    assert c.put(f"/api/v1/events/{event_id}/timer", headers=organiser, json=timer).is_success
    c.cookies.set("firestep_organiser", organiser["Authorization"].removeprefix("Bearer "))
    sheet = c.get(f"/events/{event_id}/rounds/1/sheet").text
    # Each card's line of the round (not the whole sheet: a seat's random join code may hold the letters "UTC").
    said = re.findall(r'<p class="meta">(.*?)</p>', sheet)
    assert said and all("ends 20:30 (Australia/Sydney)" in line and "UTC" not in line for line in said), said


@pytest.mark.storage
def test_between_rounds_the_organiser_drops_marks_a_no_show_and_adds_a_late_player(
    client: TestClient,
) -> None:
    c = client
    event_id, organiser = new_event(c, rounds=2)
    ids = list(register(c, event_id, organiser, n=4))
    url = f"/api/v1/events/{event_id}"
    assert c.post(f"{url}/rounds", headers=organiser, json={"scenario": SCENARIO}).is_success
    for seat in c.post(f"{url}/rounds/1/commit", headers=organiser).json()["seats"]:
        typed = {"winner": None, "a_points": 1, "b_points": 1}
        assert c.put(f"{url}/tables/{seat['table_id']}/result", headers=organiser, json=typed).is_success
    assert c.post(
        f"{url}/rounds", headers=organiser, json={"scenario": SCENARIO}
    ).is_success  # round 2 drafted

    # A result corrected while round 2 is under review: the draft paired the standings before it, and goes.
    first = c.get(f"{url}/rounds/1").json()["tables"][0]["id"]
    won = {"winner": "a", "a_points": 3, "b_points": 0, "why": "the slip read again"}
    assert c.put(f"{url}/tables/{first}/result", headers=organiser, json=won).is_success
    assert c.get(f"{url}/rounds/2").status_code == 404
    assert c.post(f"{url}/rounds", headers=organiser, json={"scenario": SCENARIO}).is_success  # drafted again

    gone, absent = ids[0], ids[1]
    mark = f"{url}/players/{gone}"
    assert c.put(mark, json={"status": "dropped"}).status_code == 401
    _, stranger = new_event(c, rounds=1)
    assert c.put(mark, headers=stranger, json={"status": "dropped"}).status_code == 403
    assert c.put(f"{url}/players/99999", headers=organiser, json={"status": "dropped"}).status_code == 404
    assert c.put(mark, headers=organiser, json={"status": "gone"}).status_code == 422
    dropped = c.put(mark, headers=organiser, json={"status": "dropped"})
    assert (
        dropped.status_code == 200
        and dropped.json()["discarded_draft"] == 2
        and dropped.json()["player"]["dropped"]
    )
    assert c.get(f"{url}/rounds/2").status_code == 404  # the draft that paired them is gone
    assert (
        c.put(f"{url}/players/{absent}", headers=organiser, json={"status": "no-show"}).json()[
            "discarded_draft"
        ]
        is None
    )
    late = c.post(f"{url}/players", headers=organiser, json={"players": [{"name": "Late Comer"}]}).json()[0][
        "id"
    ]

    draft = c.post(f"{url}/rounds", headers=organiser, json={"scenario": SCENARIO}).json()
    paired = {p for t in draft["tables"] for p in (t["a_player_id"], t["b_player_id"])} | {
        draft["bye_player_id"]
    }
    assert paired == {ids[2], ids[3], late}  # the dropped and the no-show unpaired; the late one in
    standings = {s["player_id"]: s for s in c.get(f"{url}/standings").json()}
    assert standings[gone]["played"] == 1  # their round stays counted
    # Back in: the organiser's page shows who is out and why, and one tap puts them back.
    c.cookies.set("firestep_organiser", organiser["Authorization"].removeprefix("Bearer "))
    page = c.get(f"/events/{event_id}").text
    assert "Dropped</strong>" in page and "No-show</strong>" in page
    back = c.post(f"/events/{event_id}/players/{absent}/status", data=csrf.form(c, {"status": "playing"}),
                  follow_redirects=False)  # fmt: skip
    assert back.status_code == 303
    assert c.get(f"/events/{event_id}").text.count("No-show</strong>") == 0
    bogus = c.post(f"/events/{event_id}/players/{absent}/status", data=csrf.form(c, {"status": "x"}))
    assert "a player is marked playing, dropped or no-show" in bogus.text


def test_a_second_event_keeps_this_browser_the_organiser_of_the_first(sqlite_client: TestClient) -> None:
    """Issue 63: making a second event overwrote the organiser's one cookie, and no page showed the token, so
    the first event could never be run from the pages again. The cookie keeps each event's token; the event
    page shows its organiser, and no one else, the token to sign in on another device."""
    c = sqlite_client

    def make(name: str) -> int:
        form = {"name": name, "game": "flanders-fields/early", "rounds": "1"}
        made = c.post("/events", data=csrf.form(c, form), follow_redirects=False)
        assert made.status_code == 303
        return int(made.headers["location"].rsplit("/", 1)[1])

    first, second = make("Saturday at Ypres"), make("Sunday at Mons")
    shown = {}
    for event_id in (first, second):
        page = c.get(f"/events/{event_id}")
        assert "Draft the pairing" in page.text and page.headers["cache-control"] == "no-store"
        assert c.get(f"/api/v1/events/{event_id}/board").status_code == 200  # the API reads the cookie too
        shown[event_id] = re.findall(r"data-organiser-token>([^<]+)<", page.text)
    assert len(shown[first]) == 1 and shown[first] != shown[second]
    # Another device: no token shown to it; signed in with the one shown, it runs the first event.
    c.cookies.clear()
    page = c.get(f"/events/{first}").text
    assert "data-organiser-token" not in page and shown[first][0] not in page
    signed = c.post(
        f"/events/{first}/sign-in", data=csrf.form(c, {"token": shown[first][0]}), follow_redirects=False
    )
    assert signed.status_code == 303 and "Draft the pairing" in c.get(f"/events/{first}").text
    assert "Draft the pairing" not in c.get(f"/events/{second}").text


def test_a_name_too_long_on_the_page_is_refused_not_cut(sqlite_client: TestClient) -> None:
    """The page cut a name to 80 characters without a word, so two long names alike in their first 80 were one
    player "registered already" (issue 63's newcomer pass): now it is refused, naming its length."""
    c = sqlite_client
    event_id, organiser = new_event(c, rounds=1)
    c.cookies.set("firestep_organiser", organiser["Authorization"].removeprefix("Bearer "))
    long = "A" * 81
    page = c.post(f"/events/{event_id}/players", data=csrf.form(c, {"players": f"{long}, Ypres"}))
    assert "at most 80 characters" in page.text and 'role="alert"' in page.text
    assert c.get(f"/api/v1/events/{event_id}/standings").json() == []


def test_the_organisers_token_in_the_start_pages_join_box_opens_the_event_as_its_organiser(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    event_id, organiser = new_event(c, rounds=1)
    token = organiser["Authorization"].removeprefix("Bearer ")
    c.cookies.clear()
    joined = c.post("/join", data=csrf.form(c, {"code": f" {token} "}), follow_redirects=False)
    assert joined.status_code == 303 and joined.headers["location"] == f"/events/{event_id}"
    page = c.get(f"/events/{event_id}").text
    assert "data-organiser-token" in page  # signed in: the organiser's page
    # Its code to scan holds the start page's address with the token in the fragment (join-link.js).
    assert svg(f"http://testserver/#code={token}", "Sign in as the organiser") in page
    c.cookies.clear()
    unknown = c.post("/join", data=csrf.form(c, {"code": token[:-1] + ("A" if token[-1] != "A" else "B")}))
    assert unknown.status_code == 422 and "is not known here" in unknown.text
    # A league's organiser token likewise opens its league's page signed in (the hostile pass of session 19).
    league_id, league_organiser = new_league(c)
    league_token = league_organiser["Authorization"].removeprefix("Bearer ")
    c.cookies.clear()
    joined = c.post("/join", data=csrf.form(c, {"code": league_token}), follow_redirects=False)
    assert joined.status_code == 303 and joined.headers["location"] == f"/leagues/{league_id}"
    assert "data-organiser-token" in c.get(f"/leagues/{league_id}").text


def test_the_next_round_is_offered_once_it_may_be_drafted_and_never_over_anothers_draft(
    sqlite_client: TestClient,
) -> None:
    """Session 19's newcomer pass: "Draft the pairing" was offered while round 1 was played (a tap refused), and
    an organiser's second device, its page read before the first drafted, drafted again over that draft."""
    c = sqlite_client
    event_id, organiser = new_event(c, rounds=2)
    register(c, event_id, organiser, n=4)
    c.cookies.set("firestep_organiser", organiser["Authorization"].removeprefix("Bearer "))

    def version() -> str:
        return re.findall(r'name="version" value="(\d+)"', c.get(f"/events/{event_id}").text)[-1]

    read = version()  # the second device's page, read now
    draft = {"scenario": SCENARIO, "minutes": "150"}
    assert c.post(f"/events/{event_id}/draft", data=csrf.form(c, {**draft, "version": version()})).is_success
    first = c.get(f"/api/v1/events/{event_id}/rounds/1").json()["tables"]
    stale = c.post(f"/events/{event_id}/draft", data=csrf.form(c, {**draft, "version": read}))
    assert "The event changed on another device" in stale.text
    assert c.get(f"/api/v1/events/{event_id}/rounds/1").json()["tables"] == first  # the draft kept
    assert c.post(
        f"/events/{event_id}/rounds/1/commit", data=csrf.form(c), follow_redirects=False
    ).is_redirect
    page = c.get(f"/events/{event_id}").text
    assert "Not yet: round 1 still waits for the result of tables 1 and 2." in page
    assert f'action="/events/{event_id}/draft"' not in page


def test_the_round_timer_stops_once_every_table_of_the_round_has_its_result(
    sqlite_client: TestClient,
) -> None:
    # Session 19's pass: the tables' timers counted on, red and negative, after the last result was in.
    c = sqlite_client
    event_id, organiser = new_event(c, rounds=2)
    register(c, event_id, organiser, n=4)
    url = f"/api/v1/events/{event_id}"
    assert c.post(f"{url}/rounds", headers=organiser, json={"scenario": SCENARIO}).is_success
    seats = c.post(f"{url}/rounds/1/commit", headers=organiser).json()["seats"]
    timer = {"ends_at": "2026-11-25T09:30:00Z"}
    assert c.put(f"{url}/timer", headers=organiser, json=timer).is_success
    typed = {"winner": None, "a_points": 1, "b_points": 1}
    assert c.put(f"{url}/tables/{seats[0]['table_id']}/result", headers=organiser, json=typed).is_success
    assert c.get(url).json()["round_ends_at"] is not None  # one table still plays: the round runs on
    assert c.put(f"{url}/tables/{seats[1]['table_id']}/result", headers=organiser, json=typed).is_success
    assert c.get(url).json()["round_ends_at"] is None  # the round's last result: its timer stops
    # Set again and a settled result corrected (session 20's hostile pass): the timer runs on.
    assert c.put(f"{url}/timer", headers=organiser, json=timer).is_success
    fixed = {**typed, "a_points": 3}
    assert c.put(f"{url}/tables/{seats[1]['table_id']}/result", headers=organiser, json=fixed).is_success
    assert c.get(url).json()["round_ends_at"] is not None
    # An earlier round's result set anew once the next round runs does not stop the running round's timer.
    assert c.post(f"{url}/rounds", headers=organiser, json={"scenario": SCENARIO}).is_success
    assert c.post(f"{url}/rounds/2/commit", headers=organiser).is_success
    assert c.put(f"{url}/timer", headers=organiser, json=timer).is_success
    again = {**typed, "a_points": 2}
    assert c.put(f"{url}/tables/{seats[0]['table_id']}/result", headers=organiser, json=again).is_success
    assert c.get(url).json()["round_ends_at"] is not None
    # The last round's results in: the desk says the event is over, not "Not yet" (session 20's newcomer).
    for seat in c.get(f"{url}/rounds/2").json()["tables"]:
        assert c.put(f"{url}/tables/{seat['id']}/result", headers=organiser, json=typed).is_success
    c.cookies.set("firestep_organiser", organiser["Authorization"].removeprefix("Bearer "))
    desk = c.get(f"/events/{event_id}").text
    assert "The event is over: its last round, round 2, has been played." in desk and "Not yet" not in desk


def test_players_refused_stay_in_the_box_as_typed(sqlite_client: TestClient) -> None:
    """The newcomer pass: "Carol, Hull / Alice, Leeds" refused for Alice registered already came back to an
    empty box, Carol's line lost with it."""
    c = sqlite_client
    event_id, organiser = new_event(c, rounds=1)
    c.cookies.set("firestep_organiser", organiser["Authorization"].removeprefix("Bearer "))
    assert (
        c.post(f"/events/{event_id}/players", data=csrf.form(c, {"players": "Alice, Leeds"})).status_code
        == 200
    )
    typed = "Carol, Hull\nAlice, Leeds"
    page = c.post(f"/events/{event_id}/players", data=csrf.form(c, {"players": typed}))
    assert "Alice is registered already" in html.unescape(page.text) and 'role="alert"' in page.text
    box = re.search(r'<textarea id="ev-players"[^>]*>(.*?)</textarea>', page.text, re.S)
    assert box is not None and html.unescape(box.group(1)) == typed
