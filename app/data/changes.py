"""The changes as the log keeps them: what an act wrote to a unit, the game or a side, each the before and after
of one field (or a counter's delta), one model per kind. The one applier writes the rules' change records
(rules.core.records) and answers these (app.services.markers.apply_changes); the act pipeline, the undo, the
log, the live frames and the answers carry them, and `/openapi.json` types each one.

The JSON is the log's as it always was, with no key naming the kind: the kinds are told apart by their keys
(a unit's field set names `unit` and `before`, a counter moved `unit` and `delta`, the game's `game`, a side's
own `side` alone), which is what `kind_of` reads; each model is closed to the others' keys, so exactly one kind
matches any change (`oneOf` in `/openapi.json`). In Python each model's `kind` names it, the union's
discriminator."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Union, get_args, get_type_hints

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    TypeAdapter,
    ValidationError,
)
from typing_extensions import is_typeddict

from rules.registry import all_game_rules


class _Change(BaseModel):
    # Closed in /openapi.json, so exactly one kind matches a change; a key an older log kept beside them is
    # left out as it is read (the kind is read from the keys, `kind_of`, never by trying each).
    model_config = ConfigDict(extra="ignore", frozen=True, json_schema_extra={"additionalProperties": False})

    kind: ClassVar[str]
    field: str = Field(description="The field changed: a column or state field, a board key, a side's key.")
    after: Any = Field(description="Its value once changed.")


# What a side's own key holds (rules.core.records.SetSideState, kept by app.services.seats.set_side_allowance):
# a count (Flanders Fields' heroic actions left) or a list (its random-event hand, the cards' names), None when
# taken away; no rule set keeps an object there. A JSON scalar or a list of them.
SideScalar = bool | int | float | str | None
SideValue = SideScalar | list[SideScalar]


def _records() -> tuple[type, ...]:
    """The records the rule sets declare among their units' state fields (`Book.unit_state`: a field typed by a
    model or a TypedDict of its own), each once."""
    found: list[type] = []
    for rules in all_game_rules():
        state = rules.book.unit_state
        for f in state.model_fields.values() if state is not None else ():
            found += [t for t in get_args(f.annotation) or (f.annotation,) if _is_record(t)]
    return tuple(dict.fromkeys(found))


def _is_record(t: Any) -> bool:
    return is_typeddict(t) or (isinstance(t, type) and issubclass(t, BaseModel))


def _exactly(record: type) -> Any:
    """`record` taking an object of its own keys alone: pydantic would drop the others, and so rewrite in the log
    a value that was never the record (the hostile pass of this stop: `{"a": [1]}` logged as `{}`)."""
    keys = frozenset(record.model_fields if issubclass(record, BaseModel) else get_type_hints(record))

    def its_own(value: Any) -> Any:
        if isinstance(value, dict) and not value.keys() <= keys:
            raise ValueError(f"keys {record.__name__} does not declare: {sorted(value.keys() - keys)}")
        return value

    return Annotated[record, BeforeValidator(its_own)]


# What a unit's field holds (app.services.units: one of its columns, or a state field its rule set declares): a
# JSON scalar, a list of them (a place as two numbers, the ids of stands), a count by name, or a record its rule
# set declares. The lists' and counts' own values are each told apart (an int stays an int, a float a float: the
# log's JSON is kept as written); an object that is not a count by name is one of the records, with its keys alone;
# anything else is no unit's value, refused rather than rewritten.
if TYPE_CHECKING:  # type-checked as the JSON it is (a record is read as a dict)
    UnitValue = SideScalar | list[SideScalar] | dict[str, SideScalar]
else:
    UnitValue = Union[(SideScalar, list[SideScalar], dict[str, SideScalar], *map(_exactly, _records()))]


class UnitSet(_Change):
    """A unit's field set: a flag, a value, a place, a count set outright. A change to one of its side's
    secrets (a battery's aiming point) names the side, whose part of the log it is kept in."""

    kind: ClassVar[str] = "unit-set"
    unit: int = Field(description="The unit's id.")
    before: UnitValue = Field(description="Its value before.")
    after: UnitValue = Field(description="Its value once changed.")
    side: str | None = Field(
        default=None,
        exclude_if=lambda side: side is None,
        description="The side whose secret it is (absent: everyone reads it).",
    )


class UnitCounted(_Change):
    """A unit's counter moved by `delta`, atomically: two devices adding a marker at once make two."""

    kind: ClassVar[str] = "unit-counted"
    unit: int = Field(description="The unit's id.")
    delta: int = Field(description="How far the counter moved.")
    after: int = Field(description="The count once moved.")


class GameSet(_Change):
    """One of the game's own fields set: a board key the game keeps, or its board."""

    kind: ClassVar[str] = "game-set"
    game: int = Field(description="The game's id.")
    before: Any = Field(description="Its value before.")


class SideSet(_Change):
    """A side's own state set (its hand of cards, a once-per-game allowance; None: taken away): that side's
    alone to read, kept in its part of the log."""

    kind: ClassVar[str] = "side-set"
    side: str = Field(description="The side whose row it is.")
    before: SideValue = Field(description="Its value before.")
    after: SideValue = Field(description="Its value once changed.")


def kind_of(change: Any) -> str | None:
    """The kind of a change, a model's own or a logged one's read from its keys; None for anything else."""
    if isinstance(change, _Change):
        return change.kind
    if not isinstance(change, dict):
        return None
    if "unit" in change:
        return UnitCounted.kind if "delta" in change else UnitSet.kind
    if "game" in change:
        return GameSet.kind
    return SideSet.kind if "side" in change else None


LoggedChange = Annotated[
    Annotated[UnitSet, Tag(UnitSet.kind)]
    | Annotated[UnitCounted, Tag(UnitCounted.kind)]
    | Annotated[GameSet, Tag(GameSet.kind)]
    | Annotated[SideSet, Tag(SideSet.kind)],
    Discriminator(kind_of),
]
"""One change as the log keeps it, of any kind."""

_CHANGES: TypeAdapter[list[LoggedChange]] = TypeAdapter(list[LoggedChange])


def read_changes(logged: Iterable[Any]) -> list[LoggedChange]:
    """The changes of a logged payload (JSON), each as its kind's model."""
    return _CHANGES.validate_python(list(logged))


_CHANGE: TypeAdapter[LoggedChange] = TypeAdapter(LoggedChange)


def changes_in(payload: Mapping[str, Any]) -> list[LoggedChange]:
    """The changes of a logged event's payload (as a viewer reads it), each as its kind's model; whatever of
    its `changes` is no change (the log is read as it was written, older versions' included) is passed over."""
    out: list[LoggedChange] = []
    kept = payload.get("changes")
    for c in kept if isinstance(kept, list) else ():
        try:
            out.append(_CHANGE.validate_python(c))
        except ValidationError:
            continue
    return out


def logged(changes: Sequence[LoggedChange]) -> list[dict[str, Any]]:
    """The changes as the log's JSON keeps them."""
    return _CHANGES.dump_python(list(changes), mode="json")


def side_of(change: LoggedChange) -> str | None:
    """The side whose part of the log a change is kept in: a side's own row, or a unit's secret; else None."""
    return change.side if isinstance(change, UnitSet | SideSet) else None
