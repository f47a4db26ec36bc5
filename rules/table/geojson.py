"""GeoJSON as the table writes it (RFC 7946): a geometry, a feature with its properties, a collection of
features (a scenario's terrain and objectives, a lookup's areas). Positions are table cm (rules/table/frame.py).
What a document writes is read and checked where it is read (rules.table.terrain, rules.table.objectives)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, NotRequired

from pydantic import JsonValue
from typing_extensions import TypeAliasType, TypedDict

# A geometry's coordinates: positions ([x, y] in cm) nested as deep as its type says (a point one, a line a list
# of them, a polygon a list of rings, a multipolygon a list of polygons); shapely writes tuples, a document lists.
# (pydantic, reading a geometry in an answer, reads the same alias as a TypeAliasType)
if TYPE_CHECKING:
    Coordinates = Sequence[float] | Sequence["Coordinates"]
else:
    Coordinates = TypeAliasType("Coordinates", Sequence[float] | Sequence["Coordinates"])


class GeoGeometry(TypedDict):
    """A GeoJSON geometry: its type ("Point", "LineString", "Polygon", "MultiPolygon" ...) and coordinates, or a
    collection's geometries."""

    type: str
    coordinates: NotRequired[Coordinates]
    geometries: NotRequired[list[GeoGeometry]]


class GeoFeature(TypedDict):
    """A GeoJSON feature: its id, geometry and properties. The properties are the document's own (a terrain
    feature's `kind` and measures, an objective's name, worth and scoring): JsonValue, each reader checks the
    keys it reads."""

    type: Literal["Feature"]
    id: NotRequired[str]
    geometry: GeoGeometry
    properties: dict[str, JsonValue]


class FeatureCollection(TypedDict):
    type: Literal["FeatureCollection"]
    features: list[GeoFeature]
