"""The body of a scenario import or replacement (docs/scenario-format.md): each top-level field typed and
bounded here, so a hostile value is refused naming its field before the document is read; the document's own
checks (its rule set's periods, nations, qualities, the units, every shape on the table) are
rules.core.scenario.validate's."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.data.bounded import (
    Float,
    Int,
    JsonObject,
    Position,
    Terrain,
    TerrainPolygon,
    Variants,
    nested_at_most,
)
from rules.core import scenario as S
from rules.table import objectives as O

SideName = Literal["attacker", "defender"]
Text = Annotated[str, Field(max_length=S.MAX_TEXT)]
Name = Annotated[str, Field(min_length=1, max_length=100)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ScenarioTable(_Strict):
    width_cm: Annotated[Float, Field(ge=1, le=S.MAX_TABLE_CM)]
    length_cm: Annotated[Float, Field(ge=1, le=S.MAX_TABLE_CM)]


class ScenarioSide(_Strict):
    nationality: Annotated[str, Field(max_length=32)]
    deployment_zone: TerrainPolygon | None = None
    # Units nest S.MAX_DEPTH levels (each a unit and its list of children) with a unit's own values below.
    forces: Annotated[
        list[dict[str, Any]], Field(max_length=S.MAX_UNITS), nested_at_most(2 * S.MAX_DEPTH + 4)
    ] = Field(
        description="Units (id, name, level, kind, base, quality, models, gun, source, placement, off_table, "
        "children) or organisation-table entries (table_id, template, quality, name, id, off_table)."
    )


class ObjectivePoint(_Strict):
    type: Literal["Point"]
    coordinates: Position


class ObjectiveProperties(_Strict):
    name: Annotated[str, Field(min_length=1, max_length=O.MAX_NAME)]
    vp: Annotated[Int, Field(ge=0, le=O.MAX_VP)]
    scored: Literal["each_turn", "game_end", "first_taken"]
    held_by: Literal["stands", "attacker", "defender"] | None = None
    # Only this side (and the referee) sees it until it scores (app.services.secret_objectives, issue 69).
    secret_to: Literal["attacker", "defender"] | None = None


class ObjectiveFeature(_Strict):
    type: Literal["Feature"]
    id: Annotated[str, Field(pattern=O.ID_PATTERN.pattern)] | None = None
    geometry: Annotated[ObjectivePoint | TerrainPolygon, Field(discriminator="type")]
    properties: ObjectiveProperties


class TableObjectives(_Strict):
    """The scenario's objectives on the table (rules.table.objectives): points or areas, in cm."""

    type: Literal["FeatureCollection"]
    features: Annotated[list[ObjectiveFeature], Field(max_length=O.MAX_OBJECTIVES)]


# A game of counters' values from the club's own copy (its rule set checks them): a scenario's `board`, and a
# game's own in set-up (PATCH /api/v1/games/{id} `club`).
ScenarioBoard = Annotated[dict[str, Any], Field(max_length=32), nested_at_most(4)]


class ScenarioIn(_Strict):
    format: Literal["firestep-scenario/1"]
    id: Annotated[str, Field(pattern=S.ID_PATTERN.pattern)] | None = None
    title: Annotated[str, Field(min_length=1, max_length=200)]
    ruleset: Annotated[str, Field(max_length=64)]
    period: Annotated[str, Field(max_length=32)] | None  # null: a rule set that names no periods
    date: Annotated[str, Field(max_length=100)] | None = None
    source: Annotated[str, Field(max_length=1000)] | None = None
    table: ScenarioTable
    turns: Annotated[Int, Field(ge=1, le=S.MAX_TURNS)] | None = None
    first_side: SideName | None = None
    objectives: Text | None = None
    victory: Text | None = None
    notes: Annotated[
        list[Annotated[str, Field(max_length=S.MAX_NOTES_CHARS)]], Field(max_length=S.MAX_NOTES)
    ] = []
    special_rules: dict[SideName, Annotated[list[Name], Field(max_length=S.MAX_RULES)]] = {}
    fire_plan: JsonObject = {}
    variants: Variants = {}
    errata: Annotated[list[Annotated[str, Field(max_length=64)]], Field(max_length=50)] = []
    terrain: Terrain | None = None
    # A game of counters on the players' own board: the values it starts with (its rule set checks them).
    board: ScenarioBoard = {}
    table_objectives: TableObjectives | None = None
    sides: dict[SideName, ScenarioSide]

    def document(self) -> dict[str, Any]:
        """The document as it was sent (fields left out stay out)."""
        return self.model_dump(mode="json", exclude_unset=True)
