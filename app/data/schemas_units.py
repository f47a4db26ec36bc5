"""A unit as the API answers it (GET .../units, a live frame's units): the fields every rule set shares, and
each registered rule set's state fields flat beside them, a unit answering its own game's only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    SerializerFunctionWrapHandler,
    create_model,
    model_serializer,
)

from rules.core.records import StateField
from rules.registry import all_game_rules


class UnitFields(BaseModel):
    """A unit as the API answers it: the fields every rule set shares; UnitOut adds every rule set's state."""

    # A state field of a rule set registered after start-up (a test's) comes as a further key.
    model_config = ConfigDict(extra="allow")

    id: int
    game_id: int
    parent_id: int | None
    side: str
    ref: str
    name: str
    level: str
    kind: str
    base: str | None
    quality: str | None
    models: int
    is_command: bool
    off_table: bool
    x: float | None
    y: float | None
    facing_deg: float | None
    source: str
    killed: bool
    special_uses: dict[str, int] = Field(description="The special rules the unit has used, each how often.")
    version: int
    short_name: str | None = Field(
        default=None,
        description="In the list of a game's units: a name unique within the game ('1/2 Coy Plt 3').",
    )
    full_name: str | None = Field(
        default=None,
        description="In the list of a game's units: the unit's place in its force tree, in words.",
    )
    plain_name: str | None = Field(
        default=None,
        description="In the list of a game's units: its place in its force spelt out for a stranger "
        "('2nd platoon, 1st company, 1st battalion').",
    )
    # UnitOut declares every registered rule set's state fields; a unit answers its own game's only.
    _not_its_rule_sets: frozenset[str] = PrivateAttr(default=frozenset())

    # Unannotated on purpose: an annotated return would become the answer's schema instead of the model's.
    @model_serializer(mode="wrap")
    def _its_own_state(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        out: dict[str, Any] = handler(self)
        for name in self._not_its_rule_sets:
            out.pop(name, None)
        return out


# How the API reads a state field (rules.core.records.StateField), by its kind.
_READ_TYPES: dict[str, Any] = {"flag": bool, "count": int, "value": Any}


def _state_fields() -> dict[str, StateField]:
    """Every registered rule set's state fields by name (the first rule set to name one types it)."""
    out: dict[str, StateField] = {}
    for rules in all_game_rules():
        for f in rules.book.state_fields:
            out.setdefault(f.name, f)
    return out


# The state fields UnitOut declares (a rule set registered later answers its own as further keys).
STATE_FIELDS = _state_fields()


def _read_type(f: StateField) -> Any:
    return list[float] | None if f.edit == "point" else _READ_TYPES[f.kind]


if TYPE_CHECKING:  # built from the rule sets' state fields; type-checked as its base
    UnitOut = UnitFields
else:
    # Flat on the unit as the API has always answered them; a game of a rule set without one answers its
    # default.
    UnitOut = create_model(
        "UnitOut", __base__=UnitFields, **{n: (_read_type(f), f.default) for n, f in STATE_FIELDS.items()}
    )
