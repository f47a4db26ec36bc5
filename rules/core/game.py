"""Playing a rule set as a game: the hook a rule set subclasses (`GameRules`, its methods' defaults playing, its
data one frozen `Book`) so the service can play it.

The service freezes the game's table into a `Snapshot` once per request (the units with their markers and
state, the board's barrages, clouds and wind), asks the rule set what a resolver's request may be filled with
(`Filled`, each with why and the rule it comes from) and what follows from a result (typed `Change`
records, each with the rule it comes from), and writes those changes to its rows. The rules never see a
database: everything they read is in the snapshot, everything they decide is in the records (plain data, in
the leaf module rules.core.records).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Literal, NotRequired, Protocol, TypedDict, TypeVar

from pydantic import BaseModel, ConfigDict, Field, Strict

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
    PlanFire,
    PlayCard,
    RehearsePlan,
    Roll,
    TakeBackDraw,
)
from rules.core.dice import roll
from rules.core.errors import NotFoundError, Refusal, RulesError
from rules.core.fire_cards import CardApplied, FireCard, Fired, card_dice
from rules.core.forces import ForceChart
from rules.core.kit import CounterNotes, TableKit
from rules.core.records import (
    Answer,
    Arrival,
    Change,
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
    children_of,
)
from rules.core.rolls import Outcome, RollTerms, work_out
from rules.core.ruleset import REGISTERED, Context, RuleSet
from rules.core.scenario import ForceNode, NewForces, forces_from_document
from rules.core.score import Verdict, by_points
from rules.core.sheet import Bullets, Playsheet, SheetSection, fmt, label
from rules.core.sheet import Table as SheetTable
from rules.core.turn import Notice, Step
from rules.core.victory import Broken
from rules.table.frame import Table, laid, shifted_about_centre
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
    children = children_of(units)
    out: list[N] = []
    stack = [root]
    while stack:
        u = stack.pop()
        kids: tuple[N, ...] = children.get(u.id, ())
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


class Need(str):
    """What a step still needs (`GameRules.needs`), in words, with the stand whose card offers the act that
    settles it (`unit_id`: 2mm's hits waiting, the firing sub-unit's), so that the board offers that card in one
    tap; a plain string where no one stand's card does."""

    unit_id: int | None

    def __new__(cls, words: str, unit_id: int | None = None) -> Need:
        need = super().__new__(cls, words)
        need.unit_id = unit_id
        return need


# The moments something happens by itself between the players' acts (`GameRules.between_turns`): the side to
# move's turn ends, its next turn starts, the board reads otherwise (a cloud arrived on the table).
Moment = Literal["ended", "started", "board"]
TURN_ENDED: Moment = "ended"
TURN_STARTED: Moment = "started"
BOARD_CHANGED: Moment = "board"


@dataclass(frozen=True)
class PlanMark:
    """A planned item drawn on the fire-plan page's grid, in the table frame: the kit's template `template`
    laid at `point` facing ahead of the side, or a band across the table from `band[0]` to `band[1]` (a rolling
    barrage); `kind` its class on the page (the item's kind, "gas", "band"), `label` its words ("T2")."""

    label: str
    kind: str
    point: tuple[float, float]
    template: str | None = None
    band: tuple[float, float] | None = None


class RehearsalRequest(BaseModel):
    """What every rehearsal of a side's plan is asked: how many turns, the seed and count of its sampled
    draws, readings of the errata over the game's own. A rule set's rehearsal narrows these (its limits) and
    adds its options (the rest of its fields, handed to its hook as `RehearsePlan.options`)."""

    model_config = ConfigDict(extra="forbid")
    turns: Annotated[int, Strict(), Field(ge=1)] | None = None
    seed: Annotated[
        int, Strict(), Field(ge=0, le=2_147_483_647, description="Seed of the sampled draws.")
    ] = 1
    samples: Annotated[int, Strict(), Field(ge=1)] = 1
    variants: dict[
        Annotated[str, Field(min_length=1, max_length=64)], Annotated[str, Field(max_length=64)]
    ] = Field(
        default_factory=dict, max_length=32, description="Erratum id -> reading id, over the game's own."
    )

    def options(self) -> Mapping[str, Any]:
        """The rule set's own fields, as plain JSON for its hook."""
        return self.model_dump(exclude=set(RehearsalRequest.model_fields))


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
    arrival_steps: Mapping[str, str] = field(default_factory=dict)
    item_words: Mapping[str, tuple[str, Mapping[str, str]]] = field(default_factory=dict)
    # The rehearsal's request (its limits and options; None: the plan is not rehearsed) and how a side's plan
    # items are drawn on the page's grid (side, items as stored, the table -> its marks; None: not drawn).
    rehearsal: type[RehearsalRequest] | None = None
    marks: Callable[[str, Sequence[Mapping[str, Any]], Table], Sequence[PlanMark]] | None = None


