"""MG fire lane and beaten zone; arcs of fire and target priority."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.core.errors import RulesError
from rules.flanders_fields.book.table_sizes import BASES
from rules.flanders_fields.play.table_rules import ARC_SIZES, MG_SIZES
from rules.table.arcs import arc_polygon, target_priority
from rules.table.bases import Stand
from rules.table.coverage import StandIndex
from rules.table.mgfire import Gun, beaten_zone, mg_fire, mg_fire_naive

MG = Gun("mg", (60, 10), 90, 2, 2, side="attacker", id="mg")


def _inf(sid: str, x: float, y: float, side: str = "defender") -> Stand:
    return Stand(sid, side, BASES["infantry-platoon"], (x, y), 270)


def test_three_stands_behind_the_first_target_get_minus_one_two_three() -> None:
    # "the beaten zone extends for 15cm ... behind the rear edge of the first base attacked. Up to three
    # targets in the beaten zone are also attacked but at -1 on the die roll for the first target, -2 for
    # the second etc." First target's rear edge is at y 40.75; the zone runs to 55.75: t5 (front edge
    # 56.25) is beyond it; t6 is inside but a fourth target.
    stands = [
        _inf("t1", 60, 40),
        _inf("t2", 60, 45),
        _inf("t3", 60, 50),
        _inf("t4", 60, 54),
        _inf("t5", 60, 57),
        _inf("friend", 60, 30, side="attacker"),
    ]
    fire = mg_fire(MG, 90, StandIndex.build(stands), 70, 45, MG_SIZES)
    assert fire.first_target == "t1"
    assert fire.first_distance_cm == pytest.approx(28.25)  # gun front edge y 11, target front edge 39.25
    assert not fire.short_range
    assert [(h.id, h.penalty) for h in fire.beaten_zone] == [("t2", -1), ("t3", -2), ("t4", -3)]
    assert fire.zone.bounds == pytest.approx((59, 40.75, 61, 55.75))
    assert mg_fire_naive(MG, 90, stands, 70, 45, MG_SIZES) == ("t1", ["t2", "t3", "t4"])


def test_the_beaten_zone_runs_behind_the_target_chosen_not_the_nearest() -> None:
    # A target the referee let the gun pick past the nearest troops: the zone is behind its rear edge.
    stands = [_inf("near", 60, 30), _inf("chosen", 60, 40), _inf("b1", 60, 45), _inf("b2", 60, 58)]
    zone, hits = beaten_zone(MG, stands[1], StandIndex.build(stands), MG_SIZES)
    assert [(h.id, h.penalty) for h in hits] == [("b1", -1)]  # b2's front edge 57.25 is past 55.75
    assert zone.bounds == pytest.approx((59, 40.75, 61, 55.75))


def test_short_range_is_under_ten_cm_and_range_is_seventy() -> None:
    # "Short Range MGs (Under 10cm first target only) +2"; "Machine Guns 70cm"
    near = mg_fire(MG, 90, StandIndex.build([_inf("n", 60, 19)]), 70, 45, MG_SIZES)
    assert near.first_target == "n" and near.short_range
    far = mg_fire(
        MG, 90, StandIndex.build([_inf("f", 60, 82)]), 70, 45, MG_SIZES
    )  # front edge at 81.25: 70.25 away
    assert far.first_target is None and far.beaten_zone == []


def test_block_house_beaten_zone_is_ten_cm() -> None:
    # "Block House Beaten Zone = 10cm beyond First target" (playsheets)
    bh = Gun("blockhouse", (60, 10), 90, 6, 6, side="defender")
    stands = [_inf("a", 60, 40, "attacker"), _inf("b", 60, 49, "attacker"), _inf("c", 60, 52, "attacker")]
    fire = mg_fire(bh, 90, StandIndex.build(stands), 45, 45, MG_SIZES)
    assert fire.first_target == "a"
    assert [h.id for h in fire.beaten_zone] == ["b"]  # c's front edge 51.25 is past 40.75 + 10


def test_aim_outside_the_arc_is_refused_and_block_houses_fire_from_their_sides() -> None:
    with pytest.raises(RulesError) as exc:
        mg_fire(MG, 150, StandIndex.build([]), 70, 45, MG_SIZES)
    assert exc.value.field == "aim_deg"
    bh = Gun("blockhouse", (60, 60), 90, 6, 6)
    side = mg_fire(bh, 180, StandIndex.build([_inf("w", 40, 60)]), 45, 45, MG_SIZES)
    assert side.face == "left" and side.first_target == "w"
    assert side.first_distance_cm == pytest.approx(57 - 41.5)  # left face at x 57; w spans x 38.5..41.5


def test_infantry_arc_is_the_width_plus_ten_each_side() -> None:
    # "INFANTRY INCLUDING LMGS Straight ahead the width of the unit plus 10cm on each side."
    arc = arc_polygon("infantry", (60, 10), 90, 3, 1.5, ARC_SIZES, 45)
    assert arc.bounds[0] == pytest.approx(60 - 1.5 - 10) and arc.bounds[2] == pytest.approx(60 + 1.5 + 10)
    mortar = arc_polygon("mortar", (60, 10), 90, 2, 2, ARC_SIZES, 45)  # "plus 5cm on each side"
    assert mortar.bounds[0] == pytest.approx(54) and mortar.bounds[2] == pytest.approx(66)


def test_mg_arc_splays_45_degrees_from_the_front_corners() -> None:
    arc = arc_polygon("mg", (0, 0), 90, 2, 2, ARC_SIZES, 45)
    from shapely import Point

    assert arc.contains(Point(30, 31.5))  # 30 out from the corner (1, 1) at 45 degrees is (31, 31)
    assert not arc.contains(Point(33, 31))


def test_target_priority_order() -> None:
    # "1. Closest Enemy 2. Any enemy in arc within 15cm. 3. Enemy straight ahead within 30cm. 4. Other
    # enemy within arc."
    firer = Stand("f", "attacker", BASES["infantry-platoon"], (60, 10), 90)
    stands = [
        _inf("closest", 65, 20),  # in arc, about 8.5 cm
        _inf("near", 50, 24),  # in arc, within 15
        _inf("ahead", 60, 35),  # straight ahead, ~23.5
        _inf("wide", 70, 38),  # in arc, not ahead, beyond 15
        _inf("out", 90, 20),  # outside the arc
        _inf("friend", 60, 15, side="attacker"),
    ]
    arc = arc_polygon("infantry", firer.center, 90, 3, 1.5, ARC_SIZES, 45)
    order = target_priority(firer, arc, StandIndex.build(stands), 3, 1.5, ARC_SIZES)
    assert [(p.id, p.priority) for p in order] == [("closest", 1), ("near", 2), ("ahead", 3), ("wide", 4)]


@given(
    gun_x=st.floats(40, 80),
    aim=st.floats(46, 134),
    stands=st.lists(
        st.tuples(
            st.sampled_from(tuple(BASES)),
            st.floats(40, 80),
            st.floats(5, 110),
            st.floats(0, 360),
            st.sampled_from(("attacker", "defender")),
        ),
        max_size=40,
    ),
)
def test_indexed_mg_fire_agrees_with_the_per_stand_loop(
    gun_x: float, aim: float, stands: list[tuple[str, float, float, float, str]]
) -> None:
    # One STRtree query and a clip in the lane's frame must pick the same first target and beaten zone as
    # testing every stand against the lane and the zone in turn.
    gun = Gun("mg", (gun_x, 5), 90, 2, 2, side="attacker", id="mg")
    placed = [Stand(f"s{i}", side, BASES[b], (x, y), f) for i, (b, x, y, f, side) in enumerate(stands)]
    fire = mg_fire(gun, aim, StandIndex.build(placed), 70, 45, MG_SIZES)
    assert (fire.first_target, [h.id for h in fire.beaten_zone]) == mg_fire_naive(
        gun, aim, placed, 70, 45, MG_SIZES
    )
