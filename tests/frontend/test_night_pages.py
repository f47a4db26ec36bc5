"""Every page at night (issue 92), axe-core clean (WCAG 2.2 AA) at the four sizes: under a dark system setting each
page the start page, the lookup and the table map with a stand's card do not already show at night
(test_night_theme.py) is opened once, its ground checked to be night's and axe run at each size; the print views
among them are at night on the screen (printed, and as PDFs, they stay paper). One device makes what the pages
show by their forms where a person would (an event, its round, a league and its claims from a CSV, a campaign)
and seeds its games and a saved scenario of counters through the API as tests/frontend/games.py does; a seat
joins its game by the card's link, is asked to confirm (it holds the referee's seat), then, with no seat, meets
the game's join form. The referee's board, at night by default, is checked by day too (its device's choice).
The published league site at night: test_league_site.py."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from app.pages.seats import CAMPAIGNS_COOKIE
from app.pages.theme import COOKIE as THEME_COOKIE
from tests.app.games.test_counter_scenario_file import editor_document
from tests.frontend.axe import serious_violations
from tests.frontend.conftest import TABLET_LANDSCAPE
from tests.frontend.games import csrf_header, seed_game
from tests.frontend.test_counters_page import seeded as vimy_game
from tests.frontend.test_event_day import make_event
from tests.frontend.test_night_theme import DAY, GROUND, SIZES, at_night_and_clean

pytestmark = pytest.mark.browser


def test_every_page_at_night_and_the_board_by_day_are_clean_at_the_four_sizes(new_page: Any) -> None:
    page = new_page()
    page.emulate_media(color_scheme="dark")
    found: list[str] = []

    def visit(name: str, url: str | None = None, status: int | None = None) -> None:
        if url is not None:
            answer = page.goto(url)
            page.wait_for_load_state("load")
            # The page itself, not a refusal in its place (but a refusal's own page, at its status).
            answered = answer is not None and (
                answer.status < 400 if status is None else answer.status == status
            )
            assert answered, (name, answer)
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
    # The cards made (the newcomer's pass: their titles and codes were the night's light ink on their white paper).
    page.get_by_role("button", name="Make new join cards").click()
    expect(page.locator("[data-join-card]")).to_have_count(3)
    visit("join cards made")
    attacker_code = page.locator('[data-join-card="attacker"] .code').inner_text().strip()  # the codes now
    visit("game's table editor", f"{game}/table/edit")
    visit("scenario editor", "/scenarios/new")
    visit("club editor", "/scenarios/new?ruleset=vimy-ridge")
    visit("lookups", "/lookup")
    visit("playsheet (print view)", "/playsheets/mid?paper=a4")
    visit("refusal", "/games/999999/map", status=404)
    # A seat joining: the card's link (its code in the fragment, put in the form by join-link.js), the confirm
    # step where this device holds the referee's seat already, and the join form of a device with no seat.
    visit("join link", f"{game}/join/attacker#code={attacker_code}")
    expect(page.get_by_label("Join code (on the card)")).to_have_value(attacker_code)
    page.get_by_role("button", name="Join as").click()
    expect(page).to_have_title(re.compile("^Switch seats"))
    visit("join confirm")
    page.context.clear_cookies(name="firestep_token")
    visit("join", f"{game}/map", status=401)
    visit("rekey", "/events/rekey")

    vimy_id, _, _ = vimy_game(page)
    visit("counters", f"/games/{vimy_id}/counters")
    saved = page.request.post("/api/v1/scenarios", data=editor_document(), headers=csrf_header(page))
    assert saved.status == 201, saved.text()
    page.goto(f"/scenarios/{saved.json()['id']}/edit")
    expect(page.locator("[data-club-editor][data-loaded='true']")).to_be_visible()  # its form filled
    visit("counter editor of a saved scenario")

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
    event_game = page.locator("section.table[data-game]").first.get_attribute("data-game")
    visit("event game's join link", f"/games/{event_game}/join/attacker")
    expect(page.locator("[data-card-holder]")).to_be_visible()  # the card its player's, named
    page.goto(event)
    page.locator("#tables tbody tr").first.get_by_role("link", name="Table 1").click()  # the table's panel
    slip = page.get_by_role("link", name="Result slip").get_attribute("href")
    assert slip is not None
    visit("result slip (print view)", slip)
    visit("event's table", slip.removesuffix("/slip"))
    visit("event table's panel (a page of its own without JS)", slip.removesuffix("/slip") + "/desk")
    visit("bundles", f"{event}/bundles")

    page.goto("/leagues")
    visit("leagues")
    page.get_by_label("Name").fill("Somme league")
    page.get_by_role("button", name="Start the league").click()
    expect(page.get_by_role("heading", name="Somme league")).to_be_visible()
    visit("league")
    page.get_by_label("The event the file is of").fill("Autumn GT")
    csv = b"Round,Player 1,Score 1,Player 2,Score 2,Result\n1,Ann,14,Bob,6,W\n"
    page.get_by_label("The file (.csv, its first row the columns' names)").set_input_files(
        {"name": "round.csv", "mimeType": "text/csv", "buffer": csv}
    )
    page.get_by_role("button", name="Read its columns").click()
    expect(page.get_by_label("Second player's score", exact=True)).to_be_visible()
    visit("league's claims")

    page.goto("/campaigns")
    visit("campaigns")
    page.get_by_label("Name").fill("Club campaign")
    page.get_by_role("button", name="Create campaign").click()
    page.wait_for_load_state("load")
    visit("campaign created")
    german_code = page.locator('[data-join-code="german"]').inner_text().strip()
    page.get_by_role("link", name="Open the campaign").click()
    expect(page.locator("#campaign-board")).to_be_visible()  # its board, the organiser's (not the join form)
    visit("campaign")
    campaign = page.url
    # A side's code typed on the organiser's device: asked to switch seats; then the campaign seen by a device
    # with no seat in it, its join form.
    page.goto("/campaigns")
    page.get_by_label("Join code from your organiser").fill(german_code)
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page).to_have_title(re.compile("^Switch seats"))
    visit("campaign's switch seats")
    page.context.clear_cookies(name=CAMPAIGNS_COOKIE)
    visit("campaign with no seat", campaign, status=401)
    expect(page.get_by_label("Join code", exact=True)).to_be_visible()
    # /trust, a club server's (app/pages/trust.py): this server is none, so its page says so, at 404; the club's
    # trust steps at night are checked on the club's own server (test_club_secure_context.py).
    visit("trust (a plain server's)", "/trust", status=404)
    assert not found, "\n".join(found)


def at_night_and_clean_all(page: Any, name: str) -> list[str]:
    try:
        return at_night_and_clean(page, name)
    except AssertionError as e:
        return [f"{name} ({page.url}) not at night: {e}"]
