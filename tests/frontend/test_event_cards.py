"""Random events as cards (issue 26): a card drawn at the table is entered by suit and rank (the Queen of Clubs
too), the answer shows that card's title and text with its rule and the hand as cards, never the pack; in a
game a side lets firestep draw (the button on the phone's first screen), sees its hand as cards and plays one
with a tap, and the other side learns nothing of what it holds; where the game draws from the club's own pack,
the side enters its card from the map's tool bar, by suit and rank."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from rules.core.cards import PACK
from tests.frontend.axe import serious_violations
from tests.frontend.conftest import (
    PHONE,
    REFEREE_SCREEN,
    TABLET_LANDSCAPE,
    TABLET_PORTRAIT,
    assert_no_horizontal_scroll,
    htmx_idle,
    screenshot,
    small_targets,
)
from tests.frontend.games import join_by_api, seed_game
from tests.frontend.test_game_lookup import start_game

pytestmark = pytest.mark.browser

SIZES = (TABLET_LANDSCAPE, PHONE)  # each flow runs once; its layout is checked at both by resizing the page
CARD_CODE = re.compile(r"\b(?:10|[2-9JQKA])[HDCS]\b")


def pick_card(page: Any, suit: str, rank: str) -> None:
    """Tap the suit, then the rank, of the card drawn (by their accessible names)."""
    for group, name in (("Suit", suit), ("Rank", rank)):
        picker = page.get_by_role("group", name=group, exact=True)
        picker.locator(f"label:has(input[aria-label='{name}'])").tap()
        htmx_idle(page)


def cards_listed(page: Any) -> set[str]:
    """Every card of the pack the page names anywhere, by code ("QC") or as its face on a card ("Q♣")."""
    text = page.locator("body").inner_text()
    named = page.evaluate("() => [...document.querySelectorAll('[data-card]')].map((el) => el.dataset.card)")
    faces = set(PACK) & set(named)  # one read of the page, not one per card of the pack
    return set(CARD_CODE.findall(text)) | faces


def in_viewport(page: Any, locator: Any) -> bool:
    box = locator.bounding_box()
    size = page.viewport_size
    return bool(box) and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


def test_the_queen_of_clubs_entered_by_suit_and_rank(new_page: Any) -> None:
    page = new_page(TABLET_LANDSCAPE)
    page.goto("/lookup/flanders-fields/random-event?period=mid")
    # No 1-52 pad: a suit picker and a rank picker.
    expect(page.locator("[data-die-pad]")).to_have_count(0)
    expect(page.get_by_role("group", name="Suit", exact=True).get_by_role("radio")).to_have_count(4)
    expect(page.get_by_role("group", name="Rank", exact=True).get_by_role("radio")).to_have_count(13)
    pick_card(page, "Clubs", "Queen")
    answer = page.locator("#answer")
    expect(answer.locator(".ev-card-title")).to_have_text("Stubborn Defenders")
    expect(answer).to_contain_text("Enemy gain +1 on next morale roll")
    expect(answer.locator(".sources")).to_contain_text("RANDOM EVENTS")
    # The pickers keep the card entered; the pack left is listed nowhere (the drawn card alone is named).
    expect(
        page.get_by_role("group", name="Rank", exact=True).get_by_label("Queen", exact=True)
    ).to_be_checked()
    assert cards_listed(page) == {"QC"}
    for viewport in SIZES:
        page.set_viewport_size(viewport)
        assert_no_horizontal_scroll(page)
        assert small_targets(page) == [], viewport
        assert serious_violations(page) == [], viewport
        screenshot(page, "lookup-event-card")
    page.set_viewport_size(TABLET_LANDSCAPE)

    # A red card is kept: the answer shows it in the hand; "Draw for me" draws from the pack.
    pick_card(page, "Diamonds", "Queen")
    expect(answer.locator(".ev-card-title").first).to_have_text("Good Shooting")
    expect(answer.locator("h3", has_text="Your hand")).to_have_count(1)
    page.get_by_role("button", name="Draw for me").tap()
    htmx_idle(page)
    expect(page.locator("#answer .rolled")).to_have_text("Drawn by firestep")
    assert len(cards_listed(page)) <= 2


def test_in_a_game_the_side_draws_and_plays_from_its_hand(new_page: Any) -> None:
    """The flow on phones; the pages' layout and axe at the tablet size too, by resizing them."""
    viewport = PHONE
    referee = new_page(viewport)
    game_id, created = seed_game(referee)
    codes = created["join_codes"]
    start_game(referee, game_id, created["referee_token"])
    # The referee enters a card drawn at the table by suit and rank, from the game's own pack.
    referee.goto(f"/lookup/flanders-fields/random-event?game={game_id}")
    pick_card(referee, "Clubs", "Queen")
    expect(referee.locator("#answer .ev-card-title")).to_have_text("Stubborn Defenders")
    expect(referee.locator("#answer")).to_contain_text("hand over card to enemy")
    assert cards_listed(referee) == {"QC"}
    for size in SIZES:
        referee.set_viewport_size(size)
        assert serious_violations(referee) == [], size
    # The Queen of Diamonds drawn at the table, recorded for the side to move: a red card, kept in its hand.
    pick_card(referee, "Diamonds", "Queen")
    referee.get_by_role("button", name="Record in the game").tap()
    htmx_idle(referee)
    expect(referee.locator("[data-recorded-event]")).to_have_count(1)

    side = referee.request.get(f"/api/v1/games/{game_id}").json()["side_to_move"]
    rival = "defender" if side == "attacker" else "attacker"
    drawer = new_page(viewport)
    join_by_api(drawer, codes[side])
    other = new_page(viewport)
    join_by_api(other, codes[rival])

    drawer.goto(f"/lookup/flanders-fields/random-event?game={game_id}")
    # A side never picks its cards: no pickers, and firestep's draw is on the first screen.
    expect(drawer.get_by_role("group", name="Suit", exact=True)).to_have_count(0)
    draw = drawer.get_by_role("button", name="Let firestep roll and record it")
    for size in SIZES:
        drawer.set_viewport_size(size)
        screenshot(drawer, "lookup-event-draw")
        assert in_viewport(drawer, draw), size
        assert serious_violations(drawer) == [], size
    draw.tap()
    htmx_idle(drawer)
    expect(drawer.locator("[data-recorded-event]")).to_have_count(1)
    drawn = {str(c.get_attribute("data-card")) for c in drawer.locator("#answer [data-card]").all()}
    assert 1 <= len(drawn) <= 2
    hand = drawer.locator(".ev-hand button[data-card]")
    expect(hand.and_(drawer.locator("[data-card='QD']"))).to_have_count(1)
    # The answer names the cards drawn only: the pack left is listed nowhere.
    assert cards_listed(drawer) <= drawn | {str(c.get_attribute("data-card")) for c in hand.all()}
    for size in SIZES:
        drawer.set_viewport_size(size)
        assert_no_horizontal_scroll(drawer)
        screenshot(drawer, "lookup-event-hand")

    # The other side's lookup shows its own hand (only a card handed over to it: the Queen of Clubs, the Ten
    # of Spades), never the drawer's cards.
    other.goto(f"/lookup/flanders-fields/random-event?game={game_id}")
    expect(other.locator(".ev-hand")).to_have_count(1)
    assert {str(c.get_attribute("data-card")) for c in other.locator(".ev-hand [data-card]").all()} <= {
        "QC",
        "10S",
    }
    held = {str(c.get_attribute("data-card")) for c in hand.all()}
    assert not held & cards_listed(other)

    # One tap on a card in the hand plays it: it leaves the hand and the game's log shows it to everyone.
    card = "QD"
    held.discard(card)
    drawer.get_by_role("button", name=re.compile(r"^Play Q.{0,3}Good Shooting")).tap()
    htmx_idle(drawer)
    expect(drawer.locator(f".ev-hand [data-card='{card}']")).to_have_count(0)
    log = other.request.get(f"/api/v1/games/{game_id}/events")
    played = [e for e in log.json() if e["kind"] == "card-played"]
    assert played and played[-1]["payload"]["card"]["card"] == card
    # The cards still held never reach the other side, in its log or on its page.
    assert not any(f'"{c}"' in log.text() for c in held)
    other.reload()
    assert not held & cards_listed(other)


