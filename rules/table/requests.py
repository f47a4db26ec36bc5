"""The table's request models, limits and helpers for a rule set's geometry lookups (rules.core.ruleset.Lookup,
served at /api/v1/rulesets/<id>/lookups/<lookup>): every lookup reads stands, templates, terrain and the table
the same way and serialises numbers and shapes the same way. A base or template kind is any word here, checked
against the measuring rule set's kit where it is read (kit_item); a rule set's own request models narrow it to
its kit's kinds for the schema."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Annotated, Any, Literal, TypeVar

from pydantic import AllowInfNan, BaseModel, ConfigDict, Field, model_validator
from pydantic import Strict as Exact
from shapely.geometry import mapping
from shapely.geometry.base import BaseGeometry

from rules.core.errors import RulesError
from rules.table import frame
from rules.table.bases import BaseSpec, Stand
from rules.table.geojson import GeoGeometry
from rules.table.templates import Template, TemplateSpec
from rules.table.terrain import FEATURE_KINDS, TerrainIndex, terrain_from_geojson

# Numbers and truth: JSON `false` is not 0 nor 1 true, no NaN or Infinity; every number field narrows its own
# with Field(ge=.., le=..) (the app's own bounded types are app.data.bounded's).
Float = Annotated[float, Exact(), AllowInfNan(False)]
Int = Annotated[int, Exact()]
Bool = Annotated[bool, Exact()]
# What a table's terrain holds (app.data.bounded's terrain of a game reads the same limits).
MAX_FEATURES = 500
MAX_VERTICES_TOTAL = 20_000
Coord = Annotated[Float, Field(ge=-1000, le=1000, allow_inf_nan=False)]
Angle = Annotated[Float, Field(ge=-720, le=720, allow_inf_nan=False, description="Degrees CCW from +x.")]
Point2 = tuple[Coord, Coord]
Kind = Annotated[str, Field(min_length=1, max_length=64)]  # a base or template of the rule set's kit
FeatureKind = Literal[FEATURE_KINDS]  # type: ignore[valid-type]
MAX_STANDS = 2000
_Spec = TypeVar("_Spec", BaseSpec, TemplateSpec)
Variants = Annotated[
    dict[str, str], Field(default_factory=dict, max_length=20, description="Erratum id -> reading id.")
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
    base: Kind
    center: Point2
    facing_deg: Angle = 90.0

    def stand(self, bases: Mapping[str, BaseSpec]) -> Stand:
        """The stand on the table, its base as the measuring rule set's kit sizes it."""
        return Stand(self.id, self.side, kit_item(bases, self.base, "base"), self.center, self.facing_deg)


class TemplateIn(Strict):
    kind: Kind
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


def count_vertices(kind: str, coordinates: Any) -> int:
    """Vertices of a GeoJSON LineString, Polygon or MultiPolygon."""
    if kind == "LineString":
        return len(coordinates)
    polygons = [coordinates] if kind == "Polygon" else coordinates
    return sum(len(ring) for rings in polygons for ring in rings)


# -- helpers --------------------------------------------------------------------------------------------------
def kit_item(items: Mapping[str, _Spec], kind: str, where: str) -> _Spec:
    """A base or template of the measuring rule set's kit, or a 4xx naming the field."""
    if kind not in items:
        raise RulesError(where, f"{kind!r} is not a {where} of this rule set: one of {', '.join(items)}")
    return items[kind]


def stand_list(items: Sequence[StandIn], bases: Mapping[str, BaseSpec], where: str = "stands") -> list[Stand]:
    seen: set[str] = set()
    for i, s in enumerate(items):
        if s.id in seen:
            raise RulesError(f"{where}.{i}.id", f"stand id {s.id!r} is used twice")
        seen.add(s.id)
    return [s.stand(bases) for s in items]


def geojson(geom: BaseGeometry | None) -> GeoGeometry | None:
    if geom is None or geom.is_empty:
        return None
    shown: GeoGeometry = mapping(geom)
    return {**shown}


def fraction_text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def rounded(v: float) -> float:
    return round(v, 6) + 0.0
