"""The parts of the page of counters' panels (issue 67), typed: what a seat's page shows (`Want`, its query),
a counter as the seat reads it (`Counter`, taken once from the reader's unit dict), and what
`_counters_panel.html` reads of each panel (the turn, set-up's groups, the list's groups, the card with its
acts or its play). The builder is app.pages.counters_build; the route and the stream's view
app.pages.counters_panel."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal
from urllib.parse import urlencode

from pydantic import BaseModel, ConfigDict, Field, field_serializer, field_validator

from app.data.bounded import INT32_MAX
from rules.core.records import StandAct

# What a roll's request field holds as the card fills it: an option's value, or the counters joining the roll.
FieldValue = bool | str | int | None | list[int]


class Want(BaseModel):
    """What this seat's page of counters shows, its query: the list's grouping, the counter whose card is open,
    the act it plays (its index in the card's acts), its target, the counters joining it, the options chosen
    (`opt`, each name=value), the dice tapped (`die`, 0 one not tapped yet), and the roll recorded (its event).
    Read by FastAPI (`Annotated[Want, Query()]`: a value out of range is a 422 naming its field) and written back
    by `query`, each tap's link; `Want(group, unit)` the list with a counter's card open."""

    model_config = ConfigDict(frozen=True, validate_by_name=True)

    group: Literal["place", "group"] = "place"
    unit: int | None = Field(None, ge=1, le=INT32_MAX)
    act: int | None = Field(None, ge=0, le=64)
    target: int | None = Field(None, ge=1, le=INT32_MAX)
    joined: tuple[Annotated[int, Field(ge=1, le=INT32_MAX)], ...] = Field((), max_length=64)
    given: tuple[tuple[str, str], ...] = Field((), alias="opt", max_length=16)
    dice: tuple[Annotated[int, Field(ge=0, le=6)], ...] = Field((), alias="die", max_length=8)
    done: int | None = Field(None, ge=1, le=INT32_MAX)

    def __init__(self, *opened: Any, **fields: Any) -> None:
        super().__init__(**dict(zip(("group", "unit"), opened, strict=False)), **fields)

    @field_validator("given", mode="before")
    @classmethod
    def _options(cls, raw: Any) -> Any:
        """The query's `opt=name=value` as (name, value) pairs (one of no name dropped)."""
        if any(isinstance(o, str) and len(o) > 128 for o in raw):
            raise ValueError("at most 128 characters each (name=value)")
        return [
            o.partition("=")[::2] if isinstance(o, str) else o
            for o in raw
            if not isinstance(o, str) or o[:1] not in ("", "=")
        ]

    @field_serializer("given")
    def _opt(self, given: tuple[tuple[str, str], ...]) -> list[str]:
        return [f"{k}={v}" for k, v in given]

    def query(self, **changed: Any) -> str:
        """The query of this page with `changed`: its fields in order, by their names in the query."""
        return urlencode(
            self.model_copy(update=changed).model_dump(by_alias=True, exclude_none=True), doseq=True
        )

    def chosen(self, name: str, value: str) -> tuple[tuple[str, str], ...]:
        return (*((k, v) for k, v in self.given if k != name), (name, value))


@dataclass(frozen=True)
class Counter:
    """A counter as this seat reads it: its place, its printed values (the face it shows), its states in words
    (`on_counter` those its button shows, `states` its card's) and the word it is grouped by."""

    id: int
    side: str
    killed: bool
    parent_id: int | None
    level: str
    version: int
    short: str
    full: str
    place: str
    printed: str
    on_counter: tuple[str, ...]
    states: tuple[str, ...]
    group_word: str


@dataclass(frozen=True)
class CounterButton:
    id: int
    side: str
    side_name: str
    killed: bool
    name: str
    printed: str
    place: str
    said: str
    tapped: str
    go: str


@dataclass(frozen=True)
class Group:
    title: str
    note: str
    key: str
    counters: tuple[CounterButton, ...]


@dataclass(frozen=True)
class SetupRow:
    id: int
    name: str
    printed: str
    write: str


@dataclass(frozen=True)
class SetupGroup:
    key: str
    title: str
    side: str
    rows: tuple[SetupRow, ...]


@dataclass(frozen=True)
class Need:
    text: str
    go: str


@dataclass(frozen=True)
class TurnPanel:
    now: str
    turn: int
    status: str
    current: int | None
    note: str
    step_tools: bool
    step_label: str
    next_title: str
    version: int
    next_step: str  # its write (url and body), as JSON
    needs: tuple[Need, ...]
    waits: str = (
        ""  # to a seat shown no Next step in play: whose it is ("The Canadian player moves the game on.")
    )


@dataclass(frozen=True)
class Refusal:
    detail: str
    why: str = ""
    source: str = ""


def refusal(detail: object, why: object = "", source: object = "") -> Refusal:
    return Refusal(str(detail or ""), str(why or ""), str(source or ""))


@dataclass(frozen=True)
class Choice:
    """A button writing one thing: its words and its write (url, method and body, as JSON)."""

    label: str
    write: str


@dataclass(frozen=True)
class EditOffer:
    label: str
    field: str
    choices: tuple[tuple[str, object], ...]  # each choice's words and value (those needing no target)


@dataclass(frozen=True)
class OfferLine:
    """One act of the stand's card (`app.services.card.stand_card`'s offers): kind, key, words, its refusal,
    and what a move sets besides the place."""

    kind: str
    key: str
    label: str
    refused: Refusal | None
    values: dict[str, object]
    places: tuple[str, ...] = ()  # a result's move: the places a step away it is taken to now, a tap each
    typed: bool = True  # its place typed as well (not a result's move whose taps are all the pipeline takes)


@dataclass(frozen=True)
class Offered:
    acts: tuple[StandAct, ...]
    edits: tuple[EditOffer, ...]
    offers: tuple[OfferLine, ...]
    refused: Refusal | None


@dataclass(frozen=True)
class OptionSpec:
    """An option of a roll the card offers (`app.services.counters.roll_options`)."""

    kind: str  # "flag", "word" or "count"
    title: str
    default: object
    values: tuple[str | int, ...]
    labels: dict[str, str]


@dataclass(frozen=True)
class Done:
    """A recorded roll, as its event says it."""

    event_id: int
    resolver: str
    unit_id: int | None
    target_id: int | None
    dice: str
    outcome_key: str
    words: str
    said: tuple[str, ...]
    notes: tuple[str, ...] = ()  # what the result is, in the rules' words with its rule (the roll's notes)
    request: dict[str, object] = field(default_factory=dict)  # the roll's request as logged (who joined it)
    undo_refused: str = ""  # why this seat may not undo the roll now (the undo route's one answer), or ""


@dataclass(frozen=True)
class Play:
    """The act the card plays: the act, its target, the counters joining it, the options chosen (and offered),
    the request's fields, and the roll recorded."""

    act: StandAct
    target: int | None
    joined: tuple[int, ...]
    given: dict[str, FieldValue]
    specs: dict[str, OptionSpec]
    fields: dict[str, FieldValue]
    done: Done | None

    @property
    def unit_id(self) -> int | None:
        return None if self.act.on_enemy else self.act.unit_id

    def roll(self, url: str, dice: list[int] | None = None) -> str:
        """The roll's write as JSON: its request (`apply`), with the dice tapped when given."""
        body = {"unit_id": self.unit_id, "target_id": self.target, "fields": self.fields, "apply": True}
        return json.dumps({"url": url, "method": "POST", "body": body | ({"dice": dice} if dice else {})})


@dataclass(frozen=True)
class OptionButton:
    text: str
    pressed: bool
    go: str


@dataclass(frozen=True)
class OptionRow:
    title: str
    buttons: tuple[OptionButton, ...]


@dataclass(frozen=True)
class Face:
    """A die's face: tapped, it is kept (`go`: the roll's other dice still to tap) or the roll is recorded."""

    n: int
    pressed: bool
    write: str = ""
    go: str = ""


@dataclass(frozen=True)
class DiceRow:
    label: str
    faces: tuple[Face, ...]


@dataclass(frozen=True)
class PlaceForm:
    label: str
    numeric: bool
    field: str
    buttons: tuple[Choice, ...]  # each button: its words ("Move") and its write


@dataclass(frozen=True)
class Greyed:
    label: str
    detail: str


@dataclass(frozen=True)
class ActLink:
    label: str
    why: str
    go: str


@dataclass(frozen=True)
class Edit:
    label: str
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class ActsArea:
    acts: tuple[ActLink, ...]
    edits: tuple[Edit, ...]
    place: PlaceForm | None
    marks: tuple[Choice, ...]
    greyed: tuple[Greyed, ...]
    waiting: Refusal | None
    nothing: str


@dataclass(frozen=True)
class ResultFor:
    """A counter a recorded roll names, with what its card offers now to apply the roll's result (a step lost,
    a retreat to one of the places a tap names), each a write."""

    id: int
    name: str
    edits: tuple[Edit, ...]


@dataclass(frozen=True)
class PlayArea:
    title: str
    cancel: str
    done: Done | None = None
    undo_json: str = ""
    prompt: str = ""
    refused: Refusal | None = None
    options: tuple[OptionRow, ...] = ()
    detail: str = ""
    filled: tuple[str, ...] = ()
    odds: tuple[str, ...] = ()
    dice: tuple[DiceRow, ...] = ()
    roll: str = ""
    then: str = ""
    joins: bool = False
    lookup: str = ""
    # Once recorded: the result to apply on each of the roll's counters this seat may act for, and what the step
    # still needs of the others' (their owner's to apply).
    results: tuple[ResultFor, ...] = ()
    theirs: tuple[str, ...] = ()


@dataclass(frozen=True)
class Card:
    id: int
    name: str
    side: str
    side_line: str
    values_line: str
    close: str
    acts_area: ActsArea | None = None
    play: PlayArea | None = None


def natural(text: str) -> tuple[str | int, ...]:
    return tuple(int(p) if p.isdecimal() and len(p) < 10 else p.lower() for p in re.split(r"(\d+)", text))


def as_int(raw: str) -> int | None:
    try:
        return int(raw)
    except ValueError:
        return None


def value_words(v: object) -> str:
    if isinstance(v, list):
        return ", ".join(str(x) for x in v)
    if isinstance(v, bool):
        return "yes" if v else "no"
    return json.dumps(v) if isinstance(v, dict) else str(v)
