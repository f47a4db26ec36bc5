"""The event day's pages without a browser (issue 57): an event made from its form keeps the organiser's
token on the device; players registered, a round drafted and committed by forms; the round sheet prints a
QR per seat (the codes that seat a device), the table's page confirms the result from a seat's device, and the
organiser's tap re-keys a lost tablet (the old device's seat stops working)."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests import csrf


def test_an_event_by_its_pages(sqlite_client: TestClient) -> None:
    c = sqlite_client
    made = c.post("/events", data=csrf.form(c, {"name": "Club night", "game": "flanders-fields/early", "rounds": "1"}),
                  follow_redirects=False)  # fmt: skip
    assert made.status_code == 303, made.text
    event = made.headers["location"]
    assert "firestep_organiser" in c.cookies
    players = "Ann, Ypres, Guards\nBob, Arras, Rifles"
    assert (
        c.post(
            f"{event}/players", data=csrf.form(c, {"players": players}), follow_redirects=False
        ).status_code
        == 303
    )
    assert c.post(f"{event}/draft", data=csrf.form(c, {"scenario": "mons-1914", "minutes": "90"}),
                  follow_redirects=False).status_code == 303  # fmt: skip
    page = c.get(event).text
    assert "Commit round 1" in page and "Ann" in page
    assert c.post(f"{event}/rounds/1/commit", data=csrf.form(c), follow_redirects=False).status_code == 303
    page = c.get(event).text
    assert 'data-event-board="/api/v1/events/' in page and "data-round-ends" in page
    table = re.search(r"/events/\d+/tables/(\d+)/desk", page)  # the table's number: its panel, on a tap
    assert table is not None
    assert f"{event}/tables/{table.group(1)}/slip" in c.get(f"{event}/tables/{table.group(1)}/desk").text

    sheet = c.get(f"{event}/rounds/1/sheet").text
    assert sheet.count("<svg") == 2 and "Table 1" in sheet
    join = re.search(r'data-game="(\d+)".*?data-seat="attacker">([A-Z0-9-]+)<', sheet, re.S)
    assert join is not None
    game_id, code = int(join.group(1)), join.group(2)

    # The attacker's tablet: seated from the sheet's code, it sees the table's page and its round timer.
    with TestClient(c.app) as tablet:
        seated = tablet.post(
            f"/games/{game_id}/join/attacker", data=csrf.form(tablet, {"code": code}), follow_redirects=False
        )
        assert seated.status_code == 303
        table_page = f"{event}/tables/{table.group(1)}"
        assert "Round ends in" in tablet.get(table_page).text
        refused = tablet.post(f"{table_page}/confirm", data=csrf.form(tablet))
        assert "still being played" in refused.text

        # Lost: the organiser's tap shows a code that gives a new device the attacker's seat, once; the old
        # device loses it.
        offered = c.post(f"{event}/tables/{table.group(1)}/rekey", data=csrf.form(c, {"side": "attacker"}))
        rekey = re.search(r"data-rekey-code>([0-9a-z-]+)<", offered.text)
        assert rekey is not None and offered.text.count("<svg") == 1
        with TestClient(c.app) as spare:
            back = spare.post(
                "/events/rekey", data=csrf.form(spare, {"code": rekey.group(1)}), follow_redirects=False
            )
            assert back.status_code == 303 and back.headers["location"] == table_page
            # The new tablet is told whose seat it now holds (the newcomer pass: "the result is yours", whose not
            # said), as a card's join says "You are Ann, table 1".
            kept = spare.get(table_page).text
            attacker = re.search(r'<h1 id="table-h">Table 1: (\w+) v ', kept)
            assert attacker is not None, kept[-1500:]
            said = "the attacker: the result is yours to confirm here once the game has ended."
            assert f"You are {attacker.group(1)}, {said}" in kept
        assert "Join the table's game" in tablet.get(table_page).text
    wrong = c.post("/events/rekey", data=csrf.form(c, {"code": "1-a-0000"}))
    assert "ask the organiser for a new one" in wrong.text
