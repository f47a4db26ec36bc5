"""Victory points from the log (rules.core.score): each objective's holder after each act, scored as its
scenario says (each turn, at the game's end, the first time it is taken), the referee's calls, the stands lost,
and the winner by the rule sets' victory conditions (the scenario's own, listed as an erratum, where the book
prints none)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.core.score import Logged, Moved, Piece, by_points, score_of, seen_by
from rules.registry import get_game_rules, get_ruleset
from rules.table.bases import BaseSpec
from rules.table.objectives import objectives_from_geojson

BASES = {"b": BaseSpec("b", "rect", 4.0, 2.0, "test")}


def objectives(*scored: str, held_by: str | None = None) -> list[Any]:
    features = []
    for i, how in enumerate(scored):
        x = 20 + 40 * i
        props: dict[str, Any] = {"name": f"Objective {i + 1}", "vp": i + 1, "scored": how}
        if held_by:
            props["held_by"] = held_by
        ring = [[x, 40], [x + 10, 40], [x + 10, 50], [x, 50], [x, 40]]
        features.append(
            {
                "type": "Feature",
                "id": f"o{i + 1}",
                "geometry": {"type": "Polygon", "coordinates": [ring]},
                "properties": props,
            }
        )
    return objectives_from_geojson({"type": "FeatureCollection", "features": features}, 120, 180)


def move(uid: int, before: tuple[float, float], after: tuple[float, float]) -> tuple[Moved, ...]:
    return (Moved(uid, "x", before[0], after[0]), Moved(uid, "y", before[1], after[1]))


HOME = (5.0, 5.0)
ON_1 = (25.0, 45.0)  # inside objective 1 (x 20..30)


def test_a_game_end_objective_counts_for_its_holder_now_and_scores_once_as_the_game_ends() -> None:
    objs = objectives("game_end")
    now = [Piece(1, "attacker", "b", *ON_1)]
    log = [Logged(1, move(1, HOME, ON_1))]
    live = score_of(objs, BASES, now, log)
    assert live.points == {"attacker": 1, "defender": 0} and not live.ended
    assert live.objectives[0].holder == "attacker" and live.objectives[0].stands == (1,)
    ended = score_of(objs, BASES, now, [*log, Logged(1, ended=True)])
    assert ended.points == {"attacker": 1, "defender": 0} and ended.ended


def test_a_secret_objective_counts_from_its_reveal_as_it_scores_and_only_its_side_reads_it_before() -> None:
    # The attacker's secret game_end objective held now: no points "as the game would end" (the totals would tell
    # the defender of it), unseen by the defender and by no seat; counted and revealed to all as the game ends.
    objs = [replace(o, secret_to="attacker") for o in objectives("game_end")]
    now = [Piece(1, "attacker", "b", *ON_1)]
    log = [Logged(1, move(1, HOME, ON_1))]
    live = score_of(objs, BASES, now, log)
    assert live.points == {"attacker": 0, "defender": 0} and not live.objectives[0].revealed
    assert [o.id for o in seen_by(live, "attacker").objectives] == ["o1"]
    assert seen_by(live, "defender").objectives == () == seen_by(live, None).objectives
    ended = score_of(objs, BASES, now, [*log, Logged(1, ended=True)])
    assert ended.points["attacker"] == 1 and ended.objectives[0].revealed
    assert seen_by(ended, "defender") == ended
    # A first_taken one is revealed as it is taken, with its points.
    taken = score_of([replace(o, secret_to="defender") for o in objectives("first_taken")], BASES, now, log)
    assert taken.objectives[0].revealed and taken.points["attacker"] == 1


def test_an_undone_act_scores_nothing_but_a_secret_objectives_reveal_outlives_it() -> None:
    # Undone, the act never happened: its points go with it (public or secret); the other side has read the
    # secret one revealed, so the undo (the log's opposite move) takes the stand back, not the reveal.
    log = [
        Logged(1, move(1, HOME, ON_1), id=1, undone=True),
        Logged(1, move(1, ON_1, HOME), id=2, undone=True),
    ]
    now = [Piece(1, "attacker", "b", *HOME)]
    public = score_of(objectives("first_taken"), BASES, now, log)
    assert public.points["attacker"] == 0 and public.objectives[0].first_taken_by is None and not public.taken
    secret = score_of([replace(o, secret_to="attacker") for o in objectives("first_taken")], BASES, now, log)
    assert (
        secret.points["attacker"] == 0
        and secret.objectives[0].revealed
        and secret.objectives[0].holder is None
    )
    assert seen_by(secret, "defender") == secret


def test_an_each_turn_objective_scores_its_holder_as_each_turn_ends() -> None:
    objs = objectives("each_turn")
    now = [Piece(1, "defender", "b", *ON_1)]
    # On it in turn 1; turns 1 and 2 end with it held, then the game ends in turn 3: three scorings of 1.
    log = [Logged(1, move(1, HOME, ON_1)), Logged(2), Logged(3), Logged(3, ended=True)]
    s = score_of(objs, BASES, now, log)
    assert s.points["defender"] == 3 and s.turns_scored == (1, 2, 3)
    # Ended during turn 3 (the referee's, on a condition): turn 3 is not over and its end scores nothing.
    cut = score_of(objs, BASES, now, [*log[:-1], Logged(3, ended=True, turn_over=False)])
    assert cut.points["defender"] == 2 and cut.turns_scored == (1, 2) and cut.ended


def test_a_first_taken_objective_scores_once_to_the_first_side_to_hold_it() -> None:
    objs = objectives("first_taken")
    now = [Piece(1, "attacker", "b", *HOME), Piece(2, "defender", "b", *ON_1)]
    log = [Logged(1, move(1, HOME, ON_1)), Logged(1, move(1, ON_1, HOME)), Logged(2, move(2, HOME, ON_1))]
    s = score_of(objs, BASES, now, log)
    assert s.points == {"attacker": 1, "defender": 0}
    assert s.objectives[0].first_taken_by == "attacker" and s.objectives[0].holder == "defender"


def test_set_up_moves_score_nothing_until_the_game_is_played() -> None:
    objs = objectives("first_taken")
    now = [Piece(1, "attacker", "b", *ON_1)]
    s = score_of(objs, BASES, now, [Logged(0, move(1, HOME, ON_1))])
    assert s.points["attacker"] == 0 and s.objectives[0].holder == "attacker"


def test_a_destroyed_stand_holds_nothing_and_counts_as_its_sides_loss() -> None:
    objs = objectives("game_end")
    now = [Piece(1, "attacker", "b", *ON_1, killed=True), Piece(2, "defender", "b", *HOME)]
    log = [Logged(1, move(1, HOME, ON_1)), Logged(1, (Moved(1, "killed", False, True),))]
    s = score_of(objs, BASES, now, log)
    assert s.objectives[0].holder is None and s.points == {"attacker": 0, "defender": 0}
    assert s.losses == {"attacker": 1, "defender": 0}


def test_the_log_is_replayed_back_from_the_stands_now_so_an_earlier_holding_scored() -> None:
    # The defender stood on it as turn 1 ended and has left since: turn 1's scoring stands.
    objs = objectives("each_turn")
    now = [Piece(1, "defender", "b", *HOME)]
    log = [Logged(1, move(1, HOME, ON_1)), Logged(2, move(1, ON_1, HOME)), Logged(2, ended=True)]
    assert score_of(objs, BASES, now, log).points["defender"] == 1


def test_the_referees_call_holds_until_the_stands_holding_changes() -> None:
    objs = objectives("game_end")
    edge = (25.0, 39.8)  # base y 38.8..40.8: 0.8 cm into the area, contested
    now = [Piece(1, "attacker", "b", *edge)]
    log = [Logged(1, move(1, HOME, edge))]
    s = score_of(objs, BASES, now, log)
    assert s.objectives[0].contested and s.objectives[0].holder == "attacker"
    called = score_of(objs, BASES, now, [*log, Logged(1, call=("o1", None))])
    o = called.objectives[0]
    assert (o.holder, o.called_by_referee, o.contested, o.stands) == (None, True, False, ())
    assert called.points["attacker"] == 0
    # The stand moves on: the call lapses, the stands decide again.
    now2 = [Piece(1, "attacker", "b", *ON_1)]
    later = score_of(objs, BASES, now2, [*log, Logged(1, call=("o1", None)), Logged(1, move(1, edge, ON_1))])
    assert later.objectives[0].holder == "attacker" and not later.objectives[0].called_by_referee


def test_held_by_a_side_an_empty_objective_is_that_sides() -> None:
    objs = objectives("game_end", "game_end", held_by="defender")
    now = [Piece(1, "attacker", "b", *ON_1)]
    s = score_of(objs, BASES, now, [Logged(1, move(1, HOME, ON_1)), Logged(6, ended=True)])
    assert s.points == {"attacker": 1, "defender": 2}


def test_more_points_win_and_level_points_are_a_draw() -> None:
    assert by_points({"attacker": 2, "defender": 1}).winner == "attacker"
    assert by_points({"attacker": 0, "defender": 3}).winner == "defender"
    assert by_points({"attacker": 1, "defender": 1}).winner is None


def test_the_verdict_says_one_victory_point_and_many_victory_points() -> None:
    assert by_points({"attacker": 1, "defender": 1}).reason == "a draw at 1 victory point each"
    assert by_points({"attacker": 0, "defender": 0}).reason == "a draw: neither side scored"
    assert by_points({"attacker": 1, "defender": 0}).reason == "the attacker wins by 1 victory point to 0"
    assert by_points({"attacker": 1, "defender": 3}).reason == "the defender wins by 3 victory points to 1"


def test_flanders_fields_and_2mm_print_no_victory_conditions_so_the_scenarios_are_listed_as_an_erratum() -> (
    None
):
    for ruleset_id, quoted in (
        ("flanders-fields", "racing to secure the bridges"),
        ("2mm-earth-1418", "Start new bound."),
    ):
        rules = get_game_rules(ruleset_id)
        erratum = get_ruleset(ruleset_id).errata[rules.book.victory_erratum]
        assert erratum.default == "scenario-objectives"
        assert rules.outcome({"attacker": 2, "defender": 0}).source == rules.book.victory_source
        assert quoted in erratum.note + " ".join(r.text for r in erratum.readings)
    mons = get_ruleset("flanders-fields").errata["mons-bridges"]
    assert (
        "'The British and Germans are racing to secure the bridges over a small river'"
        in mons.readings[0].text
    )


def test_a_call_that_lapses_leaves_the_objective_contested_and_the_log_tells_who_took_it_and_how() -> None:
    # Issue 64: the referee called the bridge for the attacker; a defender stand then came to its edge: the call
    # lapses, the bridge is contested with no call standing (the game may not end on it so), and each change of
    # hands is kept in order with how it came (the stands, the call, the call lapsing).
    objs = objectives("game_end")
    edge = (25.0, 39.8)  # base y 38.8..40.8: 0.8 cm into the area, contested
    beside = (29.0, 39.8)
    now = [Piece(1, "attacker", "b", *edge), Piece(2, "defender", "b", *beside)]
    log = [
        Logged(0, move(1, HOME, (5.0, 30.0))),  # set-up: not told
        Logged(1, move(1, (5.0, 30.0), edge)),
        Logged(1, call=("o1", "attacker")),
        Logged(2, move(2, HOME, beside)),
    ]
    called = score_of(objs, BASES, now, log[:3]).objectives[0]
    assert (called.settled, called.holder, called.lapsed_call) == ("called", "attacker", None)
    o = score_of(objs, BASES, now, log).objectives[0]
    assert (o.settled, o.contested, o.called_by_referee, o.lapsed_call) == (
        "contested",
        True,
        False,
        "attacker",
    )
    assert o.first_taken_by == "attacker"
    taken = score_of(objs, BASES, now, log).taken
    assert [(t.turn, t.side, t.how) for t in taken] == [(1, "attacker", "stands"), (2, None, "lapsed")]
    # Called again, for nobody: settled by the call, no lapsed call left to tell.
    again = score_of(objs, BASES, now, [*log, Logged(2, call=("o1", None))])
    assert (again.objectives[0].settled, again.objectives[0].lapsed_call) == ("called", None)
    assert again.taken == taken  # nobody's already: no change of hands to tell
