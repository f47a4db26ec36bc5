"""How the report says each objective was settled (app.services.result.how_settled, issue 64): held by the
stands, called by the referee, or contested at the end with no call (a game ended by its last turn), with a
call that lapsed said as well; and the referee's End refused while one is contested with no call."""

from __future__ import annotations

from app.services.result import end_refusal, how_settled
from rules.core.score import ObjectiveScore, Score


def objective(settled: str, holder: str | None, lapsed: str | None = None) -> ObjectiveScore:
    called, contested = settled == "called", settled == "contested"
    return ObjectiveScore(
        "bridge-1", "Bridge 1", 1, "game_end", holder, (), contested, called, None, settled, lapsed
    )


def test_each_way_an_objective_is_settled_in_words() -> None:
    assert how_settled(objective("held", "defender"), True) == "held by the defender"
    assert how_settled(objective("called", None), True) == "called by the referee for nobody"
    assert how_settled(objective("contested", "attacker", "defender"), True) == (
        "contested at the end, not called: the stands gave it to the attacker"
        " (the referee's call for the defender lapsed as the stands moved)"
    )


def test_the_end_names_the_first_contested_objective_and_how_many_more() -> None:
    score = Score(
        {"attacker": 0, "defender": 0}, {"attacker": 0, "defender": 0}, (objective("contested", None),)
    )
    two = Score(score.points, score.losses, (objective("contested", None), objective("contested", None)))
    assert end_refusal(two) == "Bridge 1 and 1 more are contested: call each before the game ends."
    assert end_refusal(Score(score.points, score.losses, (objective("called", "attacker"),))) is None
