"""A club event day in the browser (issue 57), by taps: the organiser (1920x1080) makes an event, registers
players, drafts, reviews and commits round 1, referees a table's game to its end; a table's tablet (1180x820)
joins from the round's join card, shows the round timer (on the event's table page and in the game map's score
dashboard; moved by the organiser, live) and confirms the result; the organiser swaps two players of the
draft by two taps and reads what that breaks; the organiser's view turns
the table to "Confirmed" live, with no reload. The pages at the four sizes are checked for fit and by
axe-core; the round's join cards and the result slip are printed to PDF (tests/artifacts/ under
FIRESTEP_SCREENSHOTS=1, to look at)."""

from __future__ import annotations

import os
import re
import subprocess
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.axe import serious_violations
from tests.frontend.conftest import (
    ARTIFACTS,
    PHONE,
    REFEREE_SCREEN,
    TABLET_LANDSCAPE,
    TABLET_PORTRAIT,
    assert_no_horizontal_scroll,
    screenshot,
    small_targets,
    unlabelled_controls,
)

pytestmark = pytest.mark.browser


def check(page: Any, name: str) -> None:
    assert_no_horizontal_scroll(page)
    assert small_targets(page) == []
    assert unlabelled_controls(page) == []
    assert serious_violations(page) == []
    screenshot(page, name)


def printed(page: Any, url: str, name: str) -> bytes:
    """The printout as Chromium prints it; under FIRESTEP_SCREENSHOTS=1 kept as PDF and PNG pages to look at."""
    page.goto(url)
    pdf: bytes = page.pdf(prefer_css_page_size=True, print_background=True)
    if os.environ.get("FIRESTEP_SCREENSHOTS") == "1":
        (ARTIFACTS / f"{name}.pdf").write_bytes(pdf)
        subprocess.run(
            ["pdftoppm", "-png", "-r", "60", str(ARTIFACTS / f"{name}.pdf"), str(ARTIFACTS / name)],
            check=True,
        )
    return pdf


