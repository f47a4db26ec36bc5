"""Playing a rule set as a game: what a rule set implements (`GameRules`) so the service can play it.

The service freezes the game's table into a `Snapshot` once per request (the units with their markers and
state, the board's barrages, clouds and wind), asks the rule set what a resolver's request may be filled with
(`Filled`, each with why and the rule it comes from) and what follows from a result (typed `Change`
records, each with the rule it comes from), and writes those changes to its rows. The rules never see a
database: everything they read is in the snapshot, everything they decide is in the records.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Protocol, TypeVar

from rules.core.errors import RulesError
from rules.core.ruleset import ResolveRequest


# -- the force tree -----------------------------------------------------------------------------------------
class Node(Protocol):
    """A node of a force tree (a division .. a stand): rows of the service and snapshot units alike."""

    @property
    def id(self) -> int | None: ...
    @property
    def parent_id(self) -> int | None: ...
    @property
    def level(self) -> str: ...


N = TypeVar("N", bound=Node)


def ancestors(unit: N, by_id: Mapping[int | None, N]) -> list[N]:
    """The units above `unit`, nearest first."""
    out = []
    cur = by_id.get(unit.parent_id)
    while cur is not None:
        out.append(cur)
        cur = by_id.get(cur.parent_id)
    return out


def ancestor_at(unit: N, level: str, by_id: Mapping[int | None, N]) -> N | None:
    """The unit itself or the nearest one above it at `level`."""
    for a in [unit, *ancestors(unit, by_id)]:
        if a.level == level:
            return a
    return None


def leaves_under(root: N, units: Sequence[N]) -> list[N]:
    """The stands of a unit (the unit itself when it is a stand), in id order."""
    children: dict[int | None, list[N]] = {}
    for u in units:
        children.setdefault(u.parent_id, []).append(u)
    out: list[N] = []
    stack = [root]
    while stack:
        u = stack.pop()
        kids = children.get(u.id, [])
        if kids:
            stack.extend(kids)
        else:
            out.append(u)
    return sorted(out, key=lambda u: u.id or 0)


# -- the snapshot -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class UnitState:
    """A unit as the rules read it: its place in the force tree, its stand on the table, its markers."""

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
    suppression: int = 0
    killed: bool = False
    stuck_on_wire: bool = False
    raw_under_fire: bool = False
    field_promotion: bool = False
    in_gas: bool = False
    crew_abandoned: bool = False
    actions_left: int = 0
    morale_stage: int = 0
    morale_due: bool = False


@dataclass(frozen=True)
class Snapshot:
    """A game's table at one moment. The board's barrages, clouds and wind are kept as the game stores them
    (JSON objects): the rules read and rewrite them whole."""

    ruleset: str
    period: str | None
    units: tuple[UnitState, ...]
    table_width_cm: float
    table_length_cm: float
    variants: Mapping[str, str] = field(default_factory=dict)
    nations: Mapping[str, str] = field(default_factory=dict)  # side -> nation, where the game names one
    turn: int = 0
    side_to_move: str = "attacker"
    deep_suppression: int = 0
    terrain: Mapping[str, Any] = field(default_factory=dict)
    barrages: tuple[Mapping[str, Any], ...] = ()
    clouds: tuple[Mapping[str, Any], ...] = ()
    wind: Mapping[str, Any] | None = None

    @cached_property
    def by_id(self) -> Mapping[int | None, UnitState]:
        return {u.id: u for u in self.units}

    def unit(self, unit_id: int, field_name: str = "unit_id") -> UnitState:
        try:
            return self.by_id[unit_id]
        except KeyError:
            raise RulesError(field_name, f"the game has no unit {unit_id}") from None

    def after(self, changes: Sequence[Change]) -> Snapshot:
        """The snapshot once `changes` are made: later rules of the same request read it."""
        units = dict(self.by_id)
        for c in changes:
            if isinstance(c, UnitChange) and c.unit_id in units:
                units[c.unit_id] = c.applied_to(units[c.unit_id])
        return replace(self, units=tuple(units[u.id] for u in self.units))


# -- filling a request --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class FillRequest:
    """What is being resolved: the request's field names, the units named, and the fields already given
    (the game fills only the others)."""

    fields: frozenset[str]
    unit_id: int | None = None
    target_id: int | None = None
    given: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Filled:
    """One request field the game's state knows: its value, why, and the rule that lets the game say so."""

    field: str
    value: Any
    why: str
    source: str = ""

    def as_dict(self) -> dict[str, Any]:
        """The form the game's log keeps (the citation is the rule set's, not the log's)."""
        return {"field": self.field, "value": self.value, "why": self.why}


@dataclass(frozen=True)
class Outcome:
    """A resolution to carry out: the validated request, the answer as JSON, and the units it was for."""

    request: ResolveRequest
    resolution: Mapping[str, Any]
    unit_id: int | None = None
    target_id: int | None = None


# -- what follows from a result: the change records ---------------------------------------------------------
@dataclass(frozen=True)
class Change:
    """One consequence, with why and the rule it comes from."""

    reason: str
    source: str


@dataclass(frozen=True)
class UnitChange(Change, ABC):
    """A change to one unit: each kind says how the unit's state reads after it (Snapshot.after)."""

    unit_id: int

    @abstractmethod
    def applied_to(self, u: UnitState) -> UnitState: ...


