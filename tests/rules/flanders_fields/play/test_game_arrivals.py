"""Arrived planned fire as a card (issue 26), against the printed lines: the 10 x 10 cm template where the
fire lands, the stands under it fully, partly or too close to call, the 1914 artillery action roll and the
firing table's odds, and the card applied with given dice (suppression spreading to the company)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from rules.core.errors import RulesError
from rules.core.records import AddToState, PlanItem, SetState, Snapshot, UnitState
from rules.flanders_fields.play.changes import STATE_FIELDS
from rules.registry import get_game_rules

GAME = get_game_rules("flanders-fields")
DEFAULTS = {f.name: f.default for f in STATE_FIELDS}


def _platoon(unit_id: int, x: float) -> UnitState:
    return UnitState(
        unit_id,
        10,
        "defender",
        "platoon",
        kind="rifle-platoon",
        name=f"Plt {unit_id}",
        base="infantry-platoon",  # "Rectangular base 30 mm wide by 15mm deep."
        x=x,
        y=120.0,
        facing_deg=270.0,
        state=dict(DEFAULTS),
    )


# One company under a bombardment aimed at (60, 120): its template spans x 55..65, y 115..125.
UNITS = (
    UnitState(10, None, "defender", "company", kind="rifle-company", name="Coy", state=dict(DEFAULTS)),
    _platoon(11, 60.0),  # 58.5..61.5: fully under
    _platoon(12, 65.0),  # 63.5..66.5: across the edge, partly under
    _platoon(13, 63.0),  # 61.5..64.5: fully under, but within 1 cm of the edge: too close to call
    _platoon(14, 90.0),  # well outside: its company's suppression reaches it
)
FIRE = {"item_id": 5, "side": "attacker", "kind": "bombardment", "turn": 1, "grid": [60, 120]}


def _snap(**board: object) -> Snapshot:
    fire = {**FIRE, "point": [60.0, 120.0], **board}
    return Snapshot(
        "flanders-fields",
        "early",
        UNITS,
        120.0,
        180.0,
        turn=1,
        side_to_move="attacker",
        board={"fire": [fire]},
    )


def test_the_card_lists_each_stand_once_with_the_odds_the_tables_print() -> None:
    (card,) = GAME.arrival_cards(_snap(), {11: "1 Plt"})
    # "all batteries firing have the same area of effect which is a rectangle 10x10cm"
    xs = {round(x, 6) for x, _ in card.polygon}
    assert xs == {55.0, 65.0} and card.lands == card.aimed == (60.0, 120.0)
    by = {s.unit_id: s for s in card.stands}
    assert (by[11].under, by[12].under, by[13].under) == ("full", "partial", "close")
    assert by[13].measured == "full" and 14 not in by
    assert card.as_dict({11: "1 Plt"})["stands"]["full"][0]["name"] == "1 Plt"
    # 1914 playsheet, Regiment/Brigade artillery: "1 -2 = No Action 3 - 5 = 1 Action 6+ = 2 Actions".
    assert card.first is not None and card.first.odds == {
        "no-action": Fraction(2, 6),
        "1-action": Fraction(3, 6),
        "2-actions": Fraction(1, 6),
    }
    # "Field Artillery – Guns 3 4 ..." in the open: suppressed on a 3, killed on 4+.
    assert by[11].odds == {
        "no-effect": Fraction(2, 6),
        "suppressed": Fraction(1, 6),
        "killed": Fraction(3, 6),
    }
    # "if the platoon or weapon falls only partially within the area of effect it is attacked at -2".
    assert by[12].request["partial_template"] is True
    assert by[12].odds == {
        "no-effect": Fraction(4, 6),
        "suppressed": Fraction(1, 6),
        "killed": Fraction(1, 6),
    }
    # 2 Actions may both be FIRE A BATTERY (erratum artillery-two-actions, default fire-twice).
    assert by[11].times == 2


def test_only_the_side_to_moves_fire_of_this_turn_is_a_card() -> None:
    assert GAME.arrival_cards(_snap(side="defender"), {}) == ()
    assert GAME.arrival_cards(_snap(turn=2), {}) == ()
    assert len(GAME.arrival_cards(_snap(turn=1, turns=3), {})) == 1
    old = {k: v for k, v in FIRE.items() if k != "turn"}  # arrived before the board kept its turn
    board = {"fire": [{**old, "point": [60.0, 120.0]}]}
    assert (
        GAME.arrival_cards(Snapshot("flanders-fields", "early", UNITS, 120.0, 180.0, turn=1, board=board), {})
        == ()
    )


def test_applied_a_suppression_reaches_the_company_and_two_actions_fire_twice() -> None:
    snap = _snap()
    (card,) = GAME.arrival_cards(snap, {})
    # 6: "6+ = 2 Actions"; the full stand is suppressed twice (3, 3), the partial one missed (1, 2), the close
    # one measured outside is not rolled.
    dice = {"action": [6], "11": [3, 3], "12": [1, 2]}
    fired = GAME._arrival_fired(snap, card, dice, {"13": "outside"}, {})
    assert [r["unit_id"] for r in fired.rolls] == [None, 11, 12, 11, 12]
    markers = [c for c in fired.changes if isinstance(c, AddToState) and c.field == "suppression"]
    # "MG, mortar and artillery fire suppresses its whole company": each hit marks all four platoons.
    assert sorted(c.unit_id for c in markers) == [11, 11, 12, 12, 13, 13, 14, 14]
    assert not [c for c in fired.changes if isinstance(c, SetState) and c.field == "killed"]
    assert "2 turns of fire" in fired.effect


def test_a_die_or_a_stand_the_card_does_not_have_is_refused_by_name() -> None:
    snap = _snap()
    (card,) = GAME.arrival_cards(snap, {})
    with pytest.raises(RulesError) as e:
        GAME._arrival_fired(snap, card, {"action": [4]}, {}, {})
    assert e.value.field == "dice.11"
    with pytest.raises(RulesError) as e:
        GAME._arrival_fired(snap, card, {"action": [1]}, {"11": "outside"}, {})
    assert e.value.field == "measured.11"


def test_a_battery_deviates_as_it_arrives_by_the_appendix_method() -> None:
    snap = Snapshot("flanders-fields", "early", UNITS, 120.0, 180.0, turn=1, side_to_move="attacker")
    item = PlanItem(5, "attacker", "bombardment", 1, {"grid": [60, 120], "battery": "", "turns": 1})
    assert GAME._arrival_dice(snap, item, {}) == (6, 6, 6, 6, 6)
    # First die 2: it deviates; 4 then 3: "4-6 add six" -> 9 o'clock; 2D6 = 2 + 5 = 7 cm. 12 o'clock is ahead
    # of the attacker's edge (+y), so 9 o'clock is to its left (-x).
    landed = GAME._arrival(snap, item, (2, 4, 3, 2, 5))
    (fire,) = landed.board["fire"]
    assert fire["point"] == [60.0, 120.0] and fire["lands"] == pytest.approx([53.0, 120.0])
    assert fire["deviation"]["clock"] == 9 and fire["deviation"]["distance_cm"] == 7
    # "if the result is a 5 or 6 then there is no deviation"
    (still,) = GAME._arrival(snap, item, (5, 1, 1, 1, 1)).board["fire"]
    assert still["lands"] == [60.0, 120.0]
    # A mortar is on the table: no deviation dice.
    assert GAME._arrival_dice(snap, PlanItem(6, "attacker", "mortar", 1, {"grid": [60, 120]}), {}) == ()
    pre = Snapshot(
        "flanders-fields",
        "early",
        UNITS,
        120.0,
        180.0,
        variants={"planned-fire-deviation": "pre-registered"},
    )
    assert GAME._arrival_dice(pre, item, {}) == ()


def test_where_the_playsheet_rolls_bombardments_in_their_step_no_action_roll_is_asked() -> None:
    """Mid and late playsheets: "4 BARRAGES AND BOMBARDMENTS DEPLOY PRE-PLANNED BARRAGES AND BOMBARDMENTS -
    ROLL EFFECTS" (erratum planned-bombardment-order, default rolls-effects): one turn of fire, no order; the
    other reading, "only an order to fire", asks for the battery's action roll, as the 1914 sheet (no step 4)
    always does. The rehearsal reads the same."""
    from rules.flanders_fields.play.rehearsal import FireItem, Rules

    fire = {**FIRE, "point": [60.0, 120.0]}
    mid = Snapshot("flanders-fields", "mid", UNITS, 120.0, 180.0, turn=1, board={"fire": [fire]})
    (card,) = GAME.arrival_cards(mid, {})
    assert card.first is None and {s.times for s in card.stands} == {1}
    assert "4 BARRAGES AND BOMBARDMENTS" in card.source
    fired = GAME._arrival_fired(mid, card, {"11": [6], "12": [1], "13": [1]}, {}, {})
    assert [r["unit_id"] for r in fired.rolls] == [11, 12, 13] and "1 turn of fire" in fired.effect
    ordered = Snapshot(
        "flanders-fields",
        "mid",
        UNITS,
        120.0,
        180.0,
        variants={"planned-bombardment-order": "order-to-fire"},
        turn=1,
        board={"fire": [fire]},
    )
    (card,) = GAME.arrival_cards(ordered, {})
    assert card.first is not None and card.first.resolver == "artillery-action"
    item = FireItem("5", "bombardment", (60.0, 120.0), 1, 1, "field-gun", "artillery")
    assert Rules("mid", {}).actions(item) == {1: Fraction(1)}
    assert Rules("early", {}).actions(item)[0] == Fraction(1, 3)


def test_a_stand_the_firing_table_cannot_shoot_is_named_not_rolled() -> None:
    """A tank on a 1914 table (the playsheet has no armour rows: "no tanks before mid 1915") under the fire:
    the card still reads, naming the tank as not rolled, and rolls the platoon beside it."""
    tank = UnitState(
        20,
        None,
        "defender",
        "platoon",
        kind="tank",
        name="Tank",
        base="tank",
        x=60.0,
        y=120.0,
        facing_deg=270.0,
        state=dict(DEFAULTS),
    )
    snap = Snapshot(
        "flanders-fields",
        "early",
        (tank, UNITS[1]),
        120.0,
        180.0,
        turn=1,
        board={"fire": [{**FIRE, "point": [60.0, 120.0]}]},
    )
    (card,) = GAME.arrival_cards(snap, {20: "A7V"})
    assert [s.unit_id for s in card.stands] == [11]
    assert any(n.startswith("A7V is not rolled") for n in card.notes)


def _battery(kind: str, name: str, x: float | None) -> UnitState:
    return UnitState(
        30,
        None,
        "attacker",
        "battery",
        kind=kind,
        name=name,
        base="field-artillery",
        x=x,
        y=None if x is None else 5.0,
        state=dict(DEFAULTS),
    )


def test_planned_fire_from_a_battery_on_the_table_does_not_deviate() -> None:
    # "When unobserved off table artillery or ANY artillery delivered gas attack arrives roll a deviation
    # dice": a battery the plan names that stands on the table is not off table.
    item = PlanItem(
        5, "attacker", "bombardment", 1, {"grid": [60, 120], "battery": "Field Battery", "turns": 1}
    )
    on_table = Snapshot(
        "flanders-fields", "early", (*UNITS, _battery("field-battery", "Field Battery", 60.0)), 120.0, 180.0
    )
    assert GAME._arrival_dice(on_table, item, {}) == ()
    off_table = Snapshot(
        "flanders-fields", "early", (*UNITS, _battery("field-battery", "Field Battery", None)), 120.0, 180.0
    )
    assert GAME._arrival_dice(off_table, item, {}) == (6, 6, 6, 6, 6)


def test_a_plan_naming_a_battery_by_its_force_name_fires_as_that_battery() -> None:
    howitzers = _battery("howitzer-battery", "Field Howitzer Battery", None)
    fire = {**FIRE, "point": [60.0, 120.0], "battery": "Field Howitzer Battery"}
    snap = Snapshot(
        "flanders-fields", "early", (*UNITS, howitzers), 120.0, 180.0, turn=1, board={"fire": [fire]}
    )
    (card,) = GAME.arrival_cards(snap, {30: "2 How Bty"})
    assert card.stands[0].request["firer"] == "field-howitzer"
    by_shown_name = {**fire, "battery": "2 How Bty"}
    (card,) = GAME.arrival_cards(replace(snap, board={"fire": [by_shown_name]}), {30: "2 How Bty"})
    assert card.stands[0].request["firer"] == "field-howitzer"


def test_a_stand_too_close_to_call_is_rolled_as_the_card_lists_it() -> None:
    # 65.2..68.2: the map puts it 0.2 cm outside the 55..65 square, within a 1 cm nudge: the card lists it
    # partly under, with the odds of a partial hit, and Apply rolls it so unless the players measured it out.
    edge = replace(_platoon(15, 66.7), parent_id=None)
    snap = Snapshot(
        "flanders-fields",
        "early",
        (*UNITS, edge),
        120.0,
        180.0,
        turn=1,
        board={"fire": [{**FIRE, "point": [60.0, 120.0]}]},
    )
    (card,) = GAME.arrival_cards(snap, {})
    roll = next(s for s in card.stands if s.unit_id == 15)
    assert (roll.under, roll.measured, roll.request["partial_template"]) == ("close", "partial", True)
    dice = {"action": [4], "11": [1], "12": [1], "13": [1], "15": [6]}
    fired = GAME._arrival_fired(snap, card, dice, {}, {})
    assert [r["unit_id"] for r in fired.rolls] == [None, 11, 12, 13, 15]
    assert fired.rolls[-1]["resolution"]["modifiers"][0]["value"] == -2
    measured_out = GAME._arrival_fired(snap, card, dice, {"15": "outside"}, {})
    assert [r["unit_id"] for r in measured_out.rolls] == [None, 11, 12, 13]
