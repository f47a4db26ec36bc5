"""What the app once did by Flanders Fields' name, now behind the game hook: the hook's neutral defaults, the
turn sequence given as the core's steps, the secret draw's pack, the gas-wind roll once a turn, the one heroic
action, a barrage advancing as a turn starts."""

from __future__ import annotations

import pytest

from rules.core.errors import RulesError
from rules.core.game import TURN_STARTED, GameRules, Position
from rules.core.records import FillRequest, SetBoard, SetSideState, Snapshot, UnitState
from rules.flanders_fields.book.common import PERIODS
from rules.flanders_fields.book.sequence import SEQUENCES
from rules.registry import get_game_rules

GAME = get_game_rules("flanders-fields")


def _snap(**kw: object) -> Snapshot:
    units = (UnitState(1, None, "attacker", "platoon", kind="rifle-platoon", name="Plt 1"),)
    base = {"ruleset": "flanders-fields", "period": "late", "units": units}
    return Snapshot(**{**base, "table_width_cm": 120.0, "table_length_cm": 180.0, **kw})  # type: ignore[arg-type]


def test_a_rule_set_without_these_methods_plays_a_turn_of_nothing() -> None:
    bare = GameRules()
    snap = _snap()
    assert bare.steps("late") == ()
    now = Position(1, "attacker")
    assert bare.refusal("playing", "late", now, "move-stands", "attacker", None, []) is None
    assert bare.between_turns(snap, TURN_STARTED) == ((), ())
    assert bare._before_resolve("anything", snap, FillRequest(frozenset()), True) == ()
    with pytest.raises(RulesError) as e:
        bare._hand_played(snap, "attacker", "QD")
    assert e.value.field == "card"


@pytest.mark.parametrize("period", PERIODS)
def test_the_turn_sequence_is_the_books_step_for_step(period: str) -> None:
    book = SEQUENCES[period].steps  # type: ignore[index]
    steps = GAME.steps(period)
    assert [(s.id, s.number, s.title, s.source) for s in steps] == [
        (s.id, s.number, s.title, s.source) for s in book
    ]
    assert [[(p.action, tuple(p.units)) for p in s.permits] for s in steps] == [
        [(p.action, tuple(p.units)) for p in s.permits] for s in book
    ]


def test_the_pack_and_hands_are_the_games_not_the_requests() -> None:
    snap = _snap(
        sides={"attacker": {"event-hand": ["QD"]}, "defender": {}}, board={"events": {"out": ["2C"]}}
    )
    filled = {f.field: f.value for f in GAME.drawn("random-event", snap, {})}
    assert filled["hand"] == ["QD"] and filled["opponent_hand"] == []
    assert len(filled["deck"]) == 52 - 2 and "QD" not in filled["deck"] and "2C" not in filled["deck"]
    with pytest.raises(RulesError) as e:
        GAME.drawn("random-event", snap, {"deck": ["AS"]})
    assert e.value.field == "fields.deck"


def test_the_wind_is_rolled_once_a_turn_and_a_heroic_action_once_a_game() -> None:
    asked = FillRequest(frozenset(), unit_id=1)
    no_cloud = _snap(turn=2)
    with pytest.raises(RulesError):
        GAME._before_resolve("gas-wind", no_cloud, asked, True)
    assert GAME._before_resolve("gas-wind", no_cloud, asked, False) == ()
    cloud = _snap(turn=2, board={"clouds": [{"item_id": 1}], "wind": {"speed_cm": 5}, "wind_turn": 1})
    assert GAME._before_resolve("gas-wind", cloud, asked, True) == ()
    rolled = _snap(turn=2, board={"clouds": [{"item_id": 1}], "wind": {"speed_cm": 5}, "wind_turn": 2})
    with pytest.raises(RulesError):
        GAME._before_resolve("gas-wind", rolled, asked, True)
    (spent,) = GAME._before_resolve(
        "heroic-action", _snap(sides={"attacker": {"heroic-action": 1}}), asked, True
    )
    assert isinstance(spent, SetSideState) and (spent.side, spent.value) == ("attacker", 0)
    with pytest.raises(RulesError):
        GAME._before_resolve("heroic-action", _snap(sides={"attacker": {"heroic-action": 0}}), asked, True)


def test_a_rolling_barrage_advances_its_width_as_its_sides_turn_starts() -> None:
    barrage = {"item_id": 7, "side": "attacker", "front_y": 30.0, "duration_turns": 3, "turns_fired": 1}
    snap = _snap(turn=2, board={"barrages": [barrage], "deep_suppression": 2})
    notices, changes = GAME.between_turns(snap, TURN_STARTED)
    assert [n.kind for n in notices] == ["barrage-advanced"]
    moved = notices[0].shown["barrage"]
    assert moved["front_y"] > barrage["front_y"] and moved["turns_fired"] == 2
    board = {c.key: c.value for c in changes if isinstance(c, SetBoard)}
    assert board["deep_suppression"] == 0 and board["barrages"] == (moved,)
    lifted = _snap(turn=4, board={"barrages": [{**barrage, "turns_fired": 3}]})
    notices, changes = GAME.between_turns(lifted, TURN_STARTED)
    assert [n.kind for n in notices] == ["barrage-lifted"]


def test_each_side_starts_with_one_heroic_action_and_a_bare_rule_set_with_nothing() -> None:
    assert GameRules().book.side_state == {}
    # "Once per game each player may elect to attempt a Heroic Action" (HEROIC ACTIONS)
    start = _snap(sides={"attacker": dict(GAME.book.side_state)})
    assert len(GAME._before_resolve("heroic-action", start, FillRequest(frozenset(), unit_id=1), True)) == 1
