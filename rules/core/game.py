"""Playing a rule set as a game: what a rule set implements (`GameRules`) so the service can play it.

The service freezes the game's table into a `Snapshot` once per request (the units with their markers and
state, the board's barrages, clouds and wind), asks the rule set what a resolver's request may be filled with
(`Filled`, each with why and the rule it comes from) and what follows from a result (typed `Change`
records, each with the rule it comes from), and writes those changes to its rows. The rules never see a
database: everything they read is in the snapshot, everything they decide is in the records (plain data, in
the leaf module rules.core.records).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeVar

from rules.core.acts import Act, EditUnit, MoveStand, PlaceMarker, PlayCard, RecoverMarker, Roll
from rules.core.errors import Refusal, RulesError
from rules.core.fire_cards import FireCard, Fired
from rules.core.forces import ForceChart
from rules.core.kit import TableKit
from rules.core.records import (
    Arrival,
    Change,
    Claims,
    Filled,
    FillRequest,
    PlanItem,
    Played,
    SetState,
    Snapshot,
    StandAct,
    StandEdit,
    StateField,
    TargetMark,
)
from rules.core.ruleset import Context, ResolveRequest
from rules.core.scenario import ForceNode, NewForces, forces_from_document
from rules.core.turn import Notice, Step
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


@dataclass(frozen=True)
class Outcome:
    """A resolution to carry out: the validated request, the answer as JSON, and the units it was for."""

    request: ResolveRequest
    resolution: Mapping[str, Any]
    unit_id: int | None = None
    target_id: int | None = None


@dataclass(frozen=True)
class Answer:
    """The rule set's answer to an act (rules.core.acts): what it changes, in order, and what everyone is shown
    of it besides the changes, by the rule `source`. A refusal is a RulesError naming the field and the rule."""

    changes: tuple[Change, ...] = ()
    shown: Mapping[str, Any] = field(default_factory=dict)
    source: str = ""


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


class Rolls:
    """A rule set's rolls in a game: what a resolver's request is filled with from the table, what asking
    costs, what a result does, the rolls a stand's card offers, and the cards drawn from a pack only the game
    sees and played from a hand."""

    # Resolvers the side to move draws from a pack only the game sees (resolver -> what is drawn, as "draw
    # ..." reads): the pack and the hands are the game's (`drawn`), each side reads its own view (`draw_seen`).
    secret_draws: Mapping[str, str] = {}
    # Which request fields the table keeps (a player's differing value refused) and which a player may measure
    # with the tape (taken, marked as given): the rule set's one declaration; none by default.
    claims: Claims = Claims()

    def fill(self, resolver_id: str, snapshot: Snapshot, request: FillRequest) -> tuple[Filled, ...]:
        """The fields of a resolver's request the game's state knows (never one in `request.given`: the
        fields `claims` declares are never given here, so the table's own value is read beside a claim)."""
        return ()

    def stand_acts(self, snapshot: Snapshot, unit_id: int) -> tuple[StandAct, ...]:
        """The rolls a stand's card offers, by the stand's kind and state (the app keeps those the current
        step allows, for a side that may act); none by default."""
        return ()

    def target_marks(self, snapshot: Snapshot, unit_id: int, resolver_id: str) -> tuple[TargetMark, ...]:
        """The stands the card's act (`resolver_id`, rolled by `unit_id`) may not take as its target now, each
        with its reason, as `/resolve` would refuse them (the map marks them while the target is picked); none
        by default."""
        return ()

    def consequences(self, resolver_id: str, snapshot: Snapshot, outcome: Outcome) -> tuple[Change, ...]:
        """What a resolution does to the table, in the order it happens."""
        return ()

    def before_resolve(
        self, resolver_id: str, snapshot: Snapshot, request: FillRequest, apply: bool
    ) -> tuple[Change, ...]:
        """What asking a resolver in the game costs before anything is rolled (a once-a-game use spent: the
        changes are written, not logged), or a RulesError for one the table does not allow now."""
        return ()

    def drawn(self, resolver_id: str, snapshot: Snapshot, given: Mapping[str, Any]) -> tuple[Filled, ...]:
        """The hidden fields of a secret draw (the pack, the hands) from the game's state; a RulesError names
        any of them the request gives."""
        return ()

    def drawn_at_table(self, snapshot: Snapshot) -> bool:
        """Whether the game's secret draws are made at the table from the players' own pack (a game option),
        each side entering the cards it drew (`Roll.cards`), rather than dealt by the game."""
        return False

    def draw_seen(
        self, resolver_id: str, payload: Mapping[str, Any], drawer: str, applied: bool
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A secret draw's logged answer as (everyone reads it, `drawer` reads it); the referee reads it
        whole. By default everyone learns only that a draw was made."""
        return {"resolver": resolver_id, "applied": applied}, dict(payload)

    def draw_taken_back(
        self, resolver_id: str, snapshot: Snapshot, payload: Mapping[str, Any]
    ) -> tuple[Change, ...]:
        """The changes that take back a secret draw (`payload` whole, as the referee reads it) without
        giving back what the draw showed: a card once seen never returns to the pack, or a side could draw,
        read and take back until it knew the pack and so the opponent's hand. By default a draw stands."""
        raise RulesError("event_id", "a card drawn stays drawn: play on", [])

    def hand_played(self, snapshot: Snapshot, side: str, card: str) -> Played:
        """A card played from `side`'s hand; a RulesError when it holds no such card."""
        raise RulesError("card", f"the {side} holds no cards", [])


class FirePlan:
    """A rule set's fire plan: which units fire it, which items a side may plan, what an item does as it
    reaches the table (its dice, its arrival, the cards of arrived fire), and a plan's rehearsal."""

    # How a side's plan is kept: False (Flanders Fields) one plan for the game, written in set-up and locked
    # once; True a plan per turn (a bound) holding that turn's items only, written while the turn allows
    # `plan-fire`, sealed by the side or as the turn leaves the last step allowing it, each turn's commitment
    # kept, revealed item by item as each lands; a new plan each turn.
    sealed_each_turn: bool = False
    # The state field where a unit firing the plan carries its aiming point (printed on its aiming-point card);
    # None (by default): the rule set has no aiming points, and so no aiming-point cards.
    aiming_field: str | None = None
    # Whether a side's plan is rehearsed (`rehearse`): the fire plan page shows what it will likely do only then.
    rehearsed: bool = False

    def fires_plan(self, unit: Node) -> bool:
        """Whether a unit fires the fire plan's items (carries an aiming point, has an aiming card); by default
        none does."""
        return False

    def plan_item_allowed(self, kind: str, period: str | None, side: str, nation: str) -> None:
        """Refuse (RulesError on `item.kind`) a fire-plan item the side may not plan; by default any is."""

    def item_words(self, kind: str, data: Mapping[str, Any]) -> str:
        """A planned item as its side chose it, in the rules' words ("Chlorine cordon"); "" (by default):
        its kind says it."""
        return ""

    def arrival_step(self, item: PlanItem) -> str | None:
        """The turn step at whose start an item lands; None (by default) as its turn starts."""
        return None

    def arrival_dice(self, snapshot: Snapshot, item: PlanItem, names: Mapping[int, str]) -> tuple[int, ...]:
        """The sides of the dice a fire-plan item rolls as it reaches the table (a deviation), given to
        `arrival` (`names`: the names the plan may call the stands by, as the cards'); none by default."""
        return ()

    def arrival(self, snapshot: Snapshot, item: PlanItem, dice: Sequence[int] = ()) -> Arrival:
        """What a fire-plan item does as it reaches the table, with the dice `arrival_dice` asked for (by
        default nothing but its reveal)."""
        return Arrival()

    def arrival_cards(self, snapshot: Snapshot, names: Mapping[int, str]) -> tuple[FireCard, ...]:
        """The arrived items that fire now, one card each (`names`: how the cards name the stands); none by
        default."""
        return ()

    def arrival_fired(
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

    def rehearse(
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

    def play(self, snapshot: Snapshot, act: Act) -> Answer:
        """What `act` does to the table (rules.core.acts), or a RulesError refusing it with its rule: a stand
        stays on the table and a unit edit sets what it says; markers and cards are the rule set's own. Acts
        the app writes as the player says (a unit added, a template laid) change nothing more."""
        if isinstance(act, MoveStand):
            on_table(snapshot, act.x, act.y)
            unit = snapshot.unit(act.unit_id)
            place = {"x": act.x, "y": act.y, "facing_deg": act.facing_deg, "off_table": False}
            return Answer(
                tuple(SetState("", "", unit.id, k, v) for k, v in place.items() if unit.value(k) != v)
            )
        if isinstance(act, EditUnit):
            return Answer(tuple(SetState("", "", act.unit_id, k, v) for k, v in act.values.items()))
        if isinstance(act, PlaceMarker):
            return Answer(self.fields.marker_added(snapshot, act.unit_id, act.cause, act.count))
        if isinstance(act, RecoverMarker):
            return Answer(self.fields.marker_removed(snapshot, act.unit_id, act.spend_action))
        if isinstance(act, PlayCard):
            played = self.rolls.hand_played(snapshot, act.side, act.card)
            return Answer(played.changes, played.shown, played.source)
        return Answer()
