"""What an event table's page and its acts tell a player and its referee (the newcomer and hostile passes of
session 17): its result's status said once, a dispute's reason (isolated, escaped, refused with a character that
prints otherwise than it is kept) and who settles it, each refusal naming the act asked and its cause."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests import csrf
from tests.app.events.test_event_day import bearer
from tests.app.events.test_event_seats import committed_table


def test_a_table_page_says_its_result_and_a_dispute_and_who_settles_it(sqlite_client: TestClient) -> None:
    c = sqlite_client
    event_id, _, seats = committed_table(c)
    game_id, table_id = seats["game_id"], seats["table_id"]
    page, api = f"/events/{event_id}/tables/{table_id}", f"/api/v1/events/{event_id}/tables/{table_id}"
    assert c.post(
        f"/games/{game_id}/join/attacker", data=csrf.form(c, {"code": seats["join_codes"]["attacker"]})
    )
    defender = bearer(c.post("/api/v1/join", json={"code": seats["join_codes"]["defender"]}).json()["token"])
    referee = bearer(str(seats["referee_token"]))

    # A dispute while the game is played: the rule's sentence (the game still played), not a stale write's.
    early = c.post(f"{api}/dispute", headers=defender, json={"why": "too soon"})
    assert (
        early.status_code == 409
        and "still being played: dispute its result once it ends" in early.json()["said"]
    )
    # The table's referee is told who disputes (not who "confirm"s) and who settles it.
    game = f"/api/v1/games/{game_id}"
    version = c.get(f"{game}/turn", headers=referee).json()["version"]
    assert c.post(f"{game}/finish", headers=referee, json={"version": version}).status_code == 200
    by_referee = c.post(f"{api}/dispute", headers=referee, json={"why": "x"})
    assert by_referee.status_code == 403 and by_referee.json()["said"] == (
        "Only the two players' seats of this table dispute its result: the organiser settles a result (Event results)."
    )

    # The result offered is said once under its heading.
    text = c.get(page).text
    assert "Result: Result offered" not in text
    assert re.search(
        r"Result: <span class=\"ev-badge \w+\">Offered, for both players to confirm</span>", text
    )
    # Each score beside its player's name (session 19's newcomer: "Carol Cole won, 0–2" said not whose 0).
    assert re.search(r"A draw: Player \d 0, Player \d 0</p>", text)

    # A reason of a C1 control, a direction override, a zero-width space is refused naming it, on both roads.
    # A line or paragraph separator too (the hostile pass of session 18: it broke the line where it was shown).
    for why in ("held\x85", "the \u202ewood", "wood\u200b", "the\u2028wood", "the\u2029wood"):
        refused = c.post(f"{api}/dispute", headers=defender, json={"why": why})
        assert refused.status_code == 422 and refused.json()["field"] == "why", refused.text
    form = c.post(f"{page}/dispute", data=csrf.form(c, {"why": "the \u202ewood"}), follow_redirects=False)
    assert form.status_code == 200 and "Why: a dispute&#39;s reason holds no control" in form.text
    # Typed on the page past the API's bound, it is refused as the API refuses it, not cut short unsaid.
    form = c.post(f"{page}/dispute", data=csrf.form(c, {"why": "w" * 201}), follow_redirects=False)
    assert form.status_code == 200 and "Why: a dispute&#39;s reason is at most 200 characters" in form.text
    assert c.get(f"/api/v1/events/{event_id}/rounds/1").json()["tables"][0]["status"] == "playing"

    # Disputed: its seats read the reason (escaped, isolated) and that the organiser settles it; a passer-by not.
    said = c.post(
        f"{page}/dispute", data=csrf.form(c, {"why": "the <b>wood</b> was held"}), follow_redirects=False
    )
    assert said.status_code == 303
    text = c.get(page).text
    assert "Why it is disputed: <bdi>the &lt;b&gt;wood&lt;/b&gt; was held</bdi>." in text
    assert "The organiser settles it now" in text and "Confirmed by" not in text  # no confirmation stands
    c.cookies.clear()
    text = c.get(page).text
    assert "The organiser settles it now" in text and "wood" not in text
    assert "Join the table's game with its join card" not in text  # nothing to confirm from any device now


def test_without_a_seat_a_missing_event_or_table_answers_as_one_there(sqlite_client: TestClient) -> None:
    """The hostile pass of session 18: no token or an unknown one at a table's confirm or dispute was a 401 for a
    table there and a 404 for one not: the seat is asked first, so the answer tells nothing of what exists."""
    c = sqlite_client
    event_id, _, seats = committed_table(c)
    table = seats["table_id"]
    for headers in ({}, {"Authorization": "Bearer made-up"}):
        answers = {
            c.post(f"/api/v1/events/{e}/tables/{t}/{act}", headers=headers, json={"why": "x"}).status_code
            for e, t in ((event_id, table), (event_id, 9999), (9999, 1))
            for act in ("confirm", "dispute")
        }
        assert answers == {401}, (headers, answers)
