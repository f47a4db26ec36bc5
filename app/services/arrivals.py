"""Arrived fire-plan fire as cards (issue 26): the side to move's arrived batteries and mortars that fire this
turn, each with where it lands, the stands under it and what is rolled (the game's rule set works them out:
`GameRules.arrival_cards`), and one card applied: every die rolled by the server or given, every covered
stand's result written through the one applier, and one event naming the item and its effect (undone in one,
in the luck ledger with its odds). Only arrived items are read: they are public from their arrival."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, select

from app.data.models import Event, Game
from app.data.schemas_answers import ArrivalsOut
from app.errors import Conflict
from app.guard.auth import Viewer
from app.services.events import reversed_ids
from app.services.games import game_state
from app.services.markers import rules_of, snapshot_of
from app.services.unit_names import display_names
from app.services.units import list_units
from rules.core.consequences import said
from rules.core.dice import roll
from rules.core.errors import NotFoundError, RulesError
from rules.core.fire_cards import FireCard, Fired
from rules.core.records import Snapshot

KIND = "arrival-fire"
_dice = random.SystemRandom()


def applied(session: Session, game: Game) -> dict[int, dict[str, Any]]:
    """The cards applied this turn and not undone: plan item id -> the event that applied it."""
    undone = reversed_ids(session, game.pk)
    rows = session.exec(
        select(Event)
        .where(Event.game_id == game.id, Event.kind == KIND, Event.turn == game.turn)
        .order_by(col(Event.id))
    )
    return {
        int(ev.payload["item"]["id"]): {
            "event_id": ev.id,
            "effect": ev.payload.get("effect", ""),
            "said": ev.payload.get("said", []),
            "dice": [d for r in ev.payload.get("rolls") or [] for d in r["resolution"].get("dice", [])],
        }
        for ev in rows
        if ev.id not in undone
    }


def _cards(session: Session, game: Game) -> tuple[tuple[FireCard, ...], dict[int, str], list[Any]]:
    units = list_units(session, game.pk)
    names = display_names(units)
    if game.status != "playing":
        return (), names, units
    return rules_of(game).fire_plan.arrival_cards(snapshot_of(session, game, units), names), names, units


def cards(session: Session, game: Game) -> ArrivalsOut:
    """The turn's arrival cards, each with what applied it this turn (if it was)."""
    found, names, _ = _cards(session, game)
    done = applied(session, game)
    return ArrivalsOut(
        turn=game.turn,
        side_to_move=game.side_to_move,
        cards=[{**c.as_dict(names), "applied": done.get(c.item_id)} for c in found],
    )


def _times(card: FireCard, given: Mapping[str, Sequence[int]], shots: Mapping[str, int]) -> dict[str, int]:
    """How often each of the card's rolls is made: its `times`; on a card that leaves its shots to its side
    (`FireCard.shots`), the shots laid on it (named, or as many as its dice given make), none elsewhere."""
    rolls = {r.key: r for r in ([card.first] if card.first else []) + list(card.stands)}
    if not card.shots:
        if shots:
            raise RulesError("shots", "this card's rolls are all made: lay no shots", [])
        return {k: r.times for k, r in rolls.items()}
    for key, n in shots.items():
        r = rolls.get(key)
        if r is None:
            raise RulesError(f"shots.{key}", "no such roll on this card", sorted(rolls))
        if n > r.times:
            raise RulesError(
                f"shots.{key}", f"lay at most {r.times} shots on this roll", range(1, r.times + 1)
            )
    laid = {k: shots.get(k, -(-len(given.get(k, ())) // len(r.dice))) for k, r in rolls.items()}
    if sum(laid.values()) > card.shots:
        raise RulesError("shots", f"lay at most the card's {card.shots} shots", [card.shots])
    return laid


def _all_dice(
    card: FireCard, given: Mapping[str, Sequence[int]], shots: Mapping[str, int]
) -> tuple[dict[str, list[int]], dict[str, int]]:
    """Every die the card may need: the ones given (checked against their dice), the rest rolled here; and how
    many of each roll's dice were given."""
    rolls = {r.key: r for r in ([card.first] if card.first else []) + list(card.stands)}
    times = _times(card, given, shots)
    out: dict[str, list[int]] = {}
    for key, faces in given.items():
        r = rolls.get(key)
        if r is None:
            raise RulesError(f"dice.{key}", "no such roll on this card", sorted(rolls))
        most = len(r.dice) * times[key]
        if len(faces) > most:
            raise RulesError(f"dice.{key}", f"this roll takes at most {most} dice", [most])
        for n, face in enumerate(faces):
            sides = r.dice[n % len(r.dice)]
            if not 1 <= face <= sides:
                raise RulesError(f"dice.{key}.{n}", f"a D{sides} shows 1 to {sides}", [f"1..{sides}"])
    for key, r in rolls.items():
        if not times[key]:
            continue
        mine = list(given.get(key, ()))
        wanted = list(r.dice) * times[key]
        out[key] = mine + list(roll(wanted[len(mine) :], _dice))
    return out, {k: len(v) for k, v in given.items()}


@dataclass(frozen=True)
class Aimed:
    """An arrived item's card about to be applied, its dice rolled or given."""

    game: Game
    units: list[Any]
    names: dict[int, str]
    card: FireCard
    rolled: dict[str, list[int]]
    given: dict[str, int]
    measured: Mapping[str, str]

    def fired(self, snapshot: Snapshot) -> Fired:
        """The card applied by the game's rules (GameRules.arrival_fired) on the act's one snapshot."""
        return rules_of(self.game).fire_plan.arrival_fired(
            snapshot, self.card, self.rolled, self.measured, self.names
        )

    def payload(self, fired: Fired, changes: list[dict[str, Any]]) -> dict[str, Any]:
        """The event that logs the card: the item, where it landed, each roll and its effect."""
        rolls = []
        for r in fired.rolls:
            res = dict(r["resolution"])
            res["rolled_by_server"] = int(r["index"]) >= self.given.get(str(r["key"]), 0)
            rolls.append({"unit_id": r["unit_id"], "resolver": r["resolver"], "resolution": res})
        card = self.card
        return {
            "item": {"id": card.item_id, "side": card.side, "kind": card.kind},
            "what": card.what,
            "lands": list(card.lands),
            "rolls": rolls,
            "effect": fired.effect,
            # What it did to the stands, in the rule set's words (a stand card's result says the same).
            "said": said(fired.changes, rules_of(self.game).fields.state_fields, self.names),
            "changes": changes,
            "source": card.source,
        }


def aimed(
    session: Session,
    game: Game,
    viewer: Viewer,
    item_id: int,
    dice: Mapping[str, Sequence[int]],
    measured: Mapping[str, str],
    shots: Mapping[str, int],
) -> Aimed:
    """An arrived item's card, once this turn: its side (or the referee) rolls, or gives, its dice (and lays
    its shots, where the card leaves them to its side)."""
    found, names, units = _cards(session, game)
    card = next((c for c in found if c.item_id == item_id), None)
    if card is None:  # unarrived, not firing now or not the game's: one answer for all
        raise NotFoundError("arrived fire this turn", str(item_id))
    viewer.require_side(card.side, "apply its arrived fire")
    done = applied(session, game).get(item_id)
    if done is not None:
        raise Conflict(
            "That fire was applied this turn: undo that to apply it again.",
            current=game_state(game),
        )
    rolled, given = _all_dice(card, dice, shots)
    return Aimed(game, units, names, card, rolled, given, measured)
