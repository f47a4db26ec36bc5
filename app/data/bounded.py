"""The bounded types every request model builds its fields from (issue 12): numbers no database column
overflows (no booleans for numbers, no NaN), free-form JSON of a bounded shape, the scenario files' and the
terrain's limits of a 120 x 180 cm table, and stored JSON read back within the serialiser's depth. Data shapes
(app.data.schemas*) and the routes' own request models import them; the door (app.guard.limits) bounds the
body's size before any of them is read."""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    AllowInfNan,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    model_validator,
)
from pydantic_core import PydanticCustomError

from rules.table.requests import MAX_FEATURES, MAX_VERTICES_TOTAL, count_vertices

# -- numbers: no booleans, no NaN or Infinity, nothing a database integer cannot hold -------------------------
INT32_MAX = 2**31 - 1  # PostgreSQL INTEGER; SQLite's is 2**63 - 1
FLOAT_MAX = 1e9


def _int32(value: int) -> int:
    if not -INT32_MAX <= value <= INT32_MAX:
        raise ValueError(f"must be within -{INT32_MAX}..{INT32_MAX}")
    return value


def _bounded_float(value: float) -> float:
    if not -FLOAT_MAX <= value <= FLOAT_MAX:
        raise ValueError(f"must be within -{FLOAT_MAX:g}..{FLOAT_MAX:g}")
    return value


# Strict: JSON `false` is not 0 (pydantic's lax mode would take it). Narrow further with Field(ge=.., le=..).
# The outer bounds are validators, not Field(ge/le): pydantic keeps one bound of each kind, and the alias's
# would silently replace a field's own narrower `Field(ge=1, le=100)`.
Int = Annotated[int, Strict(), AfterValidator(_int32)]
Bool = Annotated[bool, Strict()]  # 0, 1, "yes" are not true or false
Float = Annotated[float, Strict(), AllowInfNan(False), AfterValidator(_bounded_float)]
Version = Annotated[int, Strict(), Field(ge=1, le=INT32_MAX, description="The version the client saw.")]
Id = Annotated[int, Strict(), Field(ge=1, le=INT32_MAX)]
Die = Annotated[int, Strict(), Field(ge=1, le=100)]
DiceCounted = Annotated[int, Strict(), Field(ge=0, le=64)]  # as many as a roll's dice may be (ResolveRequest)


def _no_bool(value: Any) -> Any:
    if isinstance(value, bool):
        raise PydanticCustomError("literal_error", "Input should be {expected}", {"expected": "1 or -1"})
    return value


# One step up or down. A Literal takes JSON `true` as 1 (True == 1 to pydantic's lookup), and Strict() does not
# apply to a Literal: a boolean is refused before it (a hostile pass, session 20: `"delta": true` added a marker).
Step = Annotated[Literal[1, -1], BeforeValidator(_no_bool)]

# -- free-form JSON (terrain properties, resolver fields, campaign actions) -------------------------------
JSON_MAX_DEPTH = 6  # objects and lists inside the value itself
JSON_MAX_ITEMS = 64  # members of any one object or list
JSON_MAX_NODES = 2000  # values in the whole document
JSON_MAX_STRING = 1000  # characters in any one string or key


