"""A unit added or edited by hand as the units API takes it (POST and PUT .../units, app/routes/forces.py): the
bodies' shapes, each state field typed by how its rule set lets a player set it (StateField.edit). Here, not in
the routes, so a page's form (the counter editor's, app.pages.club_save) is held to the same bounds."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, create_model

from app.data.bounded import INT32_MAX, Bool, Float, Id, Int, Key, Version
from app.data.schemas import Override
from app.data.schemas_units import STATE_FIELDS
from rules.core.vocabulary import Side

SideLit = Side


class UnitIn(BaseModel):
    """A unit added by hand (referee, or the player of its side)."""

    model_config = ConfigDict(extra="forbid")

    side: SideLit
    parent_id: Id | None = None
    name: str = Field(min_length=1, max_length=200)
    # The level and quality are words of the game's rule set (units_service.check_vocabulary).
    level: Key
    kind: str = Field(default="", max_length=48)
    base: str | None = Field(default=None, max_length=48)
    quality: Key | None = None
    models: Int = Field(default=0, ge=0, le=1000)
    is_command: Bool = False
    off_table: Bool = False
    x: Float | None = Field(default=None, ge=0, le=1000)
    y: Float | None = Field(default=None, ge=0, le=1000)
    facing_deg: Float | None = Field(default=None, ge=-360, le=360)
    state: dict[Key, Annotated[str, Field(max_length=64)] | Int | Bool | None] | None = Field(
        default=None,
        max_length=32,
        description="The rule set's state fields a player sets by hand (a counter's hex, division, printed "
        "strengths), set with the unit in one act: a unit refused leaves nothing behind.",
    )
    override: Override = False


class UnitEditFields(BaseModel):
    """A whole-object edit of a unit's state: `version` must be the current one, else 409 with the unit.
    UnitEdit adds the state fields each rule set lets a player set by hand (StateField.edit)."""

    model_config = ConfigDict(extra="forbid")

    version: Version
    name: str | None = Field(default=None, min_length=1, max_length=200)
    quality: Key | None = None  # a quality of the game's rule set
    off_table: Bool | None = None
    special_uses: dict[Key, Annotated[Int, Field(ge=0, le=INT32_MAX)]] | None = Field(
        default=None, max_length=32
    )
    override: Override = False


# How the API types a state field a player sets by hand (rules.core.records.StateField's `edit`).
EDIT_TYPES: dict[str, Any] = {
    "flag": Bool,
    "point": Annotated[
        list[Annotated[Float, Field(ge=-100, le=1100)]],
        Field(min_length=2, max_length=2, description="cm on the table (a little off it is allowed)."),
    ],
    "word": Annotated[str, Field(max_length=64, description="one of the rule set's words; empty clears it.")],
    "unit": Id,
    # A counter's printed strength (a hex-and-counter game's counters carry their own numbers).
    "number": Annotated[
        Int, Field(ge=0, le=999, description="a whole number printed on the unit's counter.")
    ],
}


if TYPE_CHECKING:  # the model below is built from the rule sets' state fields; type-check as its base
    UnitEdit = UnitEditFields
else:
    UnitEdit = create_model(
        "UnitEdit",
        __base__=UnitEditFields,
        **{n: (EDIT_TYPES[f.edit] | None, None) for n, f in STATE_FIELDS.items() if f.edit},
    )
