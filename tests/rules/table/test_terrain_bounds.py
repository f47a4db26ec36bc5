"""The lines a terrain widens (a road, a trench, a wire belt) are bounded before any is widened: GEOS's work on a
line grows with its points and with how much of it overlaps itself (session 20's hostile pass)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.errors import RulesError
from rules.table.terrain import (
    WIDENED_LINE_MOST_POINTS,
    WIDENED_MOST_POINTS,
    terrain_from_geojson,
    widening_refused,
)


def line(kind: str, points: int, **properties: Any) -> dict[str, Any]:
    coordinates = [[10 + i * 0.1, 20 + (20 if i % 2 else 0)] for i in range(points)]
    return {"type": "Feature", "properties": {"kind": kind, **properties},
            "geometry": {"type": "LineString", "coordinates": coordinates}}  # fmt: skip


def test_one_line_and_all_lines_to_widen_have_a_most_points() -> None:
    widening_refused([line("road", WIDENED_LINE_MOST_POINTS, width_cm=100)], "terrain.features")
    with pytest.raises(RulesError) as one:
        widening_refused([line("wire", 1), line("trench", WIDENED_LINE_MOST_POINTS + 1)], "terrain.features")
    assert (
        one.value.field == "terrain.features.1.geometry" and "a trench line has at most" in one.value.message
    )
    lines = WIDENED_MOST_POINTS // WIDENED_LINE_MOST_POINTS
    widening_refused([line("road", WIDENED_LINE_MOST_POINTS) for _ in range(lines)], "terrain.features")
    with pytest.raises(RulesError) as all_lines:
        widening_refused(
            [line("road", WIDENED_LINE_MOST_POINTS) for _ in range(lines)] + [line("wire", 1)], "t"
        )
    assert all_lines.value.field == f"t.{lines}.geometry"
    # A line of a kind not widened (a stream) and an area are not counted; what is malformed is left to the
    # feature's own checks.
    widening_refused([line("stream", 500), {"geometry": "no"}, 7], "terrain.features")


def test_a_game_terrain_refuses_a_line_too_long_to_widen() -> None:
    with pytest.raises(RulesError) as refused:
        terrain_from_geojson({"features": [line("road", 300, width_cm=100)]}, wire_belt_cm=None)
    assert refused.value.field == "terrain.features.0.geometry"
