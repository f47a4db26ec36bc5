"""The Mons 1914 specimen game as a ready scenario: forces as the text gives them, every stand on the table."""

from __future__ import annotations

import math

import pytest
from shapely.geometry import Point, Polygon, box, shape
from shapely.strtree import STRtree

from rules.core.errors import RulesError
from rules.flanders_fields.book.organisation import Unit, count_units
from rules.flanders_fields.book.table_sizes import BASES
from rules.flanders_fields.planning.scenarios import SCENARIOS, TERRAIN_KINDS, build_mons_1914, build_scenario
from rules.flanders_fields.play.table_rules import WIRE_BELT_CM
from rules.flanders_fields.ruleset import FlandersFields
from rules.table.terrain import terrain_from_geojson

MONS = SCENARIOS["mons-1914"]


def footprint(unit: Unit, center: list[float], facing: float) -> Polygon:
    spec = BASES[unit.base or ""]
    x, y = center
    if spec.shape == "round":
        return Point(x, y).buffer(spec.width_cm / 2)
    # width runs across the facing, depth along it
    fx, fy = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    rx, ry = fy, -fx
    w, d = spec.width_cm / 2, spec.depth_cm / 2
    return Polygon(
        [
            (x + sx * w * rx + sy * d * fx, y + sx * w * ry + sy * d * fy)
            for sx, sy in ((1, 1), (-1, 1), (-1, -1), (1, -1))
        ]
    )


def on_table_stands() -> dict[str, list[Unit]]:
    out: dict[str, list[Unit]] = {}
    for side, units in MONS.forces.items():
        off = set(MONS.off_table[side])
        stands: list[Unit] = []

        def walk(u: Unit, off: set[str] = off, stands: list[Unit] = stands) -> None:
            if u.id in off:
                return
            if u.base is not None:
                stands.append(u)
            for c in u.children:
                walk(c)

        for u in units:
            walk(u)
        out[side] = stands
    return out


def test_frame_and_sides() -> None:
    assert (MONS.table_width_cm, MONS.table_length_cm) == (120, 180)
    assert (MONS.attacker_nation, MONS.defender_nation, MONS.period) == ("german", "british", "early")


def test_every_on_table_stand_is_placed_inside_its_deployment_zone_without_overlap() -> None:
    table = box(0, 0, MONS.table_width_cm, MONS.table_length_cm)
    placed = on_table_stands()
    all_ids = {s.id for stands in placed.values() for s in stands}
    assert set(MONS.placements) == all_ids
    shapes = []
    for side, stands in placed.items():
        # "Both sides deploy 15cm onto the table"
        zone = box(*MONS.deployment_zones[side])
        assert zone.area == MONS.table_width_cm * 15
        for s in stands:
            assert s.base in BASES
            p = MONS.placements[s.id]
            fp = footprint(s, p["center"], p["facing_deg"])
            assert table.contains(fp) and zone.contains(fp), s.id
            assert p["facing_deg"] == (90 if side == "attacker" else 270)
            shapes.append(fp)
    tree = STRtree(shapes)
    for i, fp in enumerate(shapes):
        hits = [j for j in tree.query(fp) if j != i and shapes[j].intersection(fp).area > 1e-9]
        assert not hits


def count(units: tuple[Unit, ...], level: str, kind: str) -> int:
    return sum(count_units(u).get(level, {}).get(kind, 0) for u in units)


def test_german_forces_as_the_text_gives() -> None:
    de = MONS.forces["attacker"]
    # "Two Infantry Regiments each with three infantry battalions. Each infantry battalion has 4 infantry
    # companies of three platoons in addition each battalion has two Maxim machinegun models."
    assert count(de, "regiment", "infantry-regiment") == 2
    assert count(de, "battalion", "infantry-battalion") == 6
    assert count(de, "company", "rifle-company") == 24
    assert count(de, "platoon", "rifle-platoon") == 72
    assert count(de, "platoon", "mmg") == 12
    # "The first Group has three batteries each of one 77mm field gun model while the second group has 2
    # batteries of field guns and one battery of 105mm howitzers"
    guns = [s.gun or "" for u in de for s in u.stands() if s.level == "battery"]
    assert sorted(guns) == ["105mm-howitzer"] + ["77mm-field-gun"] * 5
    # "one battalion from each of the German regiments ... are off table as reinforcements"
    assert len(MONS.off_table["attacker"]) == 2
    assert {i.rsplit("/", 1)[0] for i in MONS.off_table["attacker"]} == {u.id for u in de}


