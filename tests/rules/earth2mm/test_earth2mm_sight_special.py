"""2mm Earth 1418 overwatch and line of sight, smoke and gas, mixed artillery, the transport bonus, the
"same shooter" rule, and the errata for dug-in artillery and re-rolls against vehicles, against the text."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from rules.core.dice import all_rolls
from rules.core.errors import RulesError
from rules.earth2mm import pools
from rules.earth2mm.resolvers import ResilienceRequest, ShootRequest
from rules.earth2mm.sight import GasRequest, SightRequest
from rules.earth2mm.special import InjuryRequest, MixedArtilleryRequest, TransportRequest
from rules.registry import get_ruleset

RS = get_ruleset("2mm-earth-1418")


def sight(**kw: Any) -> Any:
    return RS.resolve("line-of-sight", SightRequest(**kw)).evaluation


# -- SHOOTING THROUGH TERRAIN and OVERWATCH -------------------------------------------------------------
def test_one_base_with_a_direct_line_may_shoot() -> None:
    # "If one or more of the bases can draw a direct line from their base to the base of the enemy, they can shoot."
    assert sight(shooter="line-inf", bases=3, bases_with_direct_line=1, target_resilience=4).key == "shoot"


def test_no_line_means_no_shot_but_overwatch_is_always_open() -> None:
    # "If the marker cannot touch because of a slope or intervening terrain then the target cannot be hit, but
    # the firer can always use overwatch"
    assert (
        sight(shooter="line-inf", bases=3, bases_with_direct_line=0, target_resilience=4).key
        == "cannot shoot"
    )
    ev = sight(shooter="line-inf", bases=3, bases_with_direct_line=0, target_resilience=4, overwatch=True)
    assert ev.key == "overwatch" and ev.outcome["line_of_sight"] is False


def test_overwatch_on_a_target_it_cannot_hurt() -> None:
    # "Players may choose to order their units to shoot at a target who they cannot hurt ... do not bother to
    # work out the shots unless the target becomes vulnerable" -- R7 is beyond a rifle's 6 but not an HMG's 6+1.
    rifle = sight(shooter="line-inf", bases=3, bases_with_direct_line=3, target_resilience=7, overwatch=True)
    assert rifle.key == "overwatch" and rifle.outcome["can_hurt"] is False
    hmg = sight(shooter="machineguns", bases=2, bases_with_direct_line=2, target_resilience=7)
    assert hmg.key == "shoot"


@pytest.mark.parametrize("posture", ["moving", "digging"])
def test_only_stationary_sub_units_overwatch(posture: str) -> None:
    # "Sub-units who have remained stationary (but not those who are digging in while stationary)"
    with pytest.raises(RulesError) as e:
        sight(
            shooter="line-inf",
            bases=3,
            bases_with_direct_line=0,
            target_resilience=4,
            posture=posture,
            overwatch=True,
        )
    assert e.value.field == "overwatch" and e.value.allowed == [False]


@pytest.mark.parametrize(
    ("cloud", "blocks"),
    [("smoke", True), ("immediate-gas", True), ("long-delayed-gas", True), ("transparent-gas", False)],
)
def test_smoke_and_gas_block_sight_unless_transparent(cloud: str, blocks: bool) -> None:
    # "Long-delayed gas does not have an effect on the troops ... but can be used to block lines of sight like
    # the others." "Note that some gas is transparent and won't block line of sight."
    ev = sight(
        shooter="line-inf", bases=3, bases_with_direct_line=3, cloud_across_lines=cloud, target_resilience=4
    )
    assert ev.outcome["line_of_sight"] is (not blocks)


def test_troops_partly_in_smoke_shoot_out_freely() -> None:
    # "Troops partially in smoke can shoot out freely."
    ev = sight(
        shooter="line-inf",
        bases=3,
        bases_with_direct_line=2,
        cloud_across_lines="smoke",
        shooter_partly_in_that_cloud=True,
        target_resilience=4,
    )
    assert ev.key == "shoot"


def test_melee_only_cavalry_has_nothing_to_shoot_with() -> None:
    # "Melee only cav Fast Cav 3/0 3 0"
    with pytest.raises(RulesError) as e:
        sight(shooter="melee-cav", bases=2, bases_with_direct_line=2, target_resilience=3)
    assert e.value.field == "shooter" and "melee-cav" not in (e.value.allowed or [])


# -- gas ----------------------------------------------------------------------------------------------------
def test_short_term_gas_effect_and_drift() -> None:
    # "Short-term Gas (3 + Wind) Target suffers -1A -1R"; "will travel 3" in that direction at the end of each bound"
    ev = RS.resolve("gas-cloud", GasRequest(gas="short-term", bounds_since_laid=2)).evaluation
    assert [m.value for m in ev.modifiers] == [-1, -1]
    assert ev.outcome["drifted_in"] == 6 and ev.outcome["blocks_line_of_sight"] is True
    assert ev.key == "present" and ev.outcome["bounds_left"] is None


def test_gas_duration_erratum() -> None:
    three = {"gas-duration": "three-bounds"}
    ev = RS.resolve("gas-cloud", GasRequest(gas="short-term", bounds_since_laid=2, variants=three)).evaluation
    assert ev.key == "present" and ev.outcome["bounds_left"] == 1
    ev = RS.resolve("gas-cloud", GasRequest(gas="short-term", bounds_since_laid=3, variants=three)).evaluation
    assert ev.key == "dispersed" and ev.modifiers == () and ev.outcome["blocks_line_of_sight"] is False


def test_long_delayed_gas_has_no_effect_on_troops() -> None:
    ev = RS.resolve("gas-cloud", GasRequest(gas="long-delayed")).evaluation
    assert ev.modifiers == () and ev.outcome["blocks_line_of_sight"] is True
    with pytest.raises(RulesError):
        RS.resolve("gas-cloud", GasRequest(gas="smoke", transparent=True))


# -- ARTILLERY: the mean value of a mixed unit --------------------------------------------------------------
def test_mixed_artillery_mean() -> None:
    # "Player multiplies the Arming value of the Artillery Strategic Formation (use the mean value if it is a
    # mixed unit) with the number of bases firing." 75/77 Field Guns 0/2(+1); Very Heavy Guns 0/3(+4).
    req = MixedArtilleryRequest(field_guns=2, very_heavy_guns=1, bases_firing=3)
    out = RS.resolve("mixed-artillery", req).evaluation.outcome
    assert out["mean_arming"] == "7/3" and out["max_shots"] == 7 and out["bonus"] == 2  # bonus mean 6/3
    by_type = RS.resolve(
        "mixed-artillery",
        MixedArtilleryRequest(
            **req.model_dump(exclude={"variants"}), variants={"mixed-artillery-mean": "per-type"}
        ),
    ).evaluation.outcome
    assert (
        by_type["mean_arming"] == "5/2" and by_type["max_shots"] == 7 and by_type["bonus"] == 2
    )  # 15/2 -> 7
    two = RS.resolve(
        "mixed-artillery", MixedArtilleryRequest(field_guns=2, very_heavy_guns=1, bases_firing=2)
    )
    assert two.evaluation.outcome["max_shots"] == 4  # 14/3 rounded down
    with pytest.raises(RulesError) as e:
        RS.resolve("mixed-artillery", MixedArtilleryRequest(field_guns=1, bases_firing=2))
    assert e.value.field == "bases_firing"
    with pytest.raises(RulesError):
        RS.resolve("mixed-artillery", MixedArtilleryRequest(bases_firing=1))


# -- transport -------------------------------------------------------------------------------------------------
def test_transport_bonus_lost_with_the_command_bases() -> None:
    # "Motorised and mechanised transported units move at (+50%) (to a maximum total of 12cm)"; "If the SF
    # command bases are destroyed then the entire battalion loses its movement bonus."
    def rate(**kw: Any) -> str:
        return str(RS.resolve("transport-bonus", TransportRequest(**kw)).evaluation.outcome["exact_cm"])

    assert rate(unit="line-inf") == "9"  # Medium Inf 6cm x 1.5
    assert rate(unit="line-inf", command_bases_left=0) == "6"
    assert rate(unit="machineguns", company_destroyed=True) == "4"
    assert rate(unit="line-inf", transport="horse-drawn") == "6"  # "receive no bonus"
    with pytest.raises(RulesError) as e:
        RS.resolve("transport-bonus", TransportRequest(unit="mixed-cav"))
    assert e.value.field == "unit"  # "vehicles, artillery and cavalry have transport all integrated"


# -- the "same shooter" rule -------------------------------------------------------------------------------------
def test_same_shooter_keeps_movement_halved() -> None:
    # "This reduction stays for as long as the target platoon is under fire from the SAME shooter."
    res = RS.resolve("injury-movement", InjuryRequest(under_fire_from="same-shooter", resilience=4))
    assert res.dice == () and res.evaluation.key == "halved" and dict(res.probabilities) == {"halved": 1}


@pytest.mark.parametrize("resilience", [0, 1, 3, 5, 6, 7])
def test_a_different_shooter_means_a_recovery_die(resilience: int) -> None:
    # "If it remains under fire but from a different shooter, it rolls a recovery die ... must roll equal to or
    # under its own Resilience value (a roll of 6 fails)."
    res = RS.resolve(
        "injury-movement", InjuryRequest(under_fire_from="different-shooter", resilience=resilience)
    )
    brute = Counter("restored" if d[0] <= resilience and d[0] != 6 else "halved" for d in all_rolls((6,)))
    assert dict(res.probabilities) == {k: Fraction(v, 6) for k, v in brute.items()}
    assert res.probabilities.get("restored", 0) == Fraction(min(resilience, 5), 6)


def test_no_longer_under_fire_moves_normally() -> None:
    # "old injuries are those that can move normally again but one more hit will finish them off"
    res = RS.resolve("injury-movement", InjuryRequest(under_fire_from="no-one", resilience=3))
    assert res.evaluation.key == "restored"


# -- errata on existing resolvers ----------------------------------------------------------------------------
def test_dug_in_artillery_erratum() -> None:
    # "Note that all artillery has to spend one bound packing or unpacking to move/fire, and can never dig in."
    dug_in = {"unit": "field-guns", "cover": {"terrain": "rough", "posture": "dug-in"}}
    with pytest.raises(RulesError) as e:
        RS.resolve("resilience", ResilienceRequest(**dug_in))
    assert e.value.field == "cover.posture"
    # "(1) All dug in (for 1 bound or longer) Artillery and Heavy Weapons, now shoot."
    res = RS.resolve("resilience", ResilienceRequest(**dug_in, variants={"dug-in-artillery": "order-chart"}))
    assert res.evaluation.outcome == 5  # R4, dug in in rough +1R


def brute_force_shoot(req: ShootRequest) -> dict[str, Fraction]:
    res = RS.resolve("shoot", req.model_copy(update={"dice": None}))
    sides = (6,) * len(res.dice)
    r = res.evaluation.details["target_resilience"]
    bonus = res.evaluation.details["bonus"]
    n = res.evaluation.details["dice_in_pool"]
    reroll = len(res.dice) == 2 * n
    counts = Counter(pools.pool_hits(d, n, r, bonus, reroll, True)[1] for d in all_rolls(sides))
    total = 6 ** len(sides)
    return {f"{k} hit" if k == 1 else f"{k} hits": Fraction(v, total) for k, v in counts.items()}


def test_reroll_shooters_erratum() -> None:
    # "Vehicles may never dig in but all infantry and heavy weapon rolls against them must be re-rolled (field
    # guns and artillery don't)"; "Tanks work as normal infantry except with ... the re-roll rule"
    cav = ShootRequest(shooter="mounted-rifles", bases=3, target="whippets", target_bases=2)
    default = RS.resolve("shoot", cav)
    assert len(default.dice) == 4  # 2 dice (1 + a third base), each hit re-rolled
    assert dict(default.probabilities) == brute_force_shoot(cav)
    named_only = cav.model_copy(update={"variants": {"reroll-shooters": "infantry-and-heavy-weapons"}})
    res = RS.resolve("shoot", named_only)
    assert len(res.dice) == 2 and dict(res.probabilities) == brute_force_shoot(named_only)
    # Infantry re-roll under both readings; artillery under neither.
    rifles = ShootRequest(shooter="line-inf", bases=2, target="mother-tank", target_bases=2)
    assert (
        len(
            RS.resolve(
                "shoot",
                rifles.model_copy(update={"variants": {"reroll-shooters": "infantry-and-heavy-weapons"}}),
            ).dice
        )
        == 2
    )
    guns = ShootRequest(shooter="field-guns", bases=2, target="mother-tank", target_bases=2)
    assert len(RS.resolve("shoot", guns).dice) == 2


def test_new_errata_have_two_readings_and_a_default() -> None:
    for eid in ("dug-in-artillery", "reroll-shooters", "mixed-artillery-mean", "gas-duration"):
        e = RS.errata[eid]
        assert len(e.readings) == 2 and e.default in {r.id for r in e.readings}
        assert all(
            r.source.startswith("Battle for 2mm Earth 1418: The Great War (Version 0.8): ")
            for r in e.readings
        )