def check_json(value: Any, what: str = "value") -> Any:
    """Refuse free-form JSON a table never needs: deeper than JSON_MAX_DEPTH, wider than JSON_MAX_ITEMS,
    more than JSON_MAX_NODES values, longer strings than JSON_MAX_STRING, NaN/Infinity, integers past
    INT32_MAX. Iterative, so a value nested thousands deep cannot exhaust the stack."""
    stack: list[tuple[Any, str, int]] = [(value, what, 0)]
    nodes = 0
    while stack:
        node, path, depth = stack.pop()
        nodes += 1
        if nodes > JSON_MAX_NODES:
            raise ValueError(f"{what} has more than {JSON_MAX_NODES} values (allowed 0..{JSON_MAX_NODES})")
        if isinstance(node, dict | list):
            if depth >= JSON_MAX_DEPTH:
                raise ValueError(
                    f"{path} is nested deeper than {JSON_MAX_DEPTH} levels (allowed 0..{JSON_MAX_DEPTH})"
                )
            if len(node) > JSON_MAX_ITEMS:
                raise ValueError(f"{path} has {len(node)} members (allowed 0..{JSON_MAX_ITEMS})")
            items = node.items() if isinstance(node, dict) else enumerate(node)
            for key, child in items:
                if isinstance(key, str) and len(key) > JSON_MAX_STRING:
                    raise ValueError(f"{path} has a key longer than {JSON_MAX_STRING} characters")
                stack.append((child, f"{path}.{key}", depth + 1))
        elif isinstance(node, str):
            if len(node) > JSON_MAX_STRING:
                raise ValueError(
                    f"{path} is longer than {JSON_MAX_STRING} characters (allowed 0..{JSON_MAX_STRING})"
                )
        elif isinstance(node, bool) or node is None:
            continue
        elif isinstance(node, int):
            if abs(node) > INT32_MAX:
                raise ValueError(f"{path} is out of range (allowed -{INT32_MAX}..{INT32_MAX})")
        elif isinstance(node, float):
            if not math.isfinite(node) or abs(node) > FLOAT_MAX:
                raise ValueError(f"{path} must be a finite number in -1e9..1e9")
        else:
            raise ValueError(f"{path} is not a JSON value")
    return value


JsonObject = Annotated[dict[str, Any], AfterValidator(check_json)]


def nested_at_most(levels: int) -> AfterValidator:
    """A validator refusing a JSON value with objects and lists nested deeper than `levels` (iterative: a value
    nested thousands deep cannot exhaust the stack, and nothing past it reaches the serialiser, whose own
    limit is a 500)."""

    def check(value: Any) -> Any:
        stack: list[tuple[Any, int]] = [(value, 0)]
        while stack:
            node, depth = stack.pop()
            if isinstance(node, dict | list):
                if depth >= levels:
                    raise ValueError(f"nested deeper than {levels} levels (allowed 0..{levels})")
                stack.extend(
                    (child, depth + 1) for child in (node.values() if isinstance(node, dict) else node)
                )
        return value

    return AfterValidator(check)


Key = Annotated[str, Field(min_length=1, max_length=64)]
Variants = Annotated[
    dict[Key, Annotated[str, Field(max_length=64)]],
    Field(max_length=32, description="Erratum id -> reading id."),
]
# A Firestorm map (area -> adjacent areas): the map has 27 areas; a corrected one may add a few, never hundreds.
AreaId = Annotated[str, Field(min_length=1, max_length=8)]
Adjacency = Annotated[dict[AreaId, Annotated[list[AreaId], Field(max_length=30)]], Field(max_length=60)]

# -- scenario files (app/services/scenarios.py; the document's own limits are rules.core.scenario's) ------------
MAX_SCENARIO_BYTES = 1_000_000  # a document as compact JSON: Mons, a brigade against two regiments, is ~70 kB
# A scenario's JSON as a form's field (a page's post), percent-encoded: each character at most three (the door's
# body limit bounds the whole request; the form parser's own 1 MiB a field refused a table under its limit).
MAX_FORM_PART = 3 * MAX_SCENARIO_BYTES
MAX_SCENARIOS = 200  # imported scenarios a server keeps (the shipped ones are not counted)
MAX_SCENARIO_DRAFTS = 1000  # editor drafts a server keeps: one per browser and rule set (scenario_drafts)
# The editor's table: its form's own bounds (a table under 30 cm holds no deployment zones worth the name).
MIN_TABLE_CM = 30
MAX_EDITOR_TABLE_CM = 1000

# -- terrain: what a 120 x 180 cm table holds -----------------------------------------------------------------
MAX_TABLE_CM = 1000  # GameCreate's own cap on a table side
TABLE_MARGIN_CM = 100  # features may hang over the edge (a river running off the table)
MAX_VERTICES_PER_RING = 1000
MAX_RINGS_PER_POLYGON = 20
MAX_POLYGONS = 50
MAX_PROPERTIES = 32

