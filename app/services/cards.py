"""A side's hand of cards (the game's rule set deals them: `GameRules.hand_key`); a card is played through
the act pipeline (app.services.acts, rules.core.acts.PlayCard)."""

from __future__ import annotations

from sqlmodel import Session

from app.services.games import get_game
from app.services.markers import rules_of
from app.services.seats import get_side


def hand_of(session: Session, game_id: int, side: str) -> list[str]:
    """The cards a side holds (none when the game's rule set deals none)."""
    key = rules_of(get_game(session, game_id)).fields.hand_key
    return list(get_side(session, game_id, side).special_uses.get(key, [])) if key else []
