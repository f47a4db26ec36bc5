"""The hurricane bombardment (Firewaltz) of the late war, and the erratum of an aircraft attacking a machine gun.

Seed, HURRICANE BOMBARDMENT (FIREWALTZ): "In a late war game when the Germans are attacking each enemy trench
system is hit simultaneously by Heavy and Super heavy Artillery ... In game terms at the start of the game:~
Roll for Deep Suppression at the start of every turn. Each Strong Point will be attacked once by Super Heavy
Artillery, normal trench lines by Heavy. ... The German infantry will be covered by the German equivalent of
the rolling barrage."
ARTILLERY FIRE PLANS: "Duration and movement of Firewalz attacks i.e. when it will roll over and back against
any particular place. Once planned it is not possible to change the schedule of a Firewaltz".
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from rules.core.errors import RulesError
from rules.flanders_fields import errata as E
from rules.flanders_fields.play.game_arrivals import FlandersFieldsFirePlan
from rules.flanders_fields.resolvers.barrage import PLAN_ITEM_STEPS
from rules.flanders_fields.resolvers.firewaltz import FIREWALTZ_STEP
from tests.rules.flanders_fields.resolving import ff, odds, resolve


def shooting_odds(firer: str, cover: str) -> dict[str, Fraction]:
    """The same attack read straight off the late firing table by the shooting resolver, by enumeration."""
    counts: dict[str, int] = {}
    for (face,) in product(range(1, 7), repeat=1):
        out = resolve(
            "shooting", period="late", firer=firer, cover=cover, range_cm=0, indirect=True, dice=[face]
        )["outcome"]
        counts[out] = counts.get(out, 0) + 1
    return {k: Fraction(v, 6) for k, v in counts.items()}


def test_trench_line_is_hit_by_heavy_artillery_in_medium_cover() -> None:
    # "normal trench lines by Heavy"; late playsheet "Med Cover (Trenches)"; firing table "Heavy Artillery /
    # Medium Mortars 2 3 3 4 4 5 5 6 6 No": medium cover 4 suppresses, 5 kills.
    assert odds("firewaltz", period="late", target="trench-line") == {
        "no-effect": Fraction(3, 6),
        "suppressed": Fraction(1, 6),
        "killed": Fraction(2, 6),
    }
    assert odds("firewaltz", period="late", target="trench-line") == shooting_odds(
        "heavy-artillery", "medium"
    )
    answer = resolve("firewaltz", period="late", target="trench-line", dice=[4])
    assert answer["outcome"] == "suppressed"
    assert answer["artillery"] == "heavy-artillery"
    assert answer["thresholds"] == {"suppress": 4, "kill": 5}
    assert answer["spreads_to_company"] is True
    assert answer["sources"][0] == "Flanders Fields rule book: HURRICANE BOMBARDMENT (FIREWALTZ)"


def test_strong_point_is_hit_once_by_super_heavy_artillery() -> None:
    # "Each Strong Point will be attacked once by Super Heavy Artillery"; a strong point "built up with extra
    # sandbags" is Hard Cover: "Super Heavy Art. / Heavy Mortars Auto 2 2 3 3 4 4 5 5 No" -> 4 / 5.
    got = odds("firewaltz", period="late", target="strong-point")
    assert got == {"no-effect": Fraction(3, 6), "suppressed": Fraction(1, 6), "killed": Fraction(2, 6)}
    assert got == shooting_odds("super-heavy-artillery", "hard")
    # "strong points dug into villages are classed as fortified": super heavy suppresses on 5, cannot kill.
    fortified = odds("firewaltz", period="late", target="strong-point", cover="fortified")
    assert fortified == {"no-effect": Fraction(4, 6), "suppressed": Fraction(2, 6)}
    assert fortified == shooting_odds("super-heavy-artillery", "fortified")
    assert resolve("firewaltz", period="late", target="strong-point", dice=[1])["outcome"] == "no-effect"


def test_the_notes_carry_the_rest_of_the_rule() -> None:
    notes = resolve("firewaltz", period="late", target="trench-line", dice=[6])["notes"]
    assert "Roll for Deep Suppression at the start of every turn." in notes
    assert "The German infantry is covered by the German equivalent of the rolling barrage." in notes


@pytest.mark.parametrize("period", ["early", "mid"])
def test_not_before_the_late_war(period: str) -> None:
    # "developed in late 1917 ... In a late war game"
    with pytest.raises(RulesError) as err:
        resolve("firewaltz", period=period, target="trench-line", dice=[3])
    assert err.value.field == "period" and list(err.value.allowed) == ["late"]


@pytest.mark.parametrize("nation", ["british", "french"])
def test_only_a_german_attack_has_a_firewaltz(nation: str) -> None:
    # "In a late war game when the Germans are attacking": the resolver refuses what the fire plan refuses.
    with pytest.raises(RulesError) as err:
        resolve("firewaltz", period="late", target="trench-line", attacker_nation=nation, dice=[4])
    assert err.value.field == "attacker_nation" and list(err.value.allowed) == ["german"]
    assert len(str(err.value.message)) <= 120
    with pytest.raises(RulesError):
        FlandersFieldsFirePlan()._plan_item_allowed("firewaltz", "late", "attacker", nation)
    german = resolve("firewaltz", period="late", target="trench-line", attacker_nation="german", dice=[4])
    assert german["outcome"] == "suppressed"


def test_a_strong_points_cover_is_an_erratum_hard_or_fortified() -> None:
    # TYPES OF COVER: Hard Cover is "strong points built up with extra sandbags"; TERRAIN AND ITS IMPACT ON
    # COVER: "trenches and strong points dug into villages are classed as fortified".
    erratum = ff().errata[E.FIREWALTZ_STRONG_POINT_COVER]
    assert erratum.default == "hard" and [r.value for r in erratum.readings] == ["hard", "fortified"]
    assert "TYPES OF COVER" in erratum.readings[0].source
    assert "TERRAIN AND ITS IMPACT ON COVER" in erratum.readings[1].source
    variant = {E.FIREWALTZ_STRONG_POINT_COVER: "fortified"}
    read = odds("firewaltz", period="late", target="strong-point", variants=variant)
    assert (
        read
        == shooting_odds("super-heavy-artillery", "fortified")
        != shooting_odds("super-heavy-artillery", "hard")
    )
    answer = resolve("firewaltz", period="late", target="strong-point", variants=variant, dice=[5])
    assert answer["cover"] == "fortified"
    # A trench line's cover is not the erratum's.
    assert resolve("firewaltz", period="late", target="trench-line", variants=variant, dice=[5])["cover"] == (
        "medium"
    )


def test_a_strong_point_is_not_in_medium_cover() -> None:
    with pytest.raises(RulesError) as err:
        resolve("firewaltz", period="late", target="strong-point", cover="medium", dice=[3])
    assert err.value.field == "cover" and list(err.value.allowed) == ["hard", "fortified"]


def test_it_is_a_late_fire_plan_item_of_the_german_attacker() -> None:
    assert PLAN_ITEM_STEPS["firewaltz"] is FIREWALTZ_STEP
    assert FIREWALTZ_STEP.periods == ("late",) and FIREWALTZ_STEP.step_id == "barrages-and-bombardments"
    FlandersFieldsFirePlan()._plan_item_allowed("firewaltz", "late", "attacker", "german")
    FlandersFieldsFirePlan()._plan_item_allowed("firewaltz", "late", "attacker", "")
    for period, side, nation in (
        ("mid", "attacker", "german"),
        ("late", "defender", "german"),
        ("late", "attacker", "british"),
    ):
        with pytest.raises(RulesError) as err:
            FlandersFieldsFirePlan()._plan_item_allowed("firewaltz", period, side, nation)
        assert err.value.field == "item.kind"


def test_playsheet_dataset_is_the_firing_tables() -> None:
    data = ff().data("firewaltz-rules", "late")
    assert data["attacks"] == [
        {
            "target": "strong point",
            "artillery": "Super Heavy Artillery",
            "cover": "Hard Cover",
            "suppress": 4,
            "kill": 5,
        },
        {
            "target": "trench line",
            "artillery": "Heavy Artillery",
            "cover": "Medium Cover",
            "suppress": 4,
            "kill": 5,
        },
    ]


# AIR SUPPORT: "Aircraft factors: ... Target is Artillery or support weapons +2 ... Infantry Factors: Target is
# Machine Gun +2". The text is silent on whether both count against a machine gun.
def test_air_attack_on_a_machine_gun_erratum_default_both_factors() -> None:
    erratum = ff().errata[E.AIR_ATTACK_MACHINE_GUN]
    assert erratum.default == "both" and {r.id for r in erratum.readings} == {"both", "machine-gun-only"}
    answer = resolve("air-attack", period="late", target="machine-gun", cover="soft", dice=[3, 3])
    # Soft cover +2 and support weapon +2 for the aircraft (7); the machine gun's +2 (5).
    assert (answer["aircraft_total"], answer["target_total"]) == (7, 5)


def test_air_attack_on_a_machine_gun_erratum_variant_machine_gun_factor_only() -> None:
    variant = {E.AIR_ATTACK_MACHINE_GUN: "machine-gun-only"}
    answer = resolve(
        "air-attack", period="late", target="machine-gun", cover="soft", variants=variant, dice=[3, 3]
    )
    assert (answer["aircraft_total"], answer["target_total"]) == (5, 5)
    assert answer["outcome"] == "draw"
    assert any("[variant]" in m["source"] for m in answer["modifiers"])
    # Other support weapons keep the aircraft's +2 under either reading.
    mortar = resolve(
        "air-attack", period="late", target="mortar", cover="soft", variants=variant, dice=[3, 3]
    )
    assert mortar["aircraft_total"] == 7


def test_only_the_late_playsheet_carries_the_firewaltz() -> None:
    from playsheets.sheet import period_sheet

    sections = {p: [s.id for s in period_sheet(p).sections] for p in ("early", "mid", "late")}
    assert "firewaltz" in sections["late"]
    assert "firewaltz" not in sections["early"] and "firewaltz" not in sections["mid"]


def test_the_late_turn_sequence_offers_the_firewaltz_at_barrages_and_bombardments_only() -> None:
    from rules.flanders_fields.book.sequence import SEQUENCES

    def offered(period: str) -> list[str]:
        return [s.id for s in SEQUENCES[period].steps if "firewaltz" in s.resolvers]

    assert offered("late") == ["barrages-and-bombardments"]
    assert offered("mid") == [] and offered("early") == []
