"""The random-event pack in a game: the side to move draws from a pack only the game sees (its hands are the
sides' own state, the cards out of play are on the board), each side reads its own view of the draw, and a
card is played from a hand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.errors import RulesError
from rules.core.game import GameRules
from rules.core.records import Change, Filled, Played, SetBoard, Snapshot
from rules.core.rolls import at_table
from rules.core.vocabulary import other_side
from rules.flanders_fields.errata import EVENTS_PACK, SRC_EVENTS
from rules.flanders_fields.play.changes import HAND_KEY, hand_set
from rules.flanders_fields.resolvers.events import PACK, RandomEvent

RESOLVER = "random-event"
# The game's secret draw (Book.roll_terms): the random-event pack, drawn at the table from the club's own pack under
# the game option.
SECRET_DRAWS = {RESOLVER: "the random event cards"}
AT_TABLE = (EVENTS_PACK, "club")


def hands_of(snap: Snapshot) -> dict[str, list[str]]:
    return {side: list(state.get(HAND_KEY, [])) for side, state in snap.sides.items()}


def _out_of_play(snap: Snapshot) -> list[str]:
    pack = snap.board.get("events")
    return list(pack["out"]) if pack else []


def deck_of(snap: Snapshot, hands: Mapping[str, list[str]]) -> list[str]:
    """The cards still in the pack: every card not held and not out of play (drawn dummies, played cards).
    Its order is the pack's; the draw picks positions in it, so the odds are exact whatever the order."""
    out = set(_out_of_play(snap))
    held = {c for h in hands.values() for c in h}
    return [c for c in PACK if c not in out and c not in held]


# What the drawer does not read of its own draw: the opponent's hand, and the undealt pack in any form (its
# cards, its order, the positions the dice picked in it, the odds of each kind over it), since the pack less
# the cards out of play and one's own hand is the opponent's hand.
HIDDEN_CARDS = frozenset({"opponent_hand", "deck"})
HIDDEN_ROLL = frozenset({"dice", "probabilities", "probabilities_exact"})


def redact_opponent(payload: Mapping[str, Any], drawer: str) -> dict[str, Any]:
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


def public_draw(res: Mapping[str, Any], applied: bool) -> dict[str, Any]:
    """What the opponent learns of a draw: how many cards, the dummies and the detrimental cards played."""
    out = res["outcome"]
    shown = [c for c in out["drawn"] if c["kind"] == "dummy" or c["card"] in out["play_now"]]
    return {
        "resolver": RESOLVER,
        "applied": applied,
        "drawn": len(out["drawn"]),
        "shown": shown,
        "kept": len(out["drawn"]) - len(shown),
        "cards_left": len(out["deck"]),
        "source": SRC_EVENTS,
    }


class FlandersFieldsCards(GameRules):
    """The random-event pack as the game's secret draw and a card played from a hand (the game's rolls,
    `FlandersFieldsRolls`, are made of it)."""

    def _hand_played(self, snapshot: Snapshot, side: str, card: str) -> Played:
        """A card from a player's hand is played (red cards "MAY be played whenever a player wishes"); it is
        shown to everyone and goes out of play."""
        hand = list(snapshot.sides.get(side, {}).get(HAND_KEY, []))
        if card not in hand:
            raise RulesError("card", f"the {side} does not hold {card}", hand)
        pack = snapshot.board.get("events") or {}
        out_of_play = {"out": [*_out_of_play(snapshot), card], "cards_left": pack.get("cards_left")}
        changes = (
            hand_set(f"the {side} played {card}", SRC_EVENTS, side, tuple(c for c in hand if c != card)),
            SetBoard(f"{card} is out of play", SRC_EVENTS, "events", out_of_play),
        )
        return Played({"card": RandomEvent.card(card)}, changes, SRC_EVENTS)

    def drawn(self, resolver_id: str, snapshot: Snapshot, given: Mapping[str, Any]) -> tuple[Filled, ...]:
        """The pack and the hands of a draw by the side to move: the game's, never the request's. Drawn at the
        table, the pack is every card the drawer may have drawn (none of its own hand, none out of play), the
        other side's hand among them: which cards it holds is its own, and a card entered is never refused for
        being one of them (the other side's hand stays as it was: cards_drawn)."""
        if resolver_id != RESOLVER:
            return ()
        drawer = snapshot.side_to_move
        rival = other_side(drawer)
        hands = hands_of(snapshot)
        deck = deck_of(snapshot, hands)
        if at_table(self.book.roll_terms, snapshot):
            deck = deck_of(snapshot, {drawer: hands[drawer]})
            hands = {drawer: hands[drawer], rival: []}
        out = []
        for name, value, why in (
            ("deck", deck, "the cards left in the game's pack"),
            ("hand", hands[drawer], f"the {drawer}'s hand"),
            ("opponent_hand", hands[rival], f"the {rival}'s hand"),
        ):
            if name in given:
                raise RulesError(f"fields.{name}", "inside a game the pack and hands are the game's", [])
            out.append(Filled(name, value, why, SRC_EVENTS))
        return tuple(out)

    def _draw_seen(
        self, resolver_id: str, payload: Mapping[str, Any], drawer: str, applied: bool
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        return public_draw(payload["resolution"], applied), redact_opponent(payload, drawer)

    def _draw_taken_back(
        self, resolver_id: str, snapshot: Snapshot, payload: Mapping[str, Any]
    ) -> tuple[Change, ...]:
        """A draw taken back (the referee's call): each card it drew that a hand still holds leaves the hand and
        goes out of play, as its dummies did. It never returns to the pack: the drawer has read it, so a card back
        in the pack would tell it a card the opponent does not hold."""
        drawn = [c["card"] for c in payload["resolution"]["outcome"]["drawn"]]
        hands = hands_of(snapshot)
        changes: list[Change] = [
            hand_set(
                f"the {side}'s draw taken back", SRC_EVENTS, side, tuple(c for c in hand if c not in drawn)
            )
            for side, hand in sorted(hands.items())
            if any(c in drawn for c in hand)
        ]
        out = _out_of_play(snapshot)
        out += [c for c in drawn if c not in out]
        pack = snapshot.board.get("events") or {}
        left = pack.get("cards_left", len(deck_of(snapshot, hands)))
        taken = SetBoard(
            "the cards drawn stay out of play", SRC_EVENTS, "events", {"out": out, "cards_left": left}
        )
        return (*changes, taken)