def item_words(terms: FirePlanTerms, kind: str, data: Mapping[str, Any]) -> str:
    """A planned item as its side chose it, in the rules' words; "" where its kind says it."""
    by = terms.item_words.get(kind)
    return by[1].get(str(data.get(by[0])), "") if by is not None else ""


# -- the hook -----------------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class Book:
    """What a rule set's book declares as data, in one frozen record the rule set fills in (`GameRules.book`):
    plain values the hook's methods, the app and the map read, each at a default that plays."""

    ruleset_id: str = ""
    # The turn: the sides in the order they take their turns; a bound (one turn for both sides, its steps in
    # a fixed order, each step's `sides` acting in it: 2mm Earth 1418) or alternating turns (the default);
    # what the rules call a turn; the rule that orders it; what set-up needs besides the locked fire plans
    # (with its rule); the rule that ends a side's turn; the acts whose refusal depends on whose orders reach
    # the stand.
    sides: tuple[str, ...] = ("attacker", "defender")
    # What the book calls each side where it names them ("Canadian", "German"): the pages' words for a side
    # (the score, the clock, the turn); none named: attacker and defender.
    side_names: Mapping[str, str] = field(default_factory=dict)
    bound: bool = False
    turn_word: str = "turn"
    turn_source: str = ""
    set_up_needs: tuple[str, ...] = ()
    set_up_source: str = ""
    end_source: str = ""
    ordered_acts: frozenset[str] = frozenset()
    # The state a unit carries, in the order a stand card shows it (the storage, the API, the board, the map
    # and undo read it); the counter markers placed and removed by hand move; each side's own state as a game
    # starts; the side state holding a side's hand of cards ("": none dealt); fields of a unit edit that are
    # acts of their own (field -> act; any other records what happened to the stand, EDIT_ACT).
    state_fields: tuple[StateField, ...] = ()
    # The same state as its own model, a field per state field at its default (`<RuleSet>UnitState`, the type
    # a unit's state answers as; tests/rules/core/test_unit_state.py holds the two to each other).
    unit_state: type[BaseModel] | None = None
    marker_field: str | None = None
    side_state: Mapping[str, Any] = field(default_factory=dict)
    hand_key: str = ""
    edit_acts: Mapping[str, str] = field(default_factory=dict)
    # Its rolls' terms, its fire plan's terms, and its table kit (what a game keeps besides the stands).
    roll_terms: RollTerms = field(default_factory=RollTerms)
    plan_terms: FirePlanTerms = field(default_factory=FirePlanTerms)
    kit: TableKit = field(default_factory=TableKit)
    # The table: a wire line drawn without `depth_cm` is a standard belt this deep (None: each line says), and
    # the band behind a rolling barrage that endangers its own side's stands (None: the map draws none).
    wire_belt_cm: float | None = None
    danger_zone_cm: float | None = None
    # The report: whether a formation tests its morale as its losses reach half and three quarters, what its
    # losses count, what a stand is in the rules' words, and the state fields the story tells as a unit comes
    # to carry them (by name).
    tests_losses: bool = True
    losses_counted: str = "bases"
    stand_word: str = "stand"
    told_fields: tuple[str, ...] = ()
    # New games: the nations, troop qualities and special rules a scenario may name, a unit's level, kind and
    # gun (empty: any text), the forces' chart of troops (rules.core.forces; None: organisation tables or
    # units as written), and the scenario documents it ships (docs/scenario-format.md), by id.
    nations: tuple[str, ...] = ()
    # Each side's nation where the book fixes its sides (Vimy's Allied attacker, German defender): a new game's
    # unless it names its own (the start page asks none).
    side_nations: Mapping[str, str] = field(default_factory=dict)
    qualities: tuple[str, ...] = ()
    special_rules: tuple[str, ...] = ()
    unit_levels: tuple[str, ...] = ()
    unit_kinds: tuple[str, ...] = ()
    guns: tuple[str, ...] = ()
    force_chart: ForceChart | None = None
    scenarios: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    # A small scenario document of the rule set, as the API's documentation shows one (none: not shown).
    scenario_example: Mapping[str, Any] = field(default_factory=dict)
    # How a game is won (rules.core.score, `GameRules.outcome`): where the book prints no victory conditions,
    # the erratum listing the scenario's own objectives as firestep's reading, and the rule the winner comes from.
    victory_erratum: str = ""
    victory_source: str = ""
    # A side broken, as the book declares (a scenario's `side_broken` victory condition, rules.core.victory):
    # None where it declares none, and a scenario may not name one.
    broken: Broken | None = None
    # A game of counters on the players' own map may keep its score itself: the board key its rules rewrite
    # after each act, in the shape rules.core.score.kept_score reads ("": worked out from the log).
    score_kept: str = ""


