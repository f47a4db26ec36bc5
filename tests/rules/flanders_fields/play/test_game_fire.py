"""What Flanders Fields forbids of a shot (game_fire): the firer's state, and a target out of range, out of
arc, out of sight or, for a machine gun, not the nearest troops; the same reasons mark the targets."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.core.acts import MoveFormation, MoveStand, Roll
from rules.core.records import Snapshot, UnitState
from rules.flanders_fields.play.game_fire import (
    ABANDONED,
    LIMBERING,
    MG_PIVOT,
    NEAREST_RULE,
    SIGHT_RULE,
    SRC_LIMBERING,
    SRC_SUPPRESSED,
    SUPPRESSED,
    FlandersFieldsTargets,
    _enemies,
    _measured,
    _shot,
    fire_forbidden,
)
from rules.flanders_fields.resolvers.shooting import SRC_BEATEN_ZONE
from rules.flanders_fields.resolvers.visibility import SRC_VISIBILITY
from tests.rules.flanders_fields.play.test_game_rules import DEFAULTS, with_state

WOOD = {
    "type": "Feature",
    "properties": {"kind": "woods", "name": "the wood"},
    "geometry": {"type": "Polygon", "coordinates": [[[56, 55], [63, 55], [63, 58], [56, 58], [56, 55]]]},
}


def placed(
    uid: int, side: str, kind: str, base: str, x: float, y: float, facing: float, **state: Any
) -> UnitState:
    unit = UnitState(uid, None, side, "platoon", kind, f"unit {uid}", base=base, x=x, y=y, facing_deg=facing)
    return with_state(unit, **DEFAULTS, **state)


def table(*extra: UnitState, wood: bool = False) -> Snapshot:
    """An attacking MG (x 60) and rifle platoon (x 64) at y 40 facing the defender (+y); defending platoons
    19 cm and 30 cm ahead of the MG, one 60 cm ahead (beyond a rifle's 45 cm), one behind the MG; a small wood
    hides the nearest platoon from both."""
    units = (
        placed(1, "attacker", "mmg", "heavy-mg", 60, 40, 90),
        placed(2, "attacker", "rifle-platoon", "infantry-platoon", 64, 40, 90),
        placed(11, "defender", "rifle-platoon", "infantry-platoon", 60, 61, 270),
        placed(12, "defender", "rifle-platoon", "infantry-platoon", 70, 71, 270),
        placed(13, "defender", "rifle-platoon", "infantry-platoon", 64, 101, 270),
        placed(14, "defender", "rifle-platoon", "infantry-platoon", 60, 20, 90),
        *extra,
    )
    terrain = {"type": "FeatureCollection", "features": [WOOD] if wood else []}
    return Snapshot("flanders-fields", "early", units, 120.0, 180.0, terrain=terrain)


SUPPRESSED_MOVE = "is suppressed and may not move: remove a suppression level first"


def test_a_suppressed_stand_may_not_move_nor_its_formation() -> None:
    snap = changed(table(), 12, suppression=2)
    (refused,) = fire_forbidden(snap, MoveStand(unit_id=12, x=70, y=80, facing_deg=270))
    assert refused == f"unit 12 {SUPPRESSED_MOVE}" and refused.why == SUPPRESSED
    # Placed where it stands (nothing moves) or deployed from off the table: not a move.
    assert fire_forbidden(snap, MoveStand(unit_id=12, x=70, y=71, facing_deg=270)) == ()
    off = changed(snap, 12, off_table=True)
    assert fire_forbidden(off, MoveStand(unit_id=12, x=70, y=80, facing_deg=270)) == ()
    company = UnitState(30, None, "defender", "company", "rifle-company", "B Coy")
    units = (*snap.units[:2], company, *(replace(u, parent_id=30) for u in snap.units[2:]))
    (refused,) = fire_forbidden(replace(snap, units=units), MoveFormation(unit_id=30, dx=0, dy=-5))
    assert refused == f"unit 12 {SUPPRESSED_MOVE}"


def changed(snap: Snapshot, unit_id: int, **state: Any) -> Snapshot:
    """`snap` with one unit's fields set."""
    return replace(snap, units=tuple(with_state(u, **state) if u.id == unit_id else u for u in snap.units))


def shoot(unit: int, target: int | None = None, **fields: Any) -> Roll:
    return Roll(resolver="shooting", unit_id=unit, target_id=target, fields=fields)


@pytest.mark.parametrize(
    ("state", "says", "why", "source", "remedy"),
    [
        (
            {"suppression": 1},
            "unit 1 is suppressed and may not fire",
            SUPPRESSED,
            SRC_SUPPRESSED,
            "recover-markers",
        ),
        ({"crew_abandoned": True}, "unit 1's crew abandoned it", ABANDONED, None, ""),
        ({"limbered": True}, "unit 1 is limbered: unlimber it first", LIMBERING, SRC_LIMBERING, "limbered"),
        ({"packed": True}, "unit 1 is on its packs: unpack it first", LIMBERING, SRC_LIMBERING, "packed"),
    ],
)
def test_the_firers_state_refuses_any_shot(
    state: dict[str, Any], says: str, why: str, source: str | None, remedy: str
) -> None:
    snap = changed(table(), 1, **state)
    for act in (shoot(1), shoot(1, 11)):
        (refused,) = fire_forbidden(snap, act)
        assert refused.startswith(says) and len(refused) <= 120
        assert refused.why == why and refused.remedy == remedy  # the card's act that lifts it, offered first
        if source:
            assert refused.source == source
    moved = fire_forbidden(snap, MoveStand(unit_id=1, x=60, y=45, facing_deg=90))
    assert moved == (() if "suppression" not in state else (f"unit 1 {SUPPRESSED_MOVE}",))


def test_a_free_firer_at_a_target_it_may_take_is_not_refused() -> None:
    snap = table()
    assert fire_forbidden(snap, shoot(2, 12)) == ()  # a rifle platoon: 29.7 cm, in its arc
    assert fire_forbidden(snap, shoot(1, 11)) == ()  # the MG's nearest troops


def test_a_target_beyond_the_weapons_range_is_refused_and_the_tape_decides() -> None:
    snap = table()
    (refused,) = fire_forbidden(snap, shoot(2, 13))  # 59.5 cm: rifles reach 45
    assert "beyond unit 2's 45 cm" in refused
    assert fire_forbidden(snap, shoot(2, 13, range_cm=44.0)) == ()  # the range by the tape
    # Long Range Marksmanship extends maximum rifle range to 60cm.
    assert fire_forbidden(snap, shoot(2, 13, special_rule="long-range-marksmanship")) == ()


def test_an_mg_facing_away_is_out_of_arc_even_pivoted() -> None:
    snap = table()
    (refused,) = fire_forbidden(snap, shoot(1, 14))  # directly behind it
    assert "outside unit 1's arc even pivoted 45°" in refused
    assert refused.why == MG_PIVOT and "pivot up to 45" in refused.why
    # Turned to face it, the MG may take it (the nearest troops, 18.5 cm).
    turned = changed(table(), 1, facing_deg=270.0)
    assert fire_forbidden(turned, shoot(1, 14)) == ()


def test_infantry_must_reface_for_a_target_outside_its_arc() -> None:
    # Unit 15 is 34 cm across and 20 cm ahead of the rifle platoon: beyond 10 cm either side of its width.
    snap = table(placed(15, "defender", "rifle-platoon", "infantry-platoon", 30, 60, 270))
    (refused,) = fire_forbidden(snap, shoot(2, 15))
    assert "outside unit 2's arc of fire: reface it first" in refused


def test_a_wood_between_blocks_the_line_of_sight() -> None:
    snap = table(wood=True)
    (refused,) = fire_forbidden(snap, shoot(1, 11))
    assert refused == "unit 1 cannot see unit 11: the line is blocked by woods"
    assert refused.why == SIGHT_RULE and refused.source == SRC_VISIBILITY


def test_an_mg_must_aim_first_at_the_nearest_troops() -> None:
    snap = table()
    (refused,) = fire_forbidden(snap, shoot(1, 12))  # 30 cm, while unit 11 stands 19.5 cm away
    assert refused.startswith("unit 1 must aim first at the nearest troops, unit 11")
    assert refused.why == NEAREST_RULE and refused.source == SRC_BEATEN_ZONE
    # A target in the beaten zone behind the first is not the initial point of aim.
    assert fire_forbidden(snap, shoot(1, 12, beaten_zone_index=1)) == ()
    # Behind a wood the nearer platoon is out of sight: the next is the nearest troops the MG may fire at.
    hidden = table(wood=True)
    assert fire_forbidden(hidden, shoot(1, 12)) == ()


@given(
    st.lists(
        st.tuples(
            st.floats(20, 100, allow_nan=False),
            st.floats(42, 150, allow_nan=False),
            st.sampled_from([0.0, 45.0, 90.0, 200.0, 270.0]),
        ),
        min_size=1,
        max_size=12,
    ),
    st.booleans(),
)
def test_the_nearest_troops_searched_nearest_first_are_the_nearest_of_all(
    spots: list[tuple[float, float, float]], wood: bool
) -> None:
    # The MG's nearest troops are found by measuring nearest first, only those that could be nearer than the
    # nearest found: the same stands are "not the nearest" as when every stand the MG may fire at is measured.
    mg = placed(1, "attacker", "mmg", "heavy-mg", 60, 40, 90)
    platoons = [
        placed(20 + i, "defender", "rifle-platoon", "infantry-platoon", x, y, f)
        for i, (x, y, f) in enumerate(spots)
    ]
    terrain = {"type": "FeatureCollection", "features": [WOOD] if wood else []}
    snap = Snapshot("flanders-fields", "early", (mg, *platoons), 120.0, 180.0, terrain=terrain)
    shot = _shot(snap, snap.unit(1), {})
    assert shot is not None
    free = {
        u.id: got[0]
        for u in _enemies(snap, "attacker")
        if (got := _measured(snap, shot, u, None)) is not None and got[1] is None
    }
    nearest = min(free.values(), default=0.0)
    marks = FlandersFieldsTargets().target_marks(snap, 1, "shooting")
    assert {m.unit_id for m in marks if m.mark == "not the nearest"} == {
        i for i, d in free.items() if d > nearest + 1e-6
    }


def test_target_marks_give_each_stand_the_firer_may_not_take_its_reason() -> None:
    marks = {m.unit_id: m for m in FlandersFieldsTargets().target_marks(table(), 1, "shooting")}
    assert {i: m.mark for i, m in marks.items()} == {
        12: "not the nearest",
        13: "not the nearest",
        14: "out of arc",
    }
    assert marks[14].refused == str(fire_forbidden(table(), shoot(1, 14))[0])
    hidden = {
        m.unit_id: m.mark for m in FlandersFieldsTargets().target_marks(table(wood=True), 1, "shooting")
    }
    assert hidden == {11: "out of sight", 13: "out of sight", 14: "out of arc"}  # 12: now the nearest
    rifle = {m.unit_id: m.mark for m in FlandersFieldsTargets().target_marks(table(wood=True), 2, "shooting")}
    assert rifle == {11: "out of sight", 13: "out of range", 14: "out of arc"}
    assert FlandersFieldsTargets().target_marks(table(), 1, "assault") == ()