@pytest.mark.long
def test_an_event_round_by_taps(new_page: Any) -> None:
    organiser = new_page(REFEREE_SCREEN)
    organiser.goto("/")
    organiser.get_by_role("link", name="Open the events").click()
    organiser.get_by_label("Name").fill("Club night")
    organiser.get_by_label("Period").fill("early")
    organiser.get_by_label("Rounds").fill("2")
    organiser.get_by_role("button", name="Make the event").click()
    expect(organiser.get_by_role("heading", name="Club night")).to_be_visible()
    event_url = organiser.url
    organiser.get_by_label("One a line: name, club, force list").fill(
        "Ann, Ypres, Guards\nBob, Ypres, Rifles\nCat, Arras, Fusiliers\nDan, Arras, Highlanders"
    )
    organiser.get_by_role("button", name="Register them").click()
    organiser.get_by_role("button", name="Draft the pairing").click()
    draft = organiser.locator("#draft ol")
    expect(draft).to_contain_text("Table 2")
    # Round 1 keeps the clubs apart: every pair is a Ypres player against an Arras one.
    assert all(line.count("Ypres") == 1 for line in draft.locator("li").all_inner_texts())
    # Edited by hand, two taps: Ann's opponent, then Bob; the draft says what that breaks, not refusing it.
    organiser.wait_for_load_state()
    picks = organiser.locator("#draft [data-swap=players]")
    picks.filter(has_not_text="Ann").and_(draft.locator("li", has_text="Ann").locator("[data-swap]")).click()
    picks.filter(has_text="Bob").click()
    expect(organiser.locator(".ev-warnings")).to_contain_text(
        re.compile("(Ann and Bob|Bob and Ann) are both of Ypres in round 1")
    )
    expect(organiser.locator("#draft")).to_contain_text("Edited by hand (1 swap)")
    check(organiser, "event-draft")
    organiser.get_by_role("button", name="Commit round 1: make the games").click()
    tables = organiser.locator("#tables")
    expect(tables.locator("[data-live-note]")).to_have_text("live")
    expect(tables.locator("tbody tr")).to_have_count(2)
    expect(tables).to_contain_text("Paired with 1 swap by hand.")  # the committed round keeps its hand edits
    check(organiser, "event-organiser")

    # The round's join cards: a page per table, a QR per seat; the first table's attacker joins by its card.
    sheet = new_page(REFEREE_SCREEN)
    sheet.context.add_cookies(organiser.context.cookies())
    pdf = printed(sheet, f"{event_url}/rounds/1/sheet", "event-round-sheet")
    assert pdf.startswith(b"%PDF")
    first = sheet.locator("section.table").first
    game_id = first.get_attribute("data-game")
    code = first.locator("[data-seat=attacker]").inner_text()
    defender_code = first.locator("[data-seat=defender]").inner_text()

    table = new_page(TABLET_LANDSCAPE)
    table.goto(f"/games/{game_id}/join/attacker#code={code}")
    table.get_by_role("button", name=re.compile("^Join as")).click()
    # The table's map shows the round's time left in its score dashboard (the tool bar as it was).
    table.goto(f"/games/{game_id}/map")
    table.locator("[data-score-chip]").click()
    expect(table.locator("[data-round-line]")).to_contain_text("Round 1 ends in")
    expect(table.locator("[data-round-line] [data-round-ends]")).to_have_text(
        re.compile(r"^2:[0-5]\d:[0-5]\d$")
    )
    assert_no_horizontal_scroll(table)
    assert serious_violations(table) == []
    screenshot(table, "event-map")
    table_id = tables.locator("tbody tr").first.get_attribute("data-table-id")
    table.goto(f"{event_url}/tables/{table_id}")
    expect(table.locator("[data-round-ends]")).to_have_text(re.compile(r"^2:[0-5]\d:[0-5]\d$"))  # 150 minutes
    check(table, "event-table")
    # The organiser moves the round's end: the table's page hears it on its game's stream, with no reload.
    organiser.get_by_label("Minutes left in the round (0 stops the timer)").fill("10")
    organiser.get_by_role("button", name="Move the round's end").click()
    expect(table.locator("[data-round-ends]")).to_have_text(re.compile(r"^(10:00|9:[0-5]\d)$"))

    # The organiser referees that table's game to its end.
    tables.locator("tbody tr").first.get_by_role("link", name="Referee").click()
    # A link's click waits for the next page's first bytes only; its buttons act once its scripts have run.
    organiser.wait_for_load_state()
    expect(organiser.locator("[data-round-line] [data-round-ends]")).to_have_count(
        1
    )  # the referee's page too
    organiser.get_by_role("button", name="Start the game").click()
    expect(organiser.locator("#turn .badge").first).to_have_text("Playing")
    organiser.locator("[data-end-game] summary").click()
    with organiser.expect_navigation():  # the page reloads for what follows a finished game
        organiser.get_by_role("button", name="Yes, end the game").click()
    expect(organiser.locator("[data-end-game]")).to_have_count(0)
    organiser.goto(event_url)
    # Each table's clock and score on the organiser's view: the ended game's, the other still in set-up.
    row = organiser.locator(f'[data-table-id="{table_id}"]')
    expect(row.locator("[data-clock]")).to_have_text(re.compile(r"^Att \d+:\d\d · Def \d+:\d\d$"))
    expect(row.locator("[data-score]")).to_have_text("0–0")

    # Both seats confirm: the tablet by a tap, the defender's device through the API.
    table.reload()
    table.get_by_role("button", name=re.compile("^Confirm the result as")).click()
    expect(table.locator(".ev-badge")).to_have_text("Result offered")
    expect(table.get_by_text("You have confirmed it: waiting for the other player.")).to_be_visible()
    defender = table.request.post("/api/v1/join", data={"code": defender_code})
    assert defender.ok, defender.text()
    confirmed = organiser.request.post(
        f"/api/v1/events/{event_url.rsplit('/', 1)[1]}/tables/{table_id}/confirm",
        headers={"Authorization": f"Bearer {defender.json()['token']}"},
    )
    assert confirmed.ok, confirmed.text()
    # The organiser's view hears it on its stream: no reload.
    expect(organiser.locator(f'[data-table-id="{table_id}"] [data-status]')).to_have_text("Confirmed")

    # The other table played on paper: its result typed in three taps, no reason asked (issue 63).
    other = organiser.locator("#tables tbody tr").nth(1)
    other.get_by_text("Set the result").click()
    other.locator("label.chip", has_text="Draw").click()
    other.get_by_role("button", name="Set it").click()
    expect(organiser.locator("#tables tbody tr").nth(1).locator("[data-status]")).to_have_text(
        "Set by the organiser"
    )

    slip = printed(sheet, f"{event_url}/tables/{table_id}/slip", "event-result-slip")
    assert slip.startswith(b"%PDF")

    # A lost tablet: two taps on the organiser's page show its seat's code (a QR) to the organiser alone.
    row = organiser.locator(f'[data-table-id="{table_id}"]')
    row.get_by_text("A lost tablet").click()
    row.get_by_role("button", name=re.compile("^New tablet for")).first.click()
    expect(organiser.locator("[data-rekey-code]")).to_have_text(re.compile(r"^\d+-a-[0-9a-f]{16}$"))
    for viewport, name in (
        (REFEREE_SCREEN, "wide"),
        (TABLET_LANDSCAPE, "landscape"),
        (TABLET_PORTRAIT, "portrait"),
        (PHONE, "phone"),
    ):
        organiser.set_viewport_size(viewport)
        check(organiser, f"event-rekey-offer-{name}")
    organiser.set_viewport_size(REFEREE_SCREEN)
    organiser.goto(event_url)

    for viewport, name in ((TABLET_PORTRAIT, "portrait"), (PHONE, "phone"), (TABLET_LANDSCAPE, "landscape")):
        organiser.set_viewport_size(viewport)
        check(organiser, f"event-organiser-{name}")
        table.set_viewport_size(viewport)
        check(table, f"event-table-{name}")
    table.set_viewport_size(REFEREE_SCREEN)
    check(table, "event-table-wide")


