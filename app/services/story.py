"""The story of the game (issue 42), read from the log as a viewer reads it: per turn a few sentences (what each
side lost, the formations whose units came to carry a state the rule set tells, the rolls it tells in its own
words, what arrived) and the decisive moments first. The words are the rule set's (its turn and stand words,
its told fields' filter words or labels, `GameRules.roll_words`); this module only orders and lays them out."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from math import prod
from typing import Any, NotRequired, TypedDict

from app.data.changes import UnitCounted, UnitSet, changes_in
from app.data.schemas_report import MomentOut, StoryTurnOut
from app.services import clock, ledger
from rules.core.game import GameRules
from rules.core.records import UnitState, claims_of
from rules.core.score import Taken
from rules.core.vocabulary import SIDES

DECISIVE = 3  # the decisive moments the story opens with


@dataclass(frozen=True)
class Act:
    """What one standing event did to the units, as the story tells it."""

    event_id: int
    turn: int
    side: str  # the side that acted: its unit's, else the actor's
    actor: str  # the acting unit's name, or ""
    roll: str  # the roll in the rule set's words (`GameRules.roll_words`, decisive), else its resolver and outcome
    told: bool  # the rule set tells this roll in a turn's sentences (`GameRules.roll_words`)
    worded: bool  # the roll is in the rule set's words (said after its unit's name)
    killed: frozenset[int]
    marked: Mapping[str, frozenset[int]]  # a told field: the units that came to carry it (not those killed)
    arrived: tuple[int, ...]  # the units that came on the table (not those under one that did too)
    planned: str  # a fire plan's item that arrived, in words ("the attacker's planned bombardment"), or ""
    p: Fraction | None  # the chance of its result (its rolls' together); None: no roll with odds

    @property
    def effect(self) -> int:
        """The units the act changed in a way the story tells (lost, marked, arrived), each once."""
        return len(self.killed.union(*self.marked.values(), self.arrived))


def decisiveness(act: Act) -> Fraction:
    """How decisive an act was: its effect (the units it took, marked or brought on, each once) times how
    unlikely its result was (1 - p, p the exact chance of the result it rolled, all its rolls' together). An
    act without odds (a marker placed by hand, a roll logged before odds were kept) decided nothing by luck:
    0."""
    return act.effect * (1 - act.p) if act.p is not None else Fraction(0)


def _before(c: UnitSet | UnitCounted) -> Any:
    # A counter's change keeps its delta and what it came to; a value's its before and after.
    if isinstance(c, UnitCounted):
        return c.after - c.delta if isinstance(c.after, int) else None
    return c.before


def _changes(payload: Mapping[str, Any]) -> list[UnitSet | UnitCounted]:
    return [c for c in changes_in(payload) if isinstance(c, UnitSet | UnitCounted)]


def acts(
    events: Sequence[Mapping[str, Any]],
    units: Mapping[int, UnitState],
    names: Mapping[int, str],
    undone: set[int],
    rules: GameRules,
) -> list[Act]:
    """The standing events that did something the story tells, in the log's order. An act worked out without
    a die (2mm's hits allocated) is the roll's before it by the same unit at the same target: its effect is
    that roll's."""
    sides = {uid: u.side for uid, u in units.items()}
    odds: dict[int, list[Fraction | None]] = {}
    rolled_by: dict[int, str] = {}  # the side each roll is (a planned bombardment's: its planner's)
    for r in ledger.rolls(events, sides, names, undone):
        odds.setdefault(r.event_id, []).append(r.p)
        rolled_by[r.event_id] = r.side
    told_fields = rules.book.told_fields
    out: dict[int, Act] = {}
    last_roll: dict[tuple[Any, Any], int] = {}  # (unit, target) -> the event of its latest roll
    for ev in events:
        if ev["id"] in undone or ev.get("reverses_id"):
            continue
        payload: Mapping[str, Any] = ev.get("payload") or {}
        changes = _changes(payload)
        killed = frozenset(c.unit for c in changes if c.field == "killed" and c.after is True)
        marked = {
            f: frozenset(
                c.unit
                for c in changes
                if c.field == f and not _before(c) and c.after and c.unit not in killed
            )
            for f in told_fields
        }
        came = {c.unit for c in changes if c.field == "off_table" and c.after is False}
        arrived = tuple(u for u in sorted(came) if getattr(units.get(u), "parent_id", None) not in came)
        unit_id = payload.get("unit_id") if isinstance(payload.get("unit_id"), int) else None
        key = (unit_id, payload.get("target_id"))
        res: Mapping[str, Any] = payload.get("resolution") or {}
        if ev["kind"] in ledger.ROLL_KINDS and res.get("dice") == [] and key in last_roll:
            # Worked out without a die from an earlier roll: its effect is that roll's.
            first = out[last_roll[key]]
            out[first.event_id] = replace(
                first,
                killed=first.killed | killed,
                marked={f: first.marked[f] | marked[f] for f in told_fields},
                arrived=first.arrived + arrived,
            )
            continue
        item = payload.get("item") if ev["kind"] == "fire-plan-arrival" else None
        resolver = str(payload.get("resolver") or res.get("resolver") or "")
        target = payload.get("target_id")
        aimed = names.get(target, "") if isinstance(target, int) else ""
        told = rules.roll_words(resolver, res, aimed) if resolver else ""
        # The roll in the rules' words; an arrived item's fire by its effect in them; else (a rule set with
        # none) by its resolver and outcome.
        words = rules.roll_words(resolver, res, aimed, decisive=True) if resolver else ""
        if ev["kind"] == "arrival-fire":
            words, plain = "", str(payload.get("effect") or "arrived fire")
        else:
            plain = f"{resolver}: {res.get('outcome_key', '')}".replace("-", " ") if resolver else ""
        rolled = odds.get(int(ev["id"]), [])
        known = [p for p in rolled if p is not None]
        out[int(ev["id"])] = Act(
            event_id=int(ev["id"]),
            turn=int(ev["turn"]),
            side=rolled_by.get(int(ev["id"])) or sides.get(unit_id or -1) or str(ev.get("actor", "")),
            actor=names.get(unit_id, "") if unit_id is not None else "",
            # A value given over the table's (a range by the tape) is told as the claim it is.
            roll=(told or words or plain) + "".join(f" ({c})" for c in claims_of(payload.get("filled"))),
            told=bool(told),
            worded=bool(told or words),
            killed=killed,
            marked=marked,
            arrived=arrived,
            planned=(
                f"the {item.get('side')}'s planned {str(item.get('kind', 'fire')).replace('-', ' ')}"
                if isinstance(item, Mapping)
                else ""
            ),
            p=prod(known, start=Fraction(1)) if rolled and len(known) == len(rolled) else None,
        )
        if resolver:
            last_roll[key] = int(ev["id"])
    return list(out.values())


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _exact(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _whose(side: str, names: Sequence[str], called: str = "") -> str:
    """Names of one side's units after the side ("the defender's 1/1 Coy, 1/3 Coy"; where the book names the
    side, `called`, by its name: "the German RIR 262"), unless they say it."""
    joined = ", ".join(names)
    if all(n.lower().startswith((called or side).lower()) for n in names):
        return joined
    return f"the {called} {joined}" if called else f"the {side}'s {joined}"


class Story(TypedDict):
    """The story of the game (the report's StoryOut); `ending` set by the report once the result is read."""

    decisive: list[MomentOut]
    turns: list[StoryTurnOut]
    ending: NotRequired[str | None]


class Teller:
    """The story's sentences for one game, in its rule set's words."""

    def __init__(self, units: Mapping[int, UnitState], names: Mapping[int, str], rules: GameRules) -> None:
        self.units, self.names = units, names
        self.stand_word = rules.book.stand_word
        self.side_names = rules.book.side_names  # what the book calls each side, where it names them
        labels = {f.name: (f.filter or f.label) for f in rules.book.state_fields}
        self.field_words = {f: labels.get(f, f) for f in rules.book.told_fields}

    def side(self, unit_id: int) -> str:
        unit = self.units.get(unit_id)
        return unit.side if unit is not None else ""

    def whose(self, side: str, names: Sequence[str]) -> str:
        return _whose(side, names, self.side_names.get(side, ""))

    def formations(self, unit_ids: Iterable[int]) -> list[tuple[str, int]]:
        """The units by the formation they stand in (a unit without one by itself), with how many of each, in
        the order of their names."""
        counts: dict[str, int] = {}
        for uid in unit_ids:
            unit = self.units.get(uid)
            at = unit.parent_id if unit is not None and unit.parent_id is not None else uid
            name = self.names.get(at, f"unit {at}")
            counts[name] = counts.get(name, 0) + 1
        return sorted(counts.items())

    def by_side(self, word: str, unit_ids: Iterable[int]) -> str:
        """'Suppressed: the defender's 1/1 Coy (4 stands), 1/3 Coy (1 stand); the attacker's 1/1 Bn (1 stand).'"""
        ids = set(unit_ids)
        groups = []
        for side in SIDES:
            mine = self.formations(u for u in ids if self.side(u) == side)
            if mine:
                groups.append(self.whose(side, [f"{f} ({_plural(n, self.stand_word)})" for f, n in mine]))
        return f"{word}: {'; '.join(groups)}." if groups else ""

    def marked(self, acts: Sequence[Act], lost: set[int]) -> list[str]:
        """For each told field, the formations whose units came to carry it (those lost left out)."""
        return [
            said
            for field, word in self.field_words.items()
            if (said := self.by_side(word, {u for a in acts for u in a.marked[field]} - lost))
        ]

    def arrived(self, acts: Sequence[Act]) -> list[str]:
        came = [a.planned for a in acts if a.planned]
        came += [self.whose(self.side(u), [self.names.get(u, f"unit {u}")]) for a in acts for u in a.arrived]
        return [f"Arrived: {', '.join(came)}."] if came else []

    def roll(self, act: Act) -> str:
        """'The defender's 1 Bn tested its morale: retreat 20cm.', "The attacker's 1/1 Bn MMG 1 shot at 1/1 Coy
        Plt 2: killed." (a roll in the rule set's words), else "The attacker's Plt 1's shooting: killed."."""
        who = (
            self.whose(act.side, [act.actor])
            if act.actor
            else f"the {self.side_names.get(act.side, act.side)}"
        )
        said = f"{who} {act.roll}" if act.worded else f"{who}'s {act.roll}"
        return f"{_capital(said)}."

    def moment(self, act: Act, told: set[str]) -> MomentOut | None:
        """A decisive moment: the act in words, then what it did, leaving out what an earlier moment said
        (`told`, added to); None when it would only repeat them."""
        lost = self.by_side("Lost", act.killed)
        said = [self.roll(act), *([lost] if lost else []), *self.marked([act], set(act.killed))]
        said = [s for s in dict.fromkeys([*said, *self.arrived([act])]) if s not in told]
        if not said:
            return None
        told.update(said)
        assert act.p is not None  # a decisive moment has its odds
        return {
            "event_id": act.event_id,
            "turn": act.turn,
            "words": " ".join(said),
            "odds": ledger.odds_words(act.p),
            "effect": act.effect,
            "probability": _exact(act.p),
            "decisiveness": _exact(decisiveness(act)),
        }

    def turn(self, here: Sequence[Act]) -> list[str]:
        """A turn's sentences: what each side lost (always, first), each told field's formations, the rolls
        the rule set tells, what arrived."""
        killed = {u for a in here for u in a.killed}
        lost = []
        for side in SIDES:
            mine = [u for u in killed if self.side(u) == side]
            if mine:
                by = ", ".join(f"{f} {n}" for f, n in self.formations(mine))
                lost.append(f"the {side} lost {_plural(len(mine), self.stand_word)} ({by})")
        first = _capital(f"{'; '.join(lost)}." if lost else f"no {self.stand_word} was lost.")
        told = [self.roll(a) for a in here if a.told]
        return [first, *self.marked(here, killed), *_once(told), *self.arrived(here)]


def _once(sentences: Sequence[str]) -> list[str]:
    """Each sentence once, in order: one said again is said once with how many times ("... (3 times).")."""
    counts: dict[str, int] = {}
    for s in sentences:
        counts[s] = counts.get(s, 0) + 1
    return [s if n == 1 else f"{s[:-1]} ({'twice' if n == 2 else f'{n} times'})." for s, n in counts.items()]


def taken_words(t: Taken) -> str:
    """An objective changing hands, as the story tells it: "The attacker took Nimy bridge.", "Nimy bridge was
    left to nobody.", "The referee's call on Nimy bridge lapsed: the stands left it to nobody."."""
    if t.how == "called":
        return ""  # the call itself is told ("The referee called ... for ...")
    whose = f"the {t.side}" if t.side else "nobody"
    said = f"The {t.side} took {t.name}." if t.side else f"{t.name} was held by nobody."
    if t.how == "lapsed":
        said = f"The referee's call on {t.name} lapsed as the stands moved: they gave it to {whose}."
    return said


def story(
    events: Sequence[Mapping[str, Any]],
    units: Mapping[int, UnitState],
    names: Mapping[int, str],
    undone: set[int],
    rules: GameRules,
    taken: Sequence[Taken] = (),
) -> Story:
    """The decisive moments (the most decisive acts, `decisiveness`, earliest first among equals) and each
    turn's sentences, with who took which objective (`taken`: the score's changes of hands, in order)."""
    told = acts(events, units, names, undone, rules)
    teller = Teller(units, names, rules)
    ranked = sorted((a for a in told if decisiveness(a) > 0), key=lambda a: (-decisiveness(a), a.event_id))
    turns = sorted({int(ev["turn"]) for ev in events} - {0})
    said: set[str] = set()
    moments: list[MomentOut] = []
    for act in ranked:
        if len(moments) == DECISIVE:
            break
        if (moment := teller.moment(act, said)) is not None:
            moments.append(moment)
    # The objectives by turn, in the log's order: the referee's calls (issue 55) and each change of hands.
    held: dict[int, list[tuple[int, str]]] = {}
    for ev in events:
        p = ev.get("payload") or {}
        if ev["kind"] == "objective-called" and ev["id"] not in undone:
            side = p.get("side")
            holder = "nobody" if side is None else f"the {side}"
            call = f"The referee called {p.get('name')} for {holder}."
            held.setdefault(int(ev["turn"]), []).append((int(ev["id"]), call))
        elif (
            ev["kind"] == "victory-played-on"
        ):  # a victory condition met, and the referee played on (issue 69)
            chosen = f"{p.get('words', 'A victory condition was met.')} The referee chose to play on."
            held.setdefault(int(ev["turn"]), []).append((int(ev["id"]), chosen))
    for t in taken:
        if hands := taken_words(t):
            held.setdefault(t.turn, []).append((t.event_id, hands))
    calls = {turn: [w for _, w in sorted(told_here, key=lambda x: x[0])] for turn, told_here in held.items()}
    # The referee's acts on the game clock, told after what happened on the table (app.services.clock).
    timed = [
        (int(ev["turn"]), words)
        for ev in events
        if (words := clock.told(ev["kind"], ev.get("payload") or {}))
    ]
    return {
        "decisive": moments,
        "turns": [
            {
                "turn": t,
                "sentences": [
                    *teller.turn([a for a in told if a.turn == t]),
                    *_once(calls.get(t, [])),
                    *(s for at, s in timed if at == t),
                ],
            }
            for t in turns
        ],
    }
