"""The records the game hook (rules.core.game) speaks in, plain data only: the table frozen into a `Snapshot`
(its units as `UnitState`, each rule set's state by its `StateField`s), what a resolver's request is filled
with (`Filled`), what follows from a result (the generic `Change` records, each with why and the rule it comes
from), a card played, a fire-plan item reaching the table and a stand card's rolls. A leaf: it imports nothing
of the rules but their errors, so every layer above may speak it."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, NotRequired, TypedDict, cast

from rules.core.errors import RulesError


# -- the snapshot -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class StateField:
    """One piece of a rule set's state on a unit (a marker count, a flag, a value): the hook declares them
    (`GameRules.book.state_fields`), and the storage, the API, the board, the map and undo read them from there."""

    name: str
    label: str
    default: Any = False  # its type says the kind: a bool is a flag, an int a count, anything else a value
    counter: bool = False  # taken and added atomically (two devices adding at once make two), never below 0
    secret: bool = False  # the owning side's alone until the rules show it (GameRules.secret)
    shown: bool = True  # on the unit's card on the map (a flag while set, a count while above 0)
    maximum: int | None = None  # the most a player may set by hand
    badge: str = ""  # a flag's words on the unit's tile on the board while it is set ("WIRE")
    filter: str = ""  # the words of the referee board's filter for the units with it set ("On wire")
    # Set by hand in a unit edit (PUT /units/{id}): "flag" (true or false), "point" (x, y cm on the table,
    # a little off it allowed), "word" (a text the rules check), "unit" (a unit id), "number" (a whole number
    # from 0 to its maximum: a counter's printed strength); "" only by the rules.
    edit: str = ""
    # Its words in the game record and a roll's result: as it is set and as it is cleared ("must test morale",
    # "has tested its morale"); a count's, its thing for one and for more ("action", "actions").
    words: tuple[str, str] | tuple[()] = ()
    # A count used up by the rules: its word for what is taken off, said with what is left ("spent": "1
    # action spent, 1 left" in the game record); "" for a count the record says as +n/-n.
    spent: str = ""
    on_head: bool = False  # shown on its formation's heading row of the board as well (with its losses)
    on_turn: bool = False  # the turn's steps read it (a change to it may change what the turn panel asks)

    @property
    def kind(self) -> str:
        if isinstance(self.default, bool):
            return "flag"
        return "count" if isinstance(self.default, int) else "value"


@dataclass(frozen=True)
class UnitState:
    """A unit as the rules read it: its place in the force tree, its stand on the table, whether it is out of
    play, and its rule set's state (`state`, by the names of the rule set's `StateField`s; each also reads as
    an attribute, `unit.suppression`)."""

    id: int
    parent_id: int | None
    side: str
    level: str
    kind: str = ""
    name: str = ""
    quality: str | None = None
    base: str | None = None
    is_command: bool = False
    off_table: bool = False
    x: float | None = None
    y: float | None = None
    facing_deg: float | None = None
    killed: bool = False
    state: Mapping[str, Any] = field(default_factory=dict)

    def __getattr__(self, name: str) -> Any:
        # Called only for names that are not the dataclass's own: a rule set's state field.
        state = self.__dict__.get("state")
        if state is not None and name in state:
            return state[name]
        raise AttributeError(name)

    def value(self, name: str) -> Any:
        """A field by name, the unit's own or its rule set's."""
        return getattr(self, name)

    def with_value(self, name: str, value: Any) -> UnitState:
        if name in _UNIT_FIELDS:
            return replace(self, **{name: value})
        return replace(self, state={**self.state, name: value})


_UNIT_FIELDS = frozenset(f for f in UnitState.__dataclass_fields__ if f != "state")


class Units(tuple[UnitState, ...]):
    """A table's units in their order, with their index by id, each one's place and each one's children worked out
    with them and handed on as a few change: a worker keeps a game's units from act to act (app.services.
    kept_units), and each snapshot made of them, or of them changed, reads its units by id and a formation's
    stands without a walk of all of them (issue 88: at 1,400 stands the dictionaries built again for every act's
    snapshots cost more than the rules' own logic)."""

    by_id: Mapping[int, UnitState]
    places: Mapping[int, int]
    _children: Mapping[int | None, tuple[UnitState, ...]] | None

    def __new__(
        cls,
        units: Iterable[UnitState] = (),
        by_id: Mapping[int, UnitState] | None = None,
        places: Mapping[int, int] | None = None,
        children: Mapping[int | None, tuple[UnitState, ...]] | None = None,
    ) -> Units:
        made = super().__new__(cls, units)
        made.by_id = {u.id: u for u in made} if by_id is None else by_id
        made.places = {u.id: i for i, u in enumerate(made)} if places is None else places
        made._children = children  # worked out when first asked (few acts ask)
        return made

    @property
    def children(self) -> Mapping[int | None, tuple[UnitState, ...]]:
        """Each unit's children, in the order of the units."""
        if self._children is None:
            self._children = _grouped(self)
        return self._children

    def changed(self, fresh: Mapping[int, UnitState]) -> Units:
        """These units with `fresh` (units of theirs, by id) in their places; the children worked out carried
        over, their parents' changed in, while each stays under its parent."""
        if not fresh:
            return self
        into = list(self)
        for uid, u in fresh.items():
            into[self.places[uid]] = u
        now = {**self.by_id, **fresh}
        children = None
        if self._children is not None and all(
            self.by_id[uid].parent_id == u.parent_id for uid, u in fresh.items()
        ):
            children = _Regrouped.of(self._children, now, {u.parent_id for u in fresh.values()})
        return Units(into, now, self.places, children)


class _Regrouped(Mapping[int | None, tuple[UnitState, ...]]):
    """Each unit's children after changes that left every unit under its parent: the grouping of the units
    before them (`before`), a parent whose children changed since (`stale`) grouped again of the units now
    (`now`) when first asked, and kept (`made`) through later changes that leave its children as they are.
    Regrouped at each change, a parent of hundreds of stands was most of a shot's CPU on the largest table (a
    shot changes the table six times, each regrouping what no rule read)."""

    def __init__(
        self,
        before: Mapping[int | None, tuple[UnitState, ...]],
        now: Mapping[int, UnitState],
        stale: frozenset[int | None],
        made: dict[int | None, tuple[UnitState, ...]],
    ) -> None:
        self._before, self._now, self._stale, self._made = before, now, stale, made

    @classmethod
    def of(
        cls,
        before: Mapping[int | None, tuple[UnitState, ...]],
        now: Mapping[int, UnitState],
        changed: set[int | None],
    ) -> _Regrouped:
        """`before` once the children of the parents `changed` have changed: made over the grouping `before` was
        itself made over, where it is one (a worker's kept units change act after act: no lookup goes through
        every grouping made since), with what it grouped again of the parents not changed now."""
        if not isinstance(before, _Regrouped):
            return cls(before, now, frozenset(changed), {})
        # Copied at once (a dict's copy is one step under the GIL), then filtered: a worker's threads fill in
        # `before._made` as they read the kept units, and a walk over it while one does fails.
        made = dict(before._made)
        for parent in changed:
            made.pop(parent, None)
        return cls(before._before, now, before._stale | changed, made)

    def __getitem__(self, parent: int | None) -> tuple[UnitState, ...]:
        made = self._made.get(parent)
        if made is None:
            made = self._before[parent]
            if parent in self._stale:
                made = tuple(self._now[u.id] for u in made)
                self._made[parent] = made
        return made

    def __iter__(self) -> Iterator[int | None]:
        return iter(self._before)

    def __len__(self) -> int:
        return len(self._before)


def by_id(units: Sequence[Any]) -> Mapping[int | None, Any]:
    """`units` by id: the index they carry (`Units`), else worked out. Keyed `int | None` for the asking: a unit's
    `parent_id` of None finds none."""
    return (
        cast("Mapping[int | None, Any]", units.by_id)
        if isinstance(units, Units)
        else {u.id: u for u in units}
    )


def children_of(units: Sequence[Any]) -> Mapping[int | None, tuple[Any, ...]]:
    """Each of `units`' children, in their order: the children they carry (`Units`), else worked out."""
    return units.children if isinstance(units, Units) else _grouped(units)


def _grouped(units: Sequence[Any]) -> dict[int | None, tuple[Any, ...]]:
    out: dict[int | None, list[Any]] = {}
    for u in units:
        out.setdefault(u.parent_id, []).append(u)
    return {k: tuple(v) for k, v in out.items()}


@dataclass(frozen=True)
class Snapshot:
    """A game's table at one moment: its units, and the board (what is on the table besides the stands, and
    the game-wide values, as the game stores them: JSON objects the rules read and rewrite whole); `sides`
    holds each side's own state (a hand of cards), which the rules read and the app keeps to its side."""

    ruleset: str
    period: str | None
    units: tuple[UnitState, ...]
    table_width_cm: float
    table_length_cm: float
    variants: Mapping[str, str] = field(default_factory=dict)
    nations: Mapping[str, str] = field(default_factory=dict)  # side -> nation, where the game names one
    turn: int = 0
    side_to_move: str = "attacker"
    step: int = 0  # the index of the current step of the turn (GameRules.steps)
    terrain: Mapping[str, Any] = field(default_factory=dict)
    board: Mapping[str, Any] = field(default_factory=dict)
    sides: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @cached_property
    def by_id(self) -> Mapping[int | None, UnitState]:
        return by_id(self.units)

    @cached_property
    def places(self) -> Mapping[int | None, int]:
        """Each unit's place in `units`."""
        if isinstance(self.units, Units):
            return cast("Mapping[int | None, int]", self.units.places)
        return {u.id: i for i, u in enumerate(self.units)}

    @cached_property
    def children(self) -> Mapping[int | None, tuple[UnitState, ...]]:
        """Each unit's children, in the order of `units` (a formation's, read once, not by a walk of every
        unit per formation)."""
        return children_of(self.units)

    def unit(self, unit_id: int, field_name: str = "unit_id") -> UnitState:
        try:
            return self.by_id[unit_id]
        except KeyError:
            raise RulesError(field_name, "the game has no such unit: pick one of its units") from None

    @cached_property
    def measures(self) -> dict[Hashable, object]:
        """What a rule set works out of this table, once per snapshot: a roll's refusal and its fill measure the
        same shot (2mm Earth 1418's `Measured`). A snapshot changed is another one and has its own."""
        return {}

    def after(self, changes: Sequence[Change]) -> Snapshot:
        """The snapshot once `changes` are made: later rules of the same request read it (itself when none
        are: its measures and its sides, read lazily by the app, are not worked out again)."""
        if not changes:
            return self
        # The units carried over keep their places and their index, the changed ones put in (1,400 of them in
        # the largest game, for a marker on one); a plain sequence's (a card's, a lookup's) indexed once, here.
        placed = self.units if isinstance(self.units, Units) else Units(self.units)
        # The units changed, as they read after; the board and the sides copied only where a change sets them
        # (the app reads a game's sides lazily, only if asked).
        units: dict[int, UnitState] = {}
        board: dict[str, Any] | None = None
        sides: dict[str, dict[str, Any]] | None = None
        for c in changes:
            if isinstance(c, UnitChange) and c.unit_id in placed.by_id:
                units[c.unit_id] = c.applied_to(units.get(c.unit_id) or placed.by_id[c.unit_id])
            elif isinstance(c, SetBoard):
                board = dict(self.board) if board is None else board
                board[c.key] = c.value
            elif isinstance(c, SetSideState):
                sides = {s: dict(v) for s, v in self.sides.items()} if sides is None else sides
                sides.setdefault(c.side, {})[c.key] = c.value
        return replace(
            self,
            units=placed.changed(units),
            board=self.board if board is None else board,
            sides=self.sides if sides is None else sides,
        )


# -- filling a request --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class FillRequest:
    """What is being resolved: the request's field names, the units named, and the fields already given
    (the game fills only the others)."""

    fields: frozenset[str]
    unit_id: int | None = None
    target_id: int | None = None
    given: Mapping[str, Any] = field(default_factory=dict)


class FilledDict(TypedDict):
    """A filled field as the game's log keeps it: the field, its value and why; a value given over the
    table's is marked `given`, with the table's beside it."""

    field: str
    value: Any  # the request field's own value (a number, a word, a list of unit ids ...)
    why: str
    given: NotRequired[bool]
    table: NotRequired[Any]  # the table's value of that field


@dataclass(frozen=True)
class Filled:
    """One request field the game's state knows: its value, why, and the rule that lets the game say so. A
    value given in the request over the table's own (`given`: a player's measurement by the tape, or the
    referee's override of a value the table keeps) keeps the table's beside it (`table`), so everyone reads
    the claim as a claim."""

    field: str
    value: Any
    why: str
    source: str = ""
    given: bool = False
    table: Any = None

    def as_dict(self) -> FilledDict:
        """The form the game's log keeps (the citation is the rule set's, not the log's)."""
        out: FilledDict = {"field": self.field, "value": self.value, "why": self.why}
        return {**out, "given": True, "table": self.table} if self.given else out


def claims_of(filled: Any) -> list[str]:
    """The claims among a logged roll's filled fields (`Filled.as_dict`, as the log keeps them), in words:
    each value given over the table's ("by the tape: 5 cm; the map measures 199 cm")."""
    if not isinstance(filled, list):
        return []
    return [str(f.get("why")) for f in filled if isinstance(f, Mapping) and f.get("given") is True]


@dataclass(frozen=True)
class Claims:
    """Which fields of a rule set's resolver requests the table keeps, which a player may measure and which
    the players judge by eye, one declaration per rule set (`Book.roll_terms.claims`). A kept field (a count or state
    the app holds: hits waiting, bases, injuries, resilience) given with a value other than the one the table
    fills is refused naming it, unless the referee overrides (recorded in the log); a measured one (a range,
    a distance the book measures on the table with the tape) given over the map's is taken, and marked as
    given (`Filled.given`) in the answer, the log and the opponent's view; a seen one (cover, a line of sight:
    what the players judge on the table by eye) given other than the map reads it is taken and marked the
    same way. A kept field the table fills only where it applies (a flag for the units it concerns) reads
    `otherwise` where it does not, so a claim of it is weighed all the same. A field in none is the player's
    to give, as before."""

    kept: frozenset[str] = frozenset()
    measured: Mapping[str, str] = field(default_factory=dict)  # field -> the unit it is measured in ("cm")
    seen: frozenset[str] = frozenset()
    otherwise: Mapping[str, Any] = field(default_factory=dict)  # kept field -> the table's value unfilled
    # The rule set's erratum of who judges what is seen: its reading's value True, the players; False, the
    # map, whose readings the table then keeps (`judged_by`).
    judged: str = ""
    # Every field declared (worked out: the kept, the measured and the seen).
    declared: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "declared", self.kept | frozenset(self.measured) | self.seen)


