"""The clock's limits and the time given back as the referee sends them (issue 64's hostile pass): a number of
seconds is a whole number and a setting a true or false, never what a lax reading makes of them (`true` was read as
a 1-second limit, putting the side out of time at once, and "yes" as a setting turned on; `true` given back was a
second, "5" five)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.data.schemas_clock import ClockLimits, GiveTimeIn


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game_seconds": {"attacker": True}}, ("game_seconds", "attacker")),
        ({"turn_seconds": {"defender": "45"}}, ("turn_seconds", "defender")),
        ({"game_minutes": 1.5}, ("game_minutes",)),
        ({"dispute_pause": "yes"}, ("dispute_pause",)),
        ({"finish_act": 1}, ("finish_act",)),
    ],
)
def test_a_limit_or_setting_is_taken_only_as_its_own_type(
    body: dict[str, object], field: tuple[str, ...]
) -> None:
    with pytest.raises(ValidationError) as refused:
        ClockLimits.model_validate(body)
    assert [e["loc"] for e in refused.value.errors()] == [field]


def test_whole_seconds_and_true_or_false_are_taken() -> None:
    limits = ClockLimits.model_validate({"game_seconds": {"attacker": 5400}, "dispute_pause": True})
    assert limits.game_seconds == {"attacker": 5400} and limits.dispute_pause


@pytest.mark.parametrize("seconds", [True, "5", 5.0])
def test_time_given_back_is_taken_only_as_whole_seconds(seconds: object) -> None:
    with pytest.raises(ValidationError) as refused:
        GiveTimeIn.model_validate({"side": "defender", "seconds": seconds})
    assert [e["loc"] for e in refused.value.errors()] == [("seconds",)]
    assert GiveTimeIn.model_validate({"side": "defender", "seconds": 5}).seconds == 5
