"""Random events: the pack, the twenty cards, hands of three, and the deck passed in and out."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.core.errors import RulesError
from rules.flanders_fields.resolvers.events import EVENT_CARDS, PACK
from tests.rules.flanders_fields.resolving import ff, odds, resolve


def test_pack_and_cards() -> None:
    # "Cards which are dummies, these are all suits and numbers two to nine." -> 32 dummies, 20 events.
    assert len(PACK) == 52 and len(set(PACK)) == 52
    assert len(EVENT_CARDS) == 20
    # "red cards ten to ace ... beneficial", "black cards ten to ace ... detrimental"
    assert {c for c, e in EVENT_CARDS.items() if e.kind == "beneficial"} == {
        r + s for r in ("10", "J", "Q", "K", "A") for s in "HD"
    }
    assert EVENT_CARDS["AH"].title == "Big Bangs!"
    assert EVENT_CARDS["JS"].title == "Wind Change"
    assert EVENT_CARDS["10S"].title == "Hard Day" and EVENT_CARDS["10S"].to_opponent
    cards = ff().data("random-events")["cards"]
    assert len(cards) == 20 and cards[0]["name"] == "Hearts - Ten"


def test_fresh_pack_odds() -> None:
    # 32 dummies, 10 red, 10 black in 52 cards.
    assert odds("random-event", period="mid") == {
        "dummy": Fraction(32, 52),
        "beneficial": Fraction(10, 52),
        "detrimental": Fraction(10, 52),
    }
    two = odds("random-event", period="mid", draw=2)
    assert two["beneficial+beneficial"] == Fraction(10 * 9, 52 * 51)
    assert sum(two.values()) == 1


def test_draw_keeps_red_plays_black_and_returns_the_deck() -> None:
    deck = ["AH", "2C", "KS", "10D", "QC"]
    answer = resolve("random-event", period="late", deck=deck, hand=["QD", "JH"], draw=2, dice=[1, 2])
    out = answer["outcome"]
    assert [c["card"] for c in out["drawn"]] == ["AH", "KS"]
    assert out["hand"] == ["QD", "JH", "AH"]
    assert out["play_now"] == ["KS"]
    assert out["deck"] == ["2C", "10D", "QC"]
    assert out["must_play_from_hand"] == 0
    # "Clubs – Queen 'Stubborn Defenders' – ... hand over card to enemy who may keep it"
    handed = resolve("random-event", period="late", deck=deck, hand=["QD", "JH", "KH"], dice=[5])["outcome"]
    assert handed["opponent_hand"] == ["QC"] and handed["play_now"] == []
    # "A player may only hold up to three cards ... must play the number of cards he holds in excess of three."
    full = resolve("random-event", period="late", deck=deck, hand=["QD", "JH", "KH"], dice=[4])["outcome"]
    assert full["must_play_from_hand"] == 1


def test_exhausted_pack() -> None:
    reshuffled = resolve("random-event", period="mid", deck=["3H"], hand=["AH"], draw=2)
    assert reshuffled["outcome"]["reshuffled"] is True
    assert len(reshuffled["outcome"]["deck"]) == 51 - 2
    assert "AH" not in reshuffled["outcome"]["deck"]
    variant = {"events-pack-exhausted": "no-more-events"}
    last = resolve("random-event", period="mid", deck=["3H"], draw=2, variants=variant)
    assert [c["card"] for c in last["outcome"]["drawn"]] == ["3H"]
    empty = resolve("random-event", period="mid", deck=[], variants=variant)
    assert empty["outcome_key"] == "no-card" and empty["dice"] == []


def test_duplicate_cards_refused() -> None:
    with pytest.raises(RulesError) as err:
        resolve("random-event", period="mid", deck=["AH", "2C"], hand=["AH"])
    assert err.value.field == "hand.0"


@given(
    deck=st.lists(st.sampled_from(PACK), min_size=2, max_size=12, unique=True),
    draw=st.sampled_from([1, 2]),
)
def test_odds_are_the_counts_of_each_kind(deck: list[str], draw: int) -> None:
    table = odds("random-event", period="late", deck=deck, draw=draw)
    assert sum(table.values()) == 1
    n = len(deck)
    dummies = sum(1 for c in deck if c not in EVENT_CARDS)
    if draw == 1:
        assert table.get("dummy", Fraction(0)) == Fraction(dummies, n)
    else:
        assert table.get("dummy+dummy", Fraction(0)) == Fraction(dummies * (dummies - 1), n * (n - 1))
