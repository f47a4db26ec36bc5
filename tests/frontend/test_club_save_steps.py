"""A game's club Save of many counters over several requests in the browser (session 24's hostile pass: 400 new
counters took 4.6 s of CPU in one): each request stops once it has spent its CPU budget (here none: one counter a
request) and the referee's page carries the save on by itself after the one tap. What each request answers is
tests/app/test_club_save.py's; here what the browser adds (htmx sending the form again on load, over the units and
version each answer swapped in out of band)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import TABLET_LANDSCAPE, module_server
from tests.frontend.games import bearer, seed_game

pytestmark = pytest.mark.browser


# This module's server: a save's CPU budget none, so a save of several counters takes several requests.
server_url = module_server({"FIRESTEP_TABLE_SAVE_CPU_SECONDS": "0"})


def test_one_tap_saves_every_counter_to_the_game_over_several_requests(new_page: Any) -> None:
    page = new_page(TABLET_LANDSCAPE)
    game_id, answer = seed_game(page, {"name": "Vimy", "ruleset": "vimy-ridge"})
    page.goto(f"/games/{game_id}/table/edit")
    names = ["RIR 261", "RIR 262", "RIR 263"]
    for name in names:
        page.locator("[data-club-add='defender']").tap()
        row = page.locator("[data-club-counter='defender']").last
        row.get_by_label("Name").fill(name)
        row.get_by_label("Division").select_option(index=1)
    saves: list[str] = []
    page.on("request", lambda r: saves.append(r.url) if r.url.endswith("/club/save") else None)
    page.locator("[data-club-save]").tap()
    expect(page.locator("[data-club-message]")).to_have_text("Saved to the game.")
    assert len(saves) == len(names), saves  # the tap's, then the page's own, one counter each
    units = page.request.get(f"/api/v1/games/{game_id}/units", headers=bearer(answer["referee_token"])).json()
    assert sorted(u["name"] for u in units if u["name"] in names) == names  # each added once
