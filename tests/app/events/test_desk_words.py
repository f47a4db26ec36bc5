"""What the organiser's desk says of a draft and a result typed in (the newcomer and hostile passes of session
17): a draft refused names every table still waiting, as a sentence; a draft nobody edited is not "the hand
pairing"; a points field left blank is its placeholder's 0, never a prefilled 0 a tap turns into "05"."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.services.tournaments import tables_named
from tests import csrf
from tests.app.events.test_event_day import SCENARIO, new_event, register
from tests.app.events.test_event_seats import as_organiser, committed_table


def test_a_draft_refused_names_every_table_waiting_and_a_blank_points_field_is_0(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    event_id, organiser = new_event(c, rounds=2)
    register(c, event_id, organiser, n=4)
    url = f"/api/v1/events/{event_id}"
    assert c.post(f"{url}/rounds", headers=organiser, json={"scenario": SCENARIO}).is_success
    tables = [s["table_id"] for s in c.post(f"{url}/rounds/1/commit", headers=organiser).json()["seats"]]
    as_organiser(c, organiser)

    # The points fields are drawn blank, 0 their placeholder (in each table's panel).
    desk = "".join(c.get(f"/events/{event_id}/tables/{t}/desk").text for t in tables)
    assert desk.count('placeholder="0" value=""') == 4  # two tables, two sides each
    # A draft while both tables play: both named, in a sentence.
    drafted = c.post(f"/events/{event_id}/draft", data=csrf.form(c, {"scenario": SCENARIO}))
    assert "Not yet: round 1 still waits for the result of tables 1 and 2." in drafted.text
    # A side's points left blank are 0.
    typed = {"winner": "b", "a_points": "", "b_points": "3"}
    done = c.post(
        f"/events/{event_id}/tables/{tables[0]}/result", data=csrf.form(c, typed), follow_redirects=False
    )
    assert done.status_code == 303
    first = c.get(f"{url}/rounds/1").json()["tables"][0]
    assert first["result"]["a_points"] == 0 and first["result"]["b_points"] == 3
    # A side's points not a whole number: the refusal names the side (the hostile pass of session 18).
    typed = {"winner": "b", "a_points": "1", "b_points": "3_0"}
    refused = c.post(f"/events/{event_id}/tables/{tables[0]}/result", data=csrf.form(c, typed))
    assert "Points: the defender&#39;s points are a whole number from 0 to 10000." in refused.text
    drafted = c.post(f"/events/{event_id}/draft", data=csrf.form(c, {"scenario": SCENARIO}))
    assert "Not yet: round 1 still waits for the result of table 2." in drafted.text


def test_tables_named_are_bounded() -> None:
    assert tables_named([4]) == "table 4"
    assert tables_named([1, 4, 6]) == "tables 1, 4 and 6"
    assert tables_named(list(range(1, 13))) == "tables 1, 2, 3, 4, 5 and 7 more"


def test_a_draft_nobody_edited_is_not_called_the_hand_pairing(sqlite_client: TestClient) -> None:
    c = sqlite_client
    event_id, organiser, seats = committed_table(c, rounds=2)
    url, table = f"/api/v1/events/{event_id}", seats["table_id"]
    paper = {"winner": "a", "a_points": 2, "b_points": 0}
    assert c.put(f"{url}/tables/{table}/result", headers=organiser, json=paper).is_success
    second = c.post(f"{url}/rounds", headers=organiser, json={"scenario": SCENARIO}).json()
    assert second["warnings"] and second["hand_edits"] == []  # two players: a rematch nobody chose
    as_organiser(c, organiser)
    desk = c.get(f"/events/{event_id}").text
    assert "The draft could not avoid:" in desk and "hand pairing" not in desk


def test_why_a_confirmed_result_changed_holds_no_hidden_characters(sqlite_client: TestClient) -> None:
    """The organiser's reason is logged and shown as a dispute's is: refused naming `why` for a direction
    override or a zero-width character, as a dispute's reason is (player_names.free_text)."""
    c = sqlite_client
    event_id, organiser, seats = committed_table(c)
    url, table = f"/api/v1/events/{event_id}", seats["table_id"]
    for why in ("paper slip \u202egnorw", "paper\u200bslip"):
        paper = {"winner": "a", "a_points": 2, "b_points": 0, "why": why}
        refused = c.put(f"{url}/tables/{table}/result", headers=organiser, json=paper)
        assert refused.status_code == 422 and refused.json()["errors"][0]["loc"][-1] == "why", refused.text
