"""A rule set's table kit: what a game of it keeps on the table besides the stands, as the app stores, answers
and draws it. The app, the map and the board read the kit (`GameRules.book.kit`) and never name its things."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, Strict

from rules.core.records import Snapshot
from rules.table.bases import BaseSpec
from rules.table.frame import Table
from rules.table.templates import TemplateSpec

# The map's styles for what a board draws (frontend/static/css/map.css and the map's key): an area of fire,
# a gas cloud, a band across the table, and a zone of danger beside one.
DrawnStyle = Literal["board-fire", "board-gas", "board-barrage", "board-danger"]
Cm = tuple[float, float]


class Drawn(BaseModel):
    """One thing a board draws on the table map, in table cm: a polygon, or a point with a radius; labelled in
    words on the table. The map draws these whatever the rule set, and names none of its board's keys."""

    model_config = ConfigDict(frozen=True)

    style: DrawnStyle
    label: str
    polygon: tuple[Cm, ...] = ()
    point: Cm | None = None
    radius_cm: float = 0.0
    # Drawn with it, not things of their own (a rolling barrage's danger zone): the map counts the things.
    zone: tuple[Drawn, ...] = ()


# A board key's drawing: its value on the board and the game's table -> what the map draws of it.
Drawing = Callable[[Any, Table], Sequence[Drawn]]


@dataclass(frozen=True)
class BoardKey:
    """One key of a game's board. A `value` is game-wide (a number the rules set each turn): the game keeps
    it beside its own fields, answers it flat on the game and its turn, and logs a change of it as the game's;
    the rest are the board's own JSON (lists of things on the table, as the rules keep them)."""

    name: str
    label: str
    default: Any = None
    # The type its value is validated and stored as (a board key's model; JSON objects stay as the rules
    # keep them).
    annotation: Any = Any
    value: bool = False
    # The turn panel's badge while a value is set, its value in place of {} ("Deep suppression −{}").
    badge: str = ""
    # What the map draws of its value (None: nothing).
    draw: Drawing | None = None


# A point of a fire plan (ARTILLERY FIRE PLANS): strict (JSON `false` is not 0) and bounded.
Grid = Annotated[
    list[Annotated[float, Strict(), Field(ge=0, le=1000)]],
    Field(
        min_length=2,
        max_length=2,
        description="Side-relative grid reference: cm along the side's rear edge from its left-hand corner, "
        "then cm up the table towards the enemy (ARTILLERY FIRE PLANS).",
    ),
]


class PlanKind(BaseModel):
    """A kind of fire-plan item: a subclass narrows `kind` to a Literal of the kinds it models."""

    kind: str


# The property a terrain feature names its class by, when it is not its kind's (TerrainClass).
TERRAIN_CLASS = "terrain_class"


@dataclass(frozen=True)
class TerrainClass:
    """A class of ground a rule set reads a terrain feature as (its cover, its going), in the book's words with
    its printed line; a feature of one of `kinds` is of it unless it names another (TERRAIN_CLASS)."""

    id: str
    text: str
    kinds: tuple[str, ...]
    source: str


@dataclass(frozen=True)
class TrackTurn:
    """One game turn of a turn track (a game played on a board of counters shows it in place of a table):
    its number, its label as the track prints it ("9 April, Morning"), what the turn forbids or brings in one
    line with its rule, and whether it is drawn dark (a night turn)."""

    number: int
    label: str
    note: str = ""
    dark: bool = False


