"""Fire-plan rehearsal against a brute-force run of the same resolvers, on the Mons 1914 table.

The brute force plays the plan many times with dice drawn from a seeded generator, through the resolvers'
own `evaluate` and the table geometry, and counts what happened to every German stand; the rehearsal's
exact distribution must agree within the sampling error.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from rules.core.errors import RulesError
from rules.flanders_fields.book.cover import cover_for
from rules.flanders_fields.book.table_sizes import BASES, TEMPLATES
from rules.flanders_fields.planning.scenarios import SCENARIOS
from rules.flanders_fields.play import rehearsal as R
from rules.flanders_fields.play.table_rules import WIRE_BELT_CM
from rules.flanders_fields.resolvers.artillery import SOS, ArtilleryAction, ArtilleryActionRequest, SOSRequest
from rules.flanders_fields.resolvers.barrage import RollingBarrage, RollingBarrageRequest
from rules.flanders_fields.resolvers.deviation import Deviation, DeviationRequest
from rules.flanders_fields.resolvers.shooting import FIRE_TYPE, Shooting, ShootingRequest
from rules.flanders_fields.resolvers.suppression import spreads_to_company
from rules.flanders_fields.ruleset import FlandersFields
from rules.table.bases import Stand
from rules.table.coverage import StandIndex, classify
from rules.table.frame import AHEAD_DEG, Table, deviate, grid_to_table
from rules.table.templates import Template
from rules.table.terrain import TerrainIndex, terrain_from_geojson

MONS = SCENARIOS["mons-1914"]
TABLE = Table(MONS.table_width_cm, MONS.table_length_cm)
# The British (defender) plan: three 18pdr batteries and the howitzer on the German start line, by grid
# reference from the British rear edge ("cm along ... from the left hand corner and then ... up the table"),
# and an SOS call in front of the British line on turn 2.
MONS_DEFENDER_PLAN = [
    {
        "id": "11",
        "kind": "aiming-point",
        "arrival_turn": 1,
        "data": {"grid": [112, 168], "battery": "1", "turns": 2},
    },
    {
        "id": "12",
        "kind": "aiming-point",
        "arrival_turn": 1,
        "data": {"grid": [72, 168], "battery": "2", "turns": 1},
    },
    {
        "id": "13",
        "kind": "bombardment",
        "arrival_turn": 2,
        "data": {"grid": [35, 166], "battery": "3", "turns": 2},
    },
    {
        "id": "14",
        "kind": "aiming-point",
        "arrival_turn": 2,
        "data": {"grid": [90, 170], "battery": "H", "turns": 1},
    },
]
MONS_FIRERS = {"14": "field-howitzer"}
MONS_SOS = [{"grid": [60, 168], "turn": 3}]


def mons_targets(side: str = "attacker") -> list[R.TargetStand]:
    """The side's stands on the Mons table: company (the parent company, or the stand itself), cover from
    the terrain under the base and the stand's quality, as the game reads them."""
    terrain = TerrainIndex.build(terrain_from_geojson(MONS.terrain, wire_belt_cm=WIRE_BELT_CM))
    out: list[R.TargetStand] = []

    def walk(u: Any, company: str | None) -> None:
        if u.level == "company":
            company = u.id
        if u.base is not None and u.id in MONS.placements:
            p = MONS.placements[u.id]
            stand = Stand(u.id, side, BASES[u.base], tuple(p["center"]), p["facing_deg"])
            cover = cover_for(sorted(terrain.kinds_at(stand.polygon())), u.quality)
            command = u.kind.endswith("-command")
            out.append(R.TargetStand(u.id, u.id, company or u.id, stand, cover, command))
        for c in u.children:
            walk(c, company)

    for top in MONS.forces[side]:
        walk(top, None)
    return out


OLD_READINGS = {"artillery-two-actions": "fire-once", "planned-fire-deviation": "pre-registered"}