def judged_by(claims: Claims, players: bool) -> Claims:
    """The claims where the players judge what is seen, or where the map's readings are kept."""
    return claims if players else replace(claims, kept=claims.kept | claims.seen, seen=frozenset())


# -- what follows from a result: the change records ---------------------------------------------------------
# A few generic kinds, each with why and the rule it comes from; a rule set names its own (Flanders Fields'
# "suppression added" is an AddToState of its "suppression" field) and the app writes them all one way.
@dataclass(frozen=True)
class Change:
    """One consequence, with why and the rule it comes from."""

    reason: str
    source: str


@dataclass(frozen=True)
class UnitChange(Change, ABC):
    """A change to one unit: each kind says how the unit reads after it (Snapshot.after)."""

    unit_id: int

    @abstractmethod
    def applied_to(self, u: UnitState) -> UnitState: ...


@dataclass(frozen=True)
class SetState(UnitChange):
    """A unit's field set to `value` (a flag, a value, a count set outright)."""

    field: str
    value: Any

    def applied_to(self, u: UnitState) -> UnitState:
        return u.with_value(self.field, self.value)


@dataclass(frozen=True)
class AddToState(UnitChange):
    """A counter moved by `delta`, atomically; a take that finds nothing left is refused with `gone` (another
    device took the last one first)."""

    field: str
    delta: int
    gone: str = ""

    def applied_to(self, u: UnitState) -> UnitState:
        return u.with_value(self.field, u.value(self.field) + self.delta)