def test_a_side_enters_the_card_it_drew_from_the_map(new_page: Any) -> None:
    """A game drawing from the club's own pack, seeded through the API: the side to move opens "Enter a card"
    on the map's tool bar and taps the card drawn (2 taps); the card shows its title and text, and nothing of
    the pack (the other side learns nothing of it: tests/app/hostile/test_secrets.py). The layout and axe at
    the other sizes on that state."""
    attacker = new_page(TABLET_LANDSCAPE)
    game_id, created = seed_game(attacker, {"scenario": "mons-1914", "variants": {"events-pack": "club"}})
    start_game(attacker, game_id, created["referee_token"])
    attacker.context.clear_cookies()
    join_by_api(attacker, created["join_codes"]["attacker"])
    attacker.goto(f"/games/{game_id}/map")
    expect(attacker.locator("svg[data-table-map][data-loaded]")).to_have_count(1)
    taps = 0
    for name in ("Enter a card", "10 of Diamonds"):
        target = attacker.get_by_role("button", name=name, exact=True)
        expect(target).to_be_in_viewport()
        target.tap()
        taps += 1
    drawn = attacker.locator("[data-cards-drawn] [data-card='10D']")
    expect(drawn).to_contain_text("Concise Order")
    assert taps == 2  # the tool, then the card
    assert cards_listed(attacker) == {"10D"}
    for size in (TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE, REFEREE_SCREEN):
        attacker.set_viewport_size(size)
        expect(drawn).to_be_visible()
        assert_no_horizontal_scroll(attacker)
        assert small_targets(attacker) == [], size
        assert serious_violations(attacker) == [], size
        screenshot(attacker, "map-card-entered")
