"""Orders and actions in a Flanders Fields game, without a database: a unit ordered once a turn, on its own
table; a shot, a move, a recovery and a packing or limbering spending an action of the unit the stand is ordered with (a company's
stands moving or firing together for one); a stand whose unit has none left refused."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules.core.acts import EditUnit, MoveFormation, MoveStand, RecoverMarker, Roll
from rules.core.errors import RulesError
from rules.core.game import Outcome
from rules.core.records import FillRequest, Snapshot
from rules.flanders_fields.play.changes import ActionSpent, ActionUnderWay
from rules.flanders_fields.play.game_consequences import marker_removed
from rules.flanders_fields.play.game_orders import SRC_ACTIONS, SRC_ONCE_A_TURN, FlandersFieldsPacking
from rules.flanders_fields.play.game_sequence import turn_ended
from rules.registry import get_ruleset
from tests.rules.flanders_fields.play.test_game_rules import GAME, battalion, snapshot

SHOT = {"outcome_key": "no-effect", "outcome": "no effect"}

PACKING = FlandersFieldsPacking()  # the stand card's unit edits, without its rolls


def _shot(snap: Snapshot, firer: int) -> tuple[Any, ...]:
    request = get_ruleset("flanders-fields").resolvers["shooting"].Request.model_construct(firer="infantry")
    return GAME._consequences("shooting", snap, Outcome(request, SHOT, firer, 20))


def _spent(changes: tuple[Any, ...]) -> list[int]:
    return [c.unit_id for c in changes if isinstance(c, ActionSpent)]


def test_a_unit_is_ordered_once_a_turn() -> None:
    ordered = snapshot(battalion(u3={"ordered_turn": 2}), turn=2)
    again = Roll(resolver="order-roll", unit_id=3)
    (refusal,) = GAME.forbidden(ordered, again)
    assert refusal == "A Coy has had its order roll this turn: order another unit"
    assert "may not return to order the same unit" in refusal.why and refusal.source == SRC_ONCE_A_TURN
    assert GAME.forbidden(ordered, Roll(resolver="order-roll", unit_id=7)) == ()  # another unit
    assert GAME.forbidden(snapshot(battalion(u3={"ordered_turn": 1}), turn=2), again) == ()  # next turn


def test_an_order_roll_is_the_units_own() -> None:
    """A platoon takes its company's roll; a company rolls on the rifle companies' table, not the MGs'."""
    with pytest.raises(RulesError) as e:
        GAME._before_resolve("order-roll", snapshot(), FillRequest(frozenset(), 4, None, {}), True)
    assert e.value.field == "unit_id" and "the order roll of A Coy:" in e.value.reason
    with pytest.raises(RulesError) as e:
        given = {"unit": "battalion-mg"}
        GAME._before_resolve("order-roll", snapshot(), FillRequest(frozenset(), 3, None, given), True)
    assert e.value.field == "fields.unit" and e.value.allowed == ["rifle-company"]


def test_a_company_fires_as_one_action() -> None:
    """The first platoon to fire spends the company's action; the others fire in it; a platoon firing again
    starts the next."""
    snap = snapshot(battalion(u3={"actions_left": 2}), turn=1)
    first = _shot(snap, 4)
    assert first[:2] == (
        ActionSpent("an action of A Coy", SRC_ACTIONS, 3),
        ActionUnderWay("A Coy is carrying out an action", SRC_ACTIONS, 3, {"act": "fire", "stands": [4]}),
    )
    snap = snap.after(first)
    second = _shot(snap, 5)
    assert _spent(second) == [] and snap.after(second).unit(3).action_under_way["stands"] == [4, 5]
    assert _spent(_shot(snap, 4)) == [3]


def test_an_mg_spends_an_action_each_shot_and_none_left_is_refused() -> None:
    snap = snapshot(battalion(u10={"actions_left": 1}), turn=1)
    assert _spent(_shot(snap, 10)) == [10]
    spent = snap.after(_shot(snap, 10))
    (refusal,) = GAME.forbidden(spent, Roll(resolver="shooting", unit_id=10))
    assert refusal == "unit 10 has no action left: roll its order first" and refusal.source == SRC_ACTIONS
    assert "REMOVE A SUPPRESSION LEVEL, MOVE or FIRE" in refusal.why
    failed = snapshot(battalion(u10={"ordered_turn": 1}), turn=1)  # "ends the turn for that unit"
    (refusal,) = GAME.forbidden(failed, Roll(resolver="shooting", unit_id=10))
    assert refusal == "unit 10 has no action left this turn: its order is used up"
    assert GAME.forbidden(failed, Roll(resolver="shooting", unit_id=10, apply=False)) == ()  # asked