@dataclass(frozen=True)
class SetBoard(Change):
    """A board key set to `value` (a list of barrages, the clouds, the wind, a game-wide penalty)."""

    key: str
    value: Any


@dataclass(frozen=True)
class SetSideState(Change):
    """A side's own state set (its hand of cards): the side's alone to read."""

    side: str
    key: str
    value: Any


@dataclass(frozen=True)
class Answer:
    """The rule set's answer to an act (rules.core.acts, `GameRules.play`): what it changes, in order, and what
    everyone is shown of it besides the changes, by the rule `source`. A refusal is a RulesError naming the
    field and the rule. An act with more to say answers a subclass (a roll: rules.core.rolls.Rolled)."""

    changes: tuple[Change, ...] = ()
    shown: Mapping[str, Any] = field(default_factory=dict)
    source: str = ""


@dataclass(frozen=True)
class Played:
    """A card played from a side's hand: what everyone is shown of it, what it changes, and the rule."""

    shown: Mapping[str, Any]
    changes: tuple[Change, ...]
    source: str


# -- fire plans: an item reaching the table ----------------------------------------------------------------
@dataclass(frozen=True)
class PlanItem:
    """A fire-plan item as it reaches the table: the id its players know it by, its side and kind, the turn it
    is due and its data as the side wrote it."""

    id: int
    side: str
    kind: str
    arrival_turn: int
    data: Mapping[str, Any]