def brute_force(
    plan: R.Plan,
    targets: list[R.TargetStand],
    turns: int,
    n: int,
    seed: int,
    variants: dict[str, str] | None = None,
) -> dict[str, list[Counter[int]]]:
    """Play the plan n times with random dice through the resolvers' evaluate: per stand, per turn, how
    often it ended with 0, 1, 2 markers or destroyed (3). A battery fires as many times as its artillery
    action roll gives actions (at most once under the fire-once reading); every turn of fire of off-table
    artillery deviates by the deviation resolver's dice unless the pre-registered reading is chosen."""
    variants = variants or {}
    ctx = FlandersFields().context(MONS.period, variants)
    twice = variants.get("artillery-two-actions", "fire-twice") == "fire-twice"
    deviates = variants.get("planned-fire-deviation", "deviates") == "deviates"
    rng = random.Random(seed)
    by_id = {t.id: t for t in targets}
    index = StandIndex.build([t.stand for t in targets if t.stand is not None])
    company: dict[str, list[str]] = {}
    for t in targets:
        company.setdefault(t.group, []).append(t.id)
    period = {"period": MONS.period, "variants": variants}
    shooting, action, sos, deviation = Shooting(), ArtilleryAction(), SOS(), Deviation()
    deviation_req = DeviationRequest.model_validate(period)
    landed: dict[tuple[str, float, float], list[tuple[str, Any]]] = {}

    def shots_at(f: R.FireItem, point: tuple[float, float]) -> list[tuple[str, Any]]:
        """Each stand under the item's template at `point`, with its shooting request."""
        key = (f.id, round(point[0], 6), round(point[1], 6))
        if key not in landed:
            poly = Template(TEMPLATES[f.template], point, AHEAD_DEG[plan.side]).polygon(TABLE)
            cov = classify(poly, index, 0.0)
            hit = sorted([(i, False) for i in cov.full] + [(i, True) for i in cov.partial])
            landed[key] = [
                (
                    i,
                    ShootingRequest.model_validate(
                        {
                            **period,
                            "firer": f.firer,
                            "cover": by_id[i].cover,
                            "range_cm": TABLE.length_cm - by_id[i].stand.center[1],  # type: ignore[union-attr]
                            "indirect": True,
                            "partial_template": partial,
                            "target_is_command": by_id[i].is_command,
                        }
                    ),
                )
                for i, partial in hit
            ]
        return landed[key]

    volleys: list[list[tuple[Any, R.FireItem]]] = [[] for _ in range(turns)]
    for f in plan.fire:
        if f.kind == "sos":
            order: Any = (sos, SOSRequest.model_validate(period), {"fire-arrives": 1})
        else:
            kind = R.ARTILLERY_KIND[f.firer]
            req = ArtilleryActionRequest.model_validate({**period, "artillery": kind})
            order = (action, req, {"1-action": 1, "2-actions": 2 if twice else 1})
        for turn in range(f.first_turn, min(f.first_turn + f.turns, turns + 1)):
            volleys[turn - 1].append((order, f))
    counts = {t.id: [Counter[int]() for _ in range(turns)] for t in targets}
    for _ in range(n):
        markers = {t.id: t.markers for t in targets}
        for turn in range(turns):
            for (resolver, req, fires), f in volleys[turn]:
                for _fired in range(fires.get(resolver.evaluate(req, ctx, (rng.randint(1, 6),)).key, 0)):
                    point = f.point
                    if deviates:
                        dice = tuple(rng.randint(1, 6) for _ in range(5))
                        out = deviation.evaluate(deviation_req, ctx, dice).outcome
                        if out["deviates"]:
                            point = deviate(plan.side, f.point, out["clock"], out["distance_cm"])
                    for i, shot in shots_at(f, point):
                        if markers[i] >= 3:
                            continue
                        res = shooting.evaluate(shot, ctx, (rng.randint(1, 6),))
                        if res.key == "killed":
                            markers[i] = 3
                        elif res.key == "suppressed":
                            hit = company[by_id[i].group] if spreads_to_company(FIRE_TYPE[f.firer]) else [i]
                            for j in hit:
                                if markers[j] < 3:
                                    markers[j] += 1
            for sid, m in markers.items():
                counts[sid][turn][m] += 1
    return counts


