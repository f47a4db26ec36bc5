"""Playing a rule set as a game: what a rule set implements (`GameRules`) so the service can play it.

The service freezes the game's table into a `Snapshot` once per request (the units with their markers and
state, the board's barrages, clouds and wind), asks the rule set what a resolver's request may be filled with
(`Filled`, each with why and the rule it comes from) and what follows from a result (typed `Change`
records, each with the rule it comes from), and writes those changes to its rows. The rules never see a
database: everything they read is in the snapshot, everything they decide is in the records (plain data, in
the leaf module rules.core.records).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeVar

from rules.core.acts import (
    Act,
    ApplyArrival,
    ArriveItem,
    CallObjective,
    EditUnit,
    EndGame,
    LayTemplate,
    MoveFormation,
    MoveStand,
    MoveTemplate,
    PlaceMarker,
    PlanFire,
    PlayCard,
    RecoverMarker,
    RehearsePlan,
    Roll,
    TakeBackDraw,
)
from rules.core.dice import roll
from rules.core.errors import NotFoundError, Refusal, RulesError
from rules.core.fire_cards import CardApplied, FireCard, Fired, card_dice
from rules.core.forces import ForceChart
from rules.core.kit import TableKit
from rules.core.records import (
    Answer,
    Arrival,
    Change,
    PlanItem,
    SetState,
    Snapshot,
    StandEdit,
    StateField,
)
from rules.core.rolls import Outcome, Rolls, work_out
from rules.core.ruleset import REGISTERED, Context, RuleSet
from rules.core.scenario import ForceNode, NewForces, forces_from_document
from rules.core.score import Victory
from rules.core.turn import Notice, Step
from rules.table.frame import laid, shifted_about_centre
from rules.table.objectives import objectives_from_geojson
from rules.table.terrain import Feature, terrain_from_geojson


# -- the force tree -----------------------------------------------------------------------------------------
class Node(Protocol):
    """A node of a force tree (a division .. a stand): rows of the service and snapshot units alike."""

    @property
    def id(self) -> int | None: ...
    @property
    def parent_id(self) -> int | None: ...
    @property
    def level(self) -> str: ...


class Member(Node, Protocol):
    """A unit of a force tree with what every rule set may read of it (UnitState's own fields)."""

    @property
    def kind(self) -> str: ...
    @property
    def quality(self) -> str | None: ...
    @property
    def is_command(self) -> bool: ...
    @property
    def killed(self) -> bool: ...


class Held(Member, Protocol):
    """A member with its rule set's state fields by name (a board row, a snapshot's unit)."""

    @property
    def state(self) -> Mapping[str, Any]: ...


N = TypeVar("N", bound=Node)

# The act of recording what happened to a stand: a unit edit no rule names as an act of its own.
EDIT_ACT = "record-state"


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


def on_table(snapshot: Snapshot, x: float, y: float) -> None:
    """Refuse a point off the table (a RulesError naming the coordinate): stands and templates stay on it."""
    if x > snapshot.table_width_cm:
        w = snapshot.table_width_cm
        raise RulesError("x", f"keep it on the table, {w:g} cm wide", [f"0..{w:g}"])
    if y > snapshot.table_length_cm:
        n = snapshot.table_length_cm
        raise RulesError("y", f"keep it on the table, {n:g} cm long", [f"0..{n:g}"])


# -- the turn ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Position:
    """Where a game's turn stands: the game turn, the side whose turn it is (in a bound, the side that leads
    it) and the index of the current step."""

    turn: int
    side: str
    step: int = 0


class TurnModel:
    """A rule set's turn (the hook's `turn`): which step the game is in (`steps`), who may act now (`acting`)
    and with what (`allowed_now`, `refusal`), what comes next (`first`, `next`), what a step still needs, and
    what happens by itself as a side's turn starts and ends.

    By default the sides alternate, each turn the same steps: the attacker's turn, then the defender's, then
    the next game turn (Flanders Fields' turn with its period's order sequence is one such). A bound in which
    both sides act (`BoundTurn`) and a turn track of phases fit the same model."""

    sides: tuple[str, ...] = ("attacker", "defender")  # in the order they take their turns
    turn_word: str = "turn"  # what the rules call a turn, as the game record and the luck ledger say it
    # The rule that orders the turn, what set-up needs besides the locked fire plans (with its rule), the rule
    # that ends a side's turn, and the acts whose refusal depends on whose orders reach the stand.
    source: str = ""
    set_up_needs: tuple[str, ...] = ()
    set_up_source: str = ""
    end_source: str = ""
    ordered_acts: frozenset[str] = frozenset()

    def steps(self, period: str | None) -> tuple[Step, ...]:
        """The steps of a side's turn in `period`, in order (none: each advance ends the side's turn)."""
        return ()

    def first(self) -> Position:
        """Where the game stands as it starts."""
        return Position(1, self.sides[0])

    def next(self, period: str | None, now: Position) -> Position:
        """The step after `now`; past the last, the next side's turn, and after the last side's the next game
        turn."""
        if now.step + 1 < len(self.steps(period)):
            return replace(now, step=now.step + 1)
        i = self.sides.index(now.side) if now.side in self.sides else len(self.sides) - 1
        if i + 1 < len(self.sides):
            return Position(now.turn, self.sides[i + 1])
        return Position(now.turn + 1, self.sides[0])

    def acting(self, period: str | None, now: Position) -> tuple[str, ...]:
        """The sides that may act now: the current step's own (`Step.sides`), else the side whose turn it is."""
        steps = self.steps(period)
        step = steps[now.step] if now.step < len(steps) else None
        return step.sides if step is not None and step.sides else (now.side,)

    def allowed_now(self, status: str, period: str | None, now: Position) -> list[str]:
        """What the players may do to the table now, in words (one line each)."""
        return []

    def refusal(
        self,
        status: str,
        period: str | None,
        now: Position,
        action: str,
        side: str | None,
        unit: Member | None,
        units: Sequence[Member],
    ) -> str | None:
        """None when the game's status and the current step allow `action` on `side`'s stands (on `unit`, with
        `units` given only for the `ordered_acts`), else a sentence naming the rule and what is allowed now.
        By default an ordered act is the acting sides' alone while the game is played."""
        if status != "playing" or action not in self.ordered_acts or side is None:
            return None
        acting = self.acting(period, now)
        if side in acting:
            return None
        steps = self.steps(period)
        step = f"in {steps[now.step].title} " if now.step < len(steps) else ""
        doing = action.replace("-", " ")
        return Refusal(
            f"Wait for your step: only the {' and '.join(acting)} may {doing} now",
            f"{step}only the {' and '.join(acting)} may {doing} ({self.source or 'the turn'})",
            self.source or None,
        )

    def roll_refusal(
        self, status: str, snapshot: Snapshot, now: Position, roll: Roll, side: str
    ) -> str | None:
        """None when the game's status and the current step let `side` (the side the roll is for: its unit's,
        else the roller's) roll `roll` now, else a sentence naming the step and what to do (a Refusal: the rule in
        full as `why`, its printed line as `source`). By default a roll is the acting sides' while the game is
        played."""
        acting = self.acting(snapshot.period, now)
        if status != "playing" or side in acting:
            return None
        steps = self.steps(snapshot.period)
        step = f"in {steps[now.step].title} " if now.step < len(steps) else ""
        return Refusal(
            f"Wait for your step: only the {' and '.join(acting)} may roll now.",
            f"{step}only the {' and '.join(acting)} may roll ({self.source or 'the turn'})",
            self.source or None,
        )

    def forbidden(self, snapshot: Snapshot, act: Act) -> tuple[Refusal, ...]:
        """What the rules of play forbid of `act` now beyond the step and the side: what it costs and cannot
        pay, the actor's state, its target. Each a Refusal (one sentence <= 120 characters saying what to do,
        the rule in full as `why`, the printed line as `source`). Default: nothing."""
        return ()

    def needs(self, snapshot: Snapshot, step_id: str) -> list[str]:
        """What the current step still needs done besides its own words (rolls due, tests due)."""
        return []

    def started(self, snapshot: Snapshot) -> tuple[tuple[Notice, ...], tuple[Change, ...]]:
        """What happens by itself as the side to move's turn starts: each notice logged as its own event, then
        the changes written (not logged)."""
        return (), ()

    def ended(self, snapshot: Snapshot, side: str) -> tuple[Change, ...]:
        """What happens to a side's units as its turn ends."""
        return ()


class BoundTurn(TurnModel):
    """A bound: one turn for both sides, its steps in a fixed order, each step's `sides` acting in it (2mm
    Earth 1418: both sides plan, then execute in order); after the last step the next bound."""

    turn_word = "bound"

    def next(self, period: str | None, now: Position) -> Position:
        if now.step + 1 < len(self.steps(period)):
            return replace(now, step=now.step + 1)
        return Position(now.turn + 1, now.side)


# -- the hook -----------------------------------------------------------------------------------------------


class Fields:
    """The state a rule set's units and sides carry: its state fields (the storage, the API, the board, the map
    and undo read them from here), the markers placed by hand, the side state, what a unit edit is, and what of
    a secret the other side may read."""

    # The state a unit carries under these rules, in the order a stand card shows it.
    state_fields: tuple[StateField, ...] = ()

    # The counter that markers placed and removed by hand move (`marker_added`, `marker_removed`), if any.
    marker_field: str | None = None

    # Each side's own state as a game starts (a once-a-game allowance).
    side_state: Mapping[str, Any] = {}

    # The side state that holds a side's hand of cards, the side's alone to read ("": the game deals none).
    hand_key: str = ""

    # Fields of a unit edit that are acts of their own under the rules of play (field -> act); any other
    # field records what happened to the stand, the act EDIT_ACT.
    edit_acts: Mapping[str, str] = {}

    def edit_act(self, field: str) -> str:
        """The act of the rules of play a unit edit of `field` is."""
        return self.edit_acts.get(field, EDIT_ACT)

    def is_secret(self, unit: Held, field: StateField) -> bool:
        """Whether a unit's state `field` is now its side's alone: each change of it kept in that side's part
        of the log, and the other side reading only what `state_shown` shows. By default the field's own
        `secret` flag; a rule set may keep a field of some units secret for a while (2mm Earth 1418: a
        battery's plan, made "Anon", until it fires or moves)."""
        return field.secret

    def state_shown(self, board: Mapping[str, Any], unit_id: int, name: str, value: Any) -> bool:
        """Whether the other side may read `value` of a unit's secret state field now (the rules have put it
        on the table: `board` is the game's); by default never, until the game is over."""
        return False

    def marker_added(
        self, snapshot: Snapshot, unit_id: int, cause: str | None, count: int
    ) -> tuple[Change, ...]:
        """Markers placed on a unit by hand (`cause`: what placed them, where the rules care), and what
        follows."""
        return ()

    def marker_removed(self, snapshot: Snapshot, unit_id: int, spend_action: bool) -> tuple[Change, ...]:
        """A marker taken off a unit by hand, with what it costs when `spend_action`."""
        return ()

    def stand_edits(self, snapshot: Snapshot, unit_id: int) -> tuple[StandEdit, ...]:
        """The unit edits a stand's card offers now (a command, a plan): the app keeps those the step allows."""
        return ()

    def field(self, name: str) -> StateField | None:
        return next((f for f in self.state_fields if f.name == name), None)


@dataclass(frozen=True)
class FirePlanTerms:
    """What a rule set's fire plan declares as data, in one record: how a side's plan is kept
    (`sealed_each_turn`: False, Flanders Fields, one plan for the game, written in set-up and locked once; True a
    plan per turn (a bound) holding that turn's items only, written while the turn allows `plan-fire`, sealed by
    the side or as the turn leaves the last step allowing it, each turn's commitment kept, revealed item by item
    as each lands); the state field where a unit firing the plan carries its aiming point, printed on its
    aiming-point card (None: no aiming points, no aiming-point cards); whether a side's plan is rehearsed (the
    fire plan page shows what it will likely do only then); and the turn step at whose start an item of each
    kind lands (a kind not named: as its turn starts); and the words of a planned item as its side chose it, by
    kind: the field of the item that says it and its words for each value (2mm's cordon by its cloud: "Short
    term gas cordon"; a kind not named: its kind says it)."""

    sealed_each_turn: bool = False
    aiming_field: str | None = None
    rehearsed: bool = False
    arrival_steps: Mapping[str, str] = field(default_factory=dict)
    item_words: Mapping[str, tuple[str, Mapping[str, str]]] = field(default_factory=dict)

    def words(self, kind: str, data: Mapping[str, Any]) -> str:
        """A planned item as its side chose it, in the rules' words; "" where its kind says it."""
        by = self.item_words.get(kind)
        return by[1].get(str(data.get(by[0])), "") if by is not None else ""


class FirePlan:
    """A rule set's fire plan: which units fire it and the cards of arrived fire: what the app reads; and the parts of the acts only the hook's own play calls (`GameRules.play`), overridden where the
    book changes them: which items a side may plan, what an item does as it reaches the table (its dice, its
    arrival), a card of arrived fire applied, and a plan's rehearsal."""

    terms: FirePlanTerms = FirePlanTerms()

    def fires_plan(self, unit: Node) -> bool:
        """Whether a unit fires the fire plan's items (carries an aiming point, has an aiming card); by default
        none does."""
        return False

    def arrival_cards(self, snapshot: Snapshot, names: Mapping[int, str]) -> tuple[FireCard, ...]:
        """The arrived items that fire now, one card each (`names`: how the cards name the stands); none by
        default."""
        return ()

    # -- the acts' parts, called by the hook's own play ------------------------------------------------------
    def _plan_item_allowed(self, kind: str, period: str | None, side: str, nation: str) -> None:
        """Refuse (RulesError on `item.kind`) a fire-plan item the side may not plan; by default any is."""

    def _arrival_dice(self, snapshot: Snapshot, item: PlanItem, names: Mapping[int, str]) -> tuple[int, ...]:
        """The sides of the dice a fire-plan item rolls as it reaches the table (a deviation), given to
        `_arrival` (`names`: the names the plan may call the stands by, as the cards'); none by default."""
        return ()

    def _arrival(self, snapshot: Snapshot, item: PlanItem, dice: Sequence[int] = ()) -> Arrival:
        """What a fire-plan item does as it reaches the table, with the dice `_arrival_dice` asked for (by
        default nothing but its reveal)."""
        return Arrival()

    def _arrival_fired(
        self,
        snapshot: Snapshot,
        card: FireCard,
        dice: Mapping[str, Sequence[int]],
        measured: Mapping[str, str],
        names: Mapping[int, str],
    ) -> Fired:
        """A card applied with every die it asks for (by each roll's key), stands too close to call taken as
        `measured`; a RulesError naming the field for a die or a stand it does not have."""
        raise RulesError("item", "arrived fire is not applied in these games", [])

    def _rehearse(
        self,
        snapshot: Snapshot,
        side: str,
        items: Sequence[Mapping[str, Any]],
        names: Mapping[int, str],
        options: Mapping[str, Any],
        turns: int | None,
        seed: int,
        samples: int,
    ) -> dict[str, Any]:
        """`side`'s own fire plan (`items`) rehearsed against the other side's stands as they stand now, by
        the snapshot's readings (`names`: how the answer names the stands; `options`: the request's own
        choices), as the answer's body; a RulesError for a plan it cannot rehearse. By default none."""
        raise RulesError("game", "fire-plan rehearsal is not part of these games", [])


class TableRules:
    """A rule set's table: its terrain, a wire belt's and a barrage's danger zone's depths, and what the board
    does to the units."""

    # The table: a wire line drawn without `depth_cm` is a standard belt this deep (None: each line says), and
    # the band behind a rolling barrage that endangers its own side's stands (None: the map draws none).
    wire_belt_cm: float | None = None

    danger_zone_cm: float | None = None

    def terrain(
        self, collection: Mapping[str, Any], where: str = "terrain", period: str | None = None
    ) -> list[Feature]:
        """The table's terrain from a GeoJSON FeatureCollection, refused with a RulesError naming the bad
        feature's field (with a `period`, also a feature the period's rules have no place for)."""
        features = terrain_from_geojson(collection, where, wire_belt_cm=self.wire_belt_cm)
        self.terrain_refused(features, period, f"{where}.features")
        return features

    def terrain_refused(self, features: Sequence[Feature], period: str | None, where: str) -> None:
        """Refuse, with a RulesError naming `<where>.<index>` and the rule, terrain the period's rules have no
        place for; none by default."""

    def board_changed(self, snapshot: Snapshot) -> tuple[Change, ...]:
        """What follows for the units from the board as it now reads (a cloud arrived on the table)."""
        return ()


class Report:
    """A rule set's account of a game: what the referee board says of each unit in words, a formation's losses
    and the men lost bases stand for (the after-action report)."""

    # Whether a formation tests its morale as its losses reach half and three quarters (the board says when),
    # what its losses count (`losses`) and what a stand is, in the rules' words.
    tests_losses: bool = True
    losses_counted: str = "bases"
    stand_word: str = "stand"
    # The state fields the story of the game tells as a unit comes to carry them (by name; the story says each
    # in its field's filter words, else its label): none by default, its losses and arrivals are told anyway.
    told_fields: tuple[str, ...] = ()

    def roll_told(self, resolver: str, resolution: Mapping[str, Any], target: str) -> str:
        """What a roll did in the rules' words, for the story of the game, after its unit's name ("tested its
        morale: retreat 20cm"; `target`: the name of the unit it targeted, or ""); "" for a roll the story
        tells only by what it did to the units (the default)."""
        return ""

    def roll_words(self, resolver: str, resolution: Mapping[str, Any], target: str) -> str:
        """Any roll in the rules' words, after its unit's name, for a decisive moment of the story ("shot at
        1/1 Coy Plt 2: suppressed", "fought 1. Kompanie in melee: 2 hits"): by default what `roll_told` says;
        "" leaves the story to name the roll by its resolver and outcome."""
        return self.roll_told(resolver, resolution, target)

    def board_notes(
        self, unit: Held, parent: Held | None, children: Sequence[Held], variants: Mapping[str, str]
    ) -> tuple[tuple[str, str], ...]:
        """What the referee board shows of a unit in words, as (label, words) pairs ("" label: the words
        alone), read from it, its parent and its children under the game's readings (`variants`); none by
        default (its badges and markers say it all)."""
        return ()

    def losses(self, formation: Member, units: Sequence[Member]) -> tuple[int, int]:
        """A formation's strength as its morale counts it: (at the start, lost); none by default."""
        return 0, 0

    def casualties(self, period: str | None, variants: Mapping[str, str], bases: int) -> dict[str, Any]:
        """The men `bases` lost stand for, with the rules that say so (`sources`); by default just the bases."""
        return {"bases": bases}


class Setup:
    """A rule set's new games, from a scenario document or organisation-table entries: the nations, troop
    qualities and special rules a scenario may name, a unit's level, kind and gun (empty: any text), the
    scenarios it ships, its cap on units and its forces' builders."""

    # -- new games: from a scenario document or organisation-table entries -----------------------------------
    # The nations, troop qualities and special rules a scenario may name, and a unit's level, kind and gun
    # (empty: any text).
    nations: tuple[str, ...] = ()

    qualities: tuple[str, ...] = ()

    special_rules: tuple[str, ...] = ()

    unit_levels: tuple[str, ...] = ()

    unit_kinds: tuple[str, ...] = ()

    guns: tuple[str, ...] = ()

    # A rule set whose forces are built from its chart of troops (rules.core.forces), not organisation tables.
    force_chart: ForceChart | None = None

    def shipped_scenarios(self) -> Mapping[str, Mapping[str, Any]]:
        """The scenario documents the rule set ships (docs/scenario-format.md), by id."""
        return {}

    def unit_cap(self) -> tuple[int, str] | None:
        """The most units (formations and stands) a game may hold, with the rule that sets it; None: only the
        scenario format's own cap."""
        return None

    def new_forces(self, ctx: Context, document: Mapping[str, Any]) -> NewForces:
        """A checked scenario document's forces by the game's readings (`ctx`): by default its units as
        written; a rule set with organisation tables builds their entries (`force_from_table`) and deploys
        them."""
        made, _ = forces_from_document(document, ctx, None)
        return made

    def forces_setup(self, entries: Sequence[Mapping[str, Any]]) -> tuple[str | None, dict[str, str]]:
        """For organisation-table entries ({side, table_id}) given without a period or nations: the period and
        each side's nation they imply (None and none by default)."""
        return None, {}

    def force_from_table(
        self,
        period: str | None,
        variants: Mapping[str, str],
        nation: str,
        entry: Mapping[str, Any],
        field: str,
        id_prefix: str,
    ) -> ForceNode:
        """A force built from an organisation-table entry ({table_id, template?, quality?, name?}) for a side of
        `nation`, its unit ids under `id_prefix`; a RulesError names `<field>.table_id` and the like."""
        at = f"{field}." if field else ""
        raise RulesError(f"{at}table_id", "these games build no organisation tables", [])


@dataclass(frozen=True)
class GameRules:
    """What a rule set implements to be played as a game (registered with `rules.registry.register_game`): a
    few objects the rule set owns, each with a do-nothing default, so a new rule set starts with its state
    fields and its rolls and adds the rest as its rules need them; `play` answers any act."""

    ruleset_id: str = ""
    fields: Fields = field(default_factory=Fields)
    turn: TurnModel = field(default_factory=TurnModel)
    rolls: Rolls = field(default_factory=Rolls)
    fire_plan: FirePlan = field(default_factory=FirePlan)
    tabletop: TableRules = field(default_factory=TableRules)
    report: Report = field(default_factory=Report)
    setup: Setup = field(default_factory=Setup)
    # What a game keeps on the table besides the stands, as the app stores, answers and draws it.
    kit: TableKit = field(default_factory=TableKit)
    # How a game is won: the book's printed victory conditions, else the scenario's objectives (rules.core.score).
    victory: Victory = field(default_factory=Victory)

    def play(self, snapshot: Snapshot, act: Act) -> Answer:
        """What `act` does to the table (rules.core.acts), or a RulesError refusing it with its rule: a stand
        stays on the table, a formation moves as one and a template lies on it; a unit edit sets what it says; a
        roll is worked out (rules.core.rolls), arrived fire fired, an item landed; markers, cards and the fire
        plan's items are the rule set's own. Acts the app writes as the player says (a unit added, a template
        taken off) change nothing more."""
        if isinstance(act, MoveStand):
            on_table(snapshot, act.x, act.y)
            unit = snapshot.unit(act.unit_id)
            place = {"x": act.x, "y": act.y, "facing_deg": act.facing_deg, "off_table": False}
            return Answer(
                tuple(SetState("", "", unit.id, k, v) for k, v in place.items() if unit.value(k) != v)
            )
        if isinstance(act, MoveFormation):
            return Answer(formation_moved(snapshot, act))
        if isinstance(act, LayTemplate | MoveTemplate):
            return Answer(shown=template_laid(self.kit, snapshot, act))
        if isinstance(act, EditUnit):
            return Answer(tuple(SetState("", "", act.unit_id, k, v) for k, v in act.values.items()))
        if isinstance(act, PlaceMarker):
            return Answer(self.fields.marker_added(snapshot, act.unit_id, act.cause, act.count))
        if isinstance(act, RecoverMarker):
            return Answer(self.fields.marker_removed(snapshot, act.unit_id, act.spend_action))
        if isinstance(act, Roll):
            return work_out(self.rolls, _ruleset(self.ruleset_id), snapshot, act)
        if isinstance(act, PlayCard):
            played = self.rolls._hand_played(snapshot, act.side, act.card)
            return Answer(played.changes, played.shown, played.source)
        if isinstance(act, TakeBackDraw):
            return Answer(self.rolls._draw_taken_back(act.resolver, snapshot, act.payload))
        if isinstance(act, ApplyArrival):
            return card_applied(self.fire_plan, snapshot, act)
        if isinstance(act, ArriveItem):
            return landed(self, snapshot, act)
        if isinstance(act, PlanFire):
            self.fire_plan._plan_item_allowed(act.kind, snapshot.period, act.side, act.nation)
            return Answer()
        if isinstance(act, CallObjective):
            return Answer(shown=objective_called(snapshot, act))
        if isinstance(act, EndGame):
            return Answer(shown={"reason": act.reason})
        if isinstance(act, RehearsePlan):
            body = self.fire_plan._rehearse(
                snapshot, act.side, act.items, act.names, act.options, act.turns, act.seed, act.samples
            )
            return Answer(shown=body)
        return Answer()


def _ruleset(ruleset_id: str) -> RuleSet:
    """The registered rule set whose resolvers a game's rolls are worked out with."""
    found = REGISTERED.get(ruleset_id)
    if found is None:
        raise RulesError("ruleset", "register the game's rule set to roll its dice", [])
    return found


def formation_moved(snapshot: Snapshot, act: MoveFormation) -> tuple[Change, ...]:
    """A formation moved as one: every placed, living stand on the table under the unit shifted and turned about
    their centre (rules.table.frame), each kept on the table; a stand placed without a facing faces up the table
    (90, a new stand's), and turns with the rest. The places that change, each to the hundredth."""
    top = snapshot.unit(act.unit_id, "unit_id")
    stands = [
        u
        for u in leaves_under(top, snapshot.units)
        if u.x is not None and u.y is not None and not u.killed and not u.off_table
    ]
    if not stands:
        raise RulesError("unit_id", f"{top.name} has no stand on the table to move")
    to = shifted_about_centre(
        [(float(u.x or 0), float(u.y or 0)) for u in stands], act.dx, act.dy, act.turn_deg
    )
    out: list[Change] = []
    for u, (x, y) in zip(stands, to, strict=True):
        if not (0 <= x <= snapshot.table_width_cm and 0 <= y <= snapshot.table_length_cm):
            raise RulesError(
                "dx", f"that would put {u.name} off the table: move the formation less far", ["on the table"]
            )
        facing = 90.0 if u.facing_deg is None else float(u.facing_deg)
        place = {"x": round(x, 2), "y": round(y, 2), "facing_deg": round((facing + act.turn_deg) % 360, 2)}
        out += [SetState("", "", u.id, k, v) for k, v in place.items() if u.value(k) != v]
    return tuple(out)


def objective_called(snapshot: Snapshot, act: CallObjective) -> dict[str, Any]:
    """The referee's call on one of the game's objectives (its board's `table_objectives`): the objective and
    the side called to hold it (None: nobody); a RulesError naming the field otherwise."""
    kept = snapshot.board.get("table_objectives") or {"type": "FeatureCollection", "features": []}
    found = objectives_from_geojson(kept, snapshot.table_width_cm, snapshot.table_length_cm)
    ids = [o.id for o in found]
    if act.objective_id not in ids:
        raise RulesError("objective_id", "no such objective in this game: pick one of its objectives", ids)
    if act.side not in (*TurnModel.sides, None):
        raise RulesError("side", "call the objective for a side, or for nobody", [*TurnModel.sides, None])
    name = next(o.name for o in found if o.id == act.objective_id)
    return {"objective_id": act.objective_id, "name": name, "side": act.side}


def template_laid(kit: TableKit, snapshot: Snapshot, act: LayTemplate | MoveTemplate) -> dict[str, Any]:
    """Where a template laid or moved lies (its kind, x, y and rotation; a move keeps what it does not name),
    kept on the table: one spanning the table lies across its middle (rules.table.frame.laid)."""
    if isinstance(act, LayTemplate):
        kind, x, y, rotation = act.kind, act.x, act.y, act.rotation
    else:
        before = next((t for t in snapshot.board.get("templates", ()) if t["id"] == act.template_id), None)
        if before is None:
            raise NotFoundError("template", str(act.template_id))
        kind = str(before["kind"])
        x = float(before["x"]) if act.x is None else act.x
        y = float(before["y"]) if act.y is None else act.y
        rotation = float(before["rotation"]) if act.rotation is None else act.rotation
    on_table(snapshot, x, y)
    spec = kit.templates.get(kind)
    x, y, rotation = laid(x, y, rotation, snapshot.table_width_cm, spec is not None and spec.across_table)
    return {"kind": kind, "x": x, "y": y, "rotation": rotation}


def card_applied(fire_plan: FirePlan, snapshot: Snapshot, act: ApplyArrival) -> CardApplied:
    """An arrived item's card applied: the card of the item firing now (none: a 404 for all), its dice given or
    rolled (its shots laid where its side lays them), then fired by the rule set."""
    card = next((c for c in fire_plan.arrival_cards(snapshot, act.names) if c.item_id == act.item_id), None)
    if card is None:  # unarrived, not firing now or not the game's: one answer for all
        raise NotFoundError("arrived fire this turn", str(act.item_id))
    rolled, given = card_dice(card, act.dice, act.shots)
    fired = fire_plan._arrival_fired(snapshot, card, rolled, act.measured, act.names)
    return CardApplied(fired.changes, card=card, fired=fired, given=given)


@dataclass(frozen=True, kw_only=True)
class Landed(Answer):
    """The answer to a fire-plan item reaching the table (`ArriveItem`): what it does (`arrival`: the board
    keys it sets, an event, a roll), its dice, and the roll the server made for it (`resolution`; the answer's
    changes are what that roll does)."""

    arrival: Arrival
    dice: tuple[int, ...] = ()
    resolution: Mapping[str, Any] | None = None


def landed(game: GameRules, snapshot: Snapshot, act: ArriveItem) -> Landed:
    """An item reaching the table: its dice given or rolled (a deviation, the wind), its arrival by the rule
    set, and a roll it makes (`Arrival.roll`) resolved and carried out on the board it leaves."""
    fire_plan = game.fire_plan
    sides = fire_plan._arrival_dice(snapshot, act.item, act.names)
    dice = tuple(act.dice) if act.dice is not None else roll(sides, random.SystemRandom())
    arrival = fire_plan._arrival(snapshot, act.item, dice)
    if not arrival.roll:
        return Landed(arrival=arrival, dice=dice)
    rs = _ruleset(game.ruleset_id)
    body: dict[str, Any] = {"period": snapshot.period, "variants": dict(snapshot.variants)}
    if act.roll_dice is not None:
        body["dice"] = list(act.roll_dice)
    req = rs.resolvers[arrival.roll].Request.model_validate(body)
    res = rs.resolve(arrival.roll, req).as_dict()
    after = replace(snapshot, board={**snapshot.board, **arrival.board})
    changes = game.rolls._consequences(arrival.roll, after, Outcome(req, res))
    return Landed(changes, arrival=arrival, dice=dice, resolution=res)
