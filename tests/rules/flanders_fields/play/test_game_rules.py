"""Flanders Fields played as a game, without a database: filling a resolver from a snapshot of the table,
and the change records a result, a marker or the end of a turn make, each with the rule it comes from."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules.core.errors import RulesError
from rules.core.game import BOARD_CHANGED, Outcome
from rules.core.records import Filled, FillRequest, SetBoard, Snapshot, UnitState
from rules.flanders_fields import FlandersFields
from rules.flanders_fields.book import tables as T
from rules.flanders_fields.book.cover import cover_source
from rules.flanders_fields.book.table_sizes import BASES
from rules.flanders_fields.errata.barrage import SRC_ROLLING_BARRAGE
from rules.flanders_fields.errata.table_play import COMMANDER_REACH
from rules.flanders_fields.play.changes import (
    STATE_FIELDS,
    ActionsGranted,
    ActionsLapsed,
    ActionSpent,
    BarragesRolled,
    BecameSuppressed,
    CameUnderFire,
    CrewAbandoned,
    GasMarked,
    MoraleDue,
    MoraleStage,
    MoraleTested,
    Ordered,
    SuppressionAdded,
    SuppressionCleared,
    SuppressionRecovered,
    UnitKilled,
)
from rules.flanders_fields.play.game_consequences import marker_added, marker_removed
from rules.flanders_fields.play.game_report import FlandersFieldsReport
from rules.flanders_fields.play.game_sequence import turn_ended
from rules.flanders_fields.play.units import (
    CREWED_KINDS,
    FIRER,
    SRC_ORDERED_UNITS,
    SRC_QUALITY,
    is_rifle_platoon,
    order_unit,
    quality_of,
    suppression_level,
)
from rules.flanders_fields.resolvers.gas import SRC_GAS
from rules.flanders_fields.resolvers.orders import SRC_CREWED
from rules.flanders_fields.resolvers.suppression import SRC_BATTLE_SUPPRESSION, SRC_DEATH, SRC_RECOVERY
from rules.flanders_fields.ruleset import cite
from rules.registry import get_game_rules, get_ruleset

GAME = get_game_rules("flanders-fields")
MORALE = cite(T.MORALE_SECTION, "early")


# A unit as a game starts it: every Flanders Fields state field at its default.
DEFAULTS = {f.name: f.default for f in STATE_FIELDS}


def with_state(u: UnitState, **values: Any) -> UnitState:
    """`u` with some fields set, its own (killed, facing) or its rule set's state (suppression ...)."""
    own = {k: v for k, v in values.items() if k in UnitState.__dataclass_fields__}
    return replace(u, **own, state={**u.state, **{k: v for k, v in values.items() if k not in own}})


def stand(uid: int, parent: int | None, kind: str, x: float, y: float, **state: Any) -> UnitState:
    level = state.pop("level", "platoon")
    base = state.pop("base", "infantry-platoon")
    unit = UnitState(
        uid, parent, state.pop("side", "attacker"), level, kind, f"unit {uid}", base=base, x=x, y=y
    )
    return with_state(unit, **DEFAULTS, **state)


def unit(uid: int, parent: int | None, level: str, kind: str, name: str, **own: Any) -> UnitState:
    return UnitState(uid, parent, "attacker", level, kind, name, **own, state=DEFAULTS)


def battalion(**overrides: dict[str, Any]) -> tuple[UnitState, ...]:
    """A raw attacking battalion: a command stand, two rifle companies (3 and 2 platoons) and an MG; and one
    experienced defending platoon. `overrides` maps a unit id's name ("u4") to its state."""
    units = [
        unit(1, None, "battalion", "infantry-battalion", "1st Bn", quality="raw"),
        stand(2, 1, "battalion-command", 10, 10, level="stand", base="battalion-command", is_command=True),
        unit(3, 1, "company", "rifle-company", "A Coy"),
        stand(4, 3, "rifle-platoon", 10, 20),
        stand(5, 3, "rifle-platoon", 14, 20),
        stand(6, 3, "rifle-platoon", 18, 20),
        unit(7, 1, "company", "rifle-company", "B Coy"),
        stand(8, 7, "rifle-platoon", 22, 20),
        stand(9, 7, "rifle-platoon", 26, 20),
        stand(10, 1, "mmg", 20, 10, base="heavy-mg"),
        stand(20, None, "rifle-platoon", 10, 100, side="defender", quality="experienced", facing_deg=270.0),
    ]
    return tuple(with_state(u, **overrides.get(f"u{u.id}", {})) for u in units)


def snapshot(units: tuple[UnitState, ...] | None = None, turn: int = 0, **board: Any) -> Snapshot:
    return Snapshot("flanders-fields", "early", units or battalion(), 120.0, 180.0, turn=turn, board=board)


