"""Property tests: for any valid request, `probabilities` sums to 1 and equals the share of all dice
combinations whose answer (resolved with those dice, as a player would) has each outcome."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from rules.core.errors import RulesError
from rules.flanders_fields.book import tables as T
from tests.rules.flanders_fields import FF, resolve

PERIODS = st.sampled_from(["early", "mid", "late"])
QUALITIES = st.sampled_from(["raw", "experienced", "veteran", "storm"])
# Mostly false, so that most generated combinations are legal requests.
FLAG = st.sampled_from([False, False, False, True])
QUALITY_MOSTLY_EXPERIENCED = st.sampled_from(["experienced", "experienced", "raw", "veteran", "storm"])
LENIENT = [HealthCheck.filter_too_much]


def check_odds(resolver_id: str, body: dict[str, Any]) -> None:
    try:
        first = resolve(resolver_id, **body)
    except RulesError:
        reject()
    n = len(first.dice)
    counts: dict[str, int] = {}
    for dice in itertools.product(range(1, 7), repeat=n):
        key = resolve(resolver_id, **{**body, "dice": list(dice)}).evaluation.key
        counts[key] = counts.get(key, 0) + 1
    total = 6**n
    assert sum(first.probabilities.values()) == 1
    assert {k: v for k, v in first.probabilities.items() if v} == {
        k: Fraction(c, total) for k, c in counts.items()
    }


@settings(max_examples=60, suppress_health_check=LENIENT)
@given(
    period=PERIODS,
    unit=st.sampled_from(T.ORDER_UNITS),
    quality=QUALITY_MOSTLY_EXPERIENCED,
    flags=st.fixed_dictionaries(
        {
            k: FLAG
            for k in (
                "raw_under_fire",
                "in_gas",
                "platoon_beyond_25cm",
                "staff_support",
                "through_wire",
                "tank_failed_last_turn",
                "artillery_own_line_of_sight",
            )
        }
    ),
    command_suppression=st.integers(0, 3),
    deep_suppression=st.integers(0, 2),
    special_rule=st.sampled_from(
        [None, None, None, "pals", "professionalism", "elan", "prussian-discipline"]
    ),
    raw_variant=st.sampled_from(["playsheet", "main-text"]),
)
def test_order_roll_odds(
    period: str,
    unit: str,
    quality: str,
    flags: dict[str, bool],
    command_suppression: int,
    deep_suppression: int,
    special_rule: str | None,
    raw_variant: str,
) -> None:
    check_odds(
        "order-roll",
        {
            "period": period,
            "unit": unit,
            "quality": quality,
            **flags,
            "command_suppression": command_suppression,
            "deep_suppression": deep_suppression,
            "special_rule": special_rule,
            "variants": {"raw-order-modifier": raw_variant},
        },
    )


@settings(max_examples=80, suppress_health_check=LENIENT)
@given(
    period=PERIODS,
    firer=st.sampled_from(T.FIRERS),
    target=st.sampled_from(["troops", "armour"]),
    cover=st.sampled_from(["open", "soft", "medium", "hard", "fortified", "cover"]),
    range_cm=st.sampled_from([0, 3, 4.5, 9, 12, 44, 50, 75, 120, 180, 250]),
    flags=st.fixed_dictionaries(
        {
            k: FLAG
            for k in (
                "target_is_command",
                "firer_raw",
                "firer_in_gas",
                "through_barrage",
                "partial_template",
                "moved_and_fired",
                "anti_tank_rifle",
                "indirect",
                "direct_line_of_sight",
            )
        }
    ),
    beaten_zone_index=st.integers(0, 3),
    special_rule=st.sampled_from([None, None, "mad-minute", "long-range-marksmanship"]),
)
def test_shooting_odds(
    period: str,
    firer: str,
    target: str,
    cover: str,
    range_cm: float,
    flags: dict[str, bool],
    beaten_zone_index: int,
    special_rule: str | None,
) -> None:
    check_odds(
        "shooting",
        {
            "period": period,
            "firer": firer,
            "target": target,
            "cover": cover,
            "range_cm": range_cm,
            **flags,
            "beaten_zone_index": beaten_zone_index,
            "special_rule": special_rule,
        },
    )


@settings(max_examples=60)
@given(
    period=PERIODS,
    quality=QUALITIES,
    starting=st.integers(1, 16),
    lost=st.integers(0, 16),
    special_rule=st.sampled_from([None, "pals", "stubborn-resistance", "storm-troops"]),
)
def test_morale_odds(period: str, quality: str, starting: int, lost: int, special_rule: str | None) -> None:
    check_odds(
        "morale",
        {
            "period": period,
            "quality": quality,
            "starting_platoons": starting,
            "lost_platoons": lost,
            "special_rule": special_rule,
        },
    )


COMBATANT = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(
            [
                "infantry",
                "cavalry",
                "heavy-tank",
                "light-tank",
                "command",
                "support-weapon",
                "artillery",
                "flamethrower",
            ]
        ),
        "quality": QUALITY_MOSTLY_EXPERIENCED,
        "suppressed": FLAG,
        "supported_from_rear": FLAG,
        "in_deep_shelter": FLAG,
    }
)


@settings(max_examples=60, suppress_health_check=LENIENT)
@given(
    period=PERIODS,
    attacker=COMBATANT,
    defender=COMBATANT,
    cover=st.sampled_from(["open", "soft", "medium", "hard", "fortified"]),
)
def test_assault_odds(period: str, attacker: dict[str, Any], defender: dict[str, Any], cover: str) -> None:
    check_odds(
        "assault", {"period": period, "attacker": attacker, "defender": defender, "defender_cover": cover}
    )


@settings(max_examples=25)
@given(period=st.sampled_from(["mid", "late"]), platoons=st.integers(1, 3), belts=st.integers(1, 2))
def test_wire_odds(period: str, platoons: int, belts: int) -> None:
    if platoons * belts > 4:
        reject()
    check_odds("wire-crossing", {"period": period, "platoons": platoons, "belts": belts})


@settings(max_examples=20)
@given(period=PERIODS, fire=st.sampled_from(["mg", "rifle", "artillery"]), markers=st.integers(0, 5))
def test_suppression_odds(period: str, fire: str, markers: int) -> None:
    check_odds("suppression", {"period": period, "fire": fire, "markers": markers})


def test_every_resolver_is_covered() -> None:
    mine = {"order-roll", "shooting", "morale", "assault", "wire-crossing", "suppression"}
    assert mine <= set(FF.resolvers)