@pytest.mark.parametrize("variants", [{}, OLD_READINGS], ids=["default-readings", "fire-once-no-deviation"])
def test_mons_defender_plan_matches_a_brute_force_run_of_the_resolvers(variants: dict[str, str]) -> None:
    targets = mons_targets("attacker")
    plan = R.plan_from_items("defender", MONS_DEFENDER_PLAN, TABLE, MONS_FIRERS, MONS_SOS)
    result = R.rehearse(plan, targets, TABLE, MONS.period, variants, turns=3)
    assert result.method == "exact"
    n = 4000
    counts = brute_force(plan, targets, 3, n, seed=20261122, variants=variants)
    touched = 0
    for sid, per_turn in result.stands.items():
        for turn, probs in enumerate(per_turn):
            assert sum(probs) == pytest.approx(1, abs=1e-12)
            for m, p in enumerate(probs):
                seen = counts[sid][turn][m] / n
                se = math.sqrt(float(p) * (1 - float(p)) / n)
                # 4.5 standard errors (and a floor for probabilities near 0 or 1): a false alarm ~1 in 150,000.
                assert abs(seen - float(p)) <= 4.5 * se + 2 / n, (sid, turn + 1, m, float(p), seen)
            touched += probs[0] < 1
    assert touched >= 8  # the plan reaches a fair part of the German start line


def test_an_aiming_point_fully_over_one_platoon_is_the_resolvers_own_odds() -> None:
    """One 18pdr turn of fire on a lone platoon in the open: P(killed) is P(an order) x P(kill roll)."""
    stand = Stand("1", "attacker", BASES["infantry-platoon"], (60.0, 12.0), 90.0)
    target = R.TargetStand("1", "lone platoon", "1", stand, "open")
    plan = R.plan_from_items(
        "defender",
        [{"id": "7", "kind": "aiming-point", "arrival_turn": 1, "data": {"grid": [60, 168]}}],
        TABLE,
    )
    result = R.rehearse(plan, [target], TABLE, "early", OLD_READINGS, turns=1)
    ctx = FlandersFields().context("early", {})
    order = ArtilleryAction().probabilities(ArtilleryActionRequest.model_validate({"period": "early"}), ctx)
    fires = order.get("1-action", Fraction(0)) + order.get("2-actions", Fraction(0))
    shot = Shooting().probabilities(
        ShootingRequest.model_validate(
            {"period": "early", "firer": "field-gun", "cover": "open", "range_cm": 168, "indirect": True}
        ),
        ctx,
    )
    assert result.stands["1"][0][3] == pytest.approx(
        float(fires * shot.get("killed", Fraction(0))), abs=1e-12
    )
    assert result.stands["1"][0][1] == pytest.approx(
        float(fires * shot.get("suppressed", Fraction(0))), abs=1e-12
    )


def test_company_suppression_spreads_and_three_markers_kill() -> None:
    """A platoon two rolls of artillery suppress spreads to its company mate outside the template."""
    a = R.TargetStand(
        "1", "a", "coy", Stand("1", "attacker", BASES["infantry-platoon"], (60.0, 12.0), 90.0), "open"
    )
    b = R.TargetStand(
        "2",
        "b",
        "coy",
        Stand("2", "attacker", BASES["infantry-platoon"], (20.0, 12.0), 90.0),
        "open",
        markers=2,
    )
    plan = R.plan_from_items(
        "defender", [{"id": "7", "kind": "mortar", "arrival_turn": 1, "data": {"grid": [60, 168]}}], TABLE
    )
    result = R.rehearse(plan, [a, b], TABLE, "early", turns=1)
    # The mortar's fire is taken as delivered: whenever a is suppressed (not killed), b gets its third marker.
    p_a = result.stands["1"][0]
    assert result.stands["2"][0][3] == pytest.approx(p_a[1], abs=1e-12)
    assert result.stands["2"][0][2] == pytest.approx(1 - p_a[1], abs=1e-12)


