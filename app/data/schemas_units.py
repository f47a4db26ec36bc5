"""A unit as the API answers it (GET .../units, a live frame's units): the fields every rule set shares, and
its rule set's state fields flat beside them, typed by the model its rule set declares (`Book.unit_state`).
`UnitOut` is one model per rule set, told apart by the rule set (a unit answering its own game's state only):
a discriminated union, a unit of a rule set that declares no model (a test's, registered after start-up)
answering the shared fields with its state as further keys."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    SerializerFunctionWrapHandler,
    Tag,
    TypeAdapter,
    create_model,
    model_serializer,
)

from rules.core.records import StateField
from rules.registry import all_game_rules


class UnitFields(BaseModel):
    """A unit as the API answers it: the fields every rule set shares; its rule set's model adds its state."""

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
    # The rule set whose state the model types ("": none declared, its state further keys) and its state fields.
    ruleset: ClassVar[str] = ""
    state_names: ClassVar[frozenset[str]] = frozenset()

    # Unannotated on purpose: an annotated return would become the answer's schema instead of the model's.
    @model_serializer(mode="wrap")
    def _as_read(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        """A state field the reader did not give (none in a unit read whole) is left out, not answered at its
        default."""
        out: dict[str, Any] = handler(self)
        for name in self.state_names - self.model_fields_set:
            out.pop(name, None)
        return out


def _state_fields() -> dict[str, StateField]:
    """Every registered rule set's state fields by name (the first rule set to name one types it): the fields
    a unit edit may set (app.data.schemas_unit_edits)."""
    out: dict[str, StateField] = {}
    for rules in all_game_rules():
        for f in rules.book.state_fields:
            out.setdefault(f.name, f)
    return out


STATE_FIELDS = _state_fields()


def _unit_model(ruleset: str, state: type[BaseModel]) -> type[UnitFields]:
    """A unit of `ruleset`: the shared fields, then its declared state's, each as its model types it."""
    name = state.__name__.removesuffix("State")
    fields: dict[str, Any] = {n: (f.annotation, f) for n, f in state.model_fields.items()}
    model: type[UnitFields] = create_model(name, __base__=UnitFields, __doc__=state.__doc__, **fields)
    model.ruleset = ruleset
    model.state_names = frozenset(state.model_fields)
    return model


# Each rule set that declares its unit state, by its id.
UNIT_MODELS: dict[str, type[UnitFields]] = {
    r.book.ruleset_id: _unit_model(r.book.ruleset_id, r.book.unit_state)
    for r in all_game_rules()
    if r.book.unit_state is not None
}
_BY_STATE = {m.state_names: m.ruleset for m in UNIT_MODELS.values()}
_SHARED = frozenset(UnitFields.model_fields)


def _ruleset_of(unit: Any) -> str:
    """The union's discriminator: a model's own rule set; a unit as JSON, the rule set whose state fields are
    exactly its keys beyond the shared ones."""
    if isinstance(unit, UnitFields):
        return unit.ruleset
    return _BY_STATE.get(frozenset(unit) - _SHARED, "") if isinstance(unit, dict) else ""


if TYPE_CHECKING:  # one model per rule set; type-checked as their base
    UnitOut = UnitFields
else:
    UnitOut = Annotated[
        Union[(*(Annotated[m, Tag(r)] for r, m in UNIT_MODELS.items()), Annotated[UnitFields, Tag("")])],
        Discriminator(_ruleset_of),
    ]


_READ: TypeAdapter[UnitOut] = TypeAdapter(UnitOut)


def unit_of(fields: dict[str, Any]) -> UnitFields:
    """A unit as a reader gives it (app.services.units.Reader) in its rule set's model."""
    return _READ.validate_python(fields)
