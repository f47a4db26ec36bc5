"""A standard pack of 52 playing cards, written rank then suit ("QC" is the Queen of Clubs), for rule sets that
draw events from one: the names a player reads and enters a card by."""

from __future__ import annotations

from collections.abc import Sequence

from rules.core.errors import RulesError

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("H", "D", "C", "S")
SUIT_NAMES = {"H": "Hearts", "D": "Diamonds", "C": "Clubs", "S": "Spades"}
SUIT_SYMBOLS = {"H": "\u2665", "D": "\u2666", "C": "\u2663", "S": "\u2660"}
RANK_NAMES = {"10": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
PACK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)


def places(pack: Sequence[str], cards: Sequence[str]) -> tuple[int, ...]:
    """The dice that draw `cards` from `pack` (a die's face n draws the nth card still in it, once the earlier
    dice's cards are out): each card's place as it is drawn. A card not in the pack is refused naming it."""
    left = list(pack)
    dice = []
    for i, card in enumerate(cards):
        if card not in left:
            raise RulesError(
                f"cards.{i}", f"the {card_name(card)} is not in the pack: it is held or out of play"
            )
        dice.append(left.index(card) + 1)
        left.remove(card)
    return tuple(dice)


def card_name(card: str) -> str:
    """ "Queen of Clubs", "7 of Hearts"."""
    rank, suit = card[:-1], card[-1]
    return f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[suit]}"
