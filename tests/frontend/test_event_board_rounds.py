"""The organiser's board page open all day follows the rounds (session 17's newcomer pass: round 2 committed on
another device, the open page kept round 1's rows and heading until reloaded): the stream's frame of another round
(tests/app/events/test_board_stream.py) is swapped in whole, heading and every table, with no reload."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import REFEREE_SCREEN

pytestmark = pytest.mark.browser


def test_the_open_board_page_shows_round_two_once_another_device_commits_it(new_page: Any) -> None:
    other = new_page(REFEREE_SCREEN).request  # the organiser's other device, on the API as its taps would be
    made = other.post("/api/v1/events", data={"name": "Club night", "ruleset": "flanders-fields", "period": "early",
                                              "rounds": 2}).json()  # fmt: skip
    event_id, key = made["event"]["id"], {"Authorization": f"Bearer {made['organiser_token']}"}
    players = [{"name": n, "club": "Ypres", "force_list": "Guards"} for n in ("Ann", "Bob")]
    assert other.post(f"/api/v1/events/{event_id}/players", headers=key, data={"players": players}).ok
    rounds = f"/api/v1/events/{event_id}/rounds"
    assert other.post(rounds, headers=key, data={"scenario": "mons-1914"}).ok
    first = other.post(f"{rounds}/1/commit", headers=key).json()["seats"][0]

    page = new_page(REFEREE_SCREEN)
    page.goto(f"/events/{event_id}")
    page.get_by_label("Organiser's token").fill(made["organiser_token"])
    page.get_by_role("button", name="Sign in as the organiser").click()
    board = page.locator("#tables")
    expect(board.get_by_role("heading", name="Round 1: every table")).to_be_visible()
    expect(board.locator(f"tr[data-table-id='{first['table_id']}']")).to_have_count(1)

    result = {"winner": "a", "a_points": 3, "b_points": 1, "why": ""}
    assert other.put(
        f"/api/v1/events/{event_id}/tables/{first['table_id']}/result", headers=key, data=result
    ).ok
    assert other.post(rounds, headers=key, data={"scenario": "mons-1914"}).ok
    second = other.post(f"{rounds}/2/commit", headers=key).json()["seats"][0]

    expect(board.get_by_role("heading", name="Round 2: every table")).to_be_visible()
    row = board.locator("tbody tr")
    expect(row).to_have_count(1)
    expect(row).to_have_attribute("data-table-id", str(second["table_id"]))
    expect(page.locator("#ev-round-no")).to_have_text("Round 2")
    expect(row.locator("[data-status]")).to_have_text("Playing")
