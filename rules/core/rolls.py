"""A game's rolls: what a rule set's rolls declare (`RollTerms`, in its book: rules.core.game.Book) and a roll
worked out in one call (`work_out`, called by `GameRules.play` for a `Roll`): what asking costs (a once-a-game
use), the request fields the table knows, a secret draw's hidden fields, the resolver's answer and what it does to
the table, each by the game's rules from one snapshot. Nothing is written here: the service writes the answer's
changes and logs the roll (app.services.acts)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Protocol

from pydantic import TypeAdapter, ValidationError

from rules.core.acts import Roll
from rules.core.cards import card_name
from rules.core.dice import count_odds
from rules.core.errors import RulesError
from rules.core.records import (
    Answer,
    Change,
    Claims,
    Filled,
    FillRequest,
    Snapshot,
    judged_by,
)
from rules.core.ruleset import ResolveRequest, RuleSet


@dataclass(frozen=True)
class Outcome:
    """A resolution to carry out: the validated request, the answer as JSON, and the units it was for."""

    request: ResolveRequest
    resolution: Mapping[str, Any]
    unit_id: int | None = None
    target_id: int | None = None


@dataclass(frozen=True)
class RollTerms:
    """What a rule set's rolls declare as data, in one record: the resolvers the side to move draws from a pack
    only the game sees (resolver -> what is drawn, as "draw ..." reads: the pack and the hands are the game's,
    each side reads its own view); which request fields the table keeps, a player measures with the tape or the
    players judge by eye (`Claims`, none by default); and the game option (variant, reading) under which each
    side draws from the club's own pack at the table and enters the card it drew (`Roll.cards`), which the game
    draws from its own pack in its stead (None: the game deals)."""

    secret_draws: Mapping[str, str] = field(default_factory=dict)
    claims: Claims = field(default_factory=Claims)
    drawn_at_table: tuple[str, str] | None = None


def at_table(terms: RollTerms, snapshot: Snapshot) -> bool:
    """Whether the game's secret draws are made at the table from the players' own pack."""
    option = terms.drawn_at_table
    return option is not None and snapshot.variants.get(option[0]) == option[1]


class RollHook(Protocol):
    """What `work_out` asks of a game's hook (rules.core.game.GameRules, which this module does not import):
    what the table fills, a secret draw's hidden fields and how each side reads it,
    what asking costs and what a result does."""

    def fill(self, resolver_id: str, snapshot: Snapshot, request: FillRequest) -> tuple[Filled, ...]: ...

    def drawn(self, resolver_id: str, snapshot: Snapshot, given: Mapping[str, Any]) -> tuple[Filled, ...]: ...

    def _before_resolve(
        self, resolver_id: str, snapshot: Snapshot, request: FillRequest, apply: bool
    ) -> tuple[Change, ...]: ...

    def _consequences(self, resolver_id: str, snapshot: Snapshot, outcome: Outcome) -> tuple[Change, ...]: ...

    def _draw_seen(
        self, resolver_id: str, payload: Mapping[str, Any], drawer: str, applied: bool
    ) -> tuple[dict[str, Any], dict[str, Any]]: ...


@dataclass(frozen=True, kw_only=True)
class Rolled(Answer):
    """A roll worked out against the table (`GameRules.play`'s answer to a `Roll`): what it does (`changes`:
    when the roll is applied, or asked with its dice), the snapshot once asking was paid for (`spent`, written
    but not logged), the fields filled, the validated request, the answer as JSON, the refusals of kept fields
    the referee's override set aside, and a secret draw as (everyone, the drawer) read it, its changes aside."""

    snapshot: Snapshot
    spent: tuple[Change, ...]
    filled: tuple[Filled, ...]
    request: ResolveRequest
    resolution: Mapping[str, Any]
    overridden: tuple[str, ...] = ()
    seen: tuple[Mapping[str, Any], Mapping[str, Any]] | None = None

    def logged(self, roll: Roll, changes: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """The roll as the log keeps it (and its roller reads it), with the `changes` as written."""
        return {
            "resolver": roll.resolver,
            "unit_id": roll.unit_id,
            "target_id": roll.target_id,
            "request": self.request.model_dump(mode="json"),
            "filled": [f.as_dict() for f in self.filled],
            "resolution": self.resolution,
            "applied": roll.apply,
            "changes": list(changes),
        }


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


def work_out(rolls: RollHook, terms: RollTerms, ruleset: RuleSet, snapshot: Snapshot, roll: Roll) -> Rolled:
    """The roll against `snapshot` by a game's `rolls` and `ruleset`'s resolver (what it does worked out when it
    is applied or asked with its dice); a RulesError refuses it."""
    resolver_of(ruleset, roll.resolver)
    request_model = ruleset.resolvers[roll.resolver].Request
    fields = dict(roll.fields)
    asked = FillRequest(frozenset(request_model.model_fields), roll.unit_id, roll.target_id, fields)
    spent = rolls._before_resolve(roll.resolver, snapshot, asked, roll.apply)
    snapshot = snapshot.after(spent)
    # The table reads what it keeps and measures itself, whatever the request gives; the claims are weighed
    # against it.
    claims = terms.claims
    if claims.judged:
        claims = judged_by(
            claims, bool(ruleset.context(snapshot.period, snapshot.variants).value(claims.judged))
        )
    own = replace(asked, given={k: v for k, v in fields.items() if k not in claims.declared})
    filled, overridden = claimed(claims, request_model, rolls.fill(roll.resolver, snapshot, own), roll)
    secret = roll.resolver in terms.secret_draws
    if secret:
        filled += rolls.drawn(roll.resolver, snapshot, fields)
    body = {
        **{f.field: f.value for f in filled},
        **fields,
        "period": snapshot.period,
        "variants": dict(snapshot.variants),
        "dice": None if roll.dice is None else list(roll.dice),
    }
    req = _request(request_model, body)
    if secret and at_table(terms, snapshot):
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
    counted: dict[str, Any] = {}
    if roll.count is not None:
        if roll.dice is not None:
            raise RulesError("count", "give the dice's faces or their count, not both")
        faces, threshold = ruleset.counted(roll.resolver, req, roll.count)
        req = _request(request_model, {**body, "dice": list(faces)})
        odds = count_odds(threshold, roll.count.reached, roll.count.lifted, roll.count.again)
        # The dice the answer keeps are faces standing for the count; `count` says they were counted (where a
        # bonus lifts a die: whether one was, and the lowest face it lifts; where they are rolled again: how
        # many reached it again).
        lifts: dict[str, bool | int | None] = {}
        if threshold.lift:
            lifts |= {"lifted": roll.count.lifted, "lift": threshold.lift}
        if threshold.again:
            lifts["again"] = roll.count.again
        counted = {
            "count": {
                "dice": roll.count.dice,
                "reached": roll.count.reached,
                "reach": threshold.reach,
                **lifts,
                "odds": f"{odds.numerator}/{odds.denominator}",
            }
        }
    resolution = {**ruleset.resolve(roll.resolver, req).as_dict(), **counted}
    outcome = Outcome(req, resolution, roll.unit_id, roll.target_id)
    asked_with_dice = roll.apply or roll.dice is not None or roll.count is not None
    changes = rolls._consequences(roll.resolver, snapshot, outcome) if asked_with_dice else ()
    rolled = Rolled(
        changes=changes,
        snapshot=snapshot,
        spent=spent,
        filled=tuple(filled),
        request=req,
        resolution=resolution,
        overridden=overridden,
    )
    if not secret:
        return rolled
    seen = rolls._draw_seen(roll.resolver, rolled.logged(roll, []), snapshot.side_to_move, roll.apply)
    return replace(rolled, seen=seen)
