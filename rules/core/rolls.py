"""A roll in a game worked out in one call: what asking costs (a once-a-game use), the request fields the table
knows, a secret draw's hidden fields, the resolver's answer and what it does to the table, each by the game's
rules (rules.core.game.GameRules) from one snapshot. Nothing is written here: the service writes the changes
and logs the roll (app.services.acts)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from pydantic import TypeAdapter, ValidationError

from rules.core.acts import Roll
from rules.core.cards import card_name
from rules.core.errors import RulesError
from rules.core.game import GameRules, Outcome
from rules.core.records import Change, Claims, Filled, FillRequest, Snapshot
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
    overridden: tuple[str, ...] = ()  # the refusals of kept fields the referee's override set aside


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


def claimed(
    claims: Claims, model: Any, filled: Sequence[Filled], roll: Roll
) -> tuple[list[Filled], tuple[str, ...]]:
    """The table's fields with the roll's claims weighed against them (`Claims`): a kept field given with a
    value other than the table's is refused naming it (a 422), unless the referee overrides, whose value is
    taken and marked, its refusal returned for the log; a measured field given is taken and marked as given
    beside the map's measure, a seen one given other than the map reads it beside the map's reading. A kept
    or seen field given as the table has it is the table's. A kept field the table fills only where it
    applies is weighed against its `otherwise` where the roll names units and the table filled none."""
    given = roll.fields
    out: list[Filled] = []
    overridden: list[str] = []
    unfilled = [
        Filled(name, value, f"{name} does not apply to the units this roll names")
        for name, value in claims.otherwise.items()
        if name in given
        and name in claims.kept
        and name in model.model_fields
        and (roll.unit_id is not None or roll.target_id is not None)
        and all(f.field != name for f in filled)
    ]
    for i, f in enumerate([*filled, *unfilled]):
        if f.field not in given or (
            f.field in claims.kept | claims.seen and _same(model, f.field, given[f.field], f.value)
        ):
            if i < len(filled):
                out.append(f)
            continue
        value = given[f.field]
        if f.field in claims.measured:
            unit = claims.measured[f.field]
            said = f"by the tape: {_measure(value, unit)}; the map measures {_measure(f.value, unit)}"
            out.append(Filled(f.field, value, said, f.source, True, f.value))
            continue
        if f.field in claims.seen:
            said = f"seen by the player: {_seen(value)}; the map reads {_seen(f.value)}"
            out.append(Filled(f.field, value, said, f.source, True, f.value))
            continue
        mine, table = _short(value), _short(f.value)
        kept = f"{f.field}: {table} here, not {mine}" if mine and table else f"{f.field} as it stands"
        refusal = f"the table keeps {kept}; leave it out or ask the referee"
        if not roll.override:
            raise RulesError(f"fields.{f.field}", refusal, source=f.source, why=f.why)
        overridden.append(f"The table keeps {kept} ({f.why}).")
        said = f"set by the referee: {mine or 'given'}; the table keeps {table or 'its own'}"
        out.append(Filled(f.field, value, said, f.source, True, f.value))
    return out, tuple(overridden)


@lru_cache(maxsize=256)
def _adapter(annotation: Any) -> TypeAdapter[Any]:
    return TypeAdapter(annotation)


def _same(model: Any, name: str, given: Any, table: Any) -> bool:
    """Whether a value given is the table's, as the request reads both (1 and 1.0, a default left out)."""
    if given == table:
        return True
    adapter = _adapter(model.model_fields[name].annotation)
    try:
        read = [adapter.dump_python(adapter.validate_python(v), mode="json") for v in (given, table)]
    except (ValidationError, TypeError):
        return False
    return bool(read[0] == read[1])


def _short(value: Any) -> str:
    """A value in a refusal's few words, or "" when it would not fit one."""
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return text if len(text) <= 12 else ""


def _seen(value: Any) -> str:
    """A value judged by eye in words: a flag as yes or no, a description as its parts ("terrain rough,
    posture moving")."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return ", ".join(f"{k.replace('_', ' ')} {_seen(v)}" for k, v in value.items())
    return str(value)


def _measure(value: Any, unit: str) -> str:
    number = f"{value:g}" if isinstance(value, int | float) and not isinstance(value, bool) else str(value)
    return f"{number} {unit}".strip()


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
    # The table reads what it keeps and measures itself, whatever the request gives; the claims are weighed
    # against it.
    claims = game.rolls.claims
    if claims.judged:
        claims = claims.judged_by(
            bool(ruleset.context(snapshot.period, snapshot.variants).value(claims.judged))
        )
    own = replace(asked, given={k: v for k, v in fields.items() if k not in claims.declared})
    filled, overridden = claimed(claims, request_model, game.rolls.fill(roll.resolver, snapshot, own), roll)
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
    return Rolled(snapshot, spent, tuple(filled), req, resolution, changes, overridden)