@dataclass(frozen=True)
class Arrival:
    """What a fire-plan item does as it reaches the table: the board keys it sets (written with the event of
    its arrival), then an event in `step` (`event`, showing `shown` and what the board then does to the
    units, by the rule `source`), or a resolver the server rolls for it (`roll`, logged in `step` with its
    consequences)."""

    board: Mapping[str, Any] = field(default_factory=dict)
    event: str = ""
    shown: Mapping[str, Any] = field(default_factory=dict)
    source: str = ""
    roll: str = ""
    step: str = ""


class StandActDict(TypedDict):
    """A stand card's roll as JSON (StandAct's fields)."""

    label: str
    resolver: str
    unit_id: int
    why: str
    target: bool
    dice: int
    pool: bool
    order: str
    joined: str
    on_enemy: bool
    options: list[str]


class EditChoiceDict(TypedDict):
    value: bool | int | str  # the value the edit sets: the state field's own kind (a flag, a count, a word)
    label: str
    target: str
    needs_target: bool


class StandEditDict(TypedDict):
    """A stand card's unit edit as JSON (StandEdit's fields, its choices each an EditChoiceDict)."""

    label: str
    field: str
    unit_id: int
    why: str
    choices: list[EditChoiceDict]


@dataclass(frozen=True)
class StandAct:
    """A roll a stand's card offers now: the button's words, the resolver, the unit that rolls (a platoon
    takes its company's order roll), why that unit, whether it needs an enemy stand picked as its target, and
    how many dice it rolls."""

    label: str
    resolver: str
    unit_id: int
    why: str = ""
    target: bool = False
    dice: int = 1
    pool: bool = False  # its dice are one pool of the roller's (not an attacker's die and a defender's)
    # The request's field of unit ids the player fills by tapping the target's stands in turn (the order hits
    # fall in, the shooter's choice); "" when the roll takes none.
    order: str = ""
    # The request's field of unit ids the player fills by tapping more of the roller's own side's units that
    # join the roll (a combat's other attackers): it lists every unit making the roll, the roller first; ""
    # when none may join.
    joined: str = ""
    # Offered on the card of the other side's unit, rolled by the viewer's side with that unit as its target
    # (its `unit_id` then the target's): a bombardment of it.
    on_enemy: bool = False
    # The request's fields the player chooses on the card before the die (how many markers, gas): each a
    # yes or no or a whole number in a short range, as the resolver's request declares it.
    options: tuple[str, ...] = ()

    def as_dict(self) -> StandActDict:
        return {
            "label": self.label,
            "resolver": self.resolver,
            "unit_id": self.unit_id,
            "why": self.why,
            "target": self.target,
            "dice": self.dice,
            "pool": self.pool,
            "order": self.order,
            "joined": self.joined,
            "on_enemy": self.on_enemy,
            "options": list(self.options),
        }


