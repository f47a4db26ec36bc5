"""A number typed where a page, a cookie or a code takes one, in digits `int()` does not read: "²" is a digit
to `str.isdigit` and no number to `int()`, and five thousand digits are more than `int()` takes. Each was a 500
where the text was checked with isdigit alone (issue 64's hostile pass found them on the organiser's pages);
every one is now read by app.data.numbers.whole_number, and answered as any other wrong number."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.data.numbers import whole_number
from tests import csrf
from tests.app.events.test_event_day import new_event

NOT_PLAIN = ["²", "٣", "9" * 5000]


@pytest.mark.parametrize("text", [*NOT_PLAIN, "", "-1", "1.5", "601"])
def test_no_whole_number_below_its_bound(text: str) -> None:
    assert whole_number(text, 601) is None


def test_a_whole_number_below_its_bound() -> None:
    assert [whole_number(t, 601) for t in ("0", "600", "007")] == [0, 600, 7]


@pytest.mark.parametrize("typed", NOT_PLAIN)
def test_the_organisers_pages_the_re_key_code_the_lookup_and_the_seat_cookie(
    sqlite_client: TestClient, typed: str
) -> None:
    c = sqlite_client
    event_id, organiser = new_event(c, rounds=1)
    assert c.post("/api/v1/events/rekey", json={"code": f"{typed}-a-00"}).status_code in (404, 422)
    # The organiser's pages, with the organiser's cookie (a cookie-authorised request carries its CSRF token).
    c.cookies.set("firestep_organiser", organiser["Authorization"].removeprefix("Bearer "))
    timer = c.post(f"/events/{event_id}/timer", data=csrf.form(c, {"minutes": typed}), follow_redirects=False)
    assert timer.status_code < 500 and "whole number from 0 to 600" in timer.text
    draft = c.post(f"/events/{event_id}/draft", data=csrf.form(c, {"minutes": typed}), follow_redirects=False)
    assert draft.status_code < 500
    swap = {"version": typed, "first": typed, "second": typed}
    swapped = c.post(f"/events/{event_id}/rounds/1/swap", data=csrf.form(c, swap), follow_redirects=False)
    assert swapped.status_code < 500
    looked = c.post(
        "/lookup/flanders-fields/order-roll", data=csrf.form(c, {"_game": typed, "_unit": typed}),
        follow_redirects=False,
    )  # fmt: skip
    assert looked.status_code < 500
    # The server reads a header's bytes as latin-1: b"\xb2" is "²" to it (a browser sends what a page set).
    cookie = f"firestep_games={typed}:token; firestep_lookup=flanders-fields|mid|order-roll|{typed}"
    headers = {"Cookie": cookie.encode("latin-1" if typed == "²" else "utf-8")}
    c.cookies.clear()
    assert c.get("/", headers=headers).status_code == 200
    assert c.get("/lookup", headers=headers).status_code == 200


def test_no_page_or_service_reads_digits_by_str_isdigit() -> None:
    # Session 20's hostile pass found one more (the counters' entry); a walk found the rest (a list's `after`, a
    # seat's nonce, a league claim's number, the forces' rows): each reads by isdecimal, bounded, or whole_number.
    app = Path(__file__).resolve().parents[3] / "app"
    found = [
        f"{path.relative_to(app)}:{n}"
        for path in app.rglob("*.py")
        if path.name != "numbers.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if ".isdigit()" in line
    ]
    assert found == []


def test_a_page_after_a_number_past_int_or_no_number(sqlite_client: TestClient) -> None:
    assert sqlite_client.get("/api/v1/leagues", params={"after": "²"}).status_code == 422
    assert sqlite_client.get("/api/v1/leagues", params={"after": "9" * 64}).json() == []  # past every id
