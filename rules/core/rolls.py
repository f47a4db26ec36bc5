"""A roll in a game worked out in one call: what asking costs (a once-a-game use), the request fields the table
knows, a secret draw's hidden fields, the resolver's answer and what it does to the table, each by the game's
rules (rules.core.game.GameRules) from one snapshot. Nothing is written here: the service writes the changes
and logs the roll (app.services.acts)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from rules.core.acts import Roll
from rules.core.cards import card_name
from rules.core.errors import RulesError
from rules.core.game import GameRules, Outcome
from rules.core.records import Change, Filled, FillRequest, Snapshot
from rules.core.ruleset import ResolveRequest, RuleSet


@dataclass(frozen=True)
class Rolled:
    """A roll worked out against the table: the snapshot once asking was paid for (`spent`, written but not
    logged), the fields filled, the validated request, the answer as JSON and what it does (`changes`: when
    the roll is applied, or asked with its dice)."""

    snapshot: Snapshot
    spent: tuple[Change, ...]
    filled: tuple[Filled, ...]
    request: ResolveRequest
    resolution: Mapping[str, Any]
    changes: tuple[Change, ...]


def resolver_of(ruleset: RuleSet, resolver_id: str) -> None:
    """Refuse a resolver the rule set does not have (422 naming those it has)."""
    if resolver_id not in ruleset.resolvers:
        raise RulesError("resolver", f"unknown resolver {resolver_id!r}", sorted(ruleset.resolvers))


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


def _request(model: Any, body: dict[str, Any]) -> Any:
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        raise RulesError(f"fields.{loc}" if loc not in ("dice",) else loc, err["msg"]) from None


def work_out(game: GameRules, ruleset: RuleSet, snapshot: Snapshot, roll: Roll, consequences: bool) -> Rolled:
    """The roll against `snapshot` by `game`'s rules and `ruleset`'s resolver; a RulesError refuses it."""
    resolver_of(ruleset, roll.resolver)
    request_model = ruleset.resolvers[roll.resolver].Request
    fields = dict(roll.fields)
    asked = FillRequest(frozenset(request_model.model_fields), roll.unit_id, roll.target_id, fields)
    spent = game.rolls.before_resolve(roll.resolver, snapshot, asked, roll.apply)
    snapshot = snapshot.after(spent)
    filled = game.rolls.fill(roll.resolver, snapshot, asked)
    if roll.resolver in game.rolls.secret_draws:
        filled += game.rolls.drawn(roll.resolver, snapshot, fields)
    body = {
        **{f.field: f.value for f in filled},
        **fields,
        "period": snapshot.period,
        "variants": dict(snapshot.variants),
        "dice": None if roll.dice is None else list(roll.dice),
    }
    req = _request(request_model, body)
    if roll.resolver in game.rolls.secret_draws and game.rolls.drawn_at_table(snapshot):
        # The cards drawn at the table are drawn from the game's pack in their stead (the rule set keeps that
        # pack so that the answer tells the drawer nothing it did not know); a side never gives dice.
        if roll.cards:
            resolver = ruleset.resolvers[roll.resolver]()
            pack = resolver.pack(req, ruleset.context(req.period, req.variants)) or ()
            req = _request(request_model, {**body, "dice": list(places(pack, roll.cards))})
        elif roll.dice is None:
            raise RulesError("cards", "this game draws its cards at the table: enter the card drawn")
    elif roll.cards:
        raise RulesError("cards", "this game deals its cards from its own pack: draw, and firestep deals")
    resolution = ruleset.resolve(roll.resolver, req).as_dict()
    outcome = Outcome(req, resolution, roll.unit_id, roll.target_id)
    changes = game.rolls.consequences(roll.resolver, snapshot, outcome) if consequences else ()
    return Rolled(snapshot, spent, tuple(filled), req, resolution, changes)
