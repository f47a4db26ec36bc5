"""Arrived fire-plan fire as a card (issue 26): what arrived and where it landed, the stands under it in three
lists (each stand in one), what is rolled for it with the exact odds, and what applying it did. Neutral: a rule
set fills these through `GameRules.arrival_cards`, and `GameRules.play` applies one (`ApplyArrival`: the card's dice
(`card_dice`), its `GameRules._arrival_fired`); the app writes the changes."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypedDict

from rules.core.consequences import odds_words
from rules.core.dice import DiceSource, roll
from rules.core.errors import RulesError
from rules.core.records import Answer, Change, Filled

# Where a stand is under the fire: fully, partly, or too close to call (a 1 cm nudge changes its class).
UNDER = ("full", "partial", "close")
# What a stand too close to call is taken as, when the players have measured it.
MEASURED = ("full", "partial", "outside")


@dataclass(frozen=True)
class CardRoll:
    """One roll a card asks for: the key its dice are given under ("action", or the stand's unit id), the
    resolver and its request as the game fills it (each field with why), the sides of its dice, how many times
    it may be rolled (a stand is rolled once per turn of fire) and the exact odds of each outcome. A stand's
    roll says where it is under the fire (`under`) and, when too close to call, what the table's positions
    make it (`measured`)."""

    key: str
    resolver: str
    request: Mapping[str, Any]
    filled: tuple[Filled, ...]
    dice: tuple[int, ...]
    odds: Mapping[str, Fraction]
    times: int = 1
    unit_id: int | None = None
    under: str = ""
    measured: str = ""

    def as_dict(self, names: Mapping[int, str]) -> dict[str, Any]:
        out: dict[str, Any] = {
            "key": self.key,
            "resolver": self.resolver,
            "request": dict(self.request),
            "filled": [f.as_dict() for f in self.filled],
            "dice": list(self.dice),
            "times": self.times,
            "probabilities_exact": {k: f"{p.numerator}/{p.denominator}" for k, p in self.odds.items()},
            "odds_words": {k: odds_words(p) for k, p in self.odds.items()},
        }
        if self.unit_id is not None:
            out.update(
                unit_id=self.unit_id, name=names.get(self.unit_id, str(self.unit_id)), under=self.under
            )
            if self.measured:
                out["measured"] = self.measured
        return out


@dataclass(frozen=True)
class FireCard:
    """An arrived item that fires this turn: its plan item's id, side and kind, what it is in words, the
    rules it follows, where it was aimed and where it lands (table cm, after any deviation rolled as it
    arrived), the template there, the roll that decides whether and how often it fires (`first`, if any) and
    one roll per stand under it."""

    item_id: int
    side: str
    kind: str
    what: str
    source: str
    aimed: tuple[float, float]
    lands: tuple[float, float]
    polygon: tuple[tuple[float, float], ...]
    deviation: Mapping[str, Any] = field(default_factory=dict)
    first: CardRoll | None = None
    stands: tuple[CardRoll, ...] = ()
    notes: tuple[str, ...] = ()
    # Shots its side lays across the stands' rolls as it chooses, each roll made at most its `times` (0: each
    # roll is made its `times`): 2mm Earth's bombardment, "the maximum number of 'Shots' the player can
    # allocate across the circle".
    shots: int = 0

    def as_dict(self, names: Mapping[int, str]) -> dict[str, Any]:
        return {
            "item_id": self.item_id,
            "side": self.side,
            "kind": self.kind,
            "what": self.what,
            "source": self.source,
            "aimed": list(self.aimed),
            "lands": list(self.lands),
            "polygon": [list(p) for p in self.polygon],
            "deviation": dict(self.deviation),
            "first": self.first.as_dict(names) if self.first else None,
            "stands": {u: [s.as_dict(names) for s in self.stands if s.under == u] for u in UNDER},
            "notes": list(self.notes),
            "shots": self.shots,
        }


class FiredRoll(TypedDict):
    """A roll applying a card made: the card's key its dice were given under and which of them, the unit
    rolled for, the resolver and the resolution as JSON (`Resolution.as_dict`)."""

    key: str
    index: int
    unit_id: int | None
    resolver: str
    resolution: Mapping[str, Any]


@dataclass(frozen=True)
class Fired:
    """What applying a card did: every roll made (key, unit id, resolver, the resolution as JSON, whether
    the server rolled it), the changes to write, and the effect in words for the game record."""

    rolls: tuple[FiredRoll, ...]
    changes: tuple[Change, ...]
    effect: str


DiceGiven = Mapping[str, Sequence[int]]


@dataclass(frozen=True, kw_only=True)
class CardApplied(Answer):
    """The answer to an arrived item's card applied (`GameRules.play`, an `ApplyArrival`): the card, what
    applying it did (its changes are the answer's), and how many of each roll's dice the players gave."""

    card: FireCard
    fired: Fired
    given: Mapping[str, int]


def _times(card: FireCard, given: DiceGiven, shots: Mapping[str, int]) -> dict[str, int]:
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


def card_dice(
    card: FireCard, given: DiceGiven, shots: Mapping[str, int], source: DiceSource | None = None
) -> tuple[dict[str, list[int]], dict[str, int]]:
    """Every die the card may need: the ones given (checked against their dice), the rest rolled (by `source`,
    else the system's); and how many of each roll's dice were given."""
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
    dice = source or random.SystemRandom()
    for key, r in rolls.items():
        if not times[key]:
            continue
        mine = list(given.get(key, ()))
        wanted = list(r.dice) * times[key]
        out[key] = mine + list(roll(wanted[len(mine) :], dice))
    return out, {k: len(v) for k, v in given.items()}
