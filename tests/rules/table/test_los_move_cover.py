"""Line of sight with dead ground, moves over terrain, and cover from terrain."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.core.errors import RulesError
from rules.flanders_fields.book.cover import cover_for
from rules.flanders_fields.book.table_sizes import BASES, TEMPLATES
from rules.flanders_fields.play.table_rules import WIRE_BELT_CM
from rules.table.bases import Stand
from rules.table.los import line_of_sight
from rules.table.move import FireZone, fit_move, measure_move, measure_move_naive
from rules.table.templates import Template
from rules.table.terrain import TerrainIndex, terrain_from_geojson


def _poly(kind: str, x0: float, y0: float, x1: float, y1: float, **props: Any) -> dict[str, Any]:
    ring = [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]
    return {
        "type": "Feature",
        "id": f"{kind}-{x0}-{y0}",
        "geometry": {"type": "Polygon", "coordinates": [ring]},
        "properties": {"kind": kind, **props},
    }


def _line(kind: str, pts: list[list[float]], **props: Any) -> dict[str, Any]:
    return {
        "type": "Feature",
        "id": kind,
        "geometry": {"type": "LineString", "coordinates": pts},
        "properties": {"kind": kind, **props},
    }


def _terrain(*features: dict[str, Any]) -> TerrainIndex:
    return TerrainIndex.build(
        terrain_from_geojson(
            {"type": "FeatureCollection", "features": list(features)}, wire_belt_cm=WIRE_BELT_CM
        )
    )


HILL = _poly("hill", 50, 0, 70, 20, height_cm=3)
VILLAGE = _poly("village", 55, 40, 65, 50)


def test_a_stand_two_cm_behind_a_building_is_hidden_from_a_hill() -> None:
    # "troops within 2.5cm of a building are safe from being spotted by observers on a hill or ridge on the
    # other side of the building who would otherwise be able to see them."
    terrain = _terrain(HILL, VILLAGE)
    viewer = Stand("v", "attacker", BASES["infantry-platoon"], (60, 10), 90)
    hidden = Stand(
        "h", "defender", BASES["infantry-platoon"], (60, 52.75), 270
    )  # its near edge is at y 52: 2 cm behind the village
    seen = Stand("s", "defender", BASES["infantry-platoon"], (60, 56), 270)  # 5.25 cm behind the village
    sight = line_of_sight(viewer, hidden, terrain)
    assert not sight.clear and sight.dead_ground and sight.blocked_by is not None
    assert sight.blocked_by.kind == "village"
    clear = line_of_sight(viewer, seen, terrain)
    assert clear.clear and clear.seen_over == (VILLAGE["id"],)


def test_woods_and_villages_block_sight_from_level_ground() -> None:
    terrain = _terrain(VILLAGE)
    viewer = Stand("v", "attacker", BASES["infantry-platoon"], (60, 10), 90)
    target = Stand("t", "defender", BASES["infantry-platoon"], (60, 70), 270)
    sight = line_of_sight(viewer, target, terrain)
    assert not sight.clear and not sight.dead_ground
    beside = Stand("b", "defender", BASES["infantry-platoon"], (20, 70), 270)
    assert line_of_sight(viewer, beside, terrain).clear


def _infantry_allowance(t: str) -> int | None:
    # MOVEMENT DISTANCES, infantry column: cross country 20, road 25, close 10 (playsheet), trench 10
    return {"cross-country": 20, "road": 25, "close": 10, "trench": 10, "shell-torn": 15}.get(t)


def test_a_move_is_split_by_terrain_and_fits_proportionally() -> None:
    terrain = _terrain(_poly("woods", 0, 20, 120, 25))
    stand = Stand("p", "attacker", BASES["infantry-platoon"], (60, 10), 90)
    geom = measure_move(stand, [(60, 25)], terrain, wire_belt_cm=WIRE_BELT_CM)
    assert geom.length_cm == pytest.approx(15)
    assert geom.by_terrain == pytest.approx({"close": 5, "cross-country": 10})
    fit = fit_move(geom, _infantry_allowance, "proportional", "infantry")
    assert fit.used == pytest.approx(10 / 20 + 5 / 10) and fit.fits
    slow = fit_move(geom, _infantry_allowance, "slowest", "infantry")
    assert slow.used == pytest.approx(15 / 10) and not slow.fits


def test_turning_through_180_costs_three_cm() -> None:
    # "it is considered to require 3cm to turn a stand through 180 degrees"
    stand = Stand("p", "attacker", BASES["infantry-platoon"], (60, 10), 90)
    assert measure_move(
        stand, [(60, 20)], _terrain(), final_facing_deg=270, wire_belt_cm=WIRE_BELT_CM
    ).length_cm == pytest.approx(13)
    assert measure_move(
        stand, [(60, 20)], _terrain(), final_facing_deg=180, wire_belt_cm=WIRE_BELT_CM
    ).turn_cm == pytest.approx(1.5)
    whole = measure_move(
        stand,
        [(60, 20)],
        _terrain(),
        final_facing_deg=180,
        proportional_turn=False,
        wire_belt_cm=WIRE_BELT_CM,
    )
    assert whole.turn_cm == 3


def test_wire_belts_streams_and_fired_zones() -> None:
    # "In Flanders Fields a "standard" belt of barbed wire is considered to be 2cm wide" and "The above
    # rules apply to every 2cm depth of wire": 5 cm of wire is three belts to roll for.
    terrain = _terrain(
        _line("wire", [[0, 30], [120, 30]], depth_cm=5),
        _line("stream", [[0, 20], [120, 20]]),
    )
    stand = Stand("p", "attacker", BASES["infantry-platoon"], (60, 10), 90)
    zones = [
        FireZone("fired", Template(TEMPLATES["artillery"], (60, 40)).polygon(), True),
        FireZone("ranging", Template(TEMPLATES["artillery"], (60, 40)).polygon(), False),
    ]
    geom = measure_move(stand, [(60, 40)], terrain, zones, wire_belt_cm=WIRE_BELT_CM)
    assert geom.wire == [("wire", 3)]
    assert geom.water == [("stream", "stream", 1)]
    assert geom.zones_entered == ["fired"]  # "has received at least 1 round of artillery fire"
    cav = fit_move(geom, lambda t: 30 if t != "stream" else 0, "proportional", "cavalry")
    assert not cav.fits and any("wire" in r for r in cav.reasons)


@pytest.mark.parametrize(
    ("kinds", "quality", "cover"),
    [
        ({"woods"}, "raw", "soft"),  # "Wooded areas provide soft cover"
        ({"village"}, "raw", "hard"),  # "built up areas like village provide hard cover"
        ({"trench", "woods"}, "raw", "hard"),  # "a trench in a wood is classed as Hard Cover"
        ({"trench", "village"}, "raw", "fortified"),  # "trenches ... dug into villages are ... fortified"
        ({"strongpoint", "village"}, "raw", "fortified"),
        ({"blockhouse", "village"}, "raw", "fortified"),  # "a block house in a village remains Fortified"
        ({"trench"}, "raw", "medium"),  # "Medium Cover: Most open trenches"
        ({"marsh"}, "raw", "soft"),  # "Marshes and river banks are classed as soft cover"
        ({"river-bank"}, "raw", "soft"),
        (set(), "raw", "open"),
        (set(), "experienced", "soft"),  # "Experienced and Veteran troops in ... Open Ground ... Soft Cover"
        ({"road", "hill"}, "veteran", "soft"),
        (set(), "storm", "soft"),  # "All Storm troop battalions are veteran."
    ],
)
def test_cover_from_terrain(kinds: set[str], quality: str, cover: str) -> None:
    assert cover_for(kinds, quality) == cover


def test_bad_terrain_names_the_field() -> None:
    with pytest.raises(RulesError) as exc:
        terrain_from_geojson({"features": [_line("trench", [[0, 0], [10, 0]])]}, wire_belt_cm=WIRE_BELT_CM)
    assert exc.value.field == "terrain.features.0.properties.width_cm"
    bowtie = _poly("woods", 0, 0, 10, 10)
    bowtie["geometry"]["coordinates"] = [[[0, 0], [10, 10], [10, 0], [0, 10], [0, 0]]]
    with pytest.raises(RulesError) as exc:
        terrain_from_geojson({"features": [bowtie]}, wire_belt_cm=WIRE_BELT_CM)
    assert exc.value.field == "terrain.features.0.geometry"


_BOXES = st.lists(
    st.tuples(
        st.sampled_from(("woods", "village", "marsh", "shell-torn", "shattered", "road")),
        st.floats(0, 100),
        st.floats(0, 100),
        st.floats(1, 20),
        st.floats(1, 20),
    ),
    max_size=12,
)


@given(
    base=st.sampled_from(tuple(BASES)),
    facing=st.floats(0, 360),
    path=st.lists(st.tuples(st.floats(0, 100), st.floats(0, 100)), min_size=1, max_size=4),
    boxes=_BOXES,
    zone_at=st.lists(st.tuples(st.floats(0, 100), st.floats(0, 100), st.booleans()), max_size=6),
)
def test_indexed_move_agrees_with_the_loop_over_every_feature(
    base: str,
    facing: float,
    path: list[tuple[float, float]],
    boxes: list[tuple[str, float, float, float, float]],
    zone_at: list[tuple[float, float, bool]],
) -> None:
    # The STRtree query and the vectorised swept area and zone test must find what testing every feature
    # and every zone in turn finds.
    features = [_poly(k, x, y, x + w, y + h) for k, x, y, w, h in boxes]
    features.append(_line("wire", [[0, 50], [100, 55]], depth_cm=3))
    features.append(_line("stream", [[50, 0], [45, 100]]))
    for i, f in enumerate(features):
        f["id"] = f"f{i}"
    parsed = terrain_from_geojson(
        {"type": "FeatureCollection", "features": features}, wire_belt_cm=WIRE_BELT_CM
    )
    zones = [
        FireZone(f"z{i}", Template(TEMPLATES["artillery"], (x, y)).polygon(), fired)
        for i, (x, y, fired) in enumerate(zone_at)
    ]
    stand = Stand("m", "attacker", BASES[base], (50, 50), facing)
    fast = measure_move(stand, path, TerrainIndex.build(parsed), zones, wire_belt_cm=WIRE_BELT_CM)
    slow = measure_move_naive(stand, path, parsed, zones, wire_belt_cm=WIRE_BELT_CM)
    assert fast.by_terrain == slow.by_terrain and fast.start_terrain == slow.start_terrain
    assert (fast.wire, fast.water, fast.zones_entered) == (slow.wire, slow.water, slow.zones_entered)
    assert fast.swept.symmetric_difference(slow.swept).area < 1e-6
