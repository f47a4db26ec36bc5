"""The rehearsal's readings of the text: a battery's 2 Actions, who rolls the action die, deviation of planned
fire, and a German Firewaltz (FF ARTILLERY FIRE PLANS, HURRICANE BOMBARDMENT (FIREWALTZ), ARTILLERY AIMING
POINT - DEVIATION, the playsheets' SUPPORT ORDERS III). Every expected figure is worked out here from the
resolvers' own odds, not read from the rehearsal."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from rules.core.errors import RulesError
from rules.flanders_fields import errata as E
from rules.flanders_fields.book.table_sizes import BASES, TEMPLATES
from rules.flanders_fields.play import rehearsal as R
from rules.flanders_fields.resolvers.artillery import ArtilleryAction, ArtilleryActionRequest
from rules.flanders_fields.resolvers.deviation import Deviation, DeviationRequest
from rules.flanders_fields.resolvers.shooting import Shooting, ShootingRequest
from rules.flanders_fields.ruleset import FlandersFields
from rules.table.bases import Stand
from rules.table.coverage import StandIndex, classify
from rules.table.frame import AHEAD_DEG, Table, deviate, grid_to_table
from rules.table.templates import Template

TABLE = Table()
NO_DEVIATION = {E.PLANNED_FIRE_DEVIATION: "pre-registered"}


def platoon(sid: str, x: float, y: float, cover: str = "open", side: str = "attacker") -> R.TargetStand:
    facing = 90.0 if side == "attacker" else 270.0
    return R.TargetStand(
        sid, f"p{sid}", sid, Stand(sid, side, BASES["infantry-platoon"], (x, y), facing), cover
    )


def battery(item_id: str, x: float, y: float, turns: int = 1) -> dict[str, Any]:
    """A defender's aiming point right over the table point (x, y)."""
    along, up = grid_to_table("defender", x, y, TABLE)  # the inverse of itself for the defender
    return {
        "id": item_id,
        "kind": "aiming-point",
        "arrival_turn": 1,
        "data": {"grid": [along, up], "turns": turns},
    }


def odds(resolver: Any, model: Any, period: str, **fields: Any) -> dict[str, Fraction]:
    ctx = FlandersFields().context(period, {})
    return dict(resolver.probabilities(model.model_validate({"period": period, **fields}), ctx))


def field_gun_shot(period: str, cover: str, y: float, partial: bool = False) -> dict[str, Fraction]:
    return odds(
        Shooting(),
        ShootingRequest,
        period,
        firer="field-gun",
        cover=cover,
        range_cm=TABLE.length_cm - y,
        indirect=True,
        partial_template=partial,
    )


def actions(period: str) -> dict[str, Fraction]:
    return odds(ArtilleryAction(), ArtilleryActionRequest, period)


def test_two_actions_fire_a_battery_twice_by_default_and_once_in_the_other_reading() -> None:
    target = platoon("1", 60.0, 20.0)
    plan = R.plan_from_items("defender", [battery("7", 60.0, 20.0)], TABLE)
    a = actions("early")
    shot = field_gun_shot("early", "open", 20.0)
    k, sup, none = shot.get("killed", Fraction(0)), shot.get("suppressed", Fraction(0)), shot.get("no-effect")
    assert none is not None
    twice = R.rehearse(plan, [target], TABLE, "early", NO_DEVIATION, turns=1).stands["1"][0]
    # 1 Action: one roll; 2 Actions: two rolls, the second on a stand the first left alive.
    killed = a["1-action"] * k + a["2-actions"] * (k + (1 - k) * k)
    two_markers = a["2-actions"] * sup * sup
    assert twice[3] == pytest.approx(float(killed), abs=1e-12)
    assert twice[2] == pytest.approx(float(two_markers), abs=1e-12) and two_markers > 0
    once = R.rehearse(
        plan, [target], TABLE, "early", {**NO_DEVIATION, E.ARTILLERY_TWO_ACTIONS: "fire-once"}, turns=1
    ).stands["1"][0]
    assert once[3] == pytest.approx(float((a["1-action"] + a["2-actions"]) * k), abs=1e-12)
    assert once[2] == 0


def test_one_roll_per_brigade_is_shared_between_its_batteries() -> None:
    """Two batteries of one brigade, each over its own platoon: with one roll, the second battery fires only
    on 2 Actions (the first action fires the first battery)."""
    targets = [platoon("1", 30.0, 20.0), platoon("2", 90.0, 20.0)]
    items = [battery("7", 30.0, 20.0), battery("8", 90.0, 20.0)]
    brigades = {"7": "A", "8": "A"}
    plan = R.plan_from_items("defender", items, TABLE, brigades=brigades)
    a = actions("early")
    k = field_gun_shot("early", "open", 20.0)["killed"]
    variants = {**NO_DEVIATION, E.ARTILLERY_ROLL_PER: "brigade"}
    shared = R.rehearse(plan, targets, TABLE, "early", variants, turns=1).stands
    assert shared["1"][0][3] == pytest.approx(float((a["1-action"] + a["2-actions"]) * k), abs=1e-12)
    assert shared["2"][0][3] == pytest.approx(float(a["2-actions"] * k), abs=1e-12)
    alone = R.rehearse(plan, targets, TABLE, "early", NO_DEVIATION, turns=1).stands
    assert alone["2"][0][3] == pytest.approx(alone["1"][0][3], abs=1e-12)
    assert alone["2"][0][3] > shared["2"][0][3]
    with pytest.raises(RulesError) as unknown:
        R.plan_from_items("defender", items, TABLE, brigades={"9": "A"})
    assert unknown.value.field == "brigades.9"


