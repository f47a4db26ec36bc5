"""The table geometry's shared request models, limits and helpers: every geometry route module
(app/routes/geometry*.py) reads stands, templates, terrain and the table the same way and serialises
numbers and shapes the same way. The geometry itself lives in rules/table."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator
from shapely.geometry import mapping
from shapely.geometry.base import BaseGeometry

from app import errors
from app.data.bounded import MAX_FEATURES, MAX_VERTICES_TOTAL, Float, count_vertices
from rules.core.errors import RulesError
from rules.registry import all_game_rules
from rules.table import frame
from rules.table.bases import BaseSpec, Stand
from rules.table.templates import Template, TemplateSpec
from rules.table.terrain import FEATURE_KINDS, TerrainIndex, terrain_from_geojson

ERRORS = errors.responses(422)

Coord = Annotated[Float, Field(ge=-1000, le=1000, allow_inf_nan=False)]
Angle = Annotated[Float, Field(ge=-720, le=720, allow_inf_nan=False, description="Degrees CCW from +x.")]
Point2 = tuple[Coord, Coord]
# The bases and templates of every rule set played as a game (its table kit's, rules.core.kit.TableKit); a
# route measures with one rule set's kit, which says whether it knows the kind.
BASE_KINDS = tuple(dict.fromkeys(k for r in all_game_rules() for k in r.book.kit.bases))
TEMPLATE_KINDS = tuple(dict.fromkeys(k for r in all_game_rules() for k in r.book.kit.templates))
BaseKind = Literal[BASE_KINDS]  # type: ignore[valid-type]
TemplateKind = Literal[TEMPLATE_KINDS]  # type: ignore[valid-type]
FeatureKind = Literal[FEATURE_KINDS]  # type: ignore[valid-type]
MAX_STANDS = 2000
_Spec = TypeVar("_Spec", BaseSpec, TemplateSpec)
Variants = Annotated[
    dict[str, str],
    Field(default_factory=dict, max_length=20, description="Erratum id -> reading id (Flanders Fields)."),
]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TableIn(Strict):
    width_cm: Float = Field(default=frame.TABLE_WIDTH_CM, gt=0, le=1000, allow_inf_nan=False)
    length_cm: Float = Field(default=frame.TABLE_LENGTH_CM, gt=0, le=1000, allow_inf_nan=False)

    def table(self) -> frame.Table:
        return frame.Table(self.width_cm, self.length_cm)


class StandIn(Strict):
    id: str = Field(min_length=1, max_length=64)
    side: str = Field(default="", max_length=32)
    base: BaseKind
    center: Point2
    facing_deg: Angle = 90.0

    def stand(self, bases: Mapping[str, BaseSpec]) -> Stand:
        """The stand on the table, its base as the measuring rule set's kit sizes it."""
        return Stand(self.id, self.side, kit_item(bases, self.base, "base"), self.center, self.facing_deg)


class TemplateOut(BaseModel):
    """A template on the table (app.services.templates keeps them on the board)."""

    id: int
    kind: str
    side: str = Field(description="The side the template belongs to: it and the referee may move it.")
    x: float
    y: float
    rotation: float
    version: int = Field(description="The id of the event that last changed it.")


class TemplateIn(Strict):
    kind: TemplateKind
    center: Point2
    facing_deg: Angle = Field(default=90.0, description="The template's depth runs along this direction.")

    def template(self, templates: Mapping[str, TemplateSpec]) -> Template:
        """The template on the table, as the measuring rule set's kit sizes it."""
        return Template(kit_item(templates, self.kind, "kind"), self.center, self.facing_deg)


Stands = Annotated[list[StandIn], Field(default_factory=list, max_length=MAX_STANDS)]


# -- GeoJSON terrain ------------------------------------------------------------------------------------------
Ring = Annotated[list[Point2], Field(min_length=4, max_length=500)]


class PolygonIn(Strict):
    type: Literal["Polygon"]
    coordinates: Annotated[list[Ring], Field(min_length=1, max_length=20)]


class MultiPolygonIn(Strict):
    type: Literal["MultiPolygon"]
    coordinates: Annotated[
        list[Annotated[list[Ring], Field(min_length=1, max_length=20)]], Field(max_length=50)
    ]


class LineStringIn(Strict):
    type: Literal["LineString"]
    coordinates: Annotated[list[Point2], Field(min_length=2, max_length=500)]


class FeaturePropertiesIn(Strict):
    kind: FeatureKind
    name: str | None = Field(default=None, max_length=100)
    height_cm: Float | None = Field(default=None, ge=0, le=100, allow_inf_nan=False)
    width_cm: Float | None = Field(default=None, gt=0, le=100, allow_inf_nan=False)
    depth_cm: Float | None = Field(default=None, gt=0, le=100, allow_inf_nan=False)


class FeatureIn(Strict):
    type: Literal["Feature"]
    id: str | None = Field(default=None, max_length=64)
    geometry: Annotated[PolygonIn | MultiPolygonIn | LineStringIn, Field(discriminator="type")]
    properties: FeaturePropertiesIn


class TerrainIn(Strict):
    type: Literal["FeatureCollection"] = "FeatureCollection"
    features: list[FeatureIn] = Field(default_factory=list, max_length=MAX_FEATURES)

    @model_validator(mode="after")
    def _total_vertices(self) -> TerrainIn:
        total = sum(count_vertices(f.geometry.type, f.geometry.coordinates) for f in self.features)
        if total > MAX_VERTICES_TOTAL:
            raise ValueError(f"{total} vertices in all (allowed 0..{MAX_VERTICES_TOTAL})")
        return self

    def index(self, *, wire_belt_cm: float | None, where: str = "terrain") -> TerrainIndex:
        """The terrain indexed; a wire line without `depth_cm` is a standard belt of the measuring rule set."""
        return TerrainIndex.build(
            terrain_from_geojson(self.model_dump(exclude_none=True), where, wire_belt_cm=wire_belt_cm)
        )


# -- helpers --------------------------------------------------------------------------------------------------
def kit_item(items: Mapping[str, _Spec], kind: str, where: str) -> _Spec:
    """A base or template of the measuring rule set's kit, or a 4xx naming the field."""
    if kind not in items:
        raise RulesError(where, f"{kind!r} is not a {where} of this rule set: one of {', '.join(items)}")
    return items[kind]


def stand_list(items: list[StandIn], bases: Mapping[str, BaseSpec], where: str = "stands") -> list[Stand]:
    seen: set[str] = set()
    for i, s in enumerate(items):
        if s.id in seen:
            raise RulesError(f"{where}.{i}.id", f"stand id {s.id!r} is used twice")
        seen.add(s.id)
    return [s.stand(bases) for s in items]


def geojson(geom: BaseGeometry | None) -> dict[str, Any] | None:
    if geom is None or geom.is_empty:
        return None
    return dict(mapping(geom))


def fraction_text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def rounded(v: float) -> float:
    return round(v, 6) + 0.0
