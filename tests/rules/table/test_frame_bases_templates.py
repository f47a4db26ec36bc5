"""Table frame, grid references, deviation, base sizes and template sizes against the rule book."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import given
from hypothesis import strategies as st
from shapely import box
from shapely.affinity import rotate, translate

from rules.flanders_fields.book.table_sizes import BASES, MAX_BASE_EXTENT_CM, TEMPLATES
from rules.table.bases import Stand, base_polygons, nearer_than_none
from rules.table.frame import (
    TABLE_LENGTH_CM,
    TABLE_WIDTH_CM,
    Table,
    clock_to_deg,
    deviate,
    grid_to_table,
    oriented_rect,
    oriented_rects,
    table_to_grid,
)
from rules.table.templates import Template


def test_default_table_is_the_standard_six_by_four() -> None:
    # "a "standard" war-game table of approximately 1.8 by 1.2 meters ... forces set up along the short,
    # 1.2 meter edges"
    assert (TABLE_WIDTH_CM, TABLE_LENGTH_CM) == (120.0, 180.0)


def test_german_battery_grid_reference_from_the_fire_plan_rules() -> None:
    # "64cm along the German's rear table edge from the left hand corner and then 120cm up the table towards
    # the enemy" - with the Germans defending at the far edge, their left-hand corner is at x = 120.
    assert grid_to_table("defender", 64, 120) == (56, 60)
    assert grid_to_table("attacker", 64, 120) == (64, 120)
    assert table_to_grid("defender", 56, 60) == (64, 120)


@given(
    side=st.sampled_from(["attacker", "defender"]),
    along=st.floats(-1000, 1000, allow_nan=False),
    up=st.floats(-1000, 1000, allow_nan=False),
    w=st.floats(10, 1000),
    length=st.floats(10, 1000),
)
def test_grid_reference_there_and_back_is_the_identity(
    side: str, along: float, up: float, w: float, length: float
) -> None:
    t = Table(w, length)
    x, y = grid_to_table(side, along, up, t)  # type: ignore[arg-type]
    a2, u2 = table_to_grid(side, x, y, t)  # type: ignore[arg-type]
    assert math.isclose(a2, along, abs_tol=1e-9) and math.isclose(u2, up, abs_tol=1e-9)
    x2, y2 = grid_to_table(side, a2, u2, t)  # type: ignore[arg-type]
    assert math.isclose(x2, x, abs_tol=1e-9) and math.isclose(y2, y, abs_tol=1e-9)


def test_clock_twelve_is_straight_ahead_of_each_base_edge() -> None:
    # "with 12 being directly ahead of the rolling player's base table edge"
    assert clock_to_deg("attacker", 12) == 90.0
    assert clock_to_deg("defender", 12) == 270.0
    assert clock_to_deg("attacker", 3) == 0.0  # clockwise: 3 o'clock is to the attacker's right (+x)
    assert clock_to_deg("defender", 3) == 180.0
    x, y = deviate("attacker", (60, 90), 6, 7)  # 2D6 = 7 cm back towards the attacker's edge
    assert (round(x, 9), round(y, 9)) == (60, 83)
    x, y = deviate("defender", (60, 90), 12, 5)
    assert (round(x, 9), round(y, 9)) == (60, 85)


@pytest.mark.parametrize(
    ("kind", "shape", "width", "depth"),
    [
        ("battalion-command", "round", 2.0, 2.0),  # "Circular base approx 20mm diameter."
        ("infantry-platoon", "rect", 3.0, 1.5),  # "Rectangular base 30 mm wide by 15mm deep."
        ("cavalry-platoon", "rect", 3.0, 2.0),  # "Rectangular base 30 mm wide by 20mm deep."
        ("support-weapon", "rect", 2.0, 2.0),  # "Square or circular base approx 20mm x 20mm."
        ("heavy-mg", "rect", 2.0, 2.0),  # "Square or circular base approx 20mm x 20mm."
        ("flamethrower", "round", 2.0, 2.0),  # "Flamethrower or Anti-Tank Rifle Circular base 20mm"
        ("anti-tank-rifle", "round", 2.0, 2.0),
        ("heavy-support-weapon", "round", 2.5, 2.5),  # "Circular base 25mm diameter."
        ("regimental-command", "round", 2.5, 2.5),  # "Regiment/Brigade Command Circular base 25mm"
        ("field-artillery", "rect", 6.0, 4.0),  # "60 mm wide by 40mm deep"
        ("heavy-artillery", "rect", 8.0, 4.0),  # "80 mm wide by 40mm deep."
        ("super-heavy-artillery", "rect", 8.0, 5.0),  # "80 mm wide by 50mm deep."
        ("tank", "rect", 3.0, 6.0),  # "Tanks Rectangular base 30 mm wide by 60mm deep."
        ("divisional-command", "round", 3.0, 3.0),  # "Circular base approx 30mm diameter."
    ],
)
def test_base_sizes_are_the_rule_books(kind: str, shape: str, width: float, depth: float) -> None:
    b = BASES[kind]
    assert (b.shape, b.width_cm, b.depth_cm) == (shape, width, depth)
    assert "BASE SIZES" in b.source


def test_every_base_kind_is_listed() -> None:
    assert len(BASES) == 14


def test_an_infantry_base_faces_its_width_across_its_front() -> None:
    minx, miny, maxx, maxy = Stand("s", "a", BASES["infantry-platoon"], (10, 10), 90).polygon().bounds
    assert (round(maxx - minx, 9), round(maxy - miny, 9)) == (3.0, 1.5)
    minx, miny, maxx, maxy = Stand("s", "a", BASES["infantry-platoon"], (10, 10), 0).polygon().bounds
    assert (round(maxx - minx, 9), round(maxy - miny, 9)) == (1.5, 3.0)


@pytest.mark.parametrize(
    ("kind", "width", "depth"),
    [
        ("artillery", 10, 10),  # "a rectangle 10x10cm"
        ("sos", 10, 5),  # "SOS fire covers an area of effect 10cm wide by 5cm deep"
        ("light-mortar", 3, 3),  # "Light Mortars have an area of effect 3cm square"
        ("medium-mortar", 4, 4),  # "Medium Mortars have an area of effect 4cm square"
        ("heavy-mortar", 5, 5),  # "Heavy Mortars have an area of effect 5cm square"
        ("mg-indirect", 2, 10),  # "a machine gun platoon of 1 model covers an area of 2x10cm"
        ("gas-attacker", 20, 10),  # "an area 20cm wide by 10cm deep if launched by the attacker"
        ("gas-defender", 10, 5),  # "but only 10x5 if used by a defender"
    ],
)
def test_template_sizes_are_the_rule_books(kind: str, width: float, depth: float) -> None:
    t = TEMPLATES[kind]
    assert (t.width_cm, t.depth_cm, t.across_table) == (width, depth, False)
    assert math.isclose(Template(TEMPLATES[kind], (50, 50), 33).polygon().area, width * depth)


def test_rolling_barrage_is_twenty_deep_across_the_whole_table() -> None:
    # "A Rolling Barrage covers an area 20cm wide which extends across the whole table top."
    assert TEMPLATES["rolling-barrage"].depth_cm == 20
    assert Template(TEMPLATES["rolling-barrage"], (30, 50), 90).polygon().bounds == (0.0, 40.0, 120.0, 60.0)
    wide = Template(TEMPLATES["rolling-barrage"], (30, 50), 90).polygon(Table(180, 240))
    assert wide.bounds == (0.0, 40.0, 180.0, 60.0)


@given(
    st.lists(
        st.tuples(
            st.sampled_from(tuple(BASES)),
            st.floats(-50, 250, allow_nan=False),
            st.floats(-50, 250, allow_nan=False),
            st.floats(-720, 720, allow_nan=False),
        ),
        max_size=40,
    )
)
def test_vectorised_base_polygons_equal_the_per_stand_ones(
    rows: list[tuple[str, float, float, float]],
) -> None:
    # The index builds every base in one numpy pass; it must lay out the same vertices, in the same order,
    # as building each stand's polygon on its own.
    stands = [Stand(f"s{i}", "attacker", BASES[k], (x, y), f) for i, (k, x, y, f) in enumerate(rows)]
    fast = base_polygons(stands)
    assert len(fast) == len(stands)
    for s, p in zip(stands, fast, strict=True):
        ref = s.polygon()
        assert shapely.get_coordinates(p).shape == shapely.get_coordinates(ref).shape
        assert np.abs(shapely.get_coordinates(p) - shapely.get_coordinates(ref)).max() <= 1e-9
        assert p.is_valid


@given(
    st.lists(
        st.tuples(
            st.floats(-50, 250, allow_nan=False),
            st.floats(-50, 250, allow_nan=False),
            st.one_of(
                st.sampled_from((0, 90, 180, 270, -90, 360, 45.0)), st.floats(-720, 720, allow_nan=False)
            ),
            st.floats(0.1, 20, allow_nan=False),
            st.floats(0.1, 20, allow_nan=False),
        ),
        max_size=20,
    )
)
def test_oriented_rects_are_shapelys_box_turned_and_moved_bit_for_bit(
    rows: list[tuple[float, float, float, float, float]],
) -> None:
    # Worked out by hand (one by one, or all in one numpy pass), a rectangle has the very vertices shapely's box
    # rotated about the origin and translated has: the same floats, zeros signed alike, in the same order.
    rows = [(0.0, 0.0, 90, 2.0, 1.0), *rows]  # at the origin, square: vertices of zero, whose sign shows
    centers, facings = [(x, y) for x, y, *_ in rows], [f for _, _, f, _, _ in rows]
    widths, depths = [w for *_, w, _ in rows], [d for *_, d in rows]
    many = oriented_rects(centers, facings, widths, depths)
    for i, (x, y, f, w, d) in enumerate(rows):
        ref = translate(rotate(box(-d / 2, -w / 2, d / 2, w / 2), f, origin=(0, 0)), x, y)
        want = shapely.get_coordinates(ref).tobytes()
        assert shapely.get_coordinates(oriented_rect((x, y), f, w, d)).tobytes() == want
        assert shapely.get_coordinates(many[i]).tobytes() == want


def test_the_longest_line_across_a_base_is_the_super_heavy_artillery_diagonal() -> None:
    # "Rectangular base 80 mm wide by 50mm deep": its diagonal is the longest of BASE SIZES.
    assert pytest.approx(math.hypot(8.0, 5.0)) == MAX_BASE_EXTENT_CM


@given(
    st.lists(
        st.tuples(
            st.sampled_from(sorted(BASES)),
            st.floats(0, 120, allow_nan=False),
            st.floats(0, 180, allow_nan=False),
            st.floats(0, 360, allow_nan=False),
        ),
        min_size=2,
        max_size=2,
    )
)
def test_no_two_bases_are_nearer_than_their_bound(rows: list[tuple[str, float, float, float]]) -> None:
    # The nearest search measures only the stands that could be nearer than the nearest found, by this bound:
    # it is never more than the distance of the outlines (round bases and rectangles, any facing, overlapping).
    a, b = (Stand(f"s{i}", "attacker", BASES[k], (x, y), f) for i, (k, x, y, f) in enumerate(rows))
    assert nearer_than_none(a, b) <= a.polygon().distance(b.polygon())