@dataclass(frozen=True)
class CounterBoard:
    """A game played on the players' own board of counters, not on a table (a hex-and-counter game): each
    counter's place is a word in one of its state fields (a hex number), counters are grouped under a
    formation, and a counter shows its printed values. The app shows a page of counters by place and group in
    place of the table map; units carry no x or y."""

    # The state field holding a counter's place (a "word" edit, checked by the rules), and what a place is
    # called on the page.
    place_field: str
    place_word: str = "place"
    # The level of the formation a counter is grouped under ("" none) and the state fields printed on a
    # counter, in order (shown "4-3").
    group_level: str = ""
    values: tuple[str, ...] = ()
    # The state field naming a counter's group when the groups are words on the counters, not units above
    # them (a division printed on each counter); "" none.
    group_field: str = ""
    # The groups the book names, by side (Vimy's German divisions, 19.1): a counter's group is chosen from them
    # where it is entered, not typed; a side the book names none of types its own.
    group_words: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # What the club enters once from its own copy (key places, tracks, tables' values), kept on the game's
    # board and carried by a scenario's `board`: a model of its fields (each optional; the scenario editor
    # renders a form from its JSON schema), and the check of an entry against what the book prints, raising
    # a RulesError naming `<where>.<field>`. None: the club enters nothing.
    club: type[BaseModel] | None = None
    club_check: Callable[[Mapping[str, Any], str], None] | None = None
    # The rule that has the club's data entered before play (cited when it is refused once the game starts), and
    # the resolver that enters the same data as a roll at the rules tier ("" none): never in a game's play, where
    # the data is set (app.services.club_data refuses it for every seat, the referee's too).
    club_source: str = ""
    club_roll: str = ""
    # The moves a counter's card offers besides a plain one, each a result the move applies (field, value, the
    # button's words): a combat's retreat or advance; the pipeline judges each.
    place_results: tuple[tuple[str, Any, str], ...] = ()
    # How a counter out of play comes back on a place named with it (field, value, the button's words): Vimy's
    # replacement (eliminated False, its hex typed), one act judged where it enters; None: no return offered.
    returned: tuple[str, Any, str] | None = None
    # The places a step from a counter's place (a hex's neighbours, by the snapshot's grid): a move's card offers
    # it exactly when the rules would take the counter to one of them now; None: judged as the move's place stays.
    near: Callable[[Snapshot, str], frozenset[str]] | None = None
    # A counter's other face (a reduced unit flipped to its depleted side): the state flag that turns it and the
    # fields printed there in place of `values`, in order; ("", ()) none.
    flipped: tuple[str, tuple[str, ...]] = ("", ())


@dataclass(frozen=True)
class CounterNotes:
    """What a board of counters shows now besides the counters' own state, in the rules' words: the turn
    track (a sequence the players entered, its night turns dark), what each named place is with its rule (a
    supply hex, a peak), by place, and what lies on each counter (markers the board keeps: "2 bombardment
    markers"), by unit id."""

    track: tuple[TrackTurn, ...] = ()
    # What a dark box of the track means, in the rules' words with their rule: the track's key ("" none).
    dark_means: str = ""
    places: Mapping[str, str] = field(default_factory=dict)
    marks: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class TableKit:
    """A rule set's table kit, plain data in its book (`Book.kit`)."""

    # The stands' bases and the area templates a game of the rule set uses, by kind, each with its size and
    # drawing (rules.table gives them their shapes on the table).
    bases: Mapping[str, BaseSpec] = field(default_factory=dict)
    templates: Mapping[str, TemplateSpec] = field(default_factory=dict)
    board_keys: tuple[BoardKey, ...] = ()
    # The kinds of item a side's fire plan may hold: each a model whose `kind` field is a Literal of its
    # kinds; the app validates a plan item by them (the rules then say whether the game allows it).
    plan_kinds: tuple[type[PlanKind], ...] = ()
    # A plan item of each shape ({arrival_turn, item}) by name, as the API's documentation shows them.
    plan_examples: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    # The classes of ground its rules read the table's terrain as (none: they read each feature by its kind).
    terrain_classes: tuple[TerrainClass, ...] = ()
    # A game on a board of counters instead of a table (None: a table, drawn on the map).
    counters: CounterBoard | None = None
    # Worked out from the above: the game-wide values by name, the board's own keys (the board JSON's, not
    # the game-wide values) and the names of the plan's kinds.
    values_by_name: Mapping[str, BoardKey] = field(init=False)
    on_board: tuple[BoardKey, ...] = field(init=False)
    plan_kind_names: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "values_by_name", {k.name: k for k in self.board_keys if k.value})
        object.__setattr__(self, "on_board", tuple(k for k in self.board_keys if not k.value))
        names = tuple(k for m in self.plan_kinds for k in get_args(m.model_fields["kind"].annotation))
        object.__setattr__(self, "plan_kind_names", names)


def drawn(kit: TableKit, board: Mapping[str, Any], table: Table) -> list[Drawn]:
    """What the map draws of a game's board: each board key's drawing of its value, in the keys' order."""
    return [d for k in kit.on_board if k.draw for d in k.draw(board.get(k.name, k.default), table)]


def board_values(kit: TableKit, stored: Mapping[str, Any]) -> dict[str, Any]:
    """The game-wide values from what a game stores, each at its default until set."""
    return {k.name: stored.get(k.name, k.default) for k in kit.values_by_name.values()}


def badges(kit: TableKit, stored: Mapping[str, Any]) -> list[str]:
    """The turn panel's badges of the values set."""
    return [
        k.badge.format(v)
        for k in kit.values_by_name.values()
        if k.badge and (v := stored.get(k.name, k.default))
    ]
