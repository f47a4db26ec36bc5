"""A club event in the browser (issues 57 and 63), by taps. A round (issue 57): the organiser (1920x1080) makes
an event, registers players, drafts, reviews and commits round 1, referees a table's game to its end; a table's
tablet (1180x820) joins from the round's join card and shows the round timer (on the event's table page and in
the game map's score dashboard; moved by the organiser, live); the organiser swaps two players of the draft by two
taps and reads what that breaks. The organiser's day (issue 63): 10 players, 3 rounds, a late player, a dispute
and a drop, the tables confirming by taps, paper results typed in three, standings, the bundles into a league,
the organiser's taps and keys counted. The pages at the four sizes are checked for fit and by axe-core; the
round's join cards and the result slip are printed to PDF (tests/artifacts/ under FIRESTEP_SCREENSHOTS=1, to
look at)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
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


def make_event(organiser: Any) -> None:
    """'Club night', 2 rounds of the early period, made by taps from the start page; its page open."""
    organiser.goto("/")
    organiser.get_by_role("link", name="Open the events").click()
    organiser.get_by_label("Name").fill("Club night")
    organiser.get_by_label("Game").select_option("flanders-fields/early")
    organiser.get_by_label("Rounds").fill("2")
    organiser.get_by_role("button", name="Make the event").click()
    expect(organiser.get_by_role("heading", name="Club night")).to_be_visible()


@pytest.mark.long
def test_an_event_round_by_taps(new_page: Any) -> None:
    organiser = new_page(REFEREE_SCREEN)
    make_event(organiser)
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
    # Edited by hand, two taps: Ann's opponent (drawn pressed by the server), then Bob; the draft says what that
    # breaks, not refusing it.
    draft.locator("li", has_text="Ann").get_by_role("button", name=re.compile("^(?!Ann|Table)")).click()
    expect(draft.get_by_role("button", pressed=True)).to_have_count(1)
    check(organiser, "event-draft-picked")  # the picked one's colours, its club's too (issue 93)
    draft.get_by_role("button", name=re.compile("^Bob")).click()
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
    sheet.set_viewport_size(PHONE)  # a card shown on the organiser's phone to be scanned: no sideways scroll
    assert_no_horizontal_scroll(sheet)
    sheet.set_viewport_size(REFEREE_SCREEN)
    first = sheet.locator("section.table").first
    game_id = first.get_attribute("data-game")
    code = first.locator("[data-seat=attacker]").inner_text()

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
    # Stopped, its line goes ("Round ends in stopped" before: session 20's newcomer); set again, it comes back.
    for minutes in ("0", "10"):
        organiser.get_by_label("Minutes left in the round (0 stops the timer)").fill(minutes)
        organiser.get_by_role("button", name="Move the round's end").click()
        expect(table.locator("[data-round-line]")).to_be_visible(visible=minutes != "0")

    # The organiser referees that table's game to its end: its number tapped, its panel's "Referee".
    tables.locator("tbody tr").first.get_by_role("link", name=re.compile("^Table ")).click()
    tables.locator("#ev-table-panel").get_by_role("button", name="Referee").click()
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

    slip = printed(sheet, f"{event_url}/tables/{table_id}/slip", "event-result-slip")
    assert slip.startswith(b"%PDF")
    sheet.set_viewport_size(PHONE)  # the slip shown on a phone across the table (it was 2 px too wide)
    assert_no_horizontal_scroll(sheet)

    # A lost tablet: two taps on the organiser's page (the table's number, its panel's "New tablet for") show its
    # seat's code (a QR) to the organiser alone.
    row = organiser.locator(f'[data-table-id="{table_id}"]')
    row.get_by_role("link", name=re.compile("^Table ")).click()
    panel = organiser.locator("#ev-table-panel")
    panel.get_by_role("button", name=re.compile("^New tablet for")).first.click()
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
    # The organiser's page looked at with a table's panel open (its forms, fetched on the tap: issue 93).
    organiser.locator(f'[data-table-id="{table_id}"]').get_by_role("link", name=re.compile("^Table ")).click()
    expect(panel.get_by_role("button", name="Set it")).to_be_visible()
    check(organiser, "event-organiser-wide")

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
    organiser.get_by_label("Game").select_option("flanders-fields/early")
    organiser.get_by_role("button", name="Make the event").click()
    expect(organiser.get_by_role("heading", name="Club day")).to_be_visible()
    organiser.get_by_label("One a line: name, club, force list").fill(
        f"{long_name}, Royal Warwickshire Regiment Wargames Society, Guards\nBob, Ypres, Rifles"
    )
    organiser.get_by_role("button", name="Register them").click()
    expect(organiser.locator("#players")).to_contain_text("Players (2)")
    # On the event's page the standings scroll sideways on a phone: a region a keyboard can scroll (axe-core).
    organiser.set_viewport_size(PHONE)
    assert serious_violations(organiser) == []
    organiser.set_viewport_size(TABLET_PORTRAIT)
    organiser.goto(f"{organiser.url.split('#')[0]}/standings")
    expect(organiser.get_by_text(long_name)).to_be_visible()
    assert_no_horizontal_scroll(organiser)
    organiser.set_viewport_size(PHONE)
    assert_no_horizontal_scroll(organiser)


class Desk:
    """The organiser's taps and keys at the desk: a tap on a control on screen (a link, a button, a field before
    typing, a page opened from a bookmark), each character typed a key. Counted to hold the line (issue 63)."""

    def __init__(self, page: Any) -> None:
        self.page, self.taps, self.keys = page, 0, 0

    def tap(self, target: Any) -> None:
        expect(target).to_be_visible()
        target.click()
        self.taps += 1

    def type(self, field: Any, text: str) -> None:
        self.tap(field)
        field.fill(text)
        self.keys += len(text)

    def button(self, name: str, within: Any = None) -> None:
        self.tap((within or self.page).get_by_role("button", name=name, exact=True))

    def open(self, url: str) -> None:
        """A page the organiser keeps a bookmark of (the event's): one tap."""
        self.page.goto(url)
        self.taps += 1


# The organiser's day as measured (issue 63): 60 taps and 139 keys since the tables' seats start and end their own
# games (75 taps when the organiser did it for them, 87 while each table's bundle took a download of its own; a
# review's day of 10 players took 119 clicks and 363 keys); the bounds leave a little room.
DAY_TAPS_AT_MOST = 65
DAY_KEYS_AT_MOST = 150
PLAYERS = [
    "Ann, Ypres", "Bob, Ypres", "Cat, Arras", "Dan, Arras", "Eve, Mons",
    "Fay, Mons", "Gus, Verdun", "Hal, Verdun", "Ivy, Cambrai",
]  # fmt: skip
LATE = "Jo, Cambrai"


def _row(desk: Desk, table: int) -> Any:
    return desk.page.locator("#tables tbody tr").filter(
        has=desk.page.locator("th", has_text=re.compile(f"^Table {table}$"))
    )


def _paper(desk: Desk, table: int, chip: str) -> None:
    """A result typed from the paper slip: three taps (the table's number, its panel's winner, "Set it")."""
    desk.tap(_row(desk, table).get_by_role("link", name=f"Table {table}"))
    panel = desk.page.locator("#ev-table-panel")
    expect(
        panel.get_by_role("heading", name=re.compile(f"^Table {table}: "))
    ).to_be_focused()  # a keyboard's there
    desk.tap(panel.locator("label.chip").nth(chip))
    desk.button("Set it", panel)
    expect(_row(desk, table).locator("[data-status]")).to_have_text("Set by the organiser")
    expect(_row(desk, table)).to_have_css("outline-style", "solid")  # back at its row, which says so
    expect(_row(desk, table).locator("[data-score]")).to_have_text(
        re.compile(r"^(.+ won|A draw): .+ \d+, .+ \d+$")
    )


def _round(desk: Desk, number: int, tablets: tuple[Any, Any], event_url: str, dispute: bool) -> int:
    """One round: drafted and committed by the organiser; table 1 played on the two tablets, its players
    confirming (or one disputing, settled by the organiser); the other tables' results typed from paper.
    The number of tables."""
    page = desk.page
    desk.button("Draft the pairing")
    desk.button(f"Commit round {number}: make the games")
    expect(page.locator("#tables [data-live-note]")).to_have_text("live")
    tables = page.locator("#tables tbody tr").count()
    # The round's join cards, printed: each tablet at table 1 scans its seat's card and joins.
    with page.context.expect_page() as opened:
        desk.tap(page.get_by_role("link", name="Print the round's join cards"))
    sheet = opened.value
    first = sheet.locator("section.table").first
    game_id = first.get_attribute("data-game")
    for tablet, seat in zip(tablets, ("attacker", "defender"), strict=True):
        code = first.locator(f"[data-seat={seat}]").inner_text()
        tablet.goto(f"/games/{game_id}/join/{seat}#code={code}")
        tablet.get_by_role("button", name=re.compile("^Join as")).click()
        tablet.wait_for_load_state()
        tablet.locator("[data-event-table]").click()  # the game's tool bar: its table's result, one tap
        expect(tablet.get_by_role("heading", name=re.compile("^Table 1:"))).to_be_visible()
    sheet.close()
    # The two seats start and end table 1's game themselves, each saying so on its board (the organiser, its
    # referee, away at the desk: issue 63's newcomer pass found the organiser starting and ending every game).
    attacker, defender = tablets
    for tablet in tablets:
        tablet.go_back()  # from the table's page back to the seat's fire plan, which shows where the game starts
        tablet.get_by_role("link", name="Ready to start? Say so on the board").click()
        expect(tablet.locator("[data-live-stream][data-live-connected]")).to_have_count(1)
    attacker.get_by_role("button", name="Ready to start").click()
    expect(attacker.locator("#turn")).to_contain_text("Your side is ready to start")
    expect(defender.locator("#turn")).to_contain_text("is ready: the game starts as you say so")  # live
    defender.get_by_role("button", name="Ready to start").click()
    for tablet in tablets:
        expect(tablet.locator("#turn .badge").first).to_have_text("Playing")
    attacker.locator("[data-end-game] summary").click()
    attacker.get_by_role("button", name="Yes, ready to end").click()
    expect(defender.locator("#turn")).to_contain_text("is ready to end the game")  # live
    defender.locator("[data-end-game] summary").click()
    defender.get_by_role("button", name="Yes, ready to end").click()
    for tablet in tablets:
        expect(tablet.locator("#turn .badge").first).to_have_text("Finished")
        tablet.get_by_role("link", name="Table 1's result: confirm it").click()  # on the board, one tap
    # The tablets have the game's result offered for both to confirm.
    attacker.get_by_role("button", name=re.compile("^Confirm the result as")).click()
    expect(attacker.get_by_text("You have confirmed it: waiting for the other player.")).to_be_visible()
    if dispute:
        defender.locator("summary", has_text="Dispute it").click()
        defender.get_by_label("What is wrong").fill("We agreed a draw")
        defender.get_by_role("button", name="Send the dispute to the organiser").click()
        expect(defender.locator(".ev-badge")).to_have_text("Disputed")
        expect(page.locator("#tables [data-disputes]")).to_have_text("1")  # live on the organiser's page
        expect(attacker.locator(".ev-badge")).to_have_text("Disputed")  # live on the other seat's page
        _paper(desk, 1, 2)  # the organiser settles it: a draw
        expect(page.locator("#tables [data-disputes]")).to_have_text("0")
        for tablet in tablets:
            expect(tablet.get_by_text("the organiser's result stands")).to_be_visible()  # live
    else:
        standings = page.locator("#ev-standings").inner_text()
        defender.get_by_role("button", name=re.compile("^Confirm the result as")).click()
        expect(_row(desk, 1).locator("[data-status]")).to_have_text("Confirmed")  # live
        expect(page.locator("#ev-standings")).not_to_have_text(standings)  # live: the settled result counts
        expect(attacker.locator(".ev-badge")).to_have_text("Confirmed")  # live on the other seat's page
    for table in range(2, tables + 1):
        _paper(desk, table, table % 2)
    return tables


@pytest.mark.long
def test_an_organisers_day_by_taps(new_page: Any, tmp_path: Path) -> None:
    """The organiser's day (issue 63) at 1920x1080, by taps: an event of 3 rounds made, 9 players registered and
    a 10th late (after round 1 starts), each round drafted and committed, table 1 of each played on two tablets
    at 1180x820 (joined from the round's cards, the game started and ended by its two seats on their boards,
    the result confirmed by both players' taps; in round 2 one of
    them disputes it and the organiser settles it), the other tables' results typed from paper, a player
    dropped before round 3, the standings read, every settled table's bundle exported and imported into a
    league by its pages; the league's page at the four sizes. The organiser's taps and keys printed."""
    organiser = new_page(REFEREE_SCREEN)
    desk = Desk(organiser)
    tablets = (new_page(TABLET_LANDSCAPE), new_page(TABLET_LANDSCAPE))
    desk.open("/")
    desk.tap(organiser.get_by_role("link", name="Open the events"))
    desk.type(organiser.get_by_label("Name"), "Club day")
    expect(organiser.get_by_label("Game")).to_have_value("flanders-fields/early")  # the first choice: no tap
    desk.button("Make the event")
    expect(organiser.get_by_role("heading", name="Club day")).to_be_visible()
    event_url = organiser.url.split("#")[0]
    desk.type(organiser.get_by_label("One a line: name, club, force list"), "\n".join(PLAYERS))
    desk.button("Register them")
    expect(organiser.locator("#players h2")).to_have_text("Players (9)")

    played = [_round(desk, 1, tablets, event_url, dispute=False)]
    # Jo arrives after round 1 started: registered, paired from round 2.
    desk.type(organiser.get_by_label("One a line: name, club, force list"), LATE)
    desk.button("Register them")
    expect(organiser.locator("#players h2")).to_have_text("Players (10)")
    played.append(_round(desk, 2, tablets, event_url, dispute=True))
    # Eve goes home after round 2: dropped, one tap.
    desk.tap(organiser.get_by_role("button", name="Drop Eve"))
    expect(organiser.locator("#players li", has_text="Eve").locator("[data-out]")).to_have_text("Dropped")
    played.append(_round(desk, 3, tablets, event_url, dispute=False))
    assert played == [4, 5, 4]  # a bye in rounds 1 and 3
    standings = organiser.locator("#standings tbody tr")
    expect(standings).to_have_count(10)

    # Every settled table's signed bundle, in one file downloaded from the event's page for the league.
    desk.tap(organiser.get_by_role("link", name="Results for a league"))
    expect(organiser.get_by_role("button", name=re.compile("^Download round"))).to_have_count(13)
    with organiser.expect_download() as download:
        desk.button("Download every settled table (one file)")
    every = tmp_path / download.value.suggested_filename
    download.value.save_as(every)
    desk.tap(organiser.get_by_role("link", name="The leagues"))
    desk.type(organiser.get_by_label("Name"), "Flanders league")
    desk.button("Start the league")
    desk.tap(organiser.get_by_label("The bundle file a club exported (.json)"))  # the file chooser: one pick
    organiser.get_by_label("The bundle file a club exported (.json)").set_input_files(every)
    desk.button("Import it")
    expect(organiser.locator("#pending li")).to_have_count(13)
    desk.tap(organiser.get_by_role("button", name=re.compile("^Yes, trust")).first)
    league = organiser.locator("#table tbody tr")
    expect(league).to_have_count(10)
    expect(organiser.locator("#pending")).to_contain_text("Nothing waits.")
    print(f"\nThe organiser's day: {desk.taps} taps, {desk.keys} keys")
    for size in (REFEREE_SCREEN, TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE):
        organiser.set_viewport_size(size)
        check(organiser, "league-day")
    assert desk.taps <= DAY_TAPS_AT_MOST and desk.keys <= DAY_KEYS_AT_MOST, (desk.taps, desk.keys)


def test_the_organisers_phone_scans_the_events_code_and_joins_in_one_tap(new_page: Any) -> None:
    """Session 19's newcomer pass: a second organiser device had to type a 43-character token. The event's page
    shows it as a code to scan; its link opens the start page with the token in the join box (the fragment,
    which no request sends, read by join-link.js), and one tap signs the phone in as the organiser."""
    organiser = new_page(REFEREE_SCREEN)
    make_event(organiser)
    organiser.get_by_text("Show the organiser's token").click()
    expect(organiser.locator("[data-organiser-qr] svg[role=img]")).to_have_accessible_name(
        "Sign in as the organiser"
    )
    token = organiser.locator("[data-organiser-token]").inner_text()
    phone = new_page(PHONE)
    phone.goto(f"/#code={token}")  # the address the code holds
    expect(phone.get_by_label(re.compile("^Join code"))).to_have_value(token)
    assert "#" not in phone.url  # the token left the address bar and the history
    phone.get_by_role("button", name="Join", exact=True).click()
    expect(phone.get_by_role("heading", name="Club night")).to_be_visible()
    expect(phone.locator("[data-organiser-token]")).to_have_text(token)  # the organiser's own page
