"""A scenario's victory conditions (`victory_conditions`, docs/scenario-format.md): what wins a game at once,
beside its objectives' points. Flanders Fields and 2mm Earth 1418 print none, so a club's scenario names its own.

Each condition is one of `CONDITION_KINDS` (declared once: the format, its documentation and the scenario editor
read the list):
- `points`: the first side to reach `points` victory points (scored, not as the game would end) wins;
- `objective_taken`: `side` holding the objective `objective` wins (the score's holder: a call counts);
- `side_broken`: a side broken loses: it has lost `stands_lost` percent of its stands, as the scenario names
  it, else as its rule set declares one broken (`Book.broken`); `side` names which (null: either). Neither
  Flanders Fields nor 2mm Earth 1418 prints a side's break point (their morale is a battalion's, a unit's), so
  a scenario for them names its own share; without one the condition is refused, naming `stands_lost`.

A condition met does not end the game: the score says it is met (`Score.met`, rules.core.score), the referee
ends the game with its result or plays on, the choice logged; a condition played on stays met, told once."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.core.errors import RulesError

SIDES = ("attacker", "defender")
MAX_CONDITIONS = 10
MAX_THRESHOLD = 1000  # victory points: 50 objectives of 100 VP scoring each of 100 turns is more, no club's
CONDITION_KEYS = ("kind", "points", "objective", "side", "stands_lost")


@dataclass(frozen=True)
class ConditionKind:
    """A kind of victory condition as a scenario names it (`kind`), in words, and the keys it takes (name,
    allowed values, required)."""

    kind: str
    words: str
    fields: tuple[tuple[str, str, bool], ...]


CONDITION_KINDS: tuple[ConditionKind, ...] = (
    ConditionKind(
        "points",
        "the first side to reach this many victory points wins",
        (("points", f"1..{MAX_THRESHOLD}", True),),
    ),
    ConditionKind(
        "objective_taken",
        "the side holding this objective wins",
        (("objective", "an objective's id", True), ("side", "attacker or defender", True)),
    ),
    ConditionKind(
        "side_broken",
        "a side broken, having lost this share of its stands, loses",
        (
            ("side", "attacker, defender or null (either)", False),
            ("stands_lost", "1..100 (percent; required where the rules declare no side broken)", False),
        ),
    ),
)


@dataclass(frozen=True)
class Broken:
    """A rule set's declaration of a side broken (`Book.broken`): it has lost `share` of its stands or more,
    as `source` says."""

    share: float
    source: str


@dataclass(frozen=True)
class Condition:
    """A victory condition as checked: its number in the scenario's list (1 on), its kind and values."""

    number: int
    kind: str
    points: int = 0
    objective: str = ""
    side: str | None = None
    share: float = 0.0  # side_broken: the share of a side's stands lost that breaks it
    scenario_share: bool = False  # the scenario named the share (else the rule set's Book.broken)


@dataclass(frozen=True)
class Met:
    """A victory condition met in play: which (its number), the side it makes the winner (None: both sides
    reached the points at once, level), the turn and the log's event it was met in, what it says in words
    (citing the scenario), and whether the referee chose to play on."""

    number: int
    kind: str
    winner: str | None
    turn: int
    event_id: int
    words: str
    played_on: bool = False
    said: str = ""  # what was met, without the citation ("the attacker took Hill 60, in turn 2")


def _fail(where: str, msg: str, allowed: Sequence[Any] | None = None) -> RulesError:
    return RulesError(where, msg, list(allowed) if allowed is not None else None)


def conditions_from_json(
    value: Any, objectives: Collection[str], broken: Broken | None, where: str = "victory_conditions"
) -> list[Condition]:
    """The conditions of a scenario's list, each checked (a RulesError naming `<where>.<i>.<key>` and the
    allowed values) against its objectives' ids and its rule set's declaration of a side broken."""
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > MAX_CONDITIONS:
        raise _fail(where, "must be a list of victory conditions", [f"0..{MAX_CONDITIONS} conditions"])
    out = []
    kinds = [k.kind for k in CONDITION_KINDS]
    for i, c in enumerate(value):
        at = f"{where}.{i}"
        if not isinstance(c, dict):
            raise _fail(at, "must be an object with `kind`", list(CONDITION_KEYS))
        kind = c.get("kind")
        if kind not in kinds:
            raise _fail(f"{at}.kind", f"unknown value {str(kind)[:40]!r}", kinds)
        spec = next(k for k in CONDITION_KINDS if k.kind == kind)
        keys = ("kind", *(f[0] for f in spec.fields))
        for key in c:
            if key not in keys:
                raise _fail(f"{at}.{str(key)[:40]}", f"a {kind} condition does not take it", keys)
        out.append(_condition(c, at, i + 1, str(kind), objectives, broken))
    return out


