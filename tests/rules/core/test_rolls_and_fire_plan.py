"""Every act is answered by `GameRules.play` (issue 54), the table's geometry (a formation moved as one, a
template laid) included: a rule set with nothing of its own moves and lays them."""

from __future__ import annotations

import pytest

from rules.core.acts import LayTemplate, MoveFormation, MoveTemplate
from rules.core.errors import RulesError
from rules.core.game import Book, GameRules
from rules.core.kit import TableKit
from rules.core.records import Snapshot, UnitState
from rules.table.templates import TemplateSpec


def _table() -> Snapshot:
    coy = UnitState(1, None, "attacker", "company", name="1 Coy")
    stands = (
        UnitState(2, 1, "attacker", "platoon", x=10.0, y=10.0, facing_deg=None, name="1 Plt"),
        UnitState(3, 1, "attacker", "platoon", x=20.0, y=10.0, facing_deg=90.0, name="2 Plt"),
        UnitState(4, 1, "attacker", "platoon", x=30.0, y=10.0, facing_deg=90.0, name="3 Plt", killed=True),
    )
    board = {
        "templates": ({"id": 7, "kind": "barrage", "side": "attacker", "x": 60.0, "y": 40.0, "rotation": 0},)
    }
    return Snapshot("bare", None, (coy, *stands), 120.0, 180.0, board=board)


def test_a_formation_turns_about_its_centre_and_stays_on_the_table() -> None:
    moved = GameRules().play(_table(), MoveFormation(unit_id=1, dx=0.0, dy=5.0, turn_deg=90.0))
    placed = {(c.unit_id, c.field): c.value for c in moved.changes}
    # About (15, 10): the two living stands end one above the other, a facing of none facing up the table;
    # only what changes is answered.
    assert placed == {
        (2, "x"): 15.0,
        (2, "facing_deg"): 180.0,
        (3, "x"): 15.0,
        (3, "y"): 20.0,
        (3, "facing_deg"): 180.0,
    }
    with pytest.raises(RulesError) as off:
        GameRules().play(_table(), MoveFormation(unit_id=1, dx=-20.0, dy=0.0))
    assert off.value.field == "dx" and "1 Plt" in off.value.reason


def test_a_formation_off_the_table_is_refused_for_what_sent_it_off() -> None:
    # One clause saying what to do, its field the input that sent a stand off: a shift along the table was refused
    # as dx's, and a turn alone told to "move the formation less far", with "on the table" offered as a value to
    # pick (stop 112's hostile pass and browser test).
    coy = UnitState(1, None, "attacker", "company", name="1 Coy")
    edge = (  # along the table's near edge: a quarter turn about their centre (20, 1) takes 1 Plt to y = -9
        UnitState(2, 1, "attacker", "platoon", x=10.0, y=1.0, facing_deg=90.0, name="1 Plt"),
        UnitState(3, 1, "attacker", "platoon", x=30.0, y=1.0, facing_deg=90.0, name="2 Plt"),
    )
    table = Snapshot("bare", None, (coy, *edge), 120.0, 180.0)
    for act, field, reason in (
        (
            MoveFormation(unit_id=1, dx=-20.0, dy=0.0),
            "dx",
            "that would put 1 Plt off the table: move the formation less far",
        ),
        (
            MoveFormation(unit_id=1, dx=0.0, dy=-5.0),
            "dy",
            "that would put 1 Plt off the table: move the formation less far",
        ),
        (
            MoveFormation(unit_id=1, dx=0.0, dy=0.0, turn_deg=90.0),
            "turn_deg",
            "that would put 1 Plt off the table: turn the formation less far",
        ),
    ):
        with pytest.raises(RulesError) as off:
            GameRules().play(table, act)
        assert (off.value.field, off.value.reason, off.value.allowed) == (field, reason, None), act


def test_a_template_lies_where_the_rules_lay_it() -> None:
    kit = TableKit(templates={"barrage": TemplateSpec("barrage", 120.0, 10.0, "", across_table=True)})
    game = GameRules()
    game.book = Book(kit=kit)
    laid = game.play(_table(), LayTemplate(kind="barrage", side="attacker", x=3.0, y=50.004, rotation=370.0))
    assert dict(laid.shown) == {"kind": "barrage", "x": 60.0, "y": 50.0, "rotation": 10.0}
    kept = game.play(_table(), MoveTemplate(template_id=7, y=41.0))  # what it does not name stays
    assert dict(kept.shown) == {"kind": "barrage", "x": 60.0, "y": 41.0, "rotation": 0.0}
    with pytest.raises(RulesError) as off:
        game.play(_table(), MoveTemplate(template_id=7, y=500.0))
    assert off.value.field == "y"