def test_planned_fire_deviates_by_the_appendix_method_from_the_rolling_players_edge() -> None:
    """One turn of fire on a lone platoon (fire-once): every deviation of the appendix's five dice is laid
    out with the game's template and its coverage, and weighed by the resolver's own odds."""
    target = platoon("1", 60.0, 20.0)
    plan = R.plan_from_items("defender", [battery("7", 60.0, 20.0)], TABLE)
    ctx = FlandersFields().context("early", {})
    index = StandIndex.build([target.stand])  # type: ignore[list-item]
    req = DeviationRequest(period="early")
    a = actions("early")
    fires = a["1-action"] + a["2-actions"]
    expected = Fraction(0)
    for dice in product(range(1, 7), repeat=5):
        out = Deviation().evaluate(req, ctx, dice).outcome
        point = (60.0, 20.0)
        if out["deviates"]:
            point = deviate("defender", point, out["clock"], out["distance_cm"])
        cov = classify(
            Template(TEMPLATES["artillery"], point, AHEAD_DEG["defender"]).polygon(TABLE), index, 0.0
        )
        if cov.full or cov.partial:
            shot = field_gun_shot("early", "open", 20.0, partial=not cov.full)
            expected += Fraction(1, 6**5) * shot.get("killed", Fraction(0))
    variants = {E.ARTILLERY_TWO_ACTIONS: "fire-once"}
    got = R.rehearse(plan, [target], TABLE, "early", variants, turns=1)
    assert got.stands["1"][0][3] == pytest.approx(float(fires * expected), abs=1e-12)
    planned = R.rehearse(plan, [target], TABLE, "early", {**variants, **NO_DEVIATION}, turns=1)
    assert got.stands["1"][0][3] < planned.stands["1"][0][3]
    assert got.schedule[0][0]["deviates"] is True and planned.schedule[0][0]["deviates"] is False


def firewaltz(target: str, x: float, y: float) -> dict[str, Any]:
    return {"id": "5", "kind": "firewaltz", "arrival_turn": 2, "data": {"grid": [x, y], "target": target}}


def firewaltz_odds(**fields: Any) -> dict[str, Fraction]:
    rs = FlandersFields()
    req = rs.resolvers["firewaltz"].Request.model_validate({"period": "late", **fields})
    return dict(rs.resolvers["firewaltz"]().probabilities(req, rs.context("late", req.variants)))


def test_a_german_late_war_firewaltz_is_rehearsed_and_says_what_it_assumes() -> None:
    """It arrives in its turn and attacks once, as the firewaltz resolver does: heavy artillery on a trench
    line (Medium Cover), super heavy on a strong point (Hard, or Fortified by the erratum)."""
    trench = platoon("1", 60.0, 150.0, "medium", side="defender")
    plan = R.plan_from_items("attacker", [firewaltz("trench-line", 60.0, 150.0)], TABLE)
    assert plan.skipped == () and [f.kind for f in plan.fire] == ["firewaltz"]
    result = R.rehearse(plan, [trench], TABLE, "late", NO_DEVIATION)
    assert result.turns == 2 and result.stands["1"][0][0] == 1  # nothing before its arrival turn
    heavy = firewaltz_odds(target="trench-line")
    assert result.stands["1"][1][3] == pytest.approx(float(heavy["killed"]), abs=1e-12)
    body = result.as_dict()
    assert body["not_rehearsed"] == []
    told = " ".join(body["assumptions"])
    assert "Firewaltz item is one attack" in told and "over and back" in told
    assert body["readings"][E.PLANNED_FIRE_DEVIATION] == "pre-registered"
    # A stand in the open under a trench-line attack is taken to be in the trench line's cover.
    open_ground = platoon("1", 60.0, 150.0, "open", side="defender")
    assert (
        R.rehearse(plan, [open_ground], TABLE, "late", NO_DEVIATION).stands["1"][1] == result.stands["1"][1]
    )
    strong = R.plan_from_items("attacker", [firewaltz("strong-point", 60.0, 150.0)], TABLE)
    hard = R.rehearse(strong, [trench], TABLE, "late", NO_DEVIATION).stands["1"][1]
    assert hard[3] == pytest.approx(float(firewaltz_odds(target="strong-point")["killed"]), abs=1e-12)
    fortified = {**NO_DEVIATION, E.FIREWALTZ_STRONG_POINT_COVER: "fortified"}
    assert R.rehearse(strong, [trench], TABLE, "late", fortified).stands["1"][1][3] == 0  # cannot kill
    # Off-table artillery: it deviates by default, so it does less on the stand it aimed at.
    deviated = R.rehearse(plan, [trench], TABLE, "late").stands["1"][1][3]
    assert 0 < deviated < result.stands["1"][1][3]
    with pytest.raises(RulesError) as early:
        R.rehearse(plan, [trench], TABLE, "mid")
    assert early.value.field == "period"


def test_the_assumptions_name_every_reading_in_force() -> None:
    plan = R.plan_from_items("defender", [battery("7", 60.0, 20.0)], TABLE)
    body = R.rehearse(plan, [platoon("1", 60.0, 20.0)], TABLE, "mid").as_dict()
    told = " ".join(body["assumptions"])
    for erratum in (E.ARTILLERY_TWO_ACTIONS, E.ARTILLERY_ROLL_PER, E.PLANNED_FIRE_DEVIATION):
        assert f"erratum {erratum}: {body['readings'][erratum]}" in told
    # The mid-war action roll's thresholds are the erratum's (playsheet: 6 gives 2 Actions).
    assert "1 Action on 4+, 2 Actions on 6+" in told
    assert "Method: exact enumeration" in told and body["method"] == "exact"
