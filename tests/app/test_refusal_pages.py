"""A refusal a browser opens itself is a page (session 23's newcomer pass: a player opening the organiser's join
cards sheet, or a mistyped address, got raw JSON, with no title and no language, which axe fails): its one
sentence naming what to do, in the site's page; the API, a page's scripts and an htmx swap keep the JSON."""

from __future__ import annotations

import html

from fastapi.testclient import TestClient

from tests import csrf
from tests.app.events.test_event_seats import committed_table

OPENED = {"Accept": "text/html,application/xhtml+xml", "Sec-Fetch-Mode": "navigate"}


def is_a_page(answer: object, status: int, sentence: str) -> None:
    text = html.unescape(answer.text)  # type: ignore[attr-defined]
    assert answer.status_code == status, (answer.status_code, text[:300])  # type: ignore[attr-defined]
    assert answer.headers["content-type"].startswith("text/html"), answer.headers  # type: ignore[attr-defined]
    assert '<html lang="en">' in text and "<title>" in text, text[:300]
    assert sentence in text, text


def test_a_player_opening_the_organisers_sheet_gets_a_page_saying_what_to_do(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    event_id, _organiser, seats = committed_table(c)
    game = f"/games/{seats['game_id']}/join/attacker"
    seated = c.post(
        game, data=csrf.form(c, {"code": seats["join_codes"]["attacker"]}), follow_redirects=False
    )
    assert seated.status_code == 303
    sheet = f"/events/{event_id}/rounds/1/sheet"
    said = "Only the event's organiser may do this: sign in with the organiser's token."
    is_a_page(c.get(sheet, headers=OPENED), 403, said)
    # A script's fetch and an htmx swap get the JSON refusal, its sentence in `said`.
    assert c.get(sheet).json()["said"] == said
    swapped = c.get(
        sheet, headers={"HX-Request": "true", "Sec-Fetch-Mode": "cors", "Accept": "*/*"}
    )  # as htmx
    assert swapped.status_code == 403 and swapped.json()["said"] == said


def test_an_unknown_address_opened_in_a_browser_is_a_page(sqlite_client: TestClient) -> None:
    c = sqlite_client
    said = "Nothing is at this address: check the link."
    is_a_page(c.get("/no/such/page", headers=OPENED), 404, said)
    is_a_page(c.get("/games/999999/map", headers=OPENED), 404, "")
    assert c.get("/no/such/page").json()["detail"] == said
    # The API's addresses answer JSON, even to a browser opening them.
    api = c.get("/api/v1/no/such/thing", headers=OPENED)
    assert api.status_code == 404 and api.json()["detail"] == said