# -- the unit classes -----------------------------------------------------------------------------------------
def test_unit_classes_read_the_force_tree() -> None:
    snap = snapshot()
    by_id = snap.by_id
    assert order_unit(by_id[3], by_id) == "rifle-company"
    assert order_unit(by_id[10], by_id) == "battalion-mg"  # an MG of a battalion
    assert order_unit(replace(by_id[10], parent_id=None), by_id) == "regimental-mg"
    assert order_unit(by_id[4], by_id) is None  # a platoon is ordered with its company
    assert quality_of(by_id[4], by_id) == "raw"  # the battalion's
    assert is_rifle_platoon(by_id[4]) and not is_rifle_platoon(by_id[10])
    assert FlandersFieldsReport.losses(by_id[1], snap.units) == (5, 0)
    assert "mmg" in CREWED_KINDS and "rifle-platoon" not in CREWED_KINDS
    assert FIRER["mmg"] == "mg" and FIRER["rifle-platoon"] == "infantry"
    assert suppression_level(by_id[2]) == "battalion-command"
    assert suppression_level(by_id[3]) == "company" and suppression_level(by_id[4]) == "platoon"


# -- filling a request ------------------------------------------------------------------------------------------
def _fill(resolver: str, snap: Snapshot, unit: int | None, target: int | None = None, **given: Any) -> dict:
    fields = frozenset(get_ruleset("flanders-fields").resolvers[resolver].Request.model_fields)
    out: dict[str, Filled] = {}
    for f in GAME.fill(resolver, snap, FillRequest(fields, unit, target, given)):
        out.setdefault(f.field, f)  # the first reading of a field: the one the request takes
    return out


def test_fill_an_order_roll_for_a_company_of_raw_troops() -> None:
    filled = _fill("order-roll", snapshot(), 3)
    assert filled["unit"].value == "rifle-company" and filled["unit"].source == SRC_ORDERED_UNITS
    assert filled["quality"].value == "raw" and filled["quality"].source == SRC_QUALITY
    assert filled["raw_under_fire"].value is False
    assert filled["command_suppression"].value == 0
    # Every platoon within 25 cm of the command stand.
    assert filled["platoon_beyond_25cm"].value is False
    reach = FlandersFields().context("early").citation(COMMANDER_REACH)
    assert filled["platoon_beyond_25cm"].source == reach


def test_fill_a_platoon_far_from_its_commander_and_a_given_field_is_left_alone() -> None:
    snap = snapshot(battalion(u9={"y": 60.0}))
    filled = _fill("order-roll", snap, 3, quality="veteran")
    assert filled["platoon_beyond_25cm"].value is True
    assert "quality" not in filled  # the player said so: the game fills only the others


def test_fill_a_crewed_weapon_is_experienced() -> None:
    filled = _fill("order-roll", snapshot(), 10)
    assert filled["unit"].value == "battalion-mg"
    assert filled["quality"].value == "experienced" and filled["quality"].source == SRC_CREWED


def test_fill_a_shot_measures_range_and_the_firer() -> None:
    filled = _fill("shooting", snapshot(), 4, 20)
    assert filled["firer"].value == "infantry" and filled["firer"].source == T.SRC_SHOOTING_MATRIX
    # Centres 80 cm apart, face to face: the closest distance between the bases.
    assert filled["range_cm"].value == pytest.approx(80.0 - BASES["infantry-platoon"].depth_cm)
    # Experienced troops in the open have field craft (TYPES OF COVER).
    assert filled["cover"].value == "soft" and filled["cover"].source == cover_source([], "experienced")
    assert filled["target_is_command"].value is False


def test_fill_gas_wind_takes_the_direction_of_the_first_cloud() -> None:
    snap = snapshot(clouds=({"item_id": "G1", "wind_deg": 45.0, "side": "attacker"},))
    filled = _fill("gas-wind", snap, None)
    assert filled["direction_deg"].value == 45.0 and filled["direction_deg"].source == SRC_GAS


def test_fill_names_an_unknown_unit() -> None:
    with pytest.raises(RulesError) as e:
        _fill("order-roll", snapshot(), 99)
    assert e.value.field == "unit_id"


# -- markers ------------------------------------------------------------------------------------------------
def test_mg_fire_suppresses_the_whole_company_rifle_fire_one_platoon() -> None:
    snap = snapshot()
    mg = marker_added(snap, 4, "mg", 1)
    assert [(type(c), c.unit_id) for c in mg] == [
        (SuppressionAdded, 4),
        (SuppressionAdded, 5),
        (SuppressionAdded, 6),
    ]
    assert all(c.source == SRC_BATTLE_SUPPRESSION and c.fire == "mg" for c in mg)
    rifle = marker_added(snap, 4, "rifle", 1)
    assert [(type(c), c.unit_id, c.count) for c in rifle] == [(SuppressionAdded, 4, 1)]


