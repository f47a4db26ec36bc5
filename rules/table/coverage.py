"""Which stands a template covers: full, partial or outside, and which of them a 1 cm nudge could change.

"Any infantry platoon or support weapon which falls fully with the area of effect are attacked at full
effect, if the platoon or weapon falls only partially within the area of effect it is attacked at -2"
(ARTILLERY BATTERIES AREA OF EFFECT). Touching edges is outside: a base is partial only when its
interior meets the template's; float noise along a shared edge shows up as an ambiguous stand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely import Polygon, STRtree
from shapely.geometry.base import BaseGeometry

from rules.table.bases import Stand, base_polygons, max_extent_cm

CoverClass = Literal["full", "partial", "outside"]
CLASSES: tuple[CoverClass, ...] = ("full", "partial", "outside")
# Measuring tolerance: "the players know to check that stand with the tape".
DEFAULT_TOLERANCE_CM = 1.0
# Areas below this (cm²) are float noise along a shared edge, not an overlap.
AREA_EPS = 1e-9

# Buffers by less than this are numerically meaningless (and GEOS may return nothing): no tolerance.
MIN_TOLERANCE_CM = 1e-6

FULL, PARTIAL, OUTSIDE = 0, 1, 2


@dataclass
class StandIndex:
    """Stands, their polygons and one STRtree over them, built once per query set (every request pays for
    it, so the polygons are built in one vectorised pass)."""

    stands: list[Stand]
    polys: NDArray[np.object_]
    ids: NDArray[np.object_]
    sides: NDArray[np.object_]
    tree: STRtree
    # The longest straight line across any of its stands' bases: how far past a line a stand touching it reaches.
    max_extent_cm: float

    @classmethod
    def build(cls, stands: Sequence[Stand]) -> StandIndex:
        polys = base_polygons(stands)
        ids = np.array([s.id for s in stands], dtype=object)
        sides = np.array([s.side for s in stands], dtype=object)
        return cls(list(stands), polys, ids, sides, STRtree(polys), max_extent_cm(s.spec for s in stands))

    def candidates(self, geom: BaseGeometry) -> NDArray[np.intp]:
        """Indices of stands whose polygon intersects geom (touching included), in input order."""
        if geom.is_empty:
            return np.empty(0, dtype=np.intp)
        return np.sort(self.tree.query(geom, predicate="intersects"))

    def overlap_areas(self, geom: BaseGeometry, idx: NDArray[np.intp]) -> NDArray[np.float64]:
        if len(idx) == 0 or geom.is_empty:
            return np.zeros(len(idx))
        return np.asarray(shapely.area(shapely.intersection(geom, self.polys[idx])), dtype=float)

    def overlapping(self, geom: BaseGeometry) -> NDArray[np.intp]:
        """Indices of stands whose interior meets geom's interior, in input order."""
        idx = self.candidates(geom)
        if len(idx) == 0:
            return idx
        polys = self.polys[idx]
        return idx[~shapely.touches(geom, polys)]


def _classes(index: StandIndex, geom: BaseGeometry, idx: NDArray[np.intp]) -> NDArray[np.int8]:
    """FULL when geom covers the base, PARTIAL when their interiors meet otherwise, else OUTSIDE."""
    out = np.full(len(idx), OUTSIDE, dtype=np.int8)
    if len(idx) == 0 or geom.is_empty:
        return out
    shapely.prepare(geom)
    polys = index.polys[idx]
    meets = shapely.intersects(geom, polys) & ~shapely.touches(geom, polys)
    out[meets] = PARTIAL
    out[meets & shapely.covers(geom, polys)] = FULL
    return out


@dataclass
class Coverage:
    full: list[str] = field(default_factory=list)
    partial: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    ambiguous: list[str] = field(default_factory=list)

    def class_of(self, stand_id: str) -> CoverClass:
        for c in CLASSES:
            if stand_id in getattr(self, c):
                return c
        raise KeyError(stand_id)


def classify(template: Polygon, index: StandIndex, tol_cm: float = DEFAULT_TOLERANCE_CM) -> Coverage:
    """Classify every stand against the template. A stand is ambiguous when its class against the template
    grown by tol differs from its class against the template shrunk by tol: moving the stand by tol in
    some direction could change its class (for a partial stand the test is a slight over-estimate, so
    it errs towards asking for the tape)."""
    n = len(index.stands)
    cls = np.full(n, OUTSIDE, dtype=np.int8)
    ambiguous = np.zeros(n, dtype=bool)
    tol_cm = tol_cm if tol_cm >= MIN_TOLERANCE_CM else 0.0
    grown = template.buffer(tol_cm) if tol_cm > 0 else template
    idx = index.candidates(grown)
    if len(idx):
        cls[idx] = _classes(index, template, idx)
        if tol_cm > 0:
            shrunk = template.buffer(-tol_cm)
            ambiguous[idx] = _classes(index, grown, idx) != _classes(index, shrunk, idx)
    ids = index.ids
    return Coverage(
        ids[cls == FULL].tolist(),
        ids[cls == PARTIAL].tolist(),
        ids[cls == OUTSIDE].tolist(),
        ids[ambiguous].tolist(),
    )


def _class_one(geom: BaseGeometry, p: Polygon) -> int:
    if geom.is_empty or not geom.intersects(p) or geom.touches(p):
        return OUTSIDE
    return FULL if geom.covers(p) else PARTIAL


def classify_naive(template: Polygon, stands: Sequence[Stand], tol_cm: float = 0.0) -> Coverage:
    """The straightforward loop, no index: for each stand, build its polygon and test it. The baseline the
    benchmark compares against, and a test oracle."""
    tol_cm = tol_cm if tol_cm >= MIN_TOLERANCE_CM else 0.0
    grown, shrunk = template.buffer(tol_cm), template.buffer(-tol_cm)
    out = Coverage()
    for s in stands:
        p = s.polygon()
        c = _class_one(template, p)
        (out.full, out.partial, out.outside)[c].append(s.id)
        if tol_cm > 0 and _class_one(grown, p) != _class_one(shrunk, p):
            out.ambiguous.append(s.id)
    return out
