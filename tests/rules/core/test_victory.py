"""More kinds of objective (issue 69): held for N turns (in a row or in all), and a scenario's victory
conditions (rules.core.victory): a win at a number of points, an objective taken, a side broken as its rules
declare; each checked in the scenario (bounded, refused naming the field) and met in the score (rules.core.score),
never ending the game by itself."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.errors import RulesError
from rules.core.scenario import validate
from rules.core.score import Logged, Moved, Piece, score_of
from rules.core.victory import CONDITION_KINDS, Broken, conditions_from_json
from rules.registry import get_game_rules, get_ruleset
from rules.table.bases import BaseSpec
from rules.table.objectives import KINDS, objectives_from_geojson
from tests.rules.core.test_scenario import FF, hand_written

BASES = {"b": BaseSpec("b", "rect", 4.0, 2.0, "test")}
HOME = (5.0, 5.0)
ON = (25.0, 45.0)  # inside the objective (x 20..30, y 40..50)
RING = [[20, 40], [30, 40], [30, 50], [20, 50], [20, 40]]


def feature(**props: Any) -> dict[str, Any]:
    return {
        "type": "Feature",
        "id": "hill",
        "geometry": {"type": "Polygon", "coordinates": [RING]},
        "properties": {"name": "Hill 60", "vp": 3, **props},
    }


def held(**props: Any) -> list[Any]:
    return objectives_from_geojson({"type": "FeatureCollection", "features": [feature(**props)]}, 120, 180)


def move(uid: int, before: tuple[float, float], after: tuple[float, float]) -> tuple[Moved, ...]:
    return (Moved(uid, "x", before[0], after[0]), Moved(uid, "y", before[1], after[1]))


# The attacker holds the hill at the end of turns 1 and 3, not 2 (the defender's stand is on it with the
# attacker's off it); turn 4 is under way.
NOW = [Piece(1, "attacker", "b", *ON), Piece(2, "defender", "b", *HOME)]
LOG = [
    Logged(1, move(1, HOME, ON), id=1),
    Logged(2, move(1, ON, HOME), id=2),
    Logged(2, move(2, HOME, ON), id=3),
    Logged(3, move(2, ON, HOME), id=4),
    Logged(3, move(1, HOME, ON), id=5),
    Logged(4, id=6),
]


def test_held_for_turns_in_all_scores_once_as_the_count_reaches_its_turns_and_says_the_count() -> None:
    two = score_of(held(scored="held_turns", turns=2), BASES, NOW, LOG)
    assert two.points == {"attacker": 3, "defender": 0}  # turns 1 and 3: two in all
    assert two.objectives[0].turns_held == 2 and two.objectives[0].turns_held_by == "attacker"
    three = score_of(held(scored="held_turns", turns=3), BASES, NOW, LOG)
    assert three.points["attacker"] == 0 and three.objectives[0].turns_held == 2
    # Scored, it says held as many turns as it took, not "3 of 2" as the game goes on (the newcomer pass).
    on = score_of(held(scored="held_turns", turns=1), BASES, NOW, LOG)
    assert on.points["attacker"] == 3 and on.objectives[0].turns_held == 1


def test_held_for_turns_in_a_row_starts_again_when_the_other_side_holds_it_at_a_turns_end() -> None:
    s = score_of(held(scored="held_turns", turns=2, consecutive=True), BASES, NOW, LOG)
    assert s.points["attacker"] == 0 and s.objectives[0].turns_held == 1  # turn 3 only, in a row
    written = held(scored="held_turns", turns=2, consecutive=True)[0].as_geojson()["properties"]
    assert (written["turns"], written["consecutive"]) == (2, True)  # the scenario editor writes it back


@pytest.mark.parametrize(
    ("props", "field"),
    [
        ({"scored": "held_turns"}, "turns"),
        ({"scored": "held_turns", "turns": 0}, "turns"),
        ({"scored": "held_turns", "turns": 101}, "turns"),
        ({"scored": "held_turns", "turns": True}, "turns"),
        ({"scored": "held_turns", "turns": 2, "consecutive": "yes"}, "consecutive"),
        ({"scored": "game_end", "turns": 2}, "turns"),
    ],
)
def test_a_held_for_turns_objective_is_bounded_and_refused_naming_the_property(
    props: dict[str, Any], field: str
) -> None:
    with pytest.raises(RulesError) as e:
        held(**props)
    assert e.value.field == f"table_objectives.features.0.properties.{field}" and e.value.allowed


def test_the_kinds_are_declared_with_their_fields_for_the_editor() -> None:
    assert [k.scored for k in KINDS] == ["each_turn", "game_end", "first_taken", "held_turns"]
    assert [f[0] for f in KINDS[-1].fields] == ["turns", "consecutive"]
    assert [k.kind for k in CONDITION_KINDS] == ["points", "objective_taken", "side_broken"]


@pytest.mark.parametrize(
    ("conditions", "field"),
    [
        ([{"kind": "points", "points": 0}], "victory_conditions.0.points"),
        ([{"kind": "points", "points": 1001}], "victory_conditions.0.points"),
        ([{"kind": "points"}], "victory_conditions.0.points"),
        ([{"kind": "points", "points": 5, "side": "attacker"}], "victory_conditions.0.side"),
        (
            [{"kind": "objective_taken", "objective": "mill", "side": "attacker"}],
            "victory_conditions.0.objective",
        ),
        ([{"kind": "objective_taken", "objective": "hill"}], "victory_conditions.0.side"),
        (
            [{"kind": "side_broken", "side": "attacker"}],
            "victory_conditions.0.stands_lost",
        ),  # FF declares none
        ([{"kind": "side_broken", "stands_lost": 0}], "victory_conditions.0.stands_lost"),
        ([{"kind": "side_broken", "stands_lost": 101}], "victory_conditions.0.stands_lost"),
        ([{"kind": "side_broken", "stands_lost": True}], "victory_conditions.0.stands_lost"),
        ([{"kind": "sudden"}], "victory_conditions.0.kind"),
        ([{"kind": "points", "points": 5}] * 11, "victory_conditions"),
    ],
)
def test_a_scenarios_victory_conditions_are_bounded_and_refused_naming_the_field(
    conditions: list[Any], field: str
) -> None:
    doc = {
        **hand_written(),
        "table_objectives": {"type": "FeatureCollection", "features": [feature(scored="game_end")]},
        "victory_conditions": conditions,
    }
    with pytest.raises(RulesError) as e:
        validate(doc, {FF: (get_ruleset(FF), get_game_rules(FF))})
    assert e.value.field == field, e.value.message


def conditions(*written: dict[str, Any], broken: Broken | None = None) -> list[Any]:
    return conditions_from_json(list(written), {"hill"}, broken)


def test_a_threshold_names_the_side_that_reached_it_first_and_when_and_the_game_goes_on() -> None:
    objs = held(scored="each_turn")  # 3 VP to its holder at each turn's end
    s = score_of(objs, BASES, NOW, LOG, conditions({"kind": "points", "points": 6}))
    (met,) = s.met
    assert (met.number, met.winner, met.turn, met.event_id) == (1, "attacker", 3, 6)  # turn 3's end: 6 VP
    assert (
        met.words == "Scenario victory condition 1: the attacker reached 6 victory points first, in turn 3."
    )
    assert not s.ended and not met.played_on


def test_sudden_death_on_an_objective_taken_is_met_in_the_act_and_a_choice_to_play_on_is_kept() -> None:
    objs = held(scored="game_end")
    taken = conditions({"kind": "objective_taken", "objective": "hill", "side": "defender"})
    s = score_of(objs, BASES, NOW, LOG, taken)
    assert [(m.winner, m.turn, m.event_id) for m in s.met] == [("defender", 2, 3)]
    assert "the defender took Hill 60, in turn 2" in s.met[0].words
    on = score_of(objs, BASES, NOW, [*LOG, Logged(4, played_on=1, id=7)], taken)
    assert on.met[0].played_on and len(on.met) == 1  # met once, though the defender takes it no more


def test_an_objective_contested_is_taken_by_nobody_until_the_referee_calls_it() -> None:
    # Issue 89: the board offered "End the game: Defender wins" while the hill still read contested.
    edge = (25.0, 39.8)  # the base spans y 38.8..40.8: on the hill's edge, a 1 cm move takes it off
    taken = conditions({"kind": "objective_taken", "objective": "hill", "side": "defender"})
    now = [Piece(1, "attacker", "b", *HOME), Piece(2, "defender", "b", *edge)]
    log = [Logged(1, move(2, HOME, edge), id=1)]
    s = score_of(held(scored="game_end"), BASES, now, log, taken)
    assert (s.objectives[0].holder, s.objectives[0].settled, s.met) == ("defender", "contested", ())
    called = score_of(
        held(scored="game_end"), BASES, now, [*log, Logged(1, call=("hill", "defender"), id=2)], taken
    )
    assert [(m.winner, m.event_id) for m in called.met] == [("defender", 2)]


def test_a_side_broken_as_its_rules_declare_loses_and_a_rule_set_declaring_none_refuses_it() -> None:
    rule = Broken(0.5, "Club rule 3: a side that has lost half its stands is broken")
    now = [
        Piece(1, "attacker", "b", *HOME),
        Piece(2, "defender", "b", *HOME, killed=True),
        Piece(3, "defender", "b"),
    ]
    log = [Logged(1, id=1), Logged(2, (Moved(2, "killed", False, True),), id=2)]
    s = score_of([], BASES, now, log, conditions({"kind": "side_broken", "side": None}, broken=rule), rule)
    assert [(m.winner, m.turn) for m in s.met] == [("attacker", 2)]
    assert "the defender is broken (Club rule 3" in s.met[0].words
    attacker_only = conditions({"kind": "side_broken", "side": "attacker"}, broken=rule)
    assert score_of([], BASES, now, log, attacker_only, rule).met == ()
    with pytest.raises(RulesError) as e:
        conditions({"kind": "side_broken"})
    assert e.value.field == "victory_conditions.0.stands_lost"
    assert get_game_rules(FF).book.broken is None  # so a Flanders Fields scenario names its own share


def test_a_side_broken_at_the_share_of_stands_the_scenario_names_where_the_rules_print_none() -> None:
    """Flanders Fields' morale is a battalion's (MORALE: "roll morale i.e. if a battalion starts the game with
    ..."), 2mm Earth 1418's a unit's: neither prints a side's break point, so the scenario names it."""
    now = [
        Piece(1, "attacker", "b", *HOME),
        Piece(2, "defender", "b", *HOME, killed=True),
        Piece(3, "defender", "b"),
        Piece(4, "defender", "b"),
    ]
    log = [Logged(1, id=1), Logged(2, (Moved(2, "killed", False, True),), id=2)]
    third = conditions({"kind": "side_broken", "stands_lost": 33})
    (met,) = score_of([], BASES, now, log, third, None).met
    assert (met.winner, met.turn) == ("attacker", 2)
    assert "the defender has lost 33% of its stands: the attacker wins, in turn 2" in met.words
    half = conditions({"kind": "side_broken", "stands_lost": 50})
    assert score_of([], BASES, now, log, half, None).met == ()  # 1 of 3 lost


@pytest.mark.parametrize("ruleset_id", [FF, "2mm-earth-1418"])
def test_every_silent_victory_choice_is_an_erratum_of_two_readings_each_with_its_source(
    ruleset_id: str,
) -> None:
    # Issue 89: neither book prints a side's break point nor how a game is won; each choice the game makes where
    # the book is silent is listed with the other reading, the game's the default.
    errata = get_ruleset(ruleset_id).errata
    book = get_game_rules(ruleset_id).book
    for eid, played in (
        ("scenario-victory", "scenario-objectives"),
        ("side-break-point", "scenario-share"),
        ("victory-met", "referee-ends"),
    ):
        erratum = errata[eid]
        assert erratum.default == played and len(erratum.readings) == 2, eid
        assert all(r.source and r.text for r in erratum.readings), eid
    # The default plays: the rules declare no side broken, so a scenario's condition names its own share.
    assert book.broken is None
    assert (
        errata["side-break-point"].readings[1].value == 50
        and "50%" in errata["side-break-point"].readings[1].text
    )
