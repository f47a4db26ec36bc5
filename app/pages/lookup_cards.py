"""The lookup for a resolver whose dice draw cards (a random-event pack): the player enters a card drawn at
the table by suit and rank, which is the die that draws it (its place in the pack), and the answer shows the
cards drawn and the hand, never the pack."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session
from starlette.datastructures import FormData

from app.data.models import Game
from app.pages.common import USER_ERRORS, error_message
from app.pages.templates import templates
from app.services import acts, markers
from app.services import cards as cards_service
from app.services.seating import Viewer
from app.services.writing import game_write
from rules.core.acts import PlayCard
from rules.core.cards import RANK_NAMES, RANKS, SUIT_NAMES, SUIT_SYMBOLS, SUITS, card_name
from rules.core.errors import RulesError
from rules.core.ruleset import Resolver

Pick = tuple[str | None, str | None]  # (suit, rank) of one card, either not picked yet
MAX_CARDS = 4  # more than any draw asks for: a form naming more cards is not read further


def dice_of_cards(pack: tuple[str, ...], picks: list[Pick]) -> list[int | None]:
    """The dice that draw the cards picked: each card's place in the pack once the cards before it are out.
    A card not in the pack is a RulesError naming its picker."""
    left = list(pack)
    dice: list[int | None] = []
    for i, (suit, rank) in enumerate(picks):
        if suit is None or rank is None:
            break
        card = rank + suit
        if card not in left:
            where = (
                "drawn as an earlier card" if card in pack else "not in the pack: it is held or out of play"
            )
            raise RulesError(f"card.{i}", f"the {card_name(card)} is {where}")
        dice.append(left.index(card) + 1)
        left.remove(card)
    return dice + [None] * (len(picks) - len(dice))


def cards_of_dice(pack: tuple[str, ...], dice: list[int | None]) -> list[Pick]:
    """The cards the dice drew, as the pickers show them."""
    left = list(pack)
    picks: list[Pick] = []
    for d in dice:
        if d is None or not 1 <= d <= len(left):
            break
        card = left.pop(d - 1)
        picks.append((card[-1], card[:-1]))
    return picks


def card_picks_from(form: FormData) -> list[Pick]:
    """The suit and rank picked for each card (`card.0.suit`, `card.0.rank`, ...), only of a standard pack."""
    picks: list[Pick] = []
    for i in range(MAX_CARDS):
        suit, rank = str(form.get(f"card.{i}.suit") or ""), str(form.get(f"card.{i}.rank") or "")
        if not suit and not rank:
            break
        picks.append((suit if suit in SUITS else None, rank if rank in RANKS else None))
    return picks


# What the card pickers offer: the suits with their symbol and name, the ranks with their spoken name.
CARD_PICKER = {
    "suits": [{"id": s, "symbol": SUIT_SYMBOLS[s], "name": SUIT_NAMES[s]} for s in SUITS],
    "ranks": [{"id": r, "name": RANK_NAMES.get(r, r)} for r in RANKS],
}


# -- in a game ----------------------------------------------------------------------------------------------


def referee_pack(session: Session, game: Game, viewer: Viewer, resolver: str) -> dict[str, Any]:
    """The game's pack and hands for a secret draw, which only the referee sees: a card the referee enters is
    found in the pack the game draws from. A side gets nothing (it never picks its cards)."""
    rules = markers.rules_of(game)
    if resolver not in rules.book.roll_terms.secret_draws or not viewer.is_referee:
        return {}
    snapshot = markers.table_read(session, game).snapshot
    return {f.field: f.value for f in rules.drawn(resolver, snapshot, {})}


def hand_context(
    session: Session, game: Game, viewer: Viewer, resolver: type[Resolver[Any]]
) -> dict[str, Any]:
    """For a secret draw: a side only lets firestep draw (`draw_only`) and sees its hand as cards, each
    played with one tap; the referee enters the cards drawn at the table."""
    if resolver.id not in markers.rules_of(game).book.roll_terms.secret_draws:
        return {}
    if viewer.is_referee:
        return {"draw_only": False}
    held = cards_service.hand_of(session, game.pk, viewer.role)
    return {"draw_only": True, "hand": [resolver().card(c) for c in held]}


def play_from_hand(session: Session, game_id: int, viewer: Viewer, card: str) -> str | None:
    """Play a card from the viewer's hand (as POST /api/v1/games/{id}/cards/play); the refusal, if any."""
    try:
        with game_write(session, game_id) as locked:
            acts.play(session, locked, viewer, PlayCard(side=viewer.role, card=card))
    except USER_ERRORS as e:
        session.rollback()
        return error_message(e)
    return None


templates.env.globals["card_name"] = card_name
templates.env.globals["suit_symbol"] = lambda card: SUIT_SYMBOLS.get(card[-1:], "")
templates.env.globals["card_picker"] = CARD_PICKER
templates.env.filters["card_name"] = card_name