TerrainCoord = Annotated[
    float, Strict(), AllowInfNan(False), Field(ge=-TABLE_MARGIN_CM, le=MAX_TABLE_CM + TABLE_MARGIN_CM)
]
Position = Annotated[list[TerrainCoord], Field(min_length=2, max_length=3)]  # GeoJSON allows an altitude
Ring = Annotated[list[Position], Field(min_length=4, max_length=MAX_VERTICES_PER_RING)]
Rings = Annotated[list[Ring], Field(min_length=1, max_length=MAX_RINGS_PER_POLYGON)]


def _check_properties(props: dict[str, Any]) -> dict[str, Any]:
    if len(props) > MAX_PROPERTIES:
        raise ValueError(f"{len(props)} properties (allowed 0..{MAX_PROPERTIES})")
    # A piece's name is words, as its panel sends it: a posted {"a": [[1]]} was listed as Python wrote it
    # (session 23's hostile pass).
    # (Its length is the panel's to bound: a scenario file may name a piece at length, its whole size bounded.)
    if not isinstance(props.get("name", ""), str):
        raise ValueError("name: give the piece's name as words")
    return check_json(props, "properties")


class _Geo(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TerrainPolygon(_Geo):
    type: Literal["Polygon"]
    coordinates: Rings


class TerrainMultiPolygon(_Geo):
    type: Literal["MultiPolygon"]
    coordinates: Annotated[list[Rings], Field(min_length=1, max_length=MAX_POLYGONS)]


class TerrainLineString(_Geo):
    type: Literal["LineString"]
    coordinates: Annotated[list[Position], Field(min_length=2, max_length=MAX_VERTICES_PER_RING)]


class TerrainFeature(_Geo):
    type: Literal["Feature"]
    id: Annotated[str, Field(max_length=64)] | Id | None = None
    geometry: Annotated[TerrainPolygon | TerrainMultiPolygon | TerrainLineString, Field(discriminator="type")]
    properties: Annotated[dict[str, Any], AfterValidator(_check_properties)] = Field(
        description=f"`kind` names the terrain; up to {MAX_PROPERTIES} more, plain JSON."
    )


class Terrain(_Geo):
    """A GeoJSON FeatureCollection of terrain, within the limits of a table."""

    type: Literal["FeatureCollection"] = "FeatureCollection"
    features: Annotated[list[TerrainFeature], Field(max_length=MAX_FEATURES)] = Field(default_factory=list)

    @model_validator(mode="after")
    def _total_vertices(self) -> Terrain:
        total = sum(count_vertices(f.geometry.type, f.geometry.coordinates) for f in self.features)
        if total > MAX_VERTICES_TOTAL:
            raise ValueError(f"{total} vertices in all (allowed 0..{MAX_VERTICES_TOTAL})")
        return self

    def as_geojson(self) -> dict[str, Any]:
        """The collection as sent (ids and properties the client left out stay out)."""
        return self.model_dump(exclude_unset=True, mode="json") | {"type": "FeatureCollection"}


# -- reading back what is stored ------------------------------------------------------------------------------
READ_MAX_DEPTH = 64  # well inside the serialiser's own limit (pydantic stops at ~255 levels with a 500)
TOO_DEEP = "(nested too deep to show)"


def readable_json(value: Any, depth: int = 0) -> Any:
    """A stored JSON value as it can be answered: parts nested past READ_MAX_DEPTH (only data stored before
    the limits above, or written straight into the database) are shown as TOO_DEEP, so the read answers
    instead of failing; the stored value itself is left as it is."""
    if isinstance(value, dict | list) and depth >= READ_MAX_DEPTH:
        return TOO_DEEP
    if isinstance(value, dict):
        return {k: readable_json(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [readable_json(v, depth + 1) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None  # JSON has no NaN; PostgreSQL and the browser's parser refuse it
    return value
