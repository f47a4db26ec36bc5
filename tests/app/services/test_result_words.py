"""How the report says each objective was settled (app.services.result.how_settled, issue 64): held by the
stands, called by the referee, or contested at the end with no call (a game ended by its last turn), with a
call that lapsed said as well; and the referee's End refused while one is contested with no call."""

from __future__ import annotations

from app.errors import is_one_sentence
from app.services.result import end_refusal, how_settled
from rules.core.score import ObjectiveScore, Score


def objective(
    settled: str, holder: str | None, lapsed: str | None = None, name: str = "Bridge 1"
) -> ObjectiveScore:
    called, contested = settled == "called", settled == "contested"
    return ObjectiveScore(
        "bridge-1", name, 1, "game_end", holder, (), contested, called, None, settled, lapsed
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


def test_the_end_names_an_objective_whose_name_ends_a_sentence_in_one_sentence() -> None:
    # Hostile pass: "St. Julien" (a scenario's own name) made the refusal two sentences, so the referee read
    # the API's fallback "This changed meanwhile: reload and try again." (reloading settles nothing).
    names = ("St. Julien", "Hill 60!", "Is it? " + "x" * 70)
    for name in names:
        one = Score({}, {}, (objective("contested", None, name=name),))
        said = end_refusal(one) or ""
        assert is_one_sentence(said) and said.startswith(name[:2]), said
        assert is_one_sentence(end_refusal(one, by_referee=False) or "")
        many = Score({}, {}, tuple(objective("contested", None, name=name) for _ in range(12)))
        assert is_one_sentence(end_refusal(many, by_referee=False) or "")  # 131 characters before