@dataclass(frozen=True)
class EditChoice:
    """One value a stand card's edit may set: the value, its words on the button, and the unit field a stand
    tapped on the map fills with it (`target`: its sub-unit's id), needed or left to the player."""

    value: bool | int | str  # a flag, a count, a word: a card's edit sets no place, list or object
    label: str
    target: str = ""
    needs_target: bool = False

    def as_dict(self) -> EditChoiceDict:
        return {
            "value": self.value,
            "label": self.label,
            "target": self.target,
            "needs_target": self.needs_target,
        }


@dataclass(frozen=True)
class StandEdit:
    """A unit edit a stand's card offers now (PUT /units/{id}): the button's words, the state field it sets on
    which unit (the stand's own, its sub-unit's or its formation's), why, and the values the rules allow."""

    label: str
    field: str
    unit_id: int
    why: str
    choices: tuple[EditChoice, ...]

    def as_dict(self) -> StandEditDict:
        return {
            "label": self.label,
            "field": self.field,
            "unit_id": self.unit_id,
            "why": self.why,
            "choices": [c.as_dict() for c in self.choices],
        }


@dataclass(frozen=True)
class TargetMark:
    """A stand a card's act may not take as its target now, as the map marks it while the target is picked:
    the reason in a few words (`mark`: "out of range"), the one-sentence refusal `/resolve` would answer, the
    rule in full and its printed line."""

    unit_id: int
    mark: str
    refused: str
    why: str
    source: str | None