def test_a_move_spends_an_action_of_the_unit_moved() -> None:
    one = {"actions_left": 1}
    snap = snapshot(battalion(u3=one, u4={"facing_deg": 0.0}, u7=one, u10=one), turn=1)
    moved = GAME.play(snap, MoveStand(unit_id=4, x=10, y=30, facing_deg=0))
    assert _spent(moved.changes) == [3]
    assert _spent(GAME.play(snap, MoveStand(unit_id=4, x=10, y=20, facing_deg=0)).changes) == []  # not moved
    # A company moved as a formation spends one action; a battalion one of each company it moves.
    assert _spent(GAME.play(snap, MoveFormation(unit_id=3, dx=0, dy=5)).changes) == [3]
    assert _spent(GAME.play(snap, MoveFormation(unit_id=1, dx=0, dy=5)).changes) == [3, 7, 10]
    # Set-up: nobody is ordered, deploying spends nothing and is not refused.
    setup = snapshot(battalion())
    assert GAME.forbidden(setup, MoveFormation(unit_id=1, dx=0, dy=5)) == ()
    assert _spent(GAME.play(setup, MoveFormation(unit_id=1, dx=0, dy=5)).changes) == []


def test_moves_and_recoveries_are_refused_without_an_action() -> None:
    snap = snapshot(battalion(u4={"suppression": 1}), turn=1)
    names = [str(r) for r in GAME.forbidden(snap, MoveFormation(unit_id=1, dx=0, dy=5))]
    unpaid = [n for n in names if "no action" in n]  # (suppressed unit 4 may not move either: test_game_fire)
    assert unpaid == [f"{n} has no action left: roll its order first" for n in ("A Coy", "B Coy", "unit 10")]
    assert GAME.forbidden(snap, RecoverMarker(unit_id=4)) != ()
    assert GAME.forbidden(snap, RecoverMarker(unit_id=4, spend_action=False)) == ()
    # A command stand is not ordered: it moves in its own step, for nothing.
    assert GAME.forbidden(snap, MoveStand(unit_id=2, x=0, y=0, facing_deg=0)) == ()


def test_a_recovery_is_an_action_of_its_own_and_the_turn_ends_the_action_under_way() -> None:
    under = {"act": "move", "stands": [4]}
    snap = snapshot(
        battalion(u3={"actions_left": 2, "action_under_way": under}, u5={"suppression": 1}), turn=1
    )
    changes = marker_removed(snap, 5, True)
    assert _spent(changes) == [3] and snap.after(changes).unit(3).action_under_way is None
    ended = turn_ended(snap, "attacker")
    assert ActionUnderWay("A Coy's turn is over", SRC_ACTIONS, 3, None) in ended


def test_the_side_not_moving_shoots_back_unordered() -> None:
    """ "the defenders may shoot as the attackers close": a shot in the other side's turn needs no order."""
    snap = snapshot(battalion(), turn=1)  # the attacker's turn; unit 20 is the defender's
    assert GAME.forbidden(snap, Roll(resolver="shooting", unit_id=20)) == ()
    assert _spent(_shot(snap, 20)) == []


def test_packing_and_unpacking_an_mg_spends_its_action() -> None:
    """ "Machineguns, Light Mortars and Artillery require 1 order to limber or unlimber, pack or unpack"."""
    packed = battalion(u10={"packed": True, "actions_left": 1, "ordered_turn": 1})
    snap = snapshot(packed, turn=1)
    unpack = EditUnit(unit_id=10, version=1, values={"packed": False})
    assert GAME.forbidden(snap, unpack) == ()
    answer = GAME.play(snap, unpack)
    assert _spent(answer.changes) == [10]
    after = snap.after(answer.changes)
    (refusal,) = GAME.forbidden(after, EditUnit(unit_id=10, version=2, values={"packed": True}))
    assert refusal == "unit 10 has no action left this turn: its order is used up"
    # Recording any other state, or the state it already has, costs nothing.
    assert _spent(GAME.play(snap, EditUnit(unit_id=10, version=1, values={"packed": True})).changes) == []
    assert _spent(GAME.play(snapshot(packed), unpack).changes) == []  # set-up: nobody is ordered yet


def test_the_card_offers_to_pack_an_mg_and_limber_a_battery_by_their_flags() -> None:
    """An MG (or a light mortar) packs and unpacks, a battery limbers and unlimbers: the card's edit of the flag
    (the way it is not now), its action the pipeline's; a rifle platoon has neither, a stand off the table none."""
    by_id = {u.id: u for u in battalion(u10={"packed": True})}
    battery = replace(by_id[10], id=11, kind="field-battery", base="field-gun", state={"limbered": False})
    snap = snapshot((*by_id.values(), battery), turn=1)
    (unpack,) = PACKING.stand_edits(snap, 10)
    assert (unpack.label, unpack.field, unpack.unit_id) == ("Unpack", "packed", 10)
    assert [(c.value, c.label) for c in unpack.choices] == [(False, "Unpack")]
    assert unpack.why.startswith("Machineguns, Light Mortars and Artillery require 1 order")
    assert [(e.label, e.choices[0].value) for e in PACKING.stand_edits(snap, 11)] == [("Limber", True)]
    assert PACKING.stand_edits(snap, 4) == ()
    off = snapshot((*by_id.values(), replace(battery, off_table=True)), turn=1)
    assert PACKING.stand_edits(off, 11) == ()
    # Before its order roll, the unpacking is refused for want of an action, naming the order roll as remedy.
    (refused,) = GAME.forbidden(snap, EditUnit(unit_id=10, version=1, values={"packed": False}))
    assert refused == "unit 10 has no action left: roll its order first" and refused.remedy == "order-roll"
