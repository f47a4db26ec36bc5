"""A card played from a side's hand: the game's rule set says what it shows and changes (rules.core.game
`GameRules.hand_played`); this writes the changes and logs the card for everyone."""

from __future__ import annotations

from sqlmodel import Session

from app.data.models import Event, Game
from app.guard.auth import Viewer
from app.services.events import record
from app.services.games import get_game
from app.services.markers import apply_changes, rules_of, snapshot_of
from app.services.seats import get_side
from app.services.units import list_units


def hand_of(session: Session, game_id: int, side: str) -> list[str]:
    """The cards a side holds (none when the game's rule set deals none)."""
    key = rules_of(get_game(session, game_id)).hand_key
    return list(get_side(session, game_id, side).special_uses.get(key, [])) if key else []


def play_card(session: Session, game: Game, viewer: Viewer, side: str, card: str) -> Event:
    """A card from a player's hand is played: shown to everyone, with what it changes."""
    viewer.require_side(side, "play the cards")
    units = list_units(session, game.id or 0)
    played = rules_of(game).hand_played(snapshot_of(session, game, units), side, card)
    changes = apply_changes(session, game, units, played.changes)
    return record(
        session,
        game,
        "card-played",
        viewer.role,
        {"side": side, **played.shown, "changes": changes, "source": played.source},
    )