def _condition(
    c: Mapping[str, object],
    at: str,
    number: int,
    kind: str,
    objectives: Collection[str],
    broken: Broken | None,
) -> Condition:
    if kind == "points":
        n = c.get("points")
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_THRESHOLD:
            raise _fail(f"{at}.points", "must be a whole number of victory points", [f"1..{MAX_THRESHOLD}"])
        return Condition(number, kind, points=n)
    side = c.get("side")
    if kind == "objective_taken":
        oid = c.get("objective")
        if oid not in objectives:
            raise _fail(f"{at}.objective", "names no objective of the scenario", sorted(objectives))
        if side not in SIDES:
            raise _fail(f"{at}.side", "must name the side whose taking it wins", SIDES)
        return Condition(number, kind, objective=str(oid), side=str(side))
    if side is not None and side not in SIDES:
        raise _fail(f"{at}.side", f"unknown value {str(side)[:40]!r}", [*SIDES, None])
    given = c.get("stands_lost")
    if given is None:
        if broken is None:
            raise _fail(
                f"{at}.stands_lost", "these rules declare no side broken: name the share lost", ["1..100"]
            )
        return Condition(number, kind, side=side, share=broken.share)
    if isinstance(given, bool) or not isinstance(given, int) or not 1 <= given <= 100:
        raise _fail(f"{at}.stands_lost", "must be a whole percentage of the side's stands", ["1..100"])
    return Condition(number, kind, side=side, share=given / 100, scenario_share=True)


def written(value: Any, names: dict[str, str]) -> str:
    """A checked document's conditions as a sheet prints them, one sentence each (`names`: the objectives' names
    by id): "Victory condition 1: the first side to reach 6 victory points wins."."""
    said = []
    for i, c in enumerate(value or []):
        kind, side = c.get("kind"), c.get("side")
        if kind == "points":
            what = f"the first side to reach {_vp(int(c.get('points') or 0))} wins"
        elif kind == "objective_taken":
            what = f"the {side} wins on taking {names.get(str(c.get('objective')), str(c.get('objective')))}"
        else:
            who = f"the {side}" if side else "a side"
            lost = c.get("stands_lost")
            what = (
                f"{who} broken, as the rules declare, loses"
                if lost is None
                else f"{who} losing {lost}% of its stands loses"
            )
        said.append(f"Victory condition {i + 1}: {what}.")
    return " ".join(said)


def _vp(n: int) -> str:
    return f"{n} victory point{'' if n == 1 else 's'}"


def met_words(
    c: Condition,
    winner: str | None,
    turn: int,
    names: dict[str, str],
    broken: Broken | None,
    turn_word: str = "turn",
) -> str:
    """What a condition met says: "the attacker reached 10 victory points first, in turn 3" (`names`: the
    objectives' names by id; `turn_word`: the book's, 2mm's "bound"); `Met.words` cites the scenario before it."""
    if c.kind == "points":
        said = (
            f"the {winner} reached {_vp(c.points)} first"
            if winner
            else f"both sides reached {_vp(c.points)} at once"
        )
    elif c.kind == "objective_taken":
        said = f"the {winner} took {names.get(c.objective, c.objective)}"
    else:
        loser = next(s for s in SIDES if s != winner)
        if c.scenario_share:
            said = f"the {loser} has lost {round(c.share * 100)}% of its stands: the {winner} wins"
        else:
            cited = f" ({broken.source})" if broken is not None and broken.source else ""
            said = f"the {loser} is broken{cited}: the {winner} wins"
    return f"{said}, in {turn_word} {turn}"


def check(
    conditions: Sequence[Condition],
    met: Sequence[Met],
    points: dict[str, int],
    holders: dict[str, str | None],
    lost: dict[str, tuple[int, int]],
    broken: Broken | None,
) -> list[tuple[Condition, str | None]]:
    """The conditions not yet met that the game now meets, each with its winner: `points` scored so far,
    each objective's `holders`, each side's stands (at the start, lost)."""
    done = {m.number for m in met}
    out: list[tuple[Condition, str | None]] = []
    for c in conditions:
        if c.number in done:
            continue
        if c.kind == "points":
            reached = [s for s in SIDES if points.get(s, 0) >= c.points]
            if reached:
                a, d = points.get("attacker", 0), points.get("defender", 0)
                winner = (
                    reached[0]
                    if len(reached) == 1
                    else None
                    if a == d
                    else "attacker"
                    if a > d
                    else "defender"
                )
                out.append((c, winner))
        elif c.kind == "objective_taken":
            if holders.get(c.objective) == c.side:
                out.append((c, c.side))
        elif c.kind == "side_broken":
            for side in (c.side,) if c.side else SIDES:
                whole, gone = lost.get(side, (0, 0))
                if whole and gone >= c.share * whole:
                    out.append((c, next(s for s in SIDES if s != side)))
                    break
    return out
