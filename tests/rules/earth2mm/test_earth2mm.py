"""2mm Earth 1418 tables against the text, pools against brute force, and the templates' geometry."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.core.dice import all_rolls, exact_distribution
from rules.core.errors import RulesError
from rules.earth2mm import pools
from rules.earth2mm.data import (
    COVER,
    DIG_IN,
    EXECUTING_ORDER,
    MOVE_PERCENT,
    PLANNING_ORDER,
    PLANS,
    SPEEDS_CM,
    UNITS,
)
from rules.earth2mm.resolvers import (
    BombardRequest,
    CircleRequest,
    CordonRequest,
    MoveRequest,
    PlanRequest,
    RecoveryRequest,
    ResilienceRequest,
    ShootRequest,
)
from rules.earth2mm.templates import CIRCLE_RADIUS_CM, INCH_CM
from rules.registry import get_ruleset

RS = get_ruleset("2mm-earth-1418")


def test_high_commands_chart() -> None:
    # "Move Stay put Move Move" (ADVANCE); "Stay put Stay put Stay put Find cover" (HOLD);
    # "Retreat Retreat Retreat Retreat or Find cover" (RETREAT).
    assert PLANS["advance"] == (("move",), ("stay put",), ("move",), ("move",))
    assert PLANS["hold"] == (("stay put",), ("stay put",), ("stay put",), ("find cover",))
    assert PLANS["retreat"] == (("retreat",), ("retreat",), ("retreat",), ("retreat", "find cover"))
    # "(Can choose to dig in?) Yes but -1R if attacked | Yes but -1R if attacked | No | No"
    assert DIG_IN == {"advance": True, "hold": True, "assault": False, "retreat": False}


def test_examples_of_the_text() -> None:
    # "The central company has no choice but to stay put" (advance, dug in, under fire).
    out = RS.resolve("plans", PlanRequest(command="advance", dug_in=True, under_fire=True)).evaluation.outcome
    assert out["plans"] == ["stay put"]
    # "the other companies can either Assault the enemy or move to the nearest cover location"
    out = RS.resolve("plans", PlanRequest(command="assault", under_fire=True)).evaluation.outcome
    assert out["plans"] == ["assault", "find cover"] and out["may_dig_in"] is False
    v = RS.resolve(
        "plans", PlanRequest(command="assault", dug_in=True, variants={"assault-column": "text-order"})
    )
    assert v.evaluation.outcome["plans"] == ["find cover"]


def test_cover_table() -> None:
    # "Open -3R -2R (R) Rough -2R -1R +1R Defensible +1R +1R +2R Fortification +2R +2R +3R"
    assert COVER == {
        "open": (-3, -2, 0),
        "rough": (-2, -1, 1),
        "defensible": (1, 1, 2),
        "fortification": (2, 2, 3),
    }


def test_weaker_terrain_when_leaving_cover() -> None:
    # "over the top of a +2 dug-in trench into the open -3 gives a -3": line infantry R4 -> 1.
    req = ResilienceRequest(
        unit="line-inf", cover={"terrain": "open", "from_terrain": "fortification", "posture": "moving"}
    )
    assert RS.resolve("resilience", req).evaluation.outcome == 1


def test_as_sf_needs_the_formation_resilience() -> None:
    with pytest.raises(RulesError) as err:
        RS.resolve("resilience", ResilienceRequest(unit="machineguns"))
    assert err.value.field == "formation_resilience"


@pytest.mark.parametrize(
    ("uid", "m", "r", "res", "rng"),
    [
        # "Reserve inf Medium Inf 2/1 3 300", "Machineguns x1/2 Slow Inf 1/3(+1) As S.F. 800",
        # "Grenadier Squads Medium Inf 3(+1)/2 As S.F. 150", "Mother Tank (x2) Slow Inf 0/3(+2) 6 400",
        # "Very Heavy Guns (Immobile) 0/3(+4) 4 Infinite"
        ("reserve-inf", (2, 0), (1, 0), 3, "300"),
        ("line-inf", (2, 0), (1, 0), 4, "300"),
        ("elite-inf", (2, 0), (1, 0), 5, "400"),
        ("command", (1, 0), (1, 0), None, "100"),
        ("machineguns", (1, 0), (3, 1), None, "800"),
        ("early-mortar", (1, 0), (2, 1), None, "1200"),
        ("melee-cav", (3, 0), (0, 0), 3, "0"),
        ("mixed-cav", (3, 0), (1, 0), 3, "50"),
        ("mounted-rifles", (2, 0), (1, 0), 3, "300/100"),
        ("lmg-squad", (1, 0), (2, 0), None, "400"),
        ("smg-squads", (2, 0), (2, 0), None, "150"),
        ("grenadier-squads", (3, 1), (2, 0), None, "150"),
        ("mother-tank", (0, 0), (3, 2), 6, "400"),
        ("whippets", (0, 0), (1, 1), 5, "200"),
        ("field-guns", (0, 0), (2, 1), 4, "2000"),
        ("light-howitzers", (0, 0), (2, 2), 4, "Infinite"),
        ("howitzers-120", (0, 0), (2, 3), 4, "Infinite"),
        ("very-heavy-guns", (0, 0), (3, 4), 4, "Infinite"),
    ],
)
def test_unit_chart(uid: str, m: tuple[int, int], r: tuple[int, int], res: int | None, rng: str) -> None:
    u = UNITS[uid]
    assert (u.melee.dice, u.melee.bonus) == m and (u.ranged.dice, u.ranged.bonus) == r
    assert u.resilience == res and u.range_m == rng


def test_speeds_and_percentages() -> None:
    # "Slow infantry 4cm ... Medium infantry 6cm Fast infantry 8cm Slow cavalry 8 cm Medium cavalry 12cm Fast cavalry 16cm"
    assert {k: v for k, v in SPEEDS_CM.items() if k != "immobile"} == {
        "slow-inf": 4,
        "medium-inf": 6,
        "fast-inf": 8,
        "slow-cav": 8,
        "medium-cav": 12,
        "fast-cav": 16,
    }
    assert MOVE_PERCENT == {"road": 25, "open": 0, "rough": -25, "impractical": -75}
    assert len(PLANNING_ORDER) == 6 and len(EXECUTING_ORDER) == 10


@pytest.mark.parametrize(
    ("kwargs", "cm"),
    [
        ({"unit": "line-inf", "terrain": ["road", "rough"]}, 6),  # "(+25%)&(-25%)= no modifier"
        ({"unit": "line-inf", "terrain": ["road", "impractical"]}, 3),  # "(+25%)&(-75%)= (-50%)"
        ({"unit": "line-inf", "terrain": ["open"], "assaulting": True}, 12),  # "+100%"
        ({"unit": "line-inf", "terrain": ["rough"], "assaulting": True, "injured": True}, Fraction(9, 2)),
        ({"unit": "mixed-cav", "terrain": ["road"]}, 20),
        ({"unit": "line-inf", "transport": "motorised"}, 9),  # "(+50%)"
        ({"unit": "line-inf", "transport": "motorised", "terrain": ["road"]}, Fraction(45, 4)),
        ({"unit": "line-inf", "transport": "horse-drawn"}, 6),
    ],
)
def test_movement(kwargs: dict[str, object], cm: Fraction) -> None:
    out = RS.resolve("move", MoveRequest(**kwargs)).evaluation.outcome  # type: ignore[arg-type]
    assert Fraction(out["exact_cm"]) == cm and out["scale_metres"] == float(cm) * 10


def test_motorised_capped_at_12cm() -> None:
    # Slow... only infantry: an elite medium infantry (6cm) *1.5 = 9; the cap bites on fast infantry: 8*1.5=12.
    out = RS.resolve("move", MoveRequest(unit="whippets", terrain=["open"])).evaluation.outcome
    assert out["distance_cm"] == 8


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"unit": "line-inf", "assaulting": True, "enemy_distance_m": 301}, "enemy_distance_m"),
        ({"unit": "mixed-cav", "transport": "motorised"}, "transport"),
    ],
)
def test_move_refusals(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(RulesError) as err:
        RS.resolve("move", MoveRequest(**kwargs))  # type: ignore[arg-type]
    assert err.value.field == field


def test_pool_extra_die_per_base_beyond_two() -> None:
    # "a 3-base A2 company rolls 2+1 dice, and a 4-base A1 company rolls 1+2 dice"
    assert len(RS.resolve("shoot", ShootRequest(shooter="lmg-squad", bases=3, target="line-inf")).dice) == 3
    assert len(RS.resolve("shoot", ShootRequest(shooter="line-inf", bases=4, target="line-inf")).dice) == 3
    # "-1A [one less die]" when shooting while assaulting
    assert (
        len(
            RS.resolve(
                "shoot", ShootRequest(shooter="line-inf", bases=4, assaulting=True, target="line-inf")
            ).dice
        )
        == 2
    )


def test_injuries_then_kills() -> None:
    # line inf 4 bases (3 dice) at R4 reserve... dice 6, 6, 6: 3 hits on a 2-base target with 1 injured:
    # one fresh injury, then "further hits will become Kills".
    res = RS.resolve(
        "shoot",
        ShootRequest(
            shooter="line-inf", bases=4, target="line-inf", target_bases=2, target_injured=1, dice=[6, 6, 6]
        ),
    )
    assert res.evaluation.outcome == {"hits": 3, "injuries": 1, "kills": 2}
    assert res.evaluation.details["target_after"]["bases"] == 0


def test_bonus_lets_heavy_weapons_harm_r7() -> None:
    # "these special troops are capable of harming R7, R8 and R9 troops": mortar 2(+1) vs R7 needs a 6 + 1,
    # and a vehicle's hits are re-rolled (the 3rd die, 6 + 1 again).
    res = RS.resolve(
        "shoot",
        ShootRequest(
            shooter="early-mortar",
            bases=2,
            target="mother-tank",
            target_cover={"terrain": "defensible"},
            dice=[6, 2, 6, 1],
        ),
    )
    assert res.evaluation.details["target_resilience"] == 7
    assert res.evaluation.outcome["hits"] == 1


def test_vehicles_cannot_dig_in() -> None:
    with pytest.raises(RulesError) as err:
        RS.resolve(
            "shoot",
            ShootRequest(shooter="line-inf", bases=2, target="whippets", target_cover={"posture": "dug-in"}),
        )
    assert err.value.field == "target_cover.posture"


@settings(max_examples=60)
@given(st.integers(0, 4), st.integers(0, 9), st.integers(0, 3))
def test_distribution_equals_brute_force(n: int, r: int, bonus: int) -> None:
    brute = exact_distribution((6,) * n, lambda d: str(pools.hits(d, r, bonus)))
    assert {str(k): v for k, v in pools.distribution(n, r, bonus).items()} == brute


@settings(max_examples=40)
@given(st.integers(1, 2), st.integers(1, 8), st.integers(0, 2), st.booleans())
def test_reroll_distribution_equals_brute_force(n: int, r: int, bonus: int, on_reroll: bool) -> None:
    brute = exact_distribution(
        (6,) * (2 * n), lambda d: str(pools.pool_hits(d, n, r, bonus, True, on_reroll)[1])
    )
    assert {str(k): v for k, v in pools.pool_distribution(n, r, bonus, True, on_reroll).items()} == brute


@settings(max_examples=40)
@given(
    st.sampled_from(["line-inf", "machineguns", "grenadier-squads", "whippets", "field-guns"]),
    st.integers(1, 2),
    st.sampled_from(["line-inf", "mother-tank", "whippets", "reserve-inf"]),
    st.sampled_from(["open", "rough", "defensible", "fortification"]),
)
def test_shoot_resolver_odds_match_enumeration(shooter: str, bases: int, target: str, terrain: str) -> None:
    req = ShootRequest(
        shooter=shooter,
        bases=bases,
        target=target,
        target_formation_resilience=4,  # type: ignore[arg-type]
        target_cover={"terrain": terrain, "posture": "moving"},
    )
    resolver = RS.resolvers["shoot"]()
    ctx = RS.context(None)
    sides = resolver.dice(req, ctx)
    brute = exact_distribution(sides, lambda d: resolver.evaluate(req, ctx, d).key)
    assert resolver.probabilities(req, ctx) == brute
    assert sum(brute.values()) == 1


def test_recovery() -> None:
    # "must roll equal to or under its own Resilience value (a roll of 6 fails)"
    assert RS.resolve("recovery", RecoveryRequest(resilience=4)).probabilities["recovered"] == Fraction(4, 6)
    assert RS.resolve("recovery", RecoveryRequest(resilience=7)).probabilities["recovered"] == Fraction(5, 6)
    assert RS.resolve("recovery", RecoveryRequest(resilience=3, dice=[3])).evaluation.key == "recovered"


def test_bombard_shots_and_half_rule() -> None:
    # field guns 0/2(+1) x 3 bases = 6 shots; "up to half the shots on a single target" = 3.
    with pytest.raises(RulesError) as err:
        RS.resolve(
            "bombard",
            BombardRequest(artillery="field-guns", bases_firing=3, targets=[{"shots": 4, "resilience": 4}]),
        )
    assert err.value.field == "targets.0.shots"
    with pytest.raises(RulesError) as err:
        RS.resolve(
            "bombard",
            BombardRequest(
                artillery="field-guns", bases_firing=3, targets=[{"shots": 3, "resilience": 4}] * 3
            ),
        )
    assert err.value.field == "targets"


def test_bombard_odds_match_enumeration() -> None:
    req = BombardRequest(
        artillery="light-howitzers",
        bases_firing=2,
        targets=[
            {"shots": 2, "resilience": 5},
            {"shots": 1, "resilience": 4, "more_than_half_outside": True},
        ],
    )
    resolver = RS.resolvers["bombard"]()
    ctx = RS.context(None)
    brute = exact_distribution(resolver.dice(req, ctx), lambda d: resolver.evaluate(req, ctx, d).key)
    assert resolver.probabilities(req, ctx) == brute
    assert len(list(all_rolls(resolver.dice(req, ctx)))) == 6**4


def test_circle_is_three_inches_and_picks_subunits() -> None:
    assert pytest.approx(1.5 * 2.54) == CIRCLE_RADIUS_CM
    req = CircleRequest(
        center=(0, 0),
        subunits=[
            [{"x": -1, "y": 0}, {"x": 1, "y": 0}],  # two bases under: affected
            [{"x": 3.5, "y": 0}, {"x": 10, "y": 0}],  # only one of two under: not affected
            [{"x": 4.2, "y": 0}],  # its only base, mostly outside: affected, re-roll hits
        ],
    )
    out = RS.resolve("bombardment-circle", req).evaluation.outcome
    assert out["affected"] == [0, 2]
    assert out["subunits"][2]["bases"][0]["reroll_hits"] is True
    assert out["subunits"][0]["bases"][0]["reroll_hits"] is False


def test_cordon_drifts_three_inches_per_bound() -> None:
    laid = RS.resolve(
        "smoke-cordon", CordonRequest(center=(0, 0), batteries=2, wind_deg=0)
    ).evaluation.outcome
    later = RS.resolve(
        "smoke-cordon", CordonRequest(center=(0, 0), batteries=2, wind_deg=0, bounds=2)
    ).evaluation.outcome
    assert later["center_cm"] == pytest.approx([6 * INCH_CM, 0])
    ys = [p[1] for p in laid["polygon_cm"]]
    # "3" long for every battery firing", square to the wind (wind along +x, so length along y).
    assert max(ys) - min(ys) == pytest.approx(6 * INCH_CM)


def test_a_bombardment_circle_takes_at_most_a_hundred_bases_a_sub_unit() -> None:
    """The hostile pass: 40 sub-units of 2,500 bases each were taken (9.9 s of CPU for one lookup)."""
    from pydantic import ValidationError

    from rules.earth2mm.resolvers import CircleRequest

    base = {"x": 50, "y": 50}
    assert (
        len(CircleRequest.model_validate({"center": [50, 50], "subunits": [[base] * 100] * 40}).subunits)
        == 40
    )
    with pytest.raises(ValidationError) as refused:
        CircleRequest.model_validate({"center": [50, 50], "subunits": [[base] * 101]})
    assert refused.value.errors()[0]["loc"] == ("subunits", 0)
