"""Gas cloud drift and forecast over the Gas Movement table; the rolling barrage's advance and danger zone."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.flanders_fields.book.table_sizes import BASES, TEMPLATES
from rules.flanders_fields.play.table_rules import DANGER_ZONE_CM
from rules.flanders_fields.resolvers.gas import Wind, next_wind_distribution
from rules.table.barrage import advance, at_risk_chance
from rules.table.bases import Stand
from rules.table.coverage import StandIndex
from rules.table.gas import drift, forecast
from rules.table.templates import Template


@given(
    cx=st.floats(-100, 200),
    cy=st.floats(-100, 200),
    facing=st.floats(0, 360),
    wind=st.floats(-360, 360),
    kind=st.sampled_from(["gas-attacker", "gas-defender"]),
)
def test_moving_a_cloud_by_zero_changes_nothing(
    cx: float, cy: float, facing: float, wind: float, kind: str
) -> None:
    cloud = Template(TEMPLATES[kind], (cx, cy), facing).polygon()
    moved, swept = drift(cloud, wind, 0)
    assert moved.equals(cloud)
    assert swept.symmetric_difference(cloud).area < 1e-9


def test_a_cloud_drifts_with_the_wind_and_passes_over_what_lies_between() -> None:
    cloud = Template(TEMPLATES["gas-attacker"], (60, 30)).polygon()  # y 25..35
    moved, swept = drift(cloud, 90, 17)  # "2D6 and adding 10": 17 cm towards the defender
    assert moved.bounds == pytest.approx((50, 42, 70, 52))
    assert swept.bounds == pytest.approx((50, 25, 70, 52))


def _stands() -> list[Stand]:
    return [
        Stand("near", "d", BASES["infantry-platoon"], (60, 47)),
        Stand("far", "d", BASES["infantry-platoon"], (60, 120)),
    ]


def test_one_turn_forecast_is_exact_over_the_gas_movement_table() -> None:
    # One turn from a 15 cm wind towards the defender; the cloud spans y 25..35, "near" y 46.25..47.75.
    # "1-2 Speed and direction ... continues as for previous turn", "3 ... speed increases by 1D6cm",
    # "4 ... speed decreases by 1D6cm" keep the direction; "5 Wind changes direction" turns it 45 degrees
    # or more; "6 Gas disperses".
    fc = forecast(
        Template(TEMPLATES["gas-attacker"], (60, 30)).polygon(),
        Wind(90.0, 15),
        1,
        StandIndex.build(_stands()),
        next_wind_distribution,
    )
    assert fc.exact and fc.exact_turns == 1
    assert fc.dispersed == [Fraction(1, 6)]  # "6 Gas disperses no further effect."
    # Brute force the same table by hand: enumerate the dice.
    total = Fraction(0)
    sixth = Fraction(1, 6)
    for d in range(1, 7):
        for speed, p in ((15, 2 * sixth / 6), (15 + d, sixth * sixth), (max(15 - d, 0), sixth * sixth)):
            if 35 + speed > 46.25 and 25 + speed < 47.75:
                total += p
    # Result 5 (1/6) can add more only through a 45 degree turn; so the exact answer lies in this band.
    assert fc.covered[0]["near"] >= total
    assert fc.covered[0]["near"] <= total + sixth
    assert fc.covered[0]["far"] == 0
    assert sum(v for v in fc.full[0].values()) <= sum(v for v in fc.covered[0].values())


def test_two_turn_forecast_disperses_as_the_table_says() -> None:
    fc = forecast(
        Template(TEMPLATES["gas-attacker"], (60, 30)).polygon(),
        Wind(90.0, 15),
        2,
        StandIndex.build(_stands()),
        next_wind_distribution,
    )
    # P(dispersed by turn 2) = 1 - (5/6)^2
    assert fc.exact and fc.dispersed == [Fraction(1, 6), Fraction(11, 36)]


def test_long_forecasts_fall_back_to_seeded_sampling_with_a_stated_error() -> None:
    a = forecast(
        Template(TEMPLATES["gas-attacker"], (60, 30)).polygon(),
        Wind(90.0, 15),
        3,
        StandIndex.build(_stands()),
        next_wind_distribution,
    )
    b = forecast(
        Template(TEMPLATES["gas-attacker"], (60, 30)).polygon(),
        Wind(90.0, 15),
        3,
        StandIndex.build(_stands()),
        next_wind_distribution,
    )
    assert not a.exact and a.exact_turns == 2 and a.standard_error > 0
    assert a.covered == b.covered  # seeded: the same answer every time
    assert a.dispersed[:2] == [Fraction(1, 6), Fraction(11, 36)]
    assert abs(float(a.dispersed[2]) - (1 - (5 / 6) ** 3)) < 4 * a.standard_error


def test_at_risk_behind_the_barrage() -> None:
    # "if the figures are 5cm from the barrage they are safe if they roll 1-4 on the dice but at risk if they
    # roll a 5 or 6"
    assert at_risk_chance(5) == Fraction(2, 6)
    assert at_risk_chance(0.5) == 1
    assert at_risk_chance(6) == Fraction(1, 6)


def test_the_barrage_advances_its_width_and_names_what_it_passes_and_who_is_too_close() -> None:
    # "It advances its own width at the start of the attacking side's turn." 20 cm deep, so it moves from
    # y 30..50 to 50..70; the danger area is "6cm behind the RB": y 44..50.
    stands = [
        Stand("dug-in", "defender", BASES["infantry-platoon"], (60, 60), 270),
        Stand("straddle", "defender", BASES["infantry-platoon"], (30, 70), 270),
        Stand(
            "keen", "attacker", BASES["infantry-platoon"], (60, 45.75), 90
        ),  # front edge 46.5: 3.5 cm behind
        Stand("safe", "attacker", BASES["infantry-platoon"], (60, 20), 90),
    ]
    adv = advance(
        Template(TEMPLATES["rolling-barrage"], (60, 40), 90), 20, StandIndex.build(stands), DANGER_ZONE_CM
    )
    assert adv.moved.center == pytest.approx((60, 60))
    assert adv.polygon.bounds == pytest.approx((0, 50, 120, 70))
    # The barrage started over y 30..50, so "keen" was under it before it lifted.
    assert adv.passed_over.full == ["dug-in", "keen"]
    assert "safe" in adv.passed_over.outside
    assert adv.passed_over.partial == ["straddle"]
    assert adv.danger_zone.bounds == pytest.approx((0, 44, 120, 50))
    assert [(h.id, h.distance_cm) for h in adv.danger] == [("keen", pytest.approx(3.5))]
    assert adv.danger[0].at_risk == Fraction(3, 6)  # rolls 4, 5, 6 are not less than 3.5


def test_a_barrage_just_past_the_far_edge_still_measures_who_is_behind_it() -> None:
    """Its rear edge on the table's far edge (y 180): nothing of it is left on the table, its danger zone is
    (y 174..180), and a stand there is measured to its rear edge (schemathesis drew a distance of no number)."""
    stands = [Stand("close", "attacker", BASES["infantry-platoon"], (60, 176), 90)]  # front edge 176.75
    adv = advance(
        Template(TEMPLATES["rolling-barrage"], (60, 170), 90), 20, StandIndex.build(stands), DANGER_ZONE_CM
    )
    assert adv.polygon.is_empty
    assert [(h.id, h.distance_cm) for h in adv.danger] == [("close", pytest.approx(3.25))]


def test_one_turn_forecast_equals_rolling_every_die_of_the_table() -> None:
    from itertools import product

    from rules.flanders_fields.resolvers.gas import next_wind

    cloud = Template(TEMPLATES["gas-attacker"], (60, 30)).polygon()
    stands = [*_stands(), Stand("flank", "d", BASES["infantry-platoon"], (80, 45))]
    fc = forecast(cloud, Wind(90.0, 15), 1, StandIndex.build(stands), next_wind_distribution)
    for s in stands:
        expected = Fraction(0)
        for dice in product(range(1, 7), repeat=4):  # table D6, then D6, then 2D6 for a new speed
            w = next_wind(Wind(90.0, 15), dice).wind
            if (
                not w.dispersed
                and drift(cloud, w.direction_deg, w.speed_cm)[0].intersection(s.polygon()).area > 0
            ):
                expected += Fraction(1, 6**4)
        assert fc.covered[0][s.id] == expected
    assert fc.covered[0]["near"] > 0 and fc.covered[0]["flank"] > 0
