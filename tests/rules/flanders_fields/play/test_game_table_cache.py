"""A game's stand and terrain indexes are kept while nothing on the table changes, and rebuilt as soon as a
stand moves or the terrain changes: in-game coverage pays for the query, not for the build."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.flanders_fields.book.table_sizes import BASES
from rules.flanders_fields.play.game_table import in_gas, terrain_index
from rules.table.placed import index_of
from rules.table.terrain import _TEXTS, geojson_text


@dataclass(frozen=True)
class Row:
    id: int
    side: str
    name: str
    base: str | None
    x: float | None
    y: float | None
    facing_deg: float | None = 90.0
    killed: bool = False
    off_table: bool = False


def _rows() -> list[Row]:
    return [Row(i, "defender", f"platoon {i}", "infantry-platoon", 10.0 + 8 * i, 40.0) for i in range(1, 6)]


def test_the_stand_index_is_reused_until_a_stand_moves() -> None:
    rows = _rows()
    first = index_of(rows, BASES)
    assert (
        index_of([replace(r) for r in rows], BASES) is first
    )  # equal stands (a new request's rows): no rebuild
    moved = [*rows[:-1], replace(rows[-1], x=90.0)]
    again = index_of(moved, BASES)
    assert again is not first
    assert [s.center for s in again.stands][-1] == (90.0, 40.0)
    killed = [*rows[:-1], replace(rows[-1], killed=True)]
    assert [s.id for s in index_of(killed, BASES).stands] == ["1", "2", "3", "4"]


def test_coverage_answers_from_the_moved_stands_not_the_kept_index() -> None:
    rows = _rows()
    cloud = {"side": "attacker", "center": [18.0, 40.0]}
    before = in_gas([cloud], rows)
    assert 1 in before
    away = [replace(r, y=170.0) for r in rows]
    assert in_gas([cloud], away) == {}


def test_the_terrain_index_is_reused_until_the_terrain_changes() -> None:
    wood = {
        "type": "Feature",
        "properties": {"kind": "woods"},
        "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]]]},
    }
    terrain = {"type": "FeatureCollection", "features": [wood]}
    first = terrain_index(terrain)
    assert terrain_index({"type": "FeatureCollection", "features": [dict(wood)]}) is first
    bigger = {
        **wood,
        "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [20, 0], [20, 20], [0, 20], [0, 0]]]},
    }
    grown = terrain_index({"type": "FeatureCollection", "features": [bigger]})
    assert grown is not first
    assert len(grown.features) == 1 and grown.features[0].geometry.area == 400


def test_a_terrain_is_written_out_once_however_many_stands_measure_it() -> None:
    """A shot measured each target's ground through `terrain_index`, which wrote the whole terrain out as JSON to
    find its index each time (the largest table's 25 ms, per stand measured): the text is kept by the terrain
    object read (the app keeps one per version of a game), as 2mm Earth 1418's was."""
    wood = {
        "type": "Feature",
        "properties": {"kind": "woods"},
        "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]]]},
    }
    terrain = {"type": "FeatureCollection", "features": [wood]}
    terrain_index(terrain)
    text = _TEXTS[id(terrain)][1]
    assert terrain_index(terrain) is terrain_index(terrain) and geojson_text(terrain) is text
    equal = geojson_text({"type": "FeatureCollection", "features": [dict(wood)]})
    assert equal == text and equal is not text  # another object read: written out once for it
