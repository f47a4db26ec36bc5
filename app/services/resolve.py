"""Resolving an action inside a game: the game's rule set fills the resolver's inputs from a snapshot of the
table and says what the result does, in one call (`GameRules.play` for the `Roll`, rules.core.rolls); this
checks the roll against the game and words it, and asks it without writing (`ask`); app.services.acts plays it. What asking costs (a once-a-game use) and a secret draw (a pack only the game sees, each
side reading its own view) are the rule set's too."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NotRequired, Protocol, TypedDict, TypeVar

from sqlmodel import Session

from app.data.changes import UnitValue
from app.data.models import Game
from app.errors import RuleRefused
from app.services import club_data, seats, turns
from app.services.games import game_state
from app.services.markers import TableRead, rules_of, table_read
from app.services.seating import Viewer
from app.services.units import list_units, unknown_unit
from rules.core.acts import Roll
from rules.core.consequences import odds_words, outcome_words, said
from rules.core.dice import Count, Threshold
from rules.core.errors import RulesError
from rules.core.game import Member, over
from rules.core.records import (
    AddToState,
    Change,
    Filled,
    FillRequest,
    SetState,
    Snapshot,
    TargetMark,
    UnitChange,
)
from rules.core.rolls import Rolled, resolver_of
from rules.registry import get_ruleset

__all__ = ["Filled", "ask", "checked", "fill", "in_words", "target_marks", "target_of"]


# -- resolving inside a game --------------------------------------------------------------------------------
def fill(game: Game, resolver: str, fields: set[str], unit_id: int | None, read: TableRead) -> list[Filled]:
    """The request fields the game's state knows for a roll of `unit_id`, each with why (the game's rule set
    decides which), on the table as the worker keeps it (`read`: each unit decoded once per version)."""
    request = FillRequest(frozenset(fields), unit_id, None, {})
    return list(rules_of(game).fill(resolver, read.snapshot, request))


class Stand(Member, Protocol):
    """What a roll's check reads of the units it names: a stored row or a kept unit's state alike."""

    @property
    def side(self) -> str: ...


S = TypeVar("S", bound=Stand)


def checked(
    session: Session, game: Game, viewer: Viewer, roll: Roll, units: Sequence[Stand] | None = None
) -> Sequence[Stand]:
    """A roll checked against the game before the rules work it out: a resolver of its rule set, the game
    being played, the units named its own (the viewer acting for the unit's side), a draw by the side to move
    as the pack allows it. The game's units, read once (`units`: as the caller read them for this request)."""
    game_rules = rules_of(game)
    resolver_of(get_ruleset(game.ruleset), roll.resolver)
    club_data.require_unset_roll(game, roll.resolver)  # in any status: set-up enters it from the editor
    if (
        ended := over(game.status, "roll")
    ) is not None:  # not "Start the game first" (session 23's hostile pass)
        raise turns.conflict(game, ended)
    if game.status != "playing":
        raise RuleRefused(
            f"Start the game first: it is in {game.status}, not playing",
            current=game_state(game),
            why=f"the game is in {game.status}, not playing",
        )
    units = list_units(session, game.pk) if units is None else units
    unit = _named(game, units, roll.unit_id, "unit_id")
    _named(game, units, roll.target_id, "target_id")  # an unknown target is refused before anything is rolled
    if unit is not None:
        viewer.require_side(unit.side, "resolve for a unit")
        # A side that chose firestep's dice enters none (the hostile pass: a chosen count went in as its roll).
        entered = roll.dice is not None or roll.count is not None
        if (
            entered
            and not viewer.is_referee
            and seats.get_side(session, game.pk, unit.side).dice == "firestep"
        ):
            raise RulesError(
                "dice", "this side lets firestep roll: roll without dice, or choose your own on the card"
            )
    draws = game_rules.book.roll_terms.secret_draws
    if roll.resolver in draws:
        # A player draws at the start of its turn: the side to move draws.
        viewer.require_side(game.side_to_move, f"draw {draws[roll.resolver]}")
        _check_draw(viewer, roll.dice, roll.apply)
    return units


class InWords(TypedDict):
    """What a roll did in words (the answers' `outcome_words`, `odds_words` and `said`)."""

    outcome_words: str | None
    odds_words: dict[str, str]
    said: list[str]


class RefusedNow(TypedDict):
    """What /resolve would refuse of an asked roll now (the answers' RefusedOut)."""

    detail: str
    why: str | None
    source: str | None


class Effect(TypedDict):
    """A change as a card words it (the answers' EffectOut): a unit's field moved by `delta` or set to `value`."""

    reason: str
    source: str
    unit_id: NotRequired[int]
    field: NotRequired[str]
    delta: NotRequired[int]
    value: NotRequired[UnitValue]  # what the unit's field is set to


def in_words(game: Game, names: Mapping[int, str], w: Rolled) -> InWords:
    """What the roll did, in words: its outcome ("1 action") and its changes as sentences from the rule set's
    words for its fields ("1/1 Coy Plt 1 destroyed."), the same before an Apply and after it."""
    fields = rules_of(game).book.state_fields
    return {
        "outcome_words": outcome_words(w.resolution.get("outcome")),
        # Each outcome's chance as the card, the story and the ledger say it (odds_words, the one formatter).
        "odds_words": {k: odds_words(p) for k, p in (w.resolution.get("probabilities_exact") or {}).items()},
        "said": said(w.changes, fields, names),
    }


def ask(
    session: Session,
    game: Game,
    viewer: Viewer,
    resolver_id: str,
    fields: dict[str, Any],
    dice: list[int] | None,
    unit_id: int | None,
    target_id: int | None,
    count: Count | None = None,
    read: TableRead | None = None,
) -> dict[str, Any]:
    """A roll worked out and nothing written: what the table fills, the odds, the answer for the dice given
    (or their `count`) and what it would do to whom (a stand card shows this before its Apply). A secret draw
    is never asked. `read`: the game's units and their snapshot as a caller that writes nothing read them
    (a stand's card asks each of its rolls on one read)."""
    if resolver_id in rules_of(game).book.roll_terms.secret_draws:
        raise RulesError("resolver", "a card is drawn for good, never looked at first: draw it")
    roll = Roll(
        resolver=resolver_id,
        fields=fields,
        dice=dice,
        count=count,
        unit_id=unit_id,
        target_id=target_id,
        apply=False,
    )
    # The game's units as the worker keeps them (app.services.kept_units), or as a caller read them.
    read = read or table_read(session, game)
    checked(session, game, viewer, roll, read.units)
    snapshot, names = read.snapshot, read.kept.short_names
    w = rules_of(game).play(snapshot, roll)  # what the pipeline would answer, nothing written
    if not isinstance(w, Rolled):
        raise TypeError(f"a roll is answered by a Rolled, not {type(w).__name__}")
    refused = _refusals(game, viewer, roll, snapshot)
    threshold = counted_by(game, resolver_id, w)
    return {
        "resolver": resolver_id,
        "unit_id": unit_id,
        "target_id": target_id,
        "filled": [{**f.as_dict(), "source": f.source} for f in w.filled],
        "resolution": w.resolution,
        "effects": [_effect(c) for c in w.changes],
        **in_words(game, names, w),
        # A question is answered whenever it is asked; what /resolve would refuse now is said beside it.
        "refused": _refused_dict(refused[0]) if refused else None,
        # Where the rule counts the dice reaching a number, the table may give the count in their stead.
        # Where a bonus lifts a die short of the number (issue 89): the lowest face it lifts, and on which die;
        # whether the dice reaching it are rolled again.
        "counted": {
            "dice": threshold.dice,
            "reach": threshold.reach,
            "lift": threshold.lift,
            "first_only": threshold.first_only,
            "again": threshold.again,
        }
        if threshold
        else None,
    }


def counted_by(game: Game, resolver_id: str, w: Rolled) -> Threshold | None:
    """The number a roll's dice are counted against, where its rule counts them (the resolver's declaration,
    read for the request the table filled), else None: each face is read."""
    rs = get_ruleset(game.ruleset)
    req = w.request
    return rs.resolvers[resolver_id]().counted(req, rs.context(req.period, req.variants))


def _refusals(game: Game, viewer: Viewer, roll: Roll, snapshot: Snapshot) -> list[str]:
    """What the rules of play would refuse of the roll now: its step and side, then what the turn forbids."""
    step = turns.roll_refused(game, viewer, roll, snapshot)
    return [*([step] if step else []), *rules_of(game).forbidden(snapshot, roll)]


def _refused_dict(refused: str) -> RefusedNow:
    return {
        "detail": str(refused),
        "why": getattr(refused, "why", None),
        "source": getattr(refused, "source", None),
    }


def _effect(c: Change) -> Effect:
    """A change as the card words it: whose field moves by how much (or to what), why and by which rule."""
    out: Effect = {"reason": c.reason, "source": c.source}
    if isinstance(c, UnitChange):
        out["unit_id"] = c.unit_id
    if isinstance(c, AddToState):
        out["field"], out["delta"] = c.field, c.delta
    elif isinstance(c, SetState):
        out["field"], out["value"] = c.field, c.value
    return out


def target_of(game: Game, units: Sequence[S], unit_id: int, resolver_id: str) -> S:
    """The stand whose roll `resolver_id` picks a target, checked as /resolve checks them: an unknown
    resolver or stand is a 422 naming it."""
    resolver_of(get_ruleset(game.ruleset), resolver_id)
    unit = _named(game, units, unit_id, "unit_id")
    assert unit is not None  # _named answers None only when no unit is named
    return unit


def target_marks(
    session: Session,
    game: Game,
    viewer: Viewer,
    unit_id: int,
    resolver_id: str,
    read: TableRead | None = None,
) -> list[TargetMark]:
    """The stands a card's roll by `unit_id` may not take as its target now, each with its reason (the rule
    set's, as /resolve would refuse them): none while the game is not played or for a side the viewer may
    not act for, as the card offers nothing then. `read`: the game's units and snapshot as the caller read
    them for the same request, else the worker's kept units (issue 91: each unit decoded once per version, not
    every unit each time the map marks a stand's targets)."""
    read = read or table_read(session, game)
    unit: Stand = target_of(game, read.units, unit_id, resolver_id)
    if game.status != "playing" or not viewer.may_act_for(unit.side):
        return []
    return list(rules_of(game).target_marks(read.snapshot, unit_id, resolver_id))


def _check_draw(viewer: Viewer, dice: Sequence[int] | None, apply: bool) -> None:
    """A side draws its cards as from a shuffled pack: the dice index the undealt pack in the game's order,
    so a side giving them would pick its card, and each card it drew at a position it chose, or looked at
    without drawing, would tell it which cards are not in the pack (the opponent's hand). The referee, who
    sees the pack, may (to enter a draw made at the table)."""
    if viewer.is_referee:
        return
    if dice is not None:
        raise RulesError("dice", "a side does not pick its cards: omit dice and firestep draws from the pack")
    if not apply:
        raise RulesError("apply", "a side draws its cards for good: a draw cannot be looked at first", [True])


def _named(game: Game, units: Sequence[S], unit_id: int | None, field: str) -> S | None:
    """A unit named in the request, from the units already loaded: unknown is a 422 naming the field."""
    if unit_id is None:
        return None
    unit = next((u for u in units if u.id == unit_id), None)
    if unit is None:
        raise unknown_unit(field, game.pk, unit_id)
    return unit