@dataclass(frozen=True)
class SuppressionAdded(UnitChange):
    """`count` suppression markers placed on a stand by `fire` (None when the fire type is not known)."""

    count: int
    fire: str | None = None

    def applied_to(self, u: UnitState) -> UnitState:
        return replace(u, suppression=u.suppression + self.count)


@dataclass(frozen=True)
class SuppressionRecovered(UnitChange):
    """One marker removed by an action."""

    def applied_to(self, u: UnitState) -> UnitState:
        return replace(u, suppression=u.suppression - 1)


@dataclass(frozen=True)
class SuppressionCleared(UnitChange):
    """Every marker removed at once (a stand that recovers on its own)."""

    def applied_to(self, u: UnitState) -> UnitState:
        return replace(u, suppression=0)


@dataclass(frozen=True)
class BecameSuppressed(UnitChange):
    """A stand without markers becomes suppressed (one marker), one already suppressed stays as it is."""

    def applied_to(self, u: UnitState) -> UnitState:
        return replace(u, suppression=max(u.suppression, 1))


@dataclass(frozen=True)
class ActionSpent(UnitChange):
    def applied_to(self, u: UnitState) -> UnitState:
        return replace(u, actions_left=u.actions_left - 1)


@dataclass(frozen=True)
class ActionsGranted(UnitChange):
    """An order roll's actions (0 on a failure)."""

    actions: int

    def applied_to(self, u: UnitState) -> UnitState:
        return replace(u, actions_left=self.actions)


@dataclass(frozen=True)
class ActionsLapsed(UnitChange):
    def applied_to(self, u: UnitState) -> UnitState:
        return replace(u, actions_left=0)


@dataclass(frozen=True)
class UnitKilled(UnitChange):
    def applied_to(self, u: UnitState) -> UnitState:
        return replace(u, killed=True)


@dataclass(frozen=True)
class MoraleDue(UnitChange):
    """A unit must test its morale."""

    def applied_to(self, u: UnitState) -> UnitState:
        return replace(u, morale_due=True)


@dataclass(frozen=True)
class MoraleTaken(UnitChange):
    """A unit has tested its morale; `stage` is the test it has now taken (None: no test was due)."""

    stage: int | None = None

    def applied_to(self, u: UnitState) -> UnitState:
        stage = u.morale_stage if self.stage is None else self.stage
        return replace(u, morale_due=False, morale_stage=stage)


@dataclass(frozen=True)
class CrewAbandoned(UnitChange):
    def applied_to(self, u: UnitState) -> UnitState:
        return replace(u, crew_abandoned=True)


@dataclass(frozen=True)
class CameUnderFire(UnitChange):
    """Raw troops have now been fired on."""

    def applied_to(self, u: UnitState) -> UnitState:
        return replace(u, raw_under_fire=True)


@dataclass(frozen=True)
class GasMarked(UnitChange):
    """A stand is now (or no longer) in a gas cloud."""

    in_gas: bool

    def applied_to(self, u: UnitState) -> UnitState:
        return replace(u, in_gas=self.in_gas)


@dataclass(frozen=True)
class DeepSuppressionSet(Change):
    penalty: int


@dataclass(frozen=True)
class CloudsBlown(Change):
    """The wind of turn `turn` has blown every cloud: `kept` are still on the table, `gone` dispersed."""

    wind: Mapping[str, Any]
    turn: int
    kept: tuple[Mapping[str, Any], ...]
    gone: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True)
class BarragesRolled(Change):
    """A stand has had its roll under the barrages: the board's barrages as they now read."""

    unit_id: int
    barrages: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True)
class CardsDrawn(Change):
    """Random event cards drawn: the drawer's hand, the opponent's hand and the pack left."""

    hand: tuple[str, ...]
    opponent_hand: tuple[str, ...]
    deck: tuple[str, ...]


# -- the hook -----------------------------------------------------------------------------------------------
class GameRules(Protocol):
    """What a rule set implements to be played as a game (registered with `rules.registry.register_game`)."""

    ruleset_id: str

    def fill(self, resolver_id: str, snapshot: Snapshot, request: FillRequest) -> tuple[Filled, ...]:
        """The fields of a resolver's request the game's state knows (never one in `request.given`)."""
        ...

    def consequences(self, resolver_id: str, snapshot: Snapshot, outcome: Outcome) -> tuple[Change, ...]:
        """What a resolution does to the table, in the order it happens."""
        ...

    def suppression_added(
        self, snapshot: Snapshot, unit_id: int, fire: str | None, count: int
    ) -> tuple[Change, ...]:
        """Markers placed on a stand by hand (and what follows: spread, kills, morale)."""
        ...

    def suppression_recovered(
        self, snapshot: Snapshot, unit_id: int, spend_action: bool
    ) -> tuple[Change, ...]:
        """A marker removed, with the action it costs when `spend_action`."""
        ...

    def end_of_turn(self, snapshot: Snapshot, side: str) -> tuple[Change, ...]:
        """What happens to a side's units as its turn ends."""
        ...

    def gas_marked(self, snapshot: Snapshot, clouds: Sequence[Mapping[str, Any]]) -> tuple[Change, ...]:
        """Which stands the clouds on the table now cover."""
        ...