def test_a_third_marker_kills_and_losses_make_a_morale_test_due() -> None:
    # 5 rifle platoons; B Coy has lost one, A Coy's first two platoons carry two markers each.
    snap = snapshot(battalion(u4={"suppression": 2}, u5={"suppression": 2}, u8={"killed": True}))
    changes = marker_added(snap, 4, "artillery", 1)
    kinds = [(type(c).__name__, getattr(c, "unit_id", None)) for c in changes]
    assert kinds == [
        ("SuppressionAdded", 4),
        ("UnitKilled", 4),
        ("SuppressionAdded", 5),
        ("UnitKilled", 5),
        ("SuppressionAdded", 6),
        ("MoraleDue", 1),  # 3 of 5 lost: 50%
    ]
    assert changes[1].source == SRC_DEATH and changes[-1].source == MORALE
    after = snap.after(changes)
    assert after.by_id[4].killed and after.by_id[6].suppression == 1 and after.by_id[1].morale_due


def test_the_second_morale_test_is_due_at_75_percent_and_there_is_no_third() -> None:
    lost = {
        "u4": {"suppression": 2},
        "u5": {"suppression": 2},
        "u8": {"killed": True},
        "u9": {"killed": True},
    }
    after_first = snapshot(battalion(u1={"morale_stage": 1}, **lost))
    changes = marker_added(after_first, 4, "mg", 1)
    assert [(c.unit_id, c.source) for c in changes if isinstance(c, MoraleDue)] == [(1, MORALE)]  # 4 of 5
    after_second = snapshot(battalion(u1={"morale_stage": 2}, **lost))
    assert not any(isinstance(c, MoraleDue) for c in marker_added(after_second, 4, "mg", 1))


def test_no_second_morale_flag_while_one_is_due_nor_a_kill_of_the_dead() -> None:
    snap = snapshot(
        battalion(u1={"morale_due": True}, u4={"suppression": 2}, u5={"suppression": 2}, u8={"killed": True})
    )
    assert not any(isinstance(c, MoraleDue) for c in marker_added(snap, 4, "mg", 1))
    dead = snapshot(battalion(u4={"killed": True}))
    with pytest.raises(RulesError) as e:
        marker_added(dead, 4, "mg", 1)
    assert e.value.field == "unit_id"


def test_recovering_spends_the_companys_action() -> None:
    snap = snapshot(battalion(u3={"actions_left": 1}, u4={"suppression": 1}), turn=1)
    changes = marker_removed(snap, 4, True)
    assert changes == (
        ActionSpent("an action of A Coy", SRC_RECOVERY, 3),
        SuppressionRecovered("a marker removed from unit 4", SRC_RECOVERY, 4),
    )
    with pytest.raises(RulesError) as e:
        marker_removed(snap, 5, False)
    assert e.value.field == "delta"


def test_end_of_turn_command_stands_recover_and_actions_lapse() -> None:
    snap = snapshot(battalion(u2={"suppression": 2}, u4={"suppression": 1}, u3={"actions_left": 2}))
    changes = turn_ended(snap, "attacker")
    assert [type(c) for c in changes] == [SuppressionCleared, ActionsLapsed]
    assert changes[0].unit_id == 2 and changes[0].source == SRC_RECOVERY and changes[1].unit_id == 3
    assert turn_ended(snap, "defender") == ()


# -- results ------------------------------------------------------------------------------------------------------
def _outcome(
    resolver: str, resolution: dict[str, Any], unit: int | None, target: int | None = None, **req: Any
) -> Outcome:
    model = get_ruleset("flanders-fields").resolvers[resolver].Request
    return Outcome(model.model_construct(**req), resolution, unit, target)


def test_an_order_roll_grants_its_actions() -> None:
    out = _outcome("order-roll", {"outcome_key": "pass", "outcome": {"actions": 2}}, 3)
    changes = GAME._consequences("order-roll", snapshot(turn=2), out)
    assert [(type(c), c.unit_id, c.value) for c in changes] == [(ActionsGranted, 3, 2), (Ordered, 3, 2)]


