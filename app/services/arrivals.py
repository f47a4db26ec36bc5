"""Arrived fire-plan fire as cards (issue 26): the side to move's arrived batteries and mortars that fire this
turn, each with where it lands, the stands under it and what is rolled (the game's rule set works them out:
`GameRules.arrival_cards`), and one card applied through the act pipeline (`ApplyArrival`, answered by
`GameRules.play`: every die rolled by the server or given, the card fired), every covered stand's result written
through the one applier, and one event naming the item and its effect (undone in one,
in the luck ledger with its odds). Only arrived items are read: they are public from their arrival."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, select

from app.data.changes import LoggedChange
from app.data.models import Event, Game
from app.data.schemas_answers import ArrivalsOut, CardAppliedOut
from app.errors import RuleRefused
from app.services.events import reversed_ids
from app.services.games import game_state
from app.services.markers import rules_of, table_read
from app.services.seating import Viewer
from app.services.units import list_units
from rules.core.consequences import said
from rules.core.errors import NotFoundError
from rules.core.fire_cards import CardApplied, FireCard

KIND = "arrival-fire"


def applied(session: Session, game: Game) -> dict[int, CardAppliedOut]:
    """The cards applied this turn and not undone: plan item id -> the event that applied it."""
    undone = reversed_ids(session, game.pk)
    rows = session.exec(
        select(Event)
        .where(Event.game_id == game.id, Event.kind == KIND, Event.turn == game.turn)
        .order_by(col(Event.id))
    )
    return {
        int(ev.payload["item"]["id"]): CardAppliedOut(
            event_id=ev.pk,
            effect=ev.payload.get("effect", ""),
            said=ev.payload.get("said", []),
            dice=[d for r in ev.payload.get("rolls") or [] for d in r["resolution"].get("dice", [])],
        )
        for ev in rows
        if ev.id not in undone
    }


def _cards(session: Session, game: Game) -> tuple[tuple[FireCard, ...], dict[int, str]]:
    """The turn's cards and the units' short names, of the game's units as the worker keeps them (each decoded
    once per version, named once per force tree: issue 91, an apply read every unit of the largest table twice)."""
    read = table_read(session, game)
    snapshot, kept = read.snapshot, read.kept
    if game.status != "playing":
        return (), kept.short_names
    return rules_of(game).arrival_cards(snapshot, kept.short_names), kept.short_names


def cards(session: Session, game: Game) -> ArrivalsOut:
    """The turn's arrival cards, each with what applied it this turn (if it was)."""
    found, names = _cards(session, game)
    done = applied(session, game)
    return ArrivalsOut(
        turn=game.turn,
        side_to_move=game.side_to_move,
        cards=[{**c.as_dict(names), "applied": done.get(c.item_id)} for c in found],
    )


@dataclass(frozen=True)
class Aimed:
    """An arrived item's card about to be applied (its dice and the card's effect are the rules': the act's
    answer, `CardApplied`)."""

    game: Game
    units: list[Any]
    names: dict[int, str]

    def payload(self, applied: CardApplied, changes: list[LoggedChange]) -> dict[str, Any]:
        """The event that logs the card: the item, where it landed, each roll and its effect."""
        rolls = []
        for r in applied.fired.rolls:
            res = dict(r["resolution"])
            res["rolled_by_server"] = int(r["index"]) >= applied.given.get(str(r["key"]), 0)
            rolls.append({"unit_id": r["unit_id"], "resolver": r["resolver"], "resolution": res})
        card = applied.card
        return {
            "item": {"id": card.item_id, "side": card.side, "kind": card.kind},
            "what": card.what,
            "lands": list(card.lands),
            "rolls": rolls,
            "effect": applied.fired.effect,
            # What it did to the stands, in the rule set's words (a stand card's result says the same).
            "said": said(applied.changes, rules_of(self.game).book.state_fields, self.names),
            "changes": changes,
            "source": card.source,
        }


def aimed(session: Session, game: Game, viewer: Viewer, item_id: int) -> Aimed:
    """An arrived item's card, once this turn: its side (or the referee) applies it, rolling or giving its
    dice (and laying its shots, where the card leaves them to its side) in the act."""
    found, names = _cards(session, game)
    card = next((c for c in found if c.item_id == item_id), None)
    if card is None:  # unarrived, not firing now or not the game's: one answer for all
        raise NotFoundError("arrived fire this turn", str(item_id))
    viewer.require_side(card.side, "apply its arrived fire")
    done = applied(session, game).get(item_id)
    if done is not None:
        raise RuleRefused(
            "That fire was applied this turn: undo that to apply it again.",
            current=game_state(game),
        )
    return Aimed(game, list_units(session, game.pk), names)  # the rows the act's changes write
