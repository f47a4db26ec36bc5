"""Gas: the wind (2D6+10 cm), the Gas Movement table, and the cloud data, against the GAS section."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.core.dice import all_rolls
from rules.core.errors import RulesError
from rules.flanders_fields.resolvers.gas import (
    DENYING_MOVE_TURNS,
    OFFENSIVE_MAX_TURNS,
    PARTIAL_COVER_MODIFIER,
    PROJECTOR_START_CM,
    TEMPLATE_CM,
    Wind,
    initial_wind_distribution,
    next_wind,
    next_wind_distribution,
)
from tests.rules.flanders_fields.resolving import odds, resolve


def test_cloud_data_from_the_text() -> None:
    # "A gas attack is represented by an area 20cm wide by 10cm deep if launched by the attacker, but only
    # 10x5 if used by a defender"
    assert TEMPLATE_CM == {"attacker": (20, 10), "defender": (10, 5)}
    # "An OFFENSIVE gas attack will continue to move on the wind for 6 turns (after which it has dispersed)"
    assert OFFENSIVE_MAX_TURNS == 6
    # "a DENYING gas attack will move for 1 turn before the heavy vapours sink to the ground"
    assert DENYING_MOVE_TURNS == 1
    # "Ground projectors must start the gas cloud 10cm in front of the attackers forward trench line"
    assert PROJECTOR_START_CM == 10
    # "if the cloud only partly covers a base the attack is at -2"
    assert PARTIAL_COVER_MODIFIER == -2


def test_initial_wind_is_2d6_plus_10_in_the_stated_direction() -> None:
    # "speed is determined by rolling 2D6 and adding 10, the result being the wind speed in centimetres"
    dist = initial_wind_distribution(450)
    assert sum(dist.values()) == 1
    assert {w.speed_cm for w in dist} == set(range(12, 23))
    assert {w.direction_deg for w in dist} == {90.0}
    assert dist[Wind(90.0, 17)] == Fraction(6, 36)
    assert dist[Wind(90.0, 12)] == Fraction(1, 36)


def test_movement_table_rows() -> None:
    wind = Wind(90.0, 15)
    # "1-2 Speed and direction of gas cloud continues as for previous turn"
    assert next_wind(wind, (1, 6, 6, 6)).wind == wind
    assert next_wind(wind, (2, 1, 1, 1)).result == "same"
    # "3 Direction of gas cloud continues as for previous turn, speed increases by 1D6cm"
    assert next_wind(wind, (3, 4, 1, 1)).wind == Wind(90.0, 19)
    # "4 ... speed decreases by 1D6cm"
    assert next_wind(wind, (4, 6, 1, 1)).wind == Wind(90.0, 9)
    # "5 Wind changes direction, roll 1D6 1 = 45 Right, 2 = 90 Right, 3 = 135 Right, 4 = 45 Left, 5 = 90 Left,
    # 6 = 135 Left. Speed of new direction is 5+2D6cm" (right = clockwise = minus)
    turns = {1: 45.0, 2: 0.0, 3: 315.0, 4: 135.0, 5: 180.0, 6: 225.0}
    for d, direction in turns.items():
        assert next_wind(wind, (5, d, 2, 3)).wind == Wind(direction, 10)
    # "6 Gas disperses no further effect."
    assert next_wind(wind, (6, 1, 1, 1)).wind.dispersed


def test_speed_falling_to_nothing_halts_by_default_and_disperses_as_variant() -> None:
    wind = Wind(0.0, 3)
    assert next_wind(wind, (4, 5, 1, 1)).wind == Wind(0.0, 0)
    assert next_wind(wind, (4, 5, 1, 1), calm="disperse").wind.dispersed
    answer = resolve("gas-wind", period="mid", wind={"direction_deg": 0, "speed_cm": 3}, dice=[4, 5, 1, 1])
    assert answer["outcome"] == {"direction_deg": 0.0, "speed_cm": 0, "dispersed": False}
    assert any("silent" in s for s in answer["sources"])
    variant = resolve(
        "gas-wind",
        period="mid",
        wind={"direction_deg": 0, "speed_cm": 3},
        dice=[4, 5, 1, 1],
        variants={"gas-speed-below-zero": "disperse"},
    )
    assert variant["outcome"]["dispersed"] is True
    assert variant["variants"] == {"gas-speed-below-zero": "disperse"}


def test_dispersed_wind_stays_dispersed() -> None:
    gone = Wind(10.0, 0, dispersed=True)
    assert next_wind_distribution(gone) == {gone: Fraction(1)}
    answer = resolve("gas-wind", period="late", wind={"direction_deg": 10, "speed_cm": 0, "dispersed": True})
    assert answer["dice"] == [] and answer["outcome"]["dispersed"] is True


def brute_force(wind: Wind, calm: str) -> dict[Wind, Fraction]:
    out: dict[Wind, Fraction] = {}
    for dice in all_rolls((6, 6, 6, 6)):
        w = next_wind(wind, dice, calm).wind
        out[w] = out.get(w, Fraction(0)) + Fraction(1, 6**4)
    return out


@given(
    direction=st.integers(min_value=-360, max_value=360),
    speed=st.integers(min_value=0, max_value=40),
    calm=st.sampled_from(["halt", "disperse"]),
)
def test_next_wind_distribution_agrees_with_every_roll(direction: int, speed: int, calm: str) -> None:
    wind = Wind(float(direction % 360), speed)
    dist = next_wind_distribution(wind, calm)
    assert sum(dist.values()) == 1
    assert dist == brute_force(wind, calm)
    # "6 Gas disperses": at least 1/6 dispersed whatever the wind.
    assert sum(p for w, p in dist.items() if w.dispersed) >= Fraction(1, 6)
    assert all(w.speed_cm >= 0 and 0 <= w.direction_deg < 360 for w in dist)


def test_resolver_odds_by_table_row() -> None:
    table = odds("gas-wind", period="early", wind={"direction_deg": 90, "speed_cm": 17})
    assert table == {
        "same": Fraction(2, 6),
        "speed-up": Fraction(1, 6),
        "speed-down": Fraction(1, 6),
        "direction-change": Fraction(1, 6),
        "dispersed": Fraction(1, 6),
    }
    first = resolve("gas-wind", period="early", direction_deg=-90, dice=[6, 6])
    assert first["outcome"] == {"direction_deg": 270.0, "speed_cm": 22, "dispersed": False}
    assert first["probabilities_exact"]["22cm"] == "1/36"


def test_needs_exactly_one_of_direction_or_wind() -> None:
    for body in ({}, {"direction_deg": 0, "wind": {"direction_deg": 0, "speed_cm": 12}}):
        with pytest.raises(RulesError) as err:
            resolve("gas-wind", period="mid", **body)
        assert err.value.field == "wind"
