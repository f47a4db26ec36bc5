"""The golden play scripts (tests/rules/golden_play): each act of each script answers what it answered when
recorded (its changes, what is shown, or its refusal), played against the game hook without the app."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.rules.golden_play import load, play, scripts


@pytest.mark.parametrize("path", scripts(), ids=lambda p: p.stem)
def test_the_script_plays_as_recorded(path: Path) -> None:
    script = load(path)
    answers = play(script)
    for n, (step, answer) in enumerate(zip(script["acts"], answers, strict=True)):
        assert answer == step["answer"], f"act {n} ({step['act']['kind']}) answers otherwise than recorded"


def test_every_act_the_map_offers_is_in_a_script() -> None:
    played = {step["act"]["kind"] for path in scripts() for step in load(path)["acts"]}
    assert played >= {
        "order-roll",
        "shot",
        "assault",
        "morale-test",
        "marker-added",
        "marker-removed",
        "move",
        "formation-move",
        "template-laid",
        "arrival-applied",
        "card-played",
        "turn-advanced",
        "unit-edited",
        "plan-written",
    }
