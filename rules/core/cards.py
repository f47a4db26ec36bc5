"""A standard pack of 52 playing cards, written rank then suit ("QC" is the Queen of Clubs), for rule sets that
draw events from one: the names a player reads and enters a card by."""

from __future__ import annotations

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("H", "D", "C", "S")
SUIT_NAMES = {"H": "Hearts", "D": "Diamonds", "C": "Clubs", "S": "Spades"}
SUIT_SYMBOLS = {"H": "\u2665", "D": "\u2666", "C": "\u2663", "S": "\u2660"}
RANK_NAMES = {"10": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
PACK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)


def card_name(card: str) -> str:
    """ "Queen of Clubs", "7 of Hearts"."""
    rank, suit = card[:-1], card[-1]
    return f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[suit]}"
