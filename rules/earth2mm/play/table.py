"""2mm Earth 1418's table: its terrain classes (open, rough, defensible, fortification, impractical, road:
DIGGING IN & COVER) read from the table's GeoJSON features, each feature's kind giving its class unless it
names one (`properties.terrain_class`), and an unknown class refused with the rule."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, TypedDict, get_args

from rules.core.errors import RulesError
from rules.core.game import GameRules
from rules.core.kit import TERRAIN_CLASS
from rules.core.kit import TerrainClass as GroundClass
from rules.earth2mm.data import COVER, MOVE_PERCENT, SRC_COVER
from rules.table.geojson import FeatureCollection, GeoFeature
from rules.table.terrain import Feature

TerrainClass = Literal["open", "rough", "defensible", "fortification", "impractical", "road"]
# "Open ... Rough ... Defensible ... Fortification" (the cover table) and "road, open, rough or impractical"
# (the movement modifiers): the six classes a feature may be.
TERRAIN_CLASSES: tuple[TerrainClass, ...] = get_args(TerrainClass)
CLASS_PROPERTY = TERRAIN_CLASS
# The class a feature of the table's kinds is when it names none (erratum terrain-classes).
CLASS_OF_KIND: Mapping[str, TerrainClass] = {
    "woods": "rough",
    "village": "defensible",
    "marsh": "impractical",
    "river-bank": "rough",
    "hill": "open",
    "road": "road",
    "stream": "rough",
    "river": "impractical",
    "shell-torn": "rough",
    "shattered": "rough",
    "trench": "defensible",
    "strongpoint": "fortification",
    "blockhouse": "fortification",
    "wire": "rough",
}


def _resilience(change: int) -> str:
    return f"{change:+d}R" if change else "(R)"


def _class_text(c: TerrainClass) -> str:
    """A class in the book's words: its cover (the cover table's Moving, Stationary and Dug in) and its going."""
    cover = next((v for t, v in COVER.items() if t == c), None)
    pct = next((v for t, v in MOVE_PERCENT.items() if t == c), 0)
    # Defensible and fortified ground move at the normal distance (erratum move-terrain).
    going = f"moves {pct:+d}% distance" if pct else "moves at normal distance"
    if cover is None:
        return f"{c.capitalize()}: not on the cover table (erratum cover-of-road-and-impractical); {going}."
    moving, stationary, dug_in = (_resilience(v) for v in cover)
    return f"{c.capitalize()}: moving {moving}, stationary {stationary}, dug in {dug_in}; {going}."


# The classes as the table kit offers them (the scenario editor's terrain), each with the kinds it takes.
CLASSES: tuple[GroundClass, ...] = tuple(
    GroundClass(c, _class_text(c), tuple(k for k, of in CLASS_OF_KIND.items() if of == c), SRC_COVER)
    for c in TERRAIN_CLASSES
)


def terrain_class(feature: Feature) -> TerrainClass:
    """The class a feature is: the one it names, else its kind's."""
    named = feature.properties.get(CLASS_PROPERTY)
    return named if named in TERRAIN_CLASSES else CLASS_OF_KIND[feature.kind]


class EarthTable(GameRules):
    """The table's terrain by the book's classes."""

    def terrain_refused(self, features: Sequence[Feature], period: str | None, where: str) -> None:
        for i, f in enumerate(features):
            named = f.properties.get(CLASS_PROPERTY)
            if named is not None and named not in TERRAIN_CLASSES:
                raise RulesError(
                    f"{where}.{i}.properties.{CLASS_PROPERTY}",
                    "name one of the book's terrain classes",
                    TERRAIN_CLASSES,
                    SRC_COVER,
                    why=f"2mm Earth 1418 knows the terrain classes {', '.join(TERRAIN_CLASSES)} "
                    f"(DIGGING IN & COVER): {named!r} is none of them",
                )


# -- the table as the rules of play read it ----------------------------------------------------------------
# The board key of the ground dug-in companies left in the open: a list of {"unit_id", "polygon"} (DIGGING IN
# & COVER: "their original position becomes rough terrain if they originally dug-in in the open").
ROUGH_GROUND_KEY = "rough-ground"


class RoughGround(TypedDict):
    """A dugout left in the open: the company that left it and its base's ring (table cm)."""

    unit_id: int
    polygon: list[list[float]]


def with_rough_ground(terrain: Mapping[str, Any], board: Mapping[str, Any]) -> FeatureCollection:
    """The table's terrain (GeoJSON) with the dugouts left in the open added as rough ground."""
    left: list[GeoFeature] = [
        {
            "type": "Feature",
            "id": f"{ROUGH_GROUND_KEY}-{i}",
            "geometry": {"type": "Polygon", "coordinates": [spot["polygon"]]},
            "properties": {"kind": "shell-torn", CLASS_PROPERTY: "rough"},
        }
        for i, spot in enumerate(board.get(ROUGH_GROUND_KEY) or ())
    ]
    return {"type": "FeatureCollection", "features": [*terrain.get("features", ()), *left]}
