"""The Mons specimen game as its text sets it up (issue 38, item 7): "All artillery is limbered and all
machineguns start on pack animals" as the units' state, and "Reinforcements arrive on the table at the start
of turn two if a 6 is rolled on a die, on the next turn the roll is reduced to a 5, then a 4 etc. until they
arrive" served as a roll due at the start of each side's turn."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.core.acts import Roll
from rules.core.errors import RulesError
from rules.core.records import Snapshot
from rules.core.rolls import Rolled, work_out
from rules.flanders_fields.play.units import FIRER
from tests.rules.golden_play import start

MONS = start({"ruleset": "flanders-fields", "start": {"scenario": "mons-1914"}})


def test_every_battery_starts_limbered_and_every_mg_on_its_packs() -> None:
    units = MONS.snap.units
    batteries = [u for u in units if FIRER.get(u.kind) in ("field-gun", "field-howitzer")]
    mgs = [u for u in units if u.kind == "mmg"]
    assert len(batteries) == 10 and all(u.state["limbered"] for u in batteries)
    assert len(mgs) == 16 and all(u.state["packed"] for u in mgs)
    assert not any(u.state["limbered"] or u.state["packed"] for u in units if u not in batteries + mgs)


def _at(turn: int, side: str) -> Snapshot:
    return replace(MONS.snap, turn=turn, side_to_move=side)


def _dice_for(snap: Snapshot, unit_id: int, die: int, apply: bool = True) -> Rolled:
    roll = Roll(resolver="reinforcements", dice=[die], unit_id=unit_id, apply=apply)
    return work_out(MONS.rules, MONS.rules.book.roll_terms, MONS.ruleset, snap, roll)


def test_the_reinforcements_are_diced_for_from_turn_two_on_a_six_then_a_five() -> None:
    british = next(u for u in MONS.snap.units if u.side == "defender" and u.state["reinforcement_turn"])
    assert british.off_table and british.state["reinforcement_turn"] == 2
    assert not any("reinforcements" in n for n in MONS.rules.needs(_at(1, "defender"), "support-orders"))
    turn2 = _at(2, "defender")
    assert f"roll reinforcements for {british.name}: they arrive on a 6 or more" in (
        MONS.rules.needs(turn2, "support-orders")
    )
    missed = _dice_for(turn2, british.id or 0, 5)
    assert (missed.request.turns_diced, missed.resolution["outcome_key"]) == (1, "not-yet")
    after = turn2.after(missed.changes)
    assert after.unit(british.id or 0).off_table and not MONS.rules.needs(after, "support-orders")
    with pytest.raises(RulesError) as e:
        _dice_for(after, british.id or 0, 6)  # once a turn
    assert "this turn" in e.value.reason
    with pytest.raises(RulesError):
        _dice_for(replace(after, side_to_move="attacker"), british.id or 0, 6)  # at the start of its own turn
    turn3 = replace(after, turn=3)
    came = _dice_for(turn3, british.id or 0, 5)
    assert (came.request.turns_diced, came.resolution["outcome_key"]) == (2, "arrive")
    on_table = turn3.after(came.changes)
    under = [u for u in on_table.units if u.id == british.id or u.parent_id == british.id]
    assert under and not any(u.off_table for u in on_table.units if u.side == "defender")


def test_under_the_one_die_reading_a_sides_reinforcements_arrive_together() -> None:
    """Erratum reinforcement-roll-per: side: the Germans' two battalions share one die."""
    turn2 = replace(_at(2, "attacker"), variants={"reinforcement-roll-per": "side"})
    first, second = [u for u in turn2.units if u.side == "attacker" and u.state["reinforcement_turn"]]
    came = turn2.after(_dice_for(turn2, first.id or 0, 6).changes)
    assert not came.unit(first.id or 0).off_table and not came.unit(second.id or 0).off_table
    missed = turn2.after(_dice_for(turn2, first.id or 0, 2).changes)
    assert missed.unit(second.id or 0).off_table and not MONS.rules.needs(missed, "support-orders")