def test_rolling_barrage_needs_its_period_and_rolls_again_on_a_halt() -> None:
    item = {
        "id": "5",
        "kind": "rolling-barrage",
        "arrival_turn": 1,
        "data": {"start_up_cm": 20, "duration_turns": 3, "halts": [2]},
    }
    stand = Stand("1", "defender", BASES["infantry-platoon"], (60.0, 150.0), 270.0)
    target = R.TargetStand("1", "p", "1", stand, "medium")
    plan = R.plan_from_items("attacker", [item], Table())
    with pytest.raises(RulesError) as refused:
        R.rehearse(plan, [target], Table(), "early", turns=3)
    assert refused.value.field == "period"
    late_target = R.TargetStand(
        "1", "p", "1", Stand("1", "defender", BASES["infantry-platoon"], (60.0, 45.0), 270.0), "medium"
    )
    result = R.rehearse(plan, [late_target], Table(), "late", turns=3)
    whats = [[v["what"] for v in turn] for turn in result.schedule]
    assert whats == [["rolling barrage opens"], ["rolling barrage holds"], ["rolling barrage advances"]]
    # Opens at 20-40 cm, holds, then sweeps 40-60 cm: the platoon at 45 cm is rolled for once, on turn 3.
    assert result.stands["1"][0][0] == 1 and result.stands["1"][1][0] == 1
    one = RollingBarrage().probabilities(
        RollingBarrageRequest.model_validate({"period": "late", "cover": "medium"}),
        FlandersFields().context("late", {}),
    )
    assert result.stands["1"][2][3] == pytest.approx(float(one["killed"]), abs=1e-12)


def test_gas_is_sampled_from_the_seed_with_its_standard_error() -> None:
    item = {
        "id": "9",
        "kind": "gas",
        "arrival_turn": 1,
        "data": {"grid": [60, 140], "gas": "offensive", "wind_deg": 90},
    }
    targets = [
        R.TargetStand(
            str(n),
            f"p{n}",
            f"c{n // 4}",
            Stand(
                str(n),
                "defender",
                BASES["infantry-platoon"],
                (25.0 + 10 * (n % 8), 138.0 + 6 * (n // 8)),
                270.0,
            ),
            "open",
        )
        for n in range(16)
    ]
    plan = R.plan_from_items("attacker", [item], Table())
    one = R.rehearse(plan, targets, Table(), "late", turns=3, seed=7, samples=60)
    again = R.rehearse(plan, targets, Table(), "late", turns=3, seed=7, samples=60)
    assert one.method == "sampled" and one.samples == 60 and one.stands == again.stands
    body = one.as_dict()
    assert "standard error" in body["how"]
    hit = [s for t in body["turn_by_turn"] for s in t["stands"]]
    assert hit and all("standard_error" in s for s in hit)
    # The cloud deviates where it lands ("ANY artillery delivered gas attack"): sampled from turn 1 on.
    assert any(s["standard_error"]["killed"] > 0 for s in body["turn_by_turn"][0]["stands"])
    # Falling where planned, it lands on the stands under it on turn 1: no wind yet, so no sampling error there.
    planned = R.rehearse(plan, targets, Table(), "late", OLD_READINGS, turns=3, seed=7, samples=60).as_dict()
    first = planned["turn_by_turn"][0]["stands"]
    assert first and all(s["standard_error"]["killed"] == 0 for s in first)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"turns": 0}, "turns"),
        ({"turns": 21}, "turns"),
        ({"samples": 0}, "samples"),
        ({"samples": 5000}, "samples"),
    ],
)
def test_limits(kwargs: dict[str, Any], field: str) -> None:
    plan = R.plan_from_items("defender", MONS_DEFENDER_PLAN, TABLE)
    with pytest.raises(RulesError) as refused:
        R.rehearse(plan, mons_targets(), TABLE, "early", **kwargs)
    assert refused.value.field == field


