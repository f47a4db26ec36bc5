"""2mm Earth 1418's table: its terrain classes (open, rough, defensible, fortification, impractical, road:
DIGGING IN & COVER) read from the table's GeoJSON features, each feature's kind giving its class unless it
names one (`properties.terrain_class`), and an unknown class refused with the rule."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from shapely import Point, Polygon
from shapely.geometry.base import BaseGeometry

from rules.core.errors import RulesError
from rules.core.game import TableRules
from rules.core.records import UnitState
from rules.earth2mm.data import SRC_COVER
from rules.table.bases import BaseSpec, Stand, base_polygon
from rules.table.los import line_of_sight
from rules.table.terrain import Feature, TerrainIndex, terrain_from_geojson

TerrainClass = Literal["open", "rough", "defensible", "fortification", "impractical", "road"]
# "Open ... Rough ... Defensible ... Fortification" (the cover table) and "road, open, rough or impractical"
# (the movement modifiers): the six classes a feature may be.
TERRAIN_CLASSES: tuple[TerrainClass, ...] = (
    "open",
    "rough",
    "defensible",
    "fortification",
    "impractical",
    "road",
)
CLASS_PROPERTY = "terrain_class"
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


def terrain_class(feature: Feature) -> TerrainClass:
    """The class a feature is: the one it names, else its kind's."""
    named = feature.properties.get(CLASS_PROPERTY)
    return named if named in TERRAIN_CLASSES else CLASS_OF_KIND[feature.kind]


class EarthTable(TableRules):
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
# Bases closer than this are in base-to-base contact: a hair for the float arithmetic of placed stands.
CONTACT_CM = 0.05
# Cover as the cover table reads a class (a road is open ground to be shot at).
COVER_CLASS: Mapping[TerrainClass, str] = {
    "open": "open",
    "rough": "rough",
    "defensible": "defensible",
    "fortification": "fortification",
    "impractical": "rough",
    "road": "open",
}
_COVER_RANK = ("open", "rough", "defensible", "fortification")


def rough_ground(board: Mapping[str, Any]) -> list[Feature]:
    """The abandoned dug-in positions on the board as rough features."""
    out = []
    for i, spot in enumerate(board.get(ROUGH_GROUND_KEY) or ()):
        out.append(
            Feature(
                f"{ROUGH_GROUND_KEY}-{i}", "shell-torn", Polygon(spot["polygon"]), {CLASS_PROPERTY: "rough"}
            )
        )
    return out


class Ground:
    """The table's terrain classes under the stands: the scenario's features and the board's rough ground."""

    def __init__(self, terrain: Mapping[str, Any], board: Mapping[str, Any]) -> None:
        features = terrain_from_geojson(terrain, wire_belt_cm=None) if terrain else []
        self.index = TerrainIndex.build([*features, *rough_ground(board)])

    def classes_at(self, xy: tuple[float, float]) -> list[TerrainClass]:
        """The classes of the features under a point ("open" where none is)."""
        p = Point(xy)
        found = [terrain_class(f) for f in self.index.intersecting(p) if f.geometry.covers(p)]
        return found or ["open"]

    def cover_at(self, xy: tuple[float, float]) -> str:
        """The cover table's terrain at a point: the best cover the point stands in."""
        return max((COVER_CLASS[c] for c in self.classes_at(xy)), key=_COVER_RANK.index)

    def moving_at(self, xy: tuple[float, float]) -> str:
        """The movement modifier's terrain at a point: a road where there is one, else the worst ground
        (defensible and fortified ground move as open: erratum move-terrain)."""
        classes = self.classes_at(xy)
        if "road" in classes:
            return "road"
        for c in ("impractical", "rough"):
            if c in classes:
                return c
        return "open"


def footprint(unit: UnitState, bases: Mapping[str, BaseSpec]) -> BaseGeometry | None:
    """A base's ground on the table: its kit base's shape, a point where the kit has none, None off the
    table."""
    if unit.killed or unit.off_table or unit.x is None or unit.y is None:
        return None
    spec = bases.get(unit.base or "")
    facing = unit.facing_deg if unit.facing_deg is not None else 90.0
    return base_polygon(spec, (unit.x, unit.y), facing) if spec is not None else Point(unit.x, unit.y)


def nearest_cm(a: Sequence[BaseGeometry], b: Sequence[BaseGeometry]) -> float | None:
    """The shortest distance between two sub-units' bases (None when either has none on the table)."""
    if not a or not b:
        return None
    return min(x.distance(y) for x in a for y in b)


def seen(
    a: Sequence[UnitState], b: Sequence[UnitState], bases: Mapping[str, BaseSpec], ground: Ground
) -> bool:
    """Whether one of `a`'s bases can draw a direct line to one of `b`'s past slope and terrain (SHOOTING
    THROUGH TERRAIN): centre to centre, woods and villages and higher hills in the way block it."""
    stands = [[s for u in side if (s := _stand(u, bases)) is not None] for side in (a, b)]
    return any(line_of_sight(v, t, ground.index).clear for v in stands[0] for t in stands[1])


def _stand(u: UnitState, bases: Mapping[str, BaseSpec]) -> Stand | None:
    if u.killed or u.off_table or u.x is None or u.y is None:
        return None
    spec = bases.get(u.base or "") or BaseSpec("point", "round", 0.01, 0.01, "")
    return Stand(str(u.id), u.side, spec, (u.x, u.y), u.facing_deg if u.facing_deg is not None else 90.0)
