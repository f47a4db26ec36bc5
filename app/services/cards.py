"""A side's hand of cards (the game's rule set deals them: `GameRules.book.hand_key`); a card is played through
the act pipeline (app.services.acts, rules.core.acts.PlayCard), and a card drawn at the table from the club's
own pack is entered as the game's secret draw of it (rules.core.acts.Roll.cards)."""

from __future__ import annotations

from sqlmodel import Session

from app.data.models import Game
from app.services.games import get_game
from app.services.markers import rules_of
from app.services.seats import get_side
from rules.core.acts import Roll
from rules.core.errors import RulesError


def hand_of(session: Session, game_id: int, side: str) -> list[str]:
    """The cards a side holds (none when the game's rule set deals none)."""
    key = rules_of(get_game(session, game_id)).book.hand_key
    return list(get_side(session, game_id, side).special_uses.get(key, [])) if key else []


def drawn_at_table(game: Game, cards: list[str]) -> Roll:
    """The cards a side drew at the table, as the roll of the game's secret draw that draws them: checked and
    kept secret as any draw (app.services.resolve, the draw's own views), refused by the rules where the
    game deals its own cards."""
    draws = rules_of(game).book.roll_terms.secret_draws
    if not draws:
        raise RulesError("cards", "this game's rules draw no cards", [])
    return Roll(resolver=next(iter(draws)), cards=tuple(cards), apply=True)