def test_plan_refusals_name_the_field() -> None:
    with pytest.raises(RulesError) as bad_firer:
        R.plan_from_items("defender", MONS_DEFENDER_PLAN, TABLE, {"11": "infantry"})
    assert bad_firer.value.field == "firers.11"
    with pytest.raises(RulesError) as unknown:
        R.plan_from_items("defender", MONS_DEFENDER_PLAN, TABLE, {"99": "field-gun"})
    assert unknown.value.field == "firers.99"
    with pytest.raises(RulesError) as sos:
        R.plan_from_items("attacker", [], TABLE, sos=[{"grid": [1, 1], "turn": 1}])
    assert sos.value.field == "sos"
    skipped = R.plan_from_items(
        "attacker", [{"id": "1", "kind": "deep-suppression", "arrival_turn": 1, "data": {}}], TABLE
    )
    assert [s["kind"] for s in skipped.skipped] == ["deep-suppression"]
    # Numbers a hostile client slipped past the plan's own limits bring nothing, quickly.
    odd = [
        {"id": "2", "kind": "aiming-point", "arrival_turn": -5, "data": {"grid": [60, 168], "turns": 3}},
        {
            "id": "3",
            "kind": "aiming-point",
            "arrival_turn": 1,
            "data": {"grid": [60, 168], "turns": 2_000_000_000},
        },
        {
            "id": "4",
            "kind": "rolling-barrage",
            "arrival_turn": 1,
            "data": {"start_up_cm": 20, "duration_turns": 2_000_000_000},
        },
    ]
    plan = R.plan_from_items("attacker", odd, TABLE)
    assert [s["id"] for s in plan.skipped] == ["2"]
    result = R.rehearse(plan, mons_targets("defender"), TABLE, "late")
    assert result.turns == R.MAX_TURNS and len(result.schedule) == R.MAX_TURNS


def test_grid_reference_is_the_game_frame() -> None:
    plan = R.plan_from_items("defender", MONS_DEFENDER_PLAN[:1], TABLE)
    assert plan.fire[0].point == grid_to_table("defender", 112, 168, TABLE) == (8.0, 12.0)


def test_a_rehearsal_too_large_to_answer_is_refused_naming_what_to_reduce() -> None:
    """Eight gas clouds over twenty turns: the wind sampled 2,000 times is refused before any work; a plan
    whose companies take more work than allowed is refused when the work runs out."""
    clouds = [
        {
            "id": str(i),
            "kind": "gas",
            "arrival_turn": 1,
            "data": {"grid": [10 + 12 * i, 160], "gas": "offensive", "wind_deg": 90},
        }
        for i in range(8)
    ]
    plan = R.plan_from_items("defender", clouds, TABLE)
    with pytest.raises(RulesError) as refused:
        R.rehearse(plan, mons_targets(), TABLE, "early", turns=20, samples=2000)
    assert refused.value.field == "samples" and "fewer" in str(refused.value)
    batteries = [
        {
            "id": str(i),
            "kind": "aiming-point",
            "arrival_turn": 1,
            "data": {"grid": [10 + 12 * i, 168], "turns": 20},
        }
        for i in range(10)
    ]
    heavy = R.plan_from_items("defender", batteries, TABLE)
    with pytest.raises(RulesError) as too_much:
        R.rehearse(heavy, mons_targets(), TABLE, "early", turns=20, work_limit=10_000)
    assert too_much.value.field == "samples" and "fewer turns" in str(too_much.value)
    assert R.rehearse(heavy, mons_targets(), TABLE, "early", turns=20).method == "exact"
