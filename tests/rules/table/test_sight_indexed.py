"""Lines of sight put to the terrain's index at once (issue 52) answer what one line at a time answered: the
same Sight for every line over woods, villages, hills of any height, wire and marsh, long and slanting lines
included, and the index's prepared `intersecting` the same features as the tree's own query."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from shapely import LineString, Point

from rules.table.bases import BaseSpec, Stand
from rules.table.los import DEAD_GROUND_CM, Sight, elevation, line_of_sight, lines_of_sight
from rules.table.terrain import SIGHT_BLOCKING, TerrainIndex, terrain_from_geojson

SPEC = BaseSpec("platoon", "rect", 2.0, 1.0, "test base")
KINDS = ("woods", "village", "hill", "marsh", "shell-torn")


def one_at_a_time(viewer: Stand, target: Stand, terrain: TerrainIndex) -> Sight:
    """The line of sight as it was traced before issue 52: every feature the tree's own query finds."""
    line = LineString([viewer.center, target.center])

    def height(xy: tuple[float, float]) -> float:
        hits = terrain.tree.query(Point(xy), predicate="intersects")
        return max(
            (terrain.features[i].height_cm for i in hits if terrain.features[i].kind == "hill"), default=0.0
        )

    vz, tz = height(viewer.center), height(target.center)
    vp, tp = Point(viewer.center), Point(target.center)
    seen_over: list[str] = []
    found = [terrain.features[i] for i in sorted(terrain.tree.query(line, predicate="intersects"))]
    for f in sorted(found, key=lambda f: f.geometry.distance(vp)):
        if f.geometry.covers(vp) or f.geometry.covers(tp) or line.intersection(f.geometry).length <= 1e-9:
            continue
        if f.kind == "hill" and f.height_cm > max(vz, tz):
            return Sight(False, f, False, vz, tz, tuple(seen_over))
        if f.kind in SIGHT_BLOCKING:
            if vz <= tz:
                return Sight(False, f, False, vz, tz, tuple(seen_over))
            if target.polygon().distance(f.geometry) <= DEAD_GROUND_CM:
                return Sight(False, f, True, vz, tz, tuple(seen_over))
            seen_over.append(f.id)
    return Sight(True, None, False, vz, tz, tuple(seen_over))


def feature(i: int, kind: str, x: float, y: float, w: float, h: float, height: float) -> dict[str, Any]:
    ring = [[x, y], [x + w, y], [x + w, y + h], [x, y + h], [x, y]]
    props: dict[str, Any] = {"kind": kind} | ({"height_cm": height} if kind == "hill" else {})
    return {
        "type": "Feature",
        "id": f"f{i}",
        "geometry": {"type": "Polygon", "coordinates": [ring]},
        "properties": props,
    }


def wire(i: int, x: float, y: float) -> dict[str, Any]:
    line = [[x + k * 3, y + (k % 2)] for k in range(8)]
    return {
        "type": "Feature",
        "id": f"w{i}",
        "geometry": {"type": "LineString", "coordinates": line},
        "properties": {"kind": "wire", "depth_cm": 1.0},
    }


coord = st.floats(0, 300, allow_nan=False)
areas = st.lists(
    st.tuples(
        st.sampled_from(KINDS),
        coord,
        coord,
        st.floats(1, 40),
        st.floats(1, 40),
        st.sampled_from((1.0, 2.0, 4.0)),
    ),
    max_size=40,
)


@settings(max_examples=40)
@given(
    areas,
    st.lists(st.tuples(coord, coord), max_size=8),
    st.tuples(coord, coord),
    st.lists(st.tuples(coord, coord), min_size=1, max_size=12),
)
def test_lines_put_to_the_index_at_once_answer_as_one_at_a_time(
    shapes: list[tuple[str, float, float, float, float, float]],
    belts: list[tuple[float, float]],
    eye: tuple[float, float],
    spots: list[tuple[float, float]],
) -> None:
    collection = {
        "type": "FeatureCollection",
        "features": [feature(i, *s) for i, s in enumerate(shapes)]
        + [wire(i, *b) for i, b in enumerate(belts)],
    }
    terrain = TerrainIndex.build(terrain_from_geojson(collection, wire_belt_cm=None))
    viewer = Stand("v", "attacker", SPEC, eye, 90.0)
    targets = [Stand(f"t{i}", "defender", SPEC, xy, 270.0) for i, xy in enumerate(spots)]
    at_once = list(lines_of_sight(viewer, targets, terrain))
    assert at_once == [line_of_sight(viewer, t, terrain) for t in targets]
    assert at_once == [one_at_a_time(viewer, t, terrain) for t in targets]
    for xy in [eye, *spots]:
        p = Point(xy)
        assert terrain.intersecting(p) == [
            terrain.features[i] for i in sorted(terrain.tree.query(p, predicate="intersects"))
        ]
        assert (
            elevation(terrain, xy)
            == one_at_a_time(viewer, Stand("p", "defender", SPEC, xy), terrain).target_height_cm
        )