def test_the_printed_standings_fit_a_portrait_tablet(new_page: Any) -> None:
    """The standings printout on a portrait tablet and a phone: a name of 80 characters with no space in it
    (and its club) wraps, the numbers keep their columns, nothing scrolls sideways (issue 63)."""
    long_name = "Bartholomew" * 7 + "Smythe"[:3]
    organiser = new_page(TABLET_PORTRAIT)
    organiser.goto("/events")
    for viewport, name in (
        (REFEREE_SCREEN, "wide"),
        (TABLET_LANDSCAPE, "landscape"),
        (PHONE, "phone"),
        (TABLET_PORTRAIT, "portrait"),
    ):
        organiser.set_viewport_size(viewport)
        check(organiser, f"events-{name}")  # the form that makes an event, its time zone and periods named
    organiser.get_by_label("Name").fill("Club day")
    organiser.get_by_label("Period").fill("early")
    organiser.get_by_role("button", name="Make the event").click()
    expect(organiser.get_by_role("heading", name="Club day")).to_be_visible()
    organiser.get_by_label("One a line: name, club, force list").fill(
        f"{long_name}, Royal Warwickshire Regiment Wargames Society, Guards\nBob, Ypres, Rifles"
    )
    organiser.get_by_role("button", name="Register them").click()
    expect(organiser.locator("#players")).to_contain_text("Players (2)")
    organiser.goto(f"{organiser.url.split('#')[0]}/standings")
    expect(organiser.get_by_text(long_name)).to_be_visible()
    assert_no_horizontal_scroll(organiser)
    organiser.set_viewport_size(PHONE)
    assert_no_horizontal_scroll(organiser)
