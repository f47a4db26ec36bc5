"""Every page at night (issue 92), axe-core clean (WCAG 2.2 AA) at the four sizes: under a dark system setting each
page the start page, the lookup and the table map with a stand's card do not already show at night
(test_night_theme.py) is opened once, its ground checked to be night's and axe run at each size; the print views
among them are at night on the screen (printed, and as PDFs, they stay paper). One device makes what the pages
show by their forms where a person would (an event, its round, a league, a campaign) and seeds its games through
the API as tests/frontend/games.py does. The referee's board, at night by default, is checked by day too (its
device's choice). The published league site at night: test_league_site.py."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from app.pages.theme import COOKIE as THEME_COOKIE
from tests.frontend.axe import serious_violations
from tests.frontend.conftest import TABLET_LANDSCAPE
from tests.frontend.games import seed_game
from tests.frontend.test_counters_page import seeded as vimy_game
from tests.frontend.test_event_day import make_event
from tests.frontend.test_night_theme import DAY, GROUND, SIZES, at_night_and_clean

pytestmark = pytest.mark.browser


def test_every_page_at_night_and_the_board_by_day_are_clean_at_the_four_sizes(new_page: Any) -> None:
    page = new_page()
    page.emulate_media(color_scheme="dark")
    found: list[str] = []

    def visit(name: str, url: str | None = None) -> None:
        if url is not None:
            answer = page.goto(url)
            page.wait_for_load_state("load")
            # The page itself, not a refusal in its place (but the refusal's own).
            assert answer is not None and (answer.status < 400) == (name != "refusal"), (name, answer)
        found.extend(at_night_and_clean_all(page, name))

    game_id, _ = seed_game(page)
    game = f"/games/{game_id}"
    # The referee's board is the page at night whatever the system says (referee.html); by day where its device
    # chose Day in the page menu (the cookie its form sets), its stands and losses on day's ground.
    page.context.add_cookies([{"name": THEME_COOKIE, "value": "day", "domain": "127.0.0.1", "path": "/"}])
    page.goto(f"{game}/referee")
    assert page.evaluate(GROUND) == DAY
    for size in SIZES:
        page.set_viewport_size(size)
        found.extend(
            f"board by day at {size['width']}x{size['height']}: {v}" for v in serious_violations(page)
        )
    page.set_viewport_size(TABLET_LANDSCAPE)
    page.context.clear_cookies(name=THEME_COOKIE)
    visit("created", f"{game}/created")
    visit("referee board", f"{game}/referee")
    visit("fire plan", f"{game}/fire-plan")
    visit("report", f"{game}/report")
    visit("join cards (print view)", f"{game}/join-cards")
    visit("game's table editor", f"{game}/table/edit")
    visit("scenario editor", "/scenarios/new")
    visit("club editor", "/scenarios/new?ruleset=vimy-ridge")
    visit("lookups", "/lookup")
    visit("playsheet (print view)", "/playsheets/mid?paper=a4")
    visit("refusal", "/games/999999/map")

    vimy_id, _, _ = vimy_game(page)
    visit("counters", f"/games/{vimy_id}/counters")

    make_event(page)
    event = page.url.split("#")[0]
    page.get_by_label("One a line: name, club, force list").fill("Ann, Arras\nBob, Ypres")
    page.get_by_role("button", name="Register them").click()
    expect(page.locator("#players")).to_contain_text("Players (2)")
    page.get_by_role("button", name="Draft the pairing").click()
    page.get_by_role("button", name="Commit round 1: make the games").click()
    expect(page.locator("#tables [data-status]")).to_have_count(1)
    visit("event")
    visit("events", "/events")
    visit("standings (print view)", f"{event}/standings")
    visit("round sheet (print view)", f"{event}/rounds/1/sheet")
    page.goto(event)
    slip = page.get_by_role("link", name="Result slip").get_attribute("href")
    assert slip is not None
    visit("result slip (print view)", slip)
    visit("event's table", slip.removesuffix("/slip"))
    visit("bundles", f"{event}/bundles")

    page.goto("/leagues")
    visit("leagues")
    page.get_by_label("Name").fill("Somme league")
    page.get_by_role("button", name="Start the league").click()
    expect(page.get_by_role("heading", name="Somme league")).to_be_visible()
    visit("league")

    page.goto("/campaigns")
    visit("campaigns")
    page.get_by_label("Name").fill("Club campaign")
    page.get_by_role("button", name="Create campaign").click()
    page.wait_for_load_state("load")
    visit("campaign created")
    assert not found, "\n".join(found)


def at_night_and_clean_all(page: Any, name: str) -> list[str]:
    try:
        return at_night_and_clean(page, name)
    except AssertionError as e:
        return [f"{name} ({page.url}) not at night: {e}"]
