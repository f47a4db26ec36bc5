"""2mm Earth 1418's bound artillery plan (issue 39), against the printed lines: the plan kinds a side may write
and the rule that refuses the rest, the circle and cordon in cm from the book's inches, the bombardment's
shots (Arming x bases, half on one target, re-rolls more than half outside) and the cordon drifting 3" a
bound."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError
from shapely import Polygon

from rules.core.errors import RulesError
from rules.core.game import TURN_ENDED
from rules.core.kit import PlanKind, drawn
from rules.core.records import PlanItem, SetBoard, SetState, Snapshot, UnitState
from rules.earth2mm.play.artillery import drifted
from rules.earth2mm.play.fields import STATE_FIELDS
from rules.registry import get_game_rules
from rules.table.frame import Table
from rules.table.templates import Template

GAME = get_game_rules("2mm-earth-1418")
PLAN = GAME
INCH = 2.54
DEFAULTS = {f.name: f.default for f in STATE_FIELDS}
ITEM: TypeAdapter[Any] = TypeAdapter(GAME.book.kit.plan_kinds[0] | GAME.book.kit.plan_kinds[1])


def _unit(uid: int, parent: int | None, side: str, level: str, kind: str, name: str, **kw: Any) -> UnitState:
    state = {**DEFAULTS, **kw.pop("state", {})}
    base = kind if level == "platoon" else None  # a base's stand is its kind's (the kit's bases)
    return UnitState(uid, parent, side, level, kind=kind, name=name, base=base, state=state, **kw)


def _bases(first: int, parent: int, side: str, kind: str, at: list[tuple[float, float]]) -> list[UnitState]:
    return [
        _unit(first + i, parent, side, "platoon", kind, f"{parent}/{i + 1}", x=x, y=y, facing_deg=90.0)
        for i, (x, y) in enumerate(at)
    ]


# The attacker's battery of two 75/77 field guns (Arming 0/2(+1)) and a second battery; the defender's line
# infantry company wholly under a circle centred at (50, 51) (3" across: radius 3.81 cm), a tank company with one
# base under it and one more than half outside, and a company with one of its three bases under it. Bases are
# 2 cm across and 1 cm deep (erratum base-size).
UNITS = (
    _unit(1, None, "attacker", "battalion", "formation", "1st Artillery", quality="line"),
    _unit(2, 1, "attacker", "company", "field-guns", "A Battery"),
    *_bases(3, 2, "attacker", "field-guns", [(20.0, 5.0), (22.0, 5.0)]),
    _unit(5, 1, "attacker", "company", "field-guns", "B Battery"),
    *_bases(6, 5, "attacker", "field-guns", [(30.0, 5.0)]),
    _unit(7, 1, "attacker", "company", "very-heavy-guns", "Railway Guns"),
    *_bases(8, 7, "attacker", "very-heavy-guns", [(40.0, 5.0)]),
    _unit(10, None, "defender", "battalion", "formation", "II Battalion", quality="line"),
    _unit(11, 10, "defender", "company", "line-inf", "1 Coy"),
    *_bases(12, 11, "defender", "line-inf", [(48.0, 50.0), (50.0, 50.0), (52.0, 50.0)]),
    _unit(15, 10, "defender", "company", "mother-tank", "Tanks"),
    *_bases(16, 15, "defender", "mother-tank", [(50.0, 53.5), (54.0, 53.0)]),
    _unit(18, 10, "defender", "company", "line-inf", "2 Coy"),
    *_bases(19, 18, "defender", "line-inf", [(53.5, 48.5), (55.5, 48.5), (57.5, 48.5)]),
)


def _snap(
    units: tuple[UnitState, ...] = UNITS, variants: dict[str, str] | None = None, **board: Any
) -> Snapshot:
    return Snapshot("2mm-earth-1418", None, units, 120.0, 180.0, variants=variants or {}, turn=1, board=board)


def _item(kind: str, side: str = "attacker", item_id: int = 1, **data: Any) -> PlanItem:
    return PlanItem(item_id, side, kind, 1, data)


def _moved(uid: int, **state: Any) -> tuple[UnitState, ...]:
    state = state or {"moved_last_bound": True}
    return tuple(replace(u, state={**u.state, **state}) if u.id == uid else u for u in UNITS)


# -- the plan's kinds ------------------------------------------------------------------------------------------
def test_a_plan_is_sealed_each_bound_and_fired_by_the_artillery_sub_units() -> None:
    assert PLAN.book.plan_terms.sealed_each_turn is True
    by = {u.id: u for u in UNITS}
    assert PLAN.fires_plan(by[2]) and PLAN.fires_plan(by[7])
    assert not PLAN.fires_plan(by[3]) and not PLAN.fires_plan(by[11]) and not PLAN.fires_plan(by[1])


def test_each_kind_lands_in_its_executing_step() -> None:
    # "(2) All Artillery ... who did not move or dig in last turn, now shoot"; "(10) Naval and railway
    # artillery shots are worked out".
    assert PLAN.book.plan_terms.arrival_steps["circle-bombardment"] == "execute-2"
    assert PLAN.book.plan_terms.arrival_steps["smoke-cordon"] == "execute-2"
    assert PLAN.book.plan_terms.arrival_steps["naval-railway-bombardment"] == "execute-10"


def test_the_plan_holds_bombardments_and_cordons_and_refuses_other_kinds_with_the_rule() -> None:
    for kind in ("circle-bombardment", "naval-railway-bombardment", "smoke-cordon"):
        PLAN._plan_item_allowed(kind, None, "attacker", "")
    with pytest.raises(RulesError) as e:
        PLAN._plan_item_allowed("aiming-point", None, "attacker", "")
    assert e.value.field == "item.kind" and e.value.source and "ARTILLERY" in e.value.source
    assert e.value.why and "order bombardments on a grid reference" in e.value.why


@pytest.mark.parametrize(
    ("item", "field"),
    [
        # "grid squares should be minimum 6"x6" in size"
        (
            {"kind": "circle-bombardment", "battery": "A Battery", "grid": [10, 10], "square_in": 5},
            "square_in",
        ),
        ({"kind": "circle-bombardment", "battery": "", "grid": [10, 10]}, "battery"),
        ({"kind": "circle-bombardment", "battery": "A Battery", "grid": [10, False]}, "grid"),
        # "3" long for every battery firing": each battery counts once
        ({"kind": "smoke-cordon", "batteries": ["A Battery", "A Battery"], "grid": [1, 1]}, "batteries"),
        ({"kind": "smoke-cordon", "batteries": [], "grid": [1, 1]}, "batteries"),
        # "some gas is transparent": smoke is not
        ({"kind": "smoke-cordon", "batteries": ["A"], "grid": [1, 1], "transparent": True}, "transparent"),
    ],
)
def test_an_item_the_book_forbids_is_refused_naming_its_field(item: dict[str, Any], field: str) -> None:
    with pytest.raises(ValidationError) as e:
        ITEM.validate_python(item)
    assert field in {str(p) for err in e.value.errors() for p in err["loc"]}


def test_the_plan_examples_are_items_of_the_plan_kinds() -> None:
    for example in GAME.book.kit.plan_examples.values():
        assert isinstance(ITEM.validate_python(example["item"]), PlanKind)
        PLAN._plan_item_allowed(example["item"]["kind"], None, "attacker", "")


# -- the kit ------------------------------------------------------------------------------------------------------
def test_the_circle_and_cordon_templates_are_the_books_inches_in_cm() -> None:
    circle, cordon = GAME.book.kit.templates["bombardment-circle"], GAME.book.kit.templates["smoke-cordon"]
    # "Place a bombardment circle (diameter 3")"; "3" long for every battery firing"
    assert circle.shape == "round" and circle.width_cm == circle.depth_cm == pytest.approx(
        3 * INCH, abs=1e-12
    )
    assert (cordon.width_cm, cordon.depth_cm) == pytest.approx((3 * INCH, 3 * INCH), abs=1e-12)
    disc = Template(circle, (50.0, 50.0), 0.0).polygon()
    assert disc.bounds == pytest.approx((50 - 1.5 * INCH, 50 - 1.5 * INCH, 50 + 1.5 * INCH, 50 + 1.5 * INCH))


def test_every_chart_kind_has_a_base() -> None:
    from rules.earth2mm.data import UNIT_IDS

    assert set(GAME.book.kit.bases) == set(UNIT_IDS)
    assert {(b.width_cm, b.depth_cm) for b in GAME.book.kit.bases.values()} == {(2.0, 1.0)}


# -- a bombardment lands ----------------------------------------------------------------------------------------
def test_a_grid_reference_lands_on_its_squares_centre_or_on_the_point() -> None:
    item = _item("circle-bombardment", battery="A Battery", grid=[20, 100])
    # 6" squares are 15.24 cm: 20 cm along is the second square (centre 22.86), 100 cm up the seventh (99.06).
    (circle,) = PLAN._arrival(_snap(), item).board["circles"]
    assert circle["center"] == [22.86, 99.06] and circle["firer_id"] == 2 and circle["bound"] == 1
    # The defender's grid runs from its own left-hand rear corner, the table's far right.
    theirs = PLAN._arrival(_snap(), replace(item, side="defender")).board["circles"][0]
    assert theirs["center"] == [120 - 22.86, 180 - 99.06]
    point = PLAN._arrival(_snap(variants={"grid-reference": "point"}), item).board["circles"][0]
    assert point["center"] == [20.0, 100.0]


def _land(snap: Snapshot, item: PlanItem) -> Snapshot:
    """The table after `item` lands: the board keys its arrival writes."""
    return snap.after([SetBoard("", "", k, v) for k, v in PLAN._arrival(snap, item).board.items()])


def _landed(
    kind: str = "circle-bombardment",
    battery: str = "A Battery",
    variants: dict[str, str] | None = None,
    **kw: Any,
) -> Snapshot:
    snap = _snap(variants={"grid-reference": "point", **(variants or {})}, **kw)
    return _land(snap, _item(kind, battery=battery, grid=[50, 51]))


def test_the_card_offers_the_bases_of_each_sub_unit_under_the_circle() -> None:
    (card,) = PLAN.arrival_cards(_landed(), {})
    by = {s.unit_id: s for s in card.stands}
    # "every sub-unit with more than one base, or its only base, under the circle takes damage": 2 Coy has one
    # base of three under it.
    assert set(by) == {12, 13, 14, 16, 17}
    # "a platoon more than half-way outside the inner circle": its successful shots are re-rolled.
    assert {u: s.under for u, s in by.items()} == {
        12: "full",
        13: "full",
        14: "full",
        16: "full",
        17: "partial",
    }
    assert by[12].dice == (6,) and by[17].dice == (6, 6)
    # Two field gun bases, Arming 2: 4 shots, "up to half the shots on a single target".
    assert {s.times for s in card.stands} == {2} and card.shots == 4 and "4 shots" in card.what
    # Line infantry R4, stationary in the open -2R; a Mother Tank R6, -2R.
    assert by[12].request["targets"][0]["resilience"] == 2 and by[16].request["targets"][0]["resilience"] == 4


def test_a_circle_on_empty_ground_damages_nobody() -> None:
    snap = _snap(variants={"grid-reference": "point"})
    landed = _land(snap, _item("circle-bombardment", battery="A Battery", grid=[100, 150]))
    (card,) = PLAN.arrival_cards(landed, {})
    assert card.stands == () and card.shots == 4


def test_the_shots_are_rolled_as_laid_and_their_hits_wait_for_the_firing_side() -> None:
    snap = _landed()
    (card,) = PLAN.arrival_cards(snap, {})
    # One shot on the first tank: 4 hits R4. One on the second, more than half outside: a 4 hits, its re-roll
    # 2 (+1 bonus) = 3 misses. One on each of two rifle platoons: 2 hits R2, and a 1 (+1) too.
    out = PLAN._arrival_fired(snap, card, {"16": [4], "17": [4, 2], "12": [2], "13": [1]}, {}, {})
    assert [r["resolution"]["outcome"]["hits_per_target"] for r in out.rolls] == [[1], [0], [1], [1]]
    states = {(c.unit_id, c.field): c.value for c in out.changes if isinstance(c, SetState)}
    assert states == {
        (15, "shot_at_by"): (2,),
        (15, "hits_to_allocate"): 1,
        (15, "hits_from"): 2,
        (11, "shot_at_by"): (2,),
        (11, "hits_to_allocate"): 2,
        (11, "hits_from"): 2,
    }


@pytest.mark.parametrize(
    ("dice", "field", "rule"),
    [
        # three shots on one platoon: half of 4 is 2
        ({"16": [4, 4, 4]}, "dice.16", "lay up to half the shots on a single target"),
        # a shot more than half outside rolls its re-roll too
        ({"17": [4]}, "dice.17", "any successful shots must be re-rolled"),
        # 5 shots: the battery has 4
        ({"16": [4, 4], "12": [4, 4], "13": [4]}, "dice", "the maximum number of 'Shots'"),
        # 3 shots on the tank company's two platoons: half of 4 on a single target, the sub-unit (issue 53)
        ({"16": [4, 1], "17": [4, 2]}, "dice", "lay up to half the shots on a single target"),
        ({"12": [4], "13": [4], "14": [4]}, "dice", "lay up to half the shots on a single target"),
        # 2 Coy is not under the circle
        (
            {"20": [4]},
            "dice.20",
            "every sub-unit with more than one base, or its only base, under the circle",
        ),
        # the battery's shots are laid, not left unfired
        ({}, "shots", "the maximum number of 'Shots' the player can allocate across the circle"),
    ],
)
def test_shots_the_book_does_not_allow_are_refused_with_its_line(
    dice: dict[str, list[int]], field: str, rule: str
) -> None:
    snap = _landed()
    (card,) = PLAN.arrival_cards(snap, {})
    with pytest.raises(RulesError) as e:
        PLAN._arrival_fired(snap, card, dice, {}, {})
    assert e.value.field == field and e.value.source and "ARTILLERY" in e.value.source
    assert e.value.why and rule in e.value.why and len(e.value.reason) <= 120


def test_half_the_shots_on_a_single_target_is_read_per_sub_unit_by_default_and_per_platoon_as_listed() -> (
    None
):
    # "They can choose to lay up to half the shots on a single target" (ARTILLERY): the target is a sub-unit
    # (erratum bombardment-target): of 4 shots, at most 2 on all of 1 Coy's platoons together, whereas the
    # platoon reading lets all 4 land on the company, 2 on each of two platoons.
    laid = {"12": [4, 4], "13": [4, 4]}
    snap = _landed()
    (card,) = PLAN.arrival_cards(snap, {})
    assert "Lay up to 2 shots on one company" in card.notes[0]
    with pytest.raises(RulesError) as e:
        PLAN._arrival_fired(snap, card, laid, {}, {})
    assert "1 Coy" in e.value.reason and e.value.source and "ARMING" in e.value.source
    platoon = _landed(variants={"bombardment-target": "platoon"})
    (card,) = PLAN.arrival_cards(platoon, {})
    assert "Lay up to 2 shots on one platoon" in card.notes[0]
    out = PLAN._arrival_fired(platoon, card, laid, {}, {})
    assert len(out.rolls) == 2
    assert {(c.unit_id, c.field): c.value for c in out.changes}[(11, "hits_to_allocate")] == 4


def test_a_battery_that_moved_last_bound_or_is_misnamed_fires_nothing() -> None:
    # "All Artillery ... who did not move or dig in last turn, now shoot"
    moved = _landed(units=_moved(2))
    (card,) = PLAN.arrival_cards(moved, {})
    assert not card.stands and "packing or unpacking" in card.notes[0]
    assert PLAN._arrival_fired(moved, card, {}, {}, {}).changes == ()
    # "all artillery has to spend one bound packing or unpacking to move/fire": a battery planning to move.
    (packing,) = PLAN.arrival_cards(_landed(units=_moved(2, sub_plan="move")), {})
    assert not packing.stands and "packing or unpacking" in packing.notes[0]
    # Very heavy guns are the naval and railway artillery (erratum naval-railway): they land in (10).
    (naval,) = PLAN.arrival_cards(_landed(battery="Railway Guns"), {})
    assert not naval.stands and "naval or railway" in naval.notes[0]
    (railway,) = PLAN.arrival_cards(_landed("naval-railway-bombardment", "Railway Guns"), {})
    assert len(railway.stands) == 5


# -- cordons -------------------------------------------------------------------------------------------------------
def _laid(
    batteries: list[str],
    die: int = 6,
    units: tuple[UnitState, ...] = UNITS,
    variants: dict[str, str] | None = None,
) -> Snapshot:
    snap = _snap(units, variants={"grid-reference": "point", **(variants or {})})
    item = _item("smoke-cordon", batteries=batteries, grid=[60, 90], cloud="short-term-gas")
    assert PLAN._arrival_dice(snap, item, {}) == (6,)
    landed = PLAN._arrival(snap, item, (die,))
    assert landed.event == "cordon-laid" and landed.step == "execute-2"
    return snap.after([SetBoard("", "", k, v) for k, v in landed.board.items()])


def _bounds(cordon: dict[str, Any]) -> tuple[float, ...]:
    return tuple(round(v, 6) for v in Polygon(cordon["polygon"]).bounds)


def test_a_cordon_is_3_inches_a_battery_square_to_the_wind() -> None:
    # A 6 blows towards 12 o'clock from the attacker's edge: up the table. Two batteries: 6" across the wind,
    # 3" along it (erratum cordon-width), centred on (60, 90).
    (cordon,) = _laid(["A Battery", "B Battery"]).board["cordons"]
    assert _bounds(cordon) == (60 - 3 * INCH, 90 - 1.5 * INCH, 60 + 3 * INCH, 90 + 1.5 * INCH)
    # A 3 blows towards 6 o'clock: back down the table; one battery moved last bound, so 3" by 3".
    (back,) = _laid(["A Battery", "B Battery"], die=3, units=_moved(5)).board["cordons"]
    assert back["batteries"] == ["A Battery"] and back["wind_deg"] == 270.0
    assert _bounds(back) == (60 - 1.5 * INCH, 90 - 1.5 * INCH, 60 + 1.5 * INCH, 90 + 1.5 * INCH)


def test_the_wind_is_rolled_once_unless_a_reading_rolls_it_each_bound() -> None:
    snap = _laid(["A Battery"])
    wind = snap.board["wind"]
    assert wind["die"] == 6 and wind["deg"] == 90.0
    item = _item("smoke-cordon", batteries=["B Battery"], grid=[10, 10])
    assert PLAN._arrival_dice(replace(snap, turn=2), item, {}) == ()
    each = replace(snap, turn=2, variants={"wind": "d6-each-bound"})
    assert (
        PLAN._arrival_dice(each, item, {}) == (6,)
        and PLAN._arrival_dice(replace(each, turn=1), item, {}) == ()
    )


def test_no_cordon_is_laid_when_no_battery_named_can_fire() -> None:
    landed = PLAN._arrival(_snap(), _item("smoke-cordon", batteries=["Nobody"], grid=[1, 1]), (6,))
    assert landed.event == "cordon-not-laid" and not landed.board


def test_cordons_drift_3_inches_downwind_each_bound_and_the_circles_lift() -> None:
    snap = _land(
        _laid(["A Battery"]), _item("circle-bombardment", item_id=2, battery="A Battery", grid=[50, 51])
    )
    changes = drifted(snap)
    after = snap.after(changes)
    assert after.board["circles"] == ()
    (cordon,) = after.board["cordons"]
    assert cordon["drifts"] == 1
    assert _bounds(cordon) == (60 - 1.5 * INCH, 90 + 1.5 * INCH, 60 + 1.5 * INCH, 90 + 4.5 * INCH)


def test_short_term_gas_lasts_three_bounds_only_under_that_reading_and_a_cordon_blows_off_the_table() -> None:
    snap = _laid(["A Battery"], variants={"gas-duration": "three-bounds"})
    for _ in range(2):
        snap = snap.after(drifted(snap))
    assert len(snap.board["cordons"]) == 1
    assert snap.after(drifted(snap)).board["cordons"] == ()
    # By default it drifts until it leaves the table: 90 cm up, 7.62 cm a bound, the far edge at 180 cm.
    snap = _laid(["A Battery"])
    bounds = 0
    while snap.board["cordons"]:
        snap = snap.after(drifted(snap))
        bounds += 1
    assert bounds == 13  # its near edge 86.19 cm passes 180 after 13 drifts of 7.62 cm


def test_the_map_draws_the_landed_circles_and_the_cordons_where_they_lie() -> None:
    snap = _land(
        _laid(["A Battery"]), _item("circle-bombardment", item_id=2, battery="A Battery", grid=[50, 51])
    )
    circle, cordon = drawn(GAME.book.kit, snap.board, Table(120.0, 180.0))
    assert (circle.label, circle.point, circle.radius_cm) == (
        "Bombardment of the attacker (A Battery)",
        (50.0, 51.0),
        3.81,
    )
    assert cordon.style == "board-gas" and cordon.label == "Short term gas cordon of the attacker"
    assert Polygon(cordon.polygon).bounds == pytest.approx(
        Polygon(snap.board["cordons"][0]["polygon"]).bounds
    )


def test_the_bound_ends_with_the_cordons_drifting_after_everything_else() -> None:
    snap = _laid(["A Battery"])
    _, ended = GAME.between_turns(snap, TURN_ENDED)
    assert ended[-1:] == drifted(snap)