def test_shooting_at_raw_troops_marks_their_battalion_fired_on() -> None:
    snap = snapshot()
    out = _outcome("shooting", {"outcome_key": "suppressed", "outcome": "suppressed"}, 20, 4, firer="mg")
    changes = GAME._consequences("shooting", snap, out)
    assert [type(c) for c in changes] == [SuppressionAdded] * 3 + [CameUnderFire]
    assert changes[-1].unit_id == 1
    missed = _outcome(
        "shooting", {"outcome_key": "no-effect", "outcome": "no-effect"}, 4, 20, firer="infantry"
    )
    assert GAME._consequences("shooting", snap, missed) == ()  # experienced troops: nothing to mark


def test_a_rout_removes_the_battalion_and_a_retreat_suppresses_and_abandons() -> None:
    snap = snapshot(battalion(u1={"morale_due": True}, u4={"suppression": 1}, u8={"killed": True}))
    rout = {
        "outcome_key": "rout",
        "outcome": "rout",
        "test_due": True,
        "at_75_percent": False,
        "removed": True,
    }
    changes = GAME._consequences("morale", snap, _outcome("morale", rout, 1))
    assert changes[:2] == (
        MoraleStage("1st Bn has tested its morale", MORALE, 1, 1),
        MoraleTested("1st Bn has tested its morale", MORALE, 1),
    )
    assert {c.unit_id for c in changes[2:] if isinstance(c, UnitKilled)} == {2, 4, 5, 6, 9, 10}
    retreat = {**rout, "removed": False, "suppressed": True, "abandon_crewed_weapons": True}
    changes = GAME._consequences("morale", snap, _outcome("morale", retreat, 1))
    suppressed = {c.unit_id for c in changes if isinstance(c, BecameSuppressed)}
    assert suppressed == {2, 5, 6, 9, 10}  # not 4: already suppressed
    assert [(c.unit_id, c.source) for c in changes if isinstance(c, CrewAbandoned)] == [(10, SRC_CREWED)]


def test_a_stand_rolled_under_a_barrage_is_no_longer_pending() -> None:
    barrage = {"item_id": "RB1", "side": "attacker", "front_y": 50.0, "pending": [4, 5], "danger": []}
    snap = snapshot(barrages=(barrage,))
    out = _outcome("rolling-barrage", {"outcome_key": "no-effect", "outcome": "no-effect"}, None, 4)
    changes = GAME._consequences("rolling-barrage", snap, out)
    rolled = [c for c in changes if isinstance(c, BarragesRolled)]
    assert rolled[0].barrages[0]["pending"] == [5] and rolled[0].source == SRC_ROLLING_BARRAGE
    again = GAME._consequences("rolling-barrage", snapshot(barrages=(rolled[0].barrages[0],)), out)
    assert not any(isinstance(c, BarragesRolled) for c in again)


def test_gas_markers_follow_the_clouds() -> None:
    # An attacker cloud (20 x 10 cm) over the defending platoon; unit 9 was marked in gas and no longer is.
    snap = snapshot(battalion(u9={"in_gas": True}))
    cloud = {"item_id": "G1", "side": "attacker", "center": [10.0, 100.0]}
    changes = GAME.between_turns(replace(snap, board={"clouds": [cloud]}), BOARD_CHANGED)[1]
    assert {(c.unit_id, c.in_gas) for c in changes} == {(20, True), (9, False)}
    assert all(isinstance(c, GasMarked) and c.source == SRC_GAS for c in changes)


def test_a_dispersing_wind_clears_the_offensive_clouds() -> None:
    cloud = {"item_id": "G1", "side": "attacker", "center": [10.0, 100.0], "moves": 1, "gas": "offensive"}
    snap = snapshot(battalion(u20={"in_gas": True}), clouds=(cloud,), turn=3)
    wind = {"direction_deg": 90.0, "speed_cm": 10.0, "dispersed": True}
    out = _outcome("gas-wind", {"outcome_key": "dispersed", "outcome": wind}, None)
    changes = GAME._consequences("gas-wind", snap, out)
    blown = {c.key: c.value for c in changes[:4] if isinstance(c, SetBoard)}
    assert blown["clouds"] == [] and blown["wind_turn"] == 3 and blown["wind"] == wind
    assert blown["clouds_gone"][0]["why"] == "the Gas Movement table dispersed the gas"
    assert changes[4:] == (GasMarked("unit 20 is out of a gas cloud", SRC_GAS, 20, False),)


# -- the hook -----------------------------------------------------------------------------------------------------
def test_only_a_rule_set_with_game_rules_can_be_played() -> None:
    assert GAME.book.ruleset_id == FlandersFields.id
    with pytest.raises(RulesError) as e:
        get_game_rules("firestorm-villers-bretonneux")
    assert e.value.field == "ruleset" and "firestorm-villers-bretonneux" in e.value.message
    assert e.value.allowed == ["2mm-earth-1418", "flanders-fields", "vimy-ridge"]
