"""Terrain features: GeoJSON in and out, each feature an area on the table.

Area kinds come as (Multi)Polygons. Line kinds may come as LineStrings: trenches and roads are buffered
to their `width_cm`, wire to its `depth_cm` (by default the rule set's standard belt, `wire_belt_cm`);
streams and rivers may stay lines (they are crossed, not occupied).
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, Literal, get_args

import numpy as np
import shapely
from shapely import STRtree
from shapely.errors import GEOSException
from shapely.geometry import mapping, shape
from shapely.geometry.base import BaseGeometry

from rules.core.errors import RulesError
from rules.table.geojson import FeatureCollection, GeoFeature

FeatureKind = Literal[
    "woods",
    "village",
    "marsh",
    "river-bank",
    "hill",
    "road",
    "stream",
    "river",
    "shell-torn",
    "shattered",
    "trench",
    "strongpoint",
    "blockhouse",
    "wire",
]
FEATURE_KINDS: tuple[str, ...] = get_args(FeatureKind)
AREA_KINDS = frozenset(FEATURE_KINDS) - {"road", "stream", "river", "trench", "wire"}
# Line kinds that become areas: the property that gives their breadth (wire defaults to the rule set's
# standard belt; the others must give it).
BUFFERED: dict[str, str] = {"trench": "width_cm", "road": "width_cm", "wire": "depth_cm"}
# The work of widening a line grows with its points and with how much of it overlaps itself (GEOS buffered a
# zigzag road of 300 points in 1.5 s, of 1,000 in 20 s): bounds on what is sent, not rules of play.
WIDENED_LINE_MOST_POINTS = 50
WIDENED_MOST_POINTS = 1_000
# What a piece of a kind says of itself besides its breadth, each read by the rules of that kind alone: a hill's
# height above the table (line of sight: rules.table.los), a trench's owner (whose trench it is).
PIECE_PROPERTIES: dict[str, tuple[str, ...]] = {"hill": ("height_cm",), "trench": ("owner",)}
# Buildings and woods block sight ("see over buildings and woods" only from elevated ground).
SIGHT_BLOCKING = frozenset({"woods", "village"})


@dataclass(frozen=True)
class Feature:
    id: str
    kind: str
    geometry: BaseGeometry
    properties: Mapping[str, Any] = field(default_factory=dict)

    @property
    def height_cm(self) -> float:
        return float(self.properties.get("height_cm", 0.0) or 0.0)

    def as_geojson(self) -> GeoFeature:
        return {
            "type": "Feature",
            "id": self.id,
            "geometry": mapping(self.geometry),
            "properties": {**self.properties, "kind": self.kind},
        }


def feature_from_geojson(obj: Mapping[str, Any], where: str, *, wire_belt_cm: float | None) -> Feature:
    """One GeoJSON Feature (`properties.kind` names the terrain). `where` is the dotted request path used
    in errors; a wire line without `depth_cm` is a standard belt, `wire_belt_cm` deep (None: a wire line must
    give its `depth_cm`)."""
    props = dict(obj.get("properties") or {})
    kind = props.pop("kind", None)
    if kind not in FEATURE_KINDS:
        raise RulesError(f"{where}.properties.kind", f"unknown terrain kind {kind!r}", FEATURE_KINDS)
    fid = str(obj.get("id") if obj.get("id") is not None else props.get("id", where.rsplit(".", 1)[-1]))
    try:
        geom = shape(obj["geometry"])
    except (GEOSException, ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise RulesError(f"{where}.geometry", f"not a usable GeoJSON geometry: {exc}") from exc
    allowed = ("Polygon", "MultiPolygon") if kind in AREA_KINDS else ("Polygon", "MultiPolygon", "LineString")
    if geom.geom_type not in allowed:
        raise RulesError(f"{where}.geometry.type", f"a {kind} must be one of these geometries", allowed)
    if geom.is_empty or not geom.is_valid:
        raise RulesError(
            f"{where}.geometry", f"the {kind} geometry is empty or not valid: {shapely.is_valid_reason(geom)}"
        )
    if geom.geom_type == "LineString" and kind in BUFFERED:
        prop = BUFFERED[kind]
        breadth = props.get(prop, wire_belt_cm if kind == "wire" else None)
        if (
            not isinstance(breadth, int | float)
            or isinstance(breadth, bool)
            or not 0 < breadth <= 100
            or math.isnan(breadth)
        ):
            raise RulesError(
                f"{where}.properties.{prop}", f"a {kind} line needs {prop}, a number of cm in (0, 100]"
            )
        props[prop] = float(breadth)
        geom = geom.buffer(float(breadth) / 2, cap_style="flat")
    for key in ("height_cm", "width_cm", "depth_cm"):
        v = props.get(key)
        if v is not None and (not isinstance(v, int | float) or isinstance(v, bool) or not math.isfinite(v)):
            raise RulesError(f"{where}.properties.{key}", "must be a finite number of cm")
    return Feature(fid, kind, geom, props)


def widening_refused(features: Sequence[Any], where: str) -> None:
    """Refuse, before any is widened, a collection whose lines to widen (a road, a trench, a wire belt) would
    cost too much work: over WIDENED_LINE_MOST_POINTS points in one, or WIDENED_MOST_POINTS in all."""
    total = 0
    for i, obj in enumerate(features):
        geometry, props = (
            (obj.get("geometry"), obj.get("properties")) if isinstance(obj, Mapping) else (None, None)
        )
        if (
            not isinstance(geometry, Mapping)
            or not isinstance(props, Mapping)
            or props.get("kind") not in BUFFERED
        ):
            continue
        points = geometry.get("coordinates") if geometry.get("type") == "LineString" else None
        if not isinstance(points, list):
            continue
        total += len(points)
        if len(points) > WIDENED_LINE_MOST_POINTS:
            raise RulesError(
                f"{where}.{i}.geometry",
                f"a {props['kind']} line has at most {WIDENED_LINE_MOST_POINTS} points",
            )
        if total > WIDENED_MOST_POINTS:
            raise RulesError(
                f"{where}.{i}.geometry",
                f"the lines to widen have at most {WIDENED_MOST_POINTS} points in all",
            )


def terrain_from_geojson(
    collection: Mapping[str, Any], where: str = "terrain", *, wire_belt_cm: float | None
) -> list[Feature]:
    features = collection.get("features") or []
    widening_refused(features, f"{where}.features")
    return [
        feature_from_geojson(f, f"{where}.features.{i}", wire_belt_cm=wire_belt_cm)
        for i, f in enumerate(features)
    ]


def terrain_to_geojson(features: Sequence[Feature]) -> FeatureCollection:
    return {"type": "FeatureCollection", "features": [f.as_geojson() for f in features]}


@dataclass
class TerrainIndex:
    """Features with one STRtree over them, their geometries prepared (a predicate against a prepared
    many-sided wood or wire belt reads its own index of edges, not every edge: issue 52)."""

    features: list[Feature]
    tree: STRtree

    @classmethod
    def build(cls, features: Sequence[Feature]) -> TerrainIndex:
        geometries = [f.geometry for f in features]
        shapely.prepare(geometries)
        return cls(list(features), STRtree(geometries))

    def intersecting(self, geom: BaseGeometry) -> list[Feature]:
        """The features `geom` intersects, in their order: the tree's candidates by their boxes, each tested
        against its prepared geometry (the same answer as the tree's own `intersects` query, which tests
        each candidate against `geom` edge by edge)."""
        if not self.features or geom.is_empty:
            return []
        near = np.sort(self.tree.query(geom))
        hit = shapely.intersects(self.tree.geometries.take(near), geom)
        return [self.features[i] for i in near[hit]]

    @cached_property
    def sight(self) -> TerrainIndex:
        """The features a line of sight reads (rules.table.los): hills and what blocks sight; the rest (wire,
        roads, marsh ...) never stops a line nor raises a viewer. Built once per index."""
        kept = [f for f in self.features if f.kind == "hill" or f.kind in SIGHT_BLOCKING]
        return TerrainIndex(kept, STRtree([f.geometry for f in kept]))

    def kinds_at(self, geom: BaseGeometry) -> set[str]:
        """Kinds of the features a base stands in (its interior overlaps the feature)."""
        return {f.kind for f in self.intersecting(geom) if geom.intersection(f.geometry).area > 1e-9}

    def elevation_at(self, geom: BaseGeometry) -> float:
        """The highest hill under the base (0: level ground)."""
        hills = [f.height_cm for f in self.intersecting(geom) if f.kind == "hill"]
        return max(hills, default=0.0)


# -- a game's terrain indexed once -------------------------------------------------------------------------------
def indexed(terrain: Mapping[str, Any], wire_belt_cm: float | None) -> TerrainIndex:
    """A game's terrain (GeoJSON) indexed, kept per terrain (read-only once built), with wire belts of
    `wire_belt_cm` (None: the rule set has no standard belt)."""
    return _indexed(geojson_text(terrain), wire_belt_cm)


@lru_cache(maxsize=16)
def _indexed(geojson: str, wire_belt_cm: float | None) -> TerrainIndex:
    return TerrainIndex.build(terrain_from_geojson(json.loads(geojson), wire_belt_cm=wire_belt_cm))


# The JSON text of the last terrains read, by the object read: a snapshot's terrain is never changed in place (a
# new terrain is a new object; the app keeps one per version of a game), and writing out the largest costs 25 ms,
# once per terrain, not once per stand measured (issue 52: a bombardment's card measured the ground of each stand
# under it; a Flanders Fields shot's targets each measured theirs).
_TEXTS: dict[int, tuple[object, str]] = {}  # the object held for its identity alone
_TEXTS_KEPT = 16
_TEXTS_LOCK = threading.Lock()  # the app's worker threads read terrains at once


def geojson_text(terrain: Mapping[str, Any]) -> str:
    """The terrain's canonical JSON text (its keys sorted, no spaces): what its index is kept by."""
    with _TEXTS_LOCK:
        seen = _TEXTS.get(id(terrain))
    if seen is not None and seen[0] is terrain:
        return seen[1]
    text = json.dumps(terrain, sort_keys=True, separators=(",", ":"))
    with _TEXTS_LOCK:
        _TEXTS[id(terrain)] = (terrain, text)  # holding the object keeps its id from being reused
        while len(_TEXTS) > _TEXTS_KEPT:
            del _TEXTS[next(iter(_TEXTS))]
    return text
