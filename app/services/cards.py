"""Event cards: the sides' hands, the deck, drawing a card and playing one."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from app.data.board_state import EventPack, board_json, read_board
from app.data.models import Event, Game
from app.guard.auth import Viewer
from app.services.events import record
from app.services.games import set_game
from app.services.seats import get_side, set_side_allowance, sides
from rules.core.errors import RulesError
from rules.flanders_fields.errata import SRC_EVENTS
from rules.flanders_fields.play.changes import HAND_KEY
from rules.flanders_fields.resolvers.events import PACK, card_dict

# -- random events: the pack and the hands -------------------------------------------------------------------


def hands_of(session: Session, game: Game) -> dict[str, list[str]]:
    return {s.side: list(s.special_uses.get(HAND_KEY, [])) for s in sides(session, game.id or 0)}


def deck_of(game: Game, hands: dict[str, list[str]]) -> list[str]:
    """The cards still in the pack: every card not held and not out of play (drawn dummies, played cards).
    Its order is the pack's; the draw picks positions in it, so the odds are exact whatever the order."""
    pack = read_board(game).events
    out = set(pack.out if pack else ())
    held = {c for h in hands.values() for c in h}
    return [c for c in PACK if c not in out and c not in held]


# What the drawer does not read of its own draw: the opponent's hand, and the undealt pack in any form (its
# cards, its order, the positions the dice picked in it, the odds of each kind over it), since the pack less
# the cards out of play and one's own hand is the opponent's hand.
HIDDEN_CARDS = frozenset({"opponent_hand", "deck"})
HIDDEN_ROLL = frozenset({"dice", "probabilities", "probabilities_exact"})


def redact_opponent(payload: dict[str, Any], drawer: str) -> dict[str, Any]:
    """The drawing player's view of a draw: the cards it drew and its own hand, nothing of the pack left."""
    req = {k: v for k, v in payload["request"].items() if k not in HIDDEN_CARDS | HIDDEN_ROLL}
    res = {k: v for k, v in payload["resolution"].items() if k not in HIDDEN_ROLL}
    res["outcome"] = {k: v for k, v in res["outcome"].items() if k not in HIDDEN_CARDS}
    return {
        **payload,
        "request": req,
        "resolution": res,
        "filled": [f for f in payload["filled"] if f["field"] not in HIDDEN_CARDS],
        "changes": [c for c in payload["changes"] if c.get("side", drawer) == drawer],
    }


def public_draw(res: dict[str, Any], applied: bool) -> dict[str, Any]:
    """What the opponent learns of a draw: how many cards, the dummies and the detrimental cards played."""
    out = res["outcome"]
    shown = [c for c in out["drawn"] if c["kind"] == "dummy" or c["card"] in out["play_now"]]
    return {
        "resolver": "random-event",
        "applied": applied,
        "drawn": len(out["drawn"]),
        "shown": shown,
        "kept": len(out["drawn"]) - len(shown),
        "cards_left": len(out["deck"]),
        "source": SRC_EVENTS,
    }


def play_card(session: Session, game: Game, viewer: Viewer, side: str, card: str) -> Event:
    """A card from a player's hand is played (red cards "MAY be played whenever a player wishes"); it is
    shown to everyone and goes out of play."""
    viewer.require_side(side, "play the cards")
    row = get_side(session, game.id or 0, side)
    hand = list(row.special_uses.get(HAND_KEY, []))
    if card not in hand:
        raise RulesError("card", f"the {side} does not hold {card}", hand)
    changes = [set_side_allowance(session, row, HAND_KEY, [c for c in hand if c != card])]
    board = read_board(game)
    pack = board.events or EventPack()
    pack.out = (*pack.out, card)
    board.events = pack
    changes += set_game(session, game, board=board_json(game, board))
    return record(
        session,
        game,
        "card-played",
        viewer.role,
        {"side": side, "card": card_dict(card), "changes": changes, "source": SRC_EVENTS},
    )