def state_field(book: Book, name: str) -> StateField | None:
    """A state field of the book by name."""
    return next((f for f in book.state_fields if f.name == name), None)


def edit_act(book: Book, name: str) -> str:
    """The act of the rules of play a unit edit of field `name` is."""
    return book.edit_acts.get(name, EDIT_ACT)


class GameRules:
    """What a rule set implements to be played as a game (registered with `rules.registry.register_game`), in
    the manner of python-chess's variants: one object whose methods have defaults that play, so a rule set
    subclasses it and overrides only what its book changes; what its book declares as data is its `book`
    (`Book`). `play` answers any act; the underscore methods are the acts' parts only `play` calls.

    The turn: by default the sides alternate, each turn the same steps (`steps`); a `Book.bound` turn is one
    for both sides. The acting side (`acting`), the first and next position (`first_position`,
    `next_position`) and the table's terrain (`terrain`) are the module's functions of the hook."""

    book: Book = Book()

    def play(self, snapshot: Snapshot, act: Act) -> Answer:
        """What `act` does to the table (rules.core.acts), or a RulesError refusing it with its rule: a stand
        stays on the table, a formation moves as one and a template lies on it; a unit edit sets what it says; a
        roll is worked out (rules.core.rolls), arrived fire fired, an item landed; cards and the fire plan's
        items are the rule set's own. Markers placed and removed by hand (`PlaceMarker`, `RecoverMarker`) and
        acts the app writes as the player says (a unit added, a template taken off) change nothing more: a rule
        set whose markers do something overrides `play` for them."""
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
            return Answer(shown=template_laid(self.book.kit, snapshot, act))
        if isinstance(act, EditUnit):
            return Answer(tuple(SetState("", "", act.unit_id, k, v) for k, v in act.values.items()))
        if isinstance(act, Roll):
            return work_out(self, self.book.roll_terms, _ruleset(self.book.ruleset_id), snapshot, act)
        if isinstance(act, PlayCard):
            played = self._hand_played(snapshot, act.side, act.card)
            return Answer(played.changes, played.shown, played.source)
        if isinstance(act, TakeBackDraw):
            return Answer(self._draw_taken_back(act.resolver, snapshot, act.payload))
        if isinstance(act, ApplyArrival):
            return card_applied(self, snapshot, act)
        if isinstance(act, ArriveItem):
            return landed(self, snapshot, act)
        if isinstance(act, PlanFire):
            self._plan_item_allowed(act.kind, snapshot.period, act.side, act.nation)
            return Answer()
        if isinstance(act, CallObjective):
            return Answer(shown=objective_called(snapshot, act, self.book.sides))
        if isinstance(act, EndGame):
            said = {"condition": act.condition} if act.condition is not None else {}
            return Answer(shown={"reason": act.reason, **said})
        if isinstance(act, RehearsePlan):
            body = self._rehearse(
                snapshot, act.side, act.items, act.names, act.options, act.turns, act.seed, act.samples
            )
            return Answer(shown=body)
        return Answer()

    # -- the turn ------------------------------------------------------------------------------------------
    def steps(self, period: str | None) -> tuple[Step, ...]:
        """The steps of a side's turn (a bound) in `period`, in order (none: each advance ends the side's
        turn)."""
        return ()

    def playsheet(self, period: str | None) -> Playsheet:
        """The playsheet of a game in `period` (playsheets/ prints it): by default what the book already declares,
        each value with its printed line (`default_playsheet`); a rule set printing its own tables overrides it."""
        return default_playsheet(self, _ruleset(self.book.ruleset_id), period)

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
        `units` given only for the `Book.ordered_acts`), else a sentence naming the rule and what is allowed
        now. By default an ordered act is the acting sides' alone while the game is played."""
        if status != "playing" or action not in self.book.ordered_acts or side is None:
            return None
        sides = acting(self, period, now)
        if side in sides:
            return None
        return _wait(self, period, now, action.replace("-", " "), sides)

    def roll_refusal(
        self, status: str, snapshot: Snapshot, now: Position, roll: Roll, side: str
    ) -> str | None:
        """None when the game's status and the current step let `side` (the side the roll is for: its unit's,
        else the roller's) roll `roll` now, else a sentence naming the step and what to do (a Refusal: the rule in
        full as `why`, its printed line as `source`). By default a roll is the acting sides' while the game is
        played."""
        sides = acting(self, snapshot.period, now)
        if status != "playing" or side in sides:
            return None
        return _wait(self, snapshot.period, now, "roll", sides, ".")

    def forbidden(self, snapshot: Snapshot, act: Act) -> tuple[Refusal, ...]:
        """What the rules of play forbid of `act` now beyond the step and the side: what it costs and cannot
        pay, the actor's state, its target. Each a Refusal (one sentence <= 120 characters saying what to do,
        the rule in full as `why`, the printed line as `source`). Default: nothing."""
        return ()

    def needs(self, snapshot: Snapshot, step_id: str) -> list[str]:
        """What the current step still needs done besides its own words (rolls due, tests due); a `Need` names
        the stand whose card offers the act that settles it."""
        return []

    def between_turns(self, snapshot: Snapshot, moment: str) -> tuple[tuple[Notice, ...], tuple[Change, ...]]:
        """What happens by itself between the players' acts at `moment`: as the side to move's turn ends
        (TURN_ENDED: its units recover, actions lapse), as its turn starts (TURN_STARTED: barrages advance),
        or as the board now reads (BOARD_CHANGED: a cloud arrived marks the stands under it). Each notice is
        logged as its own event, then the changes are written (not logged again). Default: nothing."""
        return (), ()

    # -- the units' state -------------------------------------------------------------------------------------
    def secret(self, unit: Held, field: StateField, board: Mapping[str, Any] | None = None) -> bool:
        """Whether a unit's state `field` is now its side's alone: each change of it kept in that side's part
        of the log, and (with the game's `board`) its value hidden from the other side, the rules not having put
        it on the table. By default the field's own `secret` flag, until the game is over; a rule set may keep a
        field of some units secret for a while (2mm Earth 1418: a battery's plan, made "Anon", until it fires or
        moves) or show it once it is on the table (Flanders Fields: an aiming point placed)."""
        return field.secret

    def stand_card(self, snapshot: Snapshot, unit_id: int) -> tuple[StandAct | StandEdit, ...]:
        """What a stand's card offers now, by the stand's kind and state: its rolls (`StandAct`) and its unit
        edits (`StandEdit`: a command, a plan); the app keeps those the current step allows, for a side that
        may act. None by default."""
        return ()

    # -- the rolls -------------------------------------------------------------------------------------------
    def fill(self, resolver_id: str, snapshot: Snapshot, request: FillRequest) -> tuple[Filled, ...]:
        """The fields of a resolver's request the game's state knows (never one in `request.given`: the
        fields the claims declare are never given here, so the table's own value is read beside a claim)."""
        return ()

    def drawn(self, resolver_id: str, snapshot: Snapshot, given: Mapping[str, Any]) -> tuple[Filled, ...]:
        """The hidden fields of a secret draw (the pack, the hands) from the game's state; a RulesError names
        any of them the request gives (the referee reads them beside the lookup; a roll draws with them)."""
        return ()

    def target_marks(self, snapshot: Snapshot, unit_id: int, resolver_id: str) -> tuple[TargetMark, ...]:
        """The stands the card's act (`resolver_id`, rolled by `unit_id`) may not take as its target now, each
        with its reason, as `/resolve` would refuse them (the map marks them while the target is picked); none
        by default."""
        return ()

    # A roll's steps, called by the hook's own play (a `Roll` worked out by rules.core.rolls.work_out, a card
    # played, a draw taken back), overridden where the book changes them, as python-chess's variants override
    # `_push_capture`.
    def _before_resolve(
        self, resolver_id: str, snapshot: Snapshot, request: FillRequest, apply: bool
    ) -> tuple[Change, ...]:
        """What asking a resolver in the game costs before anything is rolled (a once-a-game use spent: the
        changes are written, not logged), or a RulesError for one the table does not allow now."""
        return ()

    def _consequences(self, resolver_id: str, snapshot: Snapshot, outcome: Outcome) -> tuple[Change, ...]:
        """What a resolution does to the table, in the order it happens."""
        return ()

    def _draw_seen(
        self, resolver_id: str, payload: Mapping[str, Any], drawer: str, applied: bool
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A secret draw's logged answer as (everyone reads it, `drawer` reads it); the referee reads it
        whole. By default everyone learns only that a draw was made."""
        return {"resolver": resolver_id, "applied": applied}, dict(payload)

    def _draw_taken_back(
        self, resolver_id: str, snapshot: Snapshot, payload: Mapping[str, Any]
    ) -> tuple[Change, ...]:
        """The changes that take back a secret draw (`payload` whole, as the referee reads it) without
        giving back what the draw showed: a card once seen never returns to the pack, or a side could draw,
        read and take back until it knew the pack and so the opponent's hand. By default a draw stands."""
        raise RulesError("event_id", "a card drawn stays drawn: play on", [])

    def _hand_played(self, snapshot: Snapshot, side: str, card: str) -> Played:
        """A card played from `side`'s hand; a RulesError when it holds no such card."""
        raise RulesError("card", f"the {side} holds no cards", [])

    # -- the fire plan ---------------------------------------------------------------------------------------
    def fires_plan(self, unit: Node) -> bool:
        """Whether a unit fires the fire plan's items (carries an aiming point, has an aiming card); by default
        none does."""
        return False

    def arrival_cards(self, snapshot: Snapshot, names: Mapping[int, str]) -> tuple[FireCard, ...]:
        """The arrived items that fire now, one card each (`names`: how the cards name the stands); none by
        default."""
        return ()

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

    # -- the table -------------------------------------------------------------------------------------------
    def terrain_refused(self, features: Sequence[Feature], period: str | None, where: str) -> None:
        """Refuse, with a RulesError naming `<where>.<index>` and the rule, terrain the period's rules have no
        place for; none by default."""

    # -- the report ------------------------------------------------------------------------------------------
    def roll_words(
        self, resolver: str, resolution: Mapping[str, Any], target: str, decisive: bool = False
    ) -> str:
        """What a roll did in the rules' words, for the story of the game, after its unit's name ("tested its
        morale: retreat 20cm"; `target`: the name of the unit it targeted, or ""); "" for a roll the story
        tells only by what it did to the units (the default). `decisive`: any roll, for a decisive moment of
        the story ("shot at 1/1 Coy Plt 2: suppressed"); "" leaves the story to name it by its resolver and
        outcome."""
        return ""

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

    def casualties(self, period: str | None, variants: Mapping[str, str], bases: int) -> Casualties:
        """The men `bases` lost stand for, with the rules that say so (`sources`); by default just the bases."""
        return {"bases": bases}

    # -- new games -------------------------------------------------------------------------------------------
    def unit_cap(self) -> tuple[int, str] | None:
        """The most units (formations and stands) a game may hold, with the rule that sets it; None: only the
        scenario format's own cap. A method, as a rule set may work it out on first use."""
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

    # -- how a game is won ----------------------------------------------------------------------------------
    def outcome(self, points: Mapping[str, int]) -> Verdict:
        """The winner of a game by each side's victory points (rules.core.score): by default the scenario's
        own objectives decide, more points winning and level points a draw (`Book.victory_erratum` lists the
        reading); a book that prints its own victory conditions overrides this with their lines."""
        return by_points(points, self.book.victory_source)

    def counter_notes(self, snapshot: Snapshot) -> CounterNotes:
        """What a game on a board of counters (`TableKit.counters`) shows besides the counters: its turn track,
        its named places and what lies on each counter; nothing by default."""
        return CounterNotes()


# -- the turn, worked out from the hook ----------------------------------------------------------------------
def first_position(rules: GameRules) -> Position:
    """Where the game stands as it starts."""
    return Position(1, rules.book.sides[0])


def next_position(rules: GameRules, period: str | None, now: Position) -> Position:
    """The step after `now`; past the last, the next side's turn, and after the last side's the next game turn
    (in a bound, past the last step the next bound)."""
    if now.step + 1 < len(rules.steps(period)):
        return replace(now, step=now.step + 1)
    if rules.book.bound:
        return Position(now.turn + 1, now.side)
    sides = rules.book.sides
    i = sides.index(now.side) if now.side in sides else len(sides) - 1
    if i + 1 < len(sides):
        return Position(now.turn, sides[i + 1])
    return Position(now.turn + 1, sides[0])


def acting(rules: GameRules, period: str | None, now: Position) -> tuple[str, ...]:
    """The sides that may act now: the current step's own (`Step.sides`), else the side whose turn it is."""
    steps = rules.steps(period)
    step = steps[now.step] if now.step < len(steps) else None
    return step.sides if step is not None and step.sides else (now.side,)


def over(status: str, action: str) -> Refusal | None:
    """Every rule set's last rule of play: once the game is over nothing on the table changes any more, its
    result standing (None while it is not over). A rule set's own refusal, asked first, may word it itself."""
    if status != "finished":
        return None
    said = "The game is over: nothing on the table changes any more."
    return Refusal(said, f"{said[:-1]}: its result stands (you asked to {action.replace('-', ' ')}).")


def _wait(
    rules: GameRules, period: str | None, now: Position, doing: str, sides: tuple[str, ...], end: str = ""
) -> Refusal:
    """The turn's refusal of an act or a roll out of the acting sides' step."""
    steps = rules.steps(period)
    step = f"in {steps[now.step].title} " if now.step < len(steps) else ""
    source = rules.book.turn_source
    return Refusal(
        f"Wait for your step: only the {' and '.join(sides)} may {doing} now{end}",
        f"{step}only the {' and '.join(sides)} may {doing} ({source or 'the turn'})",
        source or None,
    )


def terrain(
    rules: GameRules, collection: Mapping[str, Any], where: str = "terrain", period: str | None = None
) -> list[Feature]:
    """The table's terrain from a GeoJSON FeatureCollection, refused with a RulesError naming the bad feature's
    field (with a `period`, also a feature the period's rules have no place for: `terrain_refused`)."""
    features = terrain_from_geojson(collection, where, wire_belt_cm=rules.book.wire_belt_cm)
    rules.terrain_refused(features, period, f"{where}.features")
    return features


def default_playsheet(rules: GameRules, rs: RuleSet, period: str | None) -> Playsheet:
    """A sheet from what a rule set declares anyway: its units (the bases its stands stand on, the state they
    carry), its turn's steps, its lookups (each one's summary) and datasets, and how a game is won (its
    scenarios' objectives); a section with nothing to print is left out."""
    book = rules.book
    bases = [
        [label(b.kind), f"{fmt(b.width_cm)} × {fmt(b.depth_cm)} cm ({b.shape})"]
        for b in book.kit.bases.values()
    ]
    states = [
        [f.label, fmt(f.default) + ("" if f.maximum is None else f" (at most {f.maximum})")]
        for f in book.state_fields
    ]
    units = SheetSection(
        "units",
        "Units",
        tuple(
            t
            for t in (SheetTable(["Base", "Size"], bases), SheetTable(["State", "Starts at"], states))
            if t.rows
        ),
        tuple(dict.fromkeys(b.source for b in book.kit.bases.values() if b.source)),
    )
    steps = rules.steps(period)
    turn = SheetSection(
        "turn",
        "The turn",
        (Bullets([f"{s.printed}. {s.title}: {s.does}." for s in steps]),) if steps else (),
        tuple(dict.fromkeys(s for s in (book.turn_source, *(s.source for s in steps)) if s)),
    )
    lookups = [f"{label(r.id)}: {r.summary}" for r in rs.resolvers.values() if r.summary]
    tables = SheetSection(
        "lookups",
        "Lookups and tables",
        (Bullets(lookups),) if lookups else (),
        (rs.source,) if rs.source else (),
        datasets=tuple(rs.datasets),
        page=1,
    )
    objectives = [
        f"{fmt(doc.get('title', sid))}: {fmt(doc['objectives'])}"
        for sid, doc in book.scenarios.items()
        if doc.get("objectives")
    ]
    victory = SheetSection(
        "objectives",
        "Objectives",
        (Bullets(objectives),) if objectives else (),
        (book.victory_source,) if book.victory_source else (),
        page=1,
    )
    return Playsheet(tuple(s for s in (units, turn, tables, victory) if s.blocks or s.datasets))


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
        across, along = 0 <= x <= snapshot.table_width_cm, 0 <= y <= snapshot.table_length_cm
        if not (across and along):
            # The input that sent it off: the shift across (dx) or along (dy) the table, else the turn.
            field = ("dx" if act.dx else "turn_deg") if not across else ("dy" if act.dy else "turn_deg")
            less = "turn" if field == "turn_deg" else "move"
            raise RulesError(field, f"that would put {u.name} off the table: {less} the formation less far")
        facing = 90.0 if u.facing_deg is None else float(u.facing_deg)
        place = {"x": round(x, 2), "y": round(y, 2), "facing_deg": round((facing + act.turn_deg) % 360, 2)}
        out += [SetState("", "", u.id, k, v) for k, v in place.items() if u.value(k) != v]
    return tuple(out)


class Casualties(TypedDict):
    """The men the stands lost stand for (`GameRules.casualties`): the stands, and beside them what the rule
    set's book counts of them (its own record extends this one) with the rules that say so."""

    bases: int
    sources: NotRequired[list[str]]


class ObjectiveCalled(TypedDict):
    """The referee's call on an objective as everyone is shown it: the objective, its name, the side called."""

    objective_id: str
    name: str
    side: str | None


class TemplateLaid(TypedDict):
    """A template laid or moved as it lies on the table: its kind, where (cm) and its rotation (degrees)."""

    kind: str
    x: float
    y: float
    rotation: float


def objective_called(snapshot: Snapshot, act: CallObjective, sides: tuple[str, ...]) -> ObjectiveCalled:
    """The referee's call on one of the game's objectives (its board's `table_objectives`): the objective and
    the side called to hold it (None: nobody); a RulesError naming the field otherwise."""
    kept = snapshot.board.get("table_objectives") or {"type": "FeatureCollection", "features": []}
    found = objectives_from_geojson(kept, snapshot.table_width_cm, snapshot.table_length_cm)
    ids = [o.id for o in found]
    if act.objective_id not in ids and act.secret is None:  # a secret objective's name the app gives
        raise RulesError("objective_id", "no such objective in this game", ids)
    if act.side not in (*sides, None):
        raise RulesError("side", "call the objective for a side, or for nobody", [*sides, None])
    name = act.secret or next(o.name for o in found if o.id == act.objective_id)
    return {"objective_id": act.objective_id, "name": name, "side": act.side}


def template_laid(kit: TableKit, snapshot: Snapshot, act: LayTemplate | MoveTemplate) -> TemplateLaid:
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


def card_applied(rules: GameRules, snapshot: Snapshot, act: ApplyArrival) -> CardApplied:
    """An arrived item's card applied: the card of the item firing now (none: a 404 for all), its dice given or
    rolled (its shots laid where its side lays them), then fired by the rule set."""
    card = next((c for c in rules.arrival_cards(snapshot, act.names) if c.item_id == act.item_id), None)
    if card is None:  # unarrived, not firing now or not the game's: one answer for all
        raise NotFoundError("arrived fire this turn", str(act.item_id))
    rolled, given = card_dice(card, act.dice, act.shots)
    fired = rules._arrival_fired(snapshot, card, rolled, act.measured, act.names)
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
    sides = game._arrival_dice(snapshot, act.item, act.names)
    dice = tuple(act.dice) if act.dice is not None else roll(sides, random.SystemRandom())
    arrival = game._arrival(snapshot, act.item, dice)
    if not arrival.roll:
        return Landed(arrival=arrival, dice=dice)
    rs = _ruleset(game.book.ruleset_id)
    body: dict[str, Any] = {"period": snapshot.period, "variants": dict(snapshot.variants)}
    if act.roll_dice is not None:
        body["dice"] = list(act.roll_dice)
    req = rs.resolvers[arrival.roll].Request.model_validate(body)
    res = rs.resolve(arrival.roll, req).as_dict()
    after = replace(snapshot, board={**snapshot.board, **arrival.board})
    changes = game._consequences(arrival.roll, after, Outcome(req, res))
    return Landed(changes, arrival=arrival, dice=dice, resolution=res)
