"""Battle suppression rules for the game layer and the `suppression` resolver."""

from __future__ import annotations

import pytest

from rules.core.errors import RulesError
from rules.flanders_fields.resolvers.suppression import (
    FIRE_TYPES,
    UNIT_LEVELS,
    is_killed,
    recovers_automatically,
    spreads_to_company,
)
from tests.rules.flanders_fields import resolve


def test_company_wide_fire() -> None:
    # "if the suppression is caused by MACHINE GUNS, MORTARS OR ARTILLERY the whole company ... is suppressed"
    assert {f for f in FIRE_TYPES if spreads_to_company(f)} == {"mg", "blockhouse", "mortar", "artillery"}
    with pytest.raises(RulesError) as err:
        spreads_to_company("catapult")
    assert err.value.field == "fire" and "mg" in (err.value.allowed or [])


def test_three_suppressions_kill() -> None:
    # "THREE SUPPRESSIONS ON ANY PLATOON, SUPPORT WEAPON OR TANK IS A KILL"
    assert [is_killed(n) for n in range(5)] == [False, False, False, True, True]
    with pytest.raises(RulesError):
        is_killed(-1)


def test_who_recovers_automatically() -> None:
    # "Battalion and higher command stands who recover automatically at the end of their turn"
    assert {u for u in UNIT_LEVELS if recovers_automatically(u)} == {
        "battalion-command",
        "regiment-command",
        "brigade-command",
        "division-command",
    }
    with pytest.raises(RulesError):
        recovers_automatically("general")


def test_suppression_resolver() -> None:
    res = resolve("suppression", period="mid", fire="artillery", markers=3, unit_level="company")
    out = res.as_dict()
    assert out["dice"] == [] and out["outcome"] == "killed" and out["spreads_to_company"] is True
    assert out["probabilities"] == {"killed": 1.0}
    cmd = resolve(
        "suppression", period="late", fire="rifle", markers=1, unit_level="battalion-command"
    ).as_dict()
    assert (
        cmd["outcome"] == "suppressed"
        and cmd["recovers_automatically"] is True
        and cmd["markers_to_kill"] == 2
    )