def test_british_forces_as_the_text_gives() -> None:
    gb = MONS.forces["defender"]
    # "one Infantry Brigade of four battalions. Each battalion has four companies each with four rifle platoons,
    # in addition each Battalion has one Vickers machinegun model. Two battalions of infantry are classed as
    # veteran."
    assert count(gb, "battalion", "infantry-battalion") == 4
    assert count(gb, "platoon", "rifle-platoon") == 64
    assert count(gb, "platoon", "mmg") == 4
    battalions = [u for u in gb[0].children if u.kind == "infantry-battalion"]
    assert [b.quality for b in battalions].count("veteran") == 2
    # "three field artillery batteries each of 1 18ld model and one field howitzer battery"
    guns = [s.gun for s in gb[0].stands() if s.level == "battery"]
    assert sorted(g or "" for g in guns) == ["18pdr-field-gun"] * 3 + ["4.5in-field-howitzer"]
    assert len(MONS.off_table["defender"]) == 1
    v = build_mons_1914({"mons-howitzer-calibre": "specimen-game"})
    assert [s.gun for s in v.forces["defender"][0].stands() if s.kind == "howitzer-battery"] == [None]


def test_terrain() -> None:
    feats = MONS.terrain["features"]
    assert MONS.terrain["type"] == "FeatureCollection"
    assert all(f["properties"]["kind"] in TERRAIN_KINDS for f in feats)
    # "the river should be set up about one third of the way across the table from the British deployment
    # zone with two bridges equally spaced along it"
    river = next(shape(f["geometry"]) for f in feats if f["properties"]["kind"] == "river")
    assert river.bounds[1] == river.bounds[3] == 180 - 60
    bridges = sorted(f["properties"]["bridge_at"][0] for f in feats if f["properties"]["kind"] == "road")
    assert bridges == [40, 80]
    # "a few small hills, woods and a village or two"
    kinds = [f["properties"]["kind"] for f in feats]
    assert kinds.count("hill") >= 2 and kinds.count("woods") >= 2 and 1 <= kinds.count("village") <= 2
    assert all("height" in f["properties"] for f in feats if f["properties"]["kind"] == "hill")
    zones = [box(*z) for z in MONS.deployment_zones.values()]
    for f in feats:
        g = shape(f["geometry"])
        if g.geom_type == "Polygon":
            assert not any(g.intersects(z) for z in zones)


def test_terrain_loads_in_the_table_geometry() -> None:
    features = terrain_from_geojson(MONS.terrain, wire_belt_cm=WIRE_BELT_CM)
    assert len(features) == len(MONS.terrain["features"])
    assert max(f.height_cm for f in features) > 0


def test_dataset_and_errata() -> None:
    data = FlandersFields().data("scenarios")
    assert [s["id"] for s in data] == ["mons-1914"]
    assert all(e in FlandersFields().errata for e in MONS.errata)


def _readings() -> list[tuple[str, str, str]]:
    errata = FlandersFields().errata
    return [
        (scenario_id, eid, reading.id)
        for scenario_id, scenario in SCENARIOS.items()
        for eid in scenario.errata
        for reading in errata[eid].readings
    ]


@pytest.mark.parametrize(("scenario_id", "erratum_id", "reading_id"), _readings())
def test_every_reading_reaches_the_built_scenario(scenario_id: str, erratum_id: str, reading_id: str) -> None:
    built = build_scenario(scenario_id, {erratum_id: reading_id}).as_dict()
    default = build_scenario(scenario_id).as_dict()
    if reading_id == FlandersFields().errata[erratum_id].default:
        assert built == default
    else:
        assert built != default


def test_german_quality_reading_grades_every_german_infantry_unit() -> None:
    veteran = build_scenario("mons-1914", {"mons-german-quality": "veteran"})
    infantry = [
        u
        for regiment in veteran.forces["attacker"]
        for u in regiment.walk()
        if u.kind in {"infantry-regiment", "infantry-battalion", "rifle-company", "rifle-platoon"}
    ]
    assert infantry and {u.quality for u in infantry} == {"veteran"}
    # "Crewed Weapons ... are always classed as Experienced" whatever the reading.
    guns = [s for regiment in veteran.forces["attacker"] for s in regiment.stands() if s.level == "battery"]
    assert {g.quality for g in guns} == {"experienced"}
    assert {u.quality for u in MONS.forces["attacker"]} == {"experienced"}


def test_unknown_scenario_or_reading_is_refused_naming_the_field() -> None:
    with pytest.raises(RulesError) as unknown:
        build_scenario("ypres-1915")
    assert unknown.value.field == "scenario" and unknown.value.allowed == sorted(SCENARIOS)
    with pytest.raises(RulesError) as bad_reading:
        build_scenario("mons-1914", {"mons-german-quality": "elite"})
    assert bad_reading.value.field == "variants.mons-german-quality"
    assert bad_reading.value.allowed == ["experienced", "veteran"]
