"""The league's pages in the browser (issue 63), by taps: an event's organiser sets a table's result, opens the
event's results for a league and downloads that table's signed bundle; a newcomer opens the leagues from the
start page, starts one, chooses the downloaded file, sees it wait with its key's fingerprint (the one the event's
page shows), says yes, and reads the table. Each page at the four sizes: no sideways scroll, finger-sized
controls, every control labelled, axe-core clean (tests/artifacts/ under FIRESTEP_SCREENSHOTS=1, to look at)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.test_accessibility import SIZES
from tests.frontend.test_event_day import check

pytestmark = pytest.mark.browser

# A club's name as long as the field takes: the pages must wrap it, and the key's fingerprint, on a phone.
CLUB = "The Royal Borough of Kensington and Chelsea Wargames Society"


def at_every_size(page: Any, name: str) -> None:
    for size in SIZES:
        page.set_viewport_size(size)
        check(page, name)


def tall_enough(page: Any, *links: str) -> None:
    """The project's 44 px targets hold for these links too (an inline link is exempt from the check's rule)."""
    for name in links:
        assert page.get_by_role("link", name=name, exact=True).bounding_box()["height"] >= 44, name


def test_a_league_by_taps(new_page: Any, tmp_path: Path) -> None:
    page = new_page()
    page.goto("/events")
    tall_enough(page, "The leagues")
    page.get_by_label("Name").fill("Club night")
    page.get_by_label("Game").select_option("flanders-fields/early")
    page.get_by_role("button", name="Make the event").click()
    page.get_by_label("One a line: name, club, force list").fill(
        f"Annabel Fotheringham-Smythe, {CLUB}\nBob, Arras"
    )
    page.get_by_role("button", name="Register them").click()
    page.get_by_role("button", name="Draft the pairing").click()
    page.get_by_role("button", name="Commit round 1: make the games").click()
    page.locator("#tables tbody tr").first.get_by_role("link", name="Table 1").click()  # the table's panel
    page.locator("#tables label.chip").first.click()  # the attacker's player wins
    page.get_by_label("Attacker's points").fill("6")
    page.get_by_label("Defender's points").fill("2")
    page.get_by_role("button", name="Set it").click()
    expect(page.locator("#tables [data-status]")).to_have_text("Set by the organiser")
    page.get_by_role("link", name="Results for a league").click()
    expect(page.get_by_role("heading", name="Club night: results for a league")).to_be_visible()
    fingerprint = page.locator(".lg-fp code").inner_text()
    tall_enough(page, "Back to the event", "The leagues")
    at_every_size(page, "event-bundles")
    page.locator(".lg-list li").get_by_label("Your club, as the league shows it").fill(CLUB)
    with page.expect_download() as download:
        page.get_by_role("button", name="Download round 1, table 1").click()
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)

    page.goto("/")
    page.get_by_role("link", name="The leagues").click()
    expect(page).to_have_url(
        re.compile(r"/leagues$")
    )  # the leagues' page, not the start page it leaves (ci79)
    at_every_size(page, "leagues")
    page.get_by_label("Name").fill("Somme league")
    page.get_by_role("button", name="Start the league").click()
    expect(page.get_by_role("heading", name="Somme league")).to_be_visible()
    page.get_by_label("The bundle file a club exported (.json)").set_input_files(str(path))
    page.get_by_role("button", name="Import it").click()
    expect(page.get_by_role("status")).to_contain_text("waiting for your yes below")
    expect(page.locator("#pending")).to_contain_text(fingerprint)
    at_every_size(page, "league-pending")
    page.get_by_role("button", name=re.compile(f"^Yes, trust {CLUB}")).click()
    expect(page.locator("#table")).to_contain_text("Annabel Fotheringham-Smythe")
    expect(page.locator("#keys")).to_contain_text(fingerprint)
    at_every_size(page, "league-table")
    tall_enough(page, "Every league")


def test_an_events_claims_by_taps_replaced_removed_and_put_back(new_page: Any, tmp_path: Path) -> None:
    """Issue 70's review: the organiser imports another tool's CSV, the league page (its address no longer the
    form's: a reload imports nothing) says what was kept; the same event's corrected file offers to replace
    its games; removing them offers them back in one tap. The columns page and the league page at every size."""
    page = new_page()
    path = tmp_path / "round.csv"
    head = "Round,Player 1,Score 1,Player 2,Score 2,Result\n"
    path.write_text(head + "1,Ann,14,Bob,6,W\n1,Cleo,8,Dirk,8,D\n")
    page.goto("/leagues")
    page.get_by_label("Name").fill("Claims league")
    page.get_by_role("button", name="Start the league").click()

    def columns(event: str) -> None:
        page.get_by_label("The event the file is of").fill(event)
        page.get_by_label("The file (.csv, its first row the columns' names)").set_input_files(str(path))
        page.get_by_role("button", name="Read its columns").click()
        for label, column in (("Round", "Round"), ("First player", "Player 1"), ("First player's score",
                              "Score 1"), ("Second player", "Player 2"), ("Second player's score", "Score 2")):  # fmt: skip
            page.get_by_label(label, exact=True).select_option(column)

    columns("Autumn GT")
    page.get_by_role("button", name="Import the games as claims").click()
    expect(page.get_by_role("status")).to_have_text(
        "2 new games kept, 0 already here: the organiser's claim, not signed by a club."
    )
    assert "?kept=2&already=0" in page.url
    path.write_text(head + "1,Ann,6,Bob,14,L\n")  # the corrected file: Ann lost, Cleo v Dirk not played
    columns("Autumn GT")
    at_every_size(page, "league-claims-replace")
    page.get_by_role("button", name="Replace Autumn GT's 2 games with this file").click()
    expect(page.get_by_role("status")).to_contain_text("2 games replaced: 1 new game kept")
    page.get_by_role("button", name="Remove Autumn GT's claims").click()
    expect(page.get_by_role("status")).to_have_text(
        "Removed Autumn GT's 1 game: the button below puts them back."
    )
    at_every_size(page, "league-claims-removed")
    page.get_by_role("button", name="Undo: put Autumn GT's 1 game back").click()
    expect(page.get_by_role("status")).to_contain_text("1 new game kept")
    expect(page.locator("#table")).to_contain_text("Bob")
