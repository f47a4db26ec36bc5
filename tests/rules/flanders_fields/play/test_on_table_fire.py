"""Planned fire of a battery standing on the table does not deviate (issue 53, finding 8): "When unobserved off
table artillery or ANY artillery delivered gas attack arrives roll a deviation dice" (ARTILLERY AIMING POINT -
DEVIATION). The fire plan names a battery as the board shows it ("1 Bty"): its arrival rolls no deviation, its
card lands where it was aimed, and the fire-plan rehearsal agrees, its assumptions saying so."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.core.records import PlanItem, Snapshot, UnitState
from rules.flanders_fields.errata import PLANNED_FIRE_DEVIATION
from rules.registry import get_game_rules
from tests.rules.flanders_fields.play.test_game_arrivals import DEFAULTS, UNITS

GAME = get_game_rules("flanders-fields")
NAMES = {30: "1 Bty"}  # as the board, the map and the fire plan show the battery
DATA = {"grid": [60, 120], "battery": "1 Bty", "turns": 1}
ITEM = PlanItem(5, "attacker", "aiming-point", 1, DATA)


def _snap(x: float | None) -> Snapshot:
    battery = UnitState(
        30, None, "attacker", "battery", kind="field-battery", name="18pdr Battery",
        base="field-artillery", x=x, y=None if x is None else 5.0, state=dict(DEFAULTS),
    )  # fmt: skip
    return Snapshot("flanders-fields", "early", (*UNITS, battery), 120.0, 180.0, turn=1)


def test_a_battery_on_the_table_named_as_the_plan_shows_it_rolls_no_deviation() -> None:
    on_table, off_table = _snap(60.0), _snap(None)
    assert GAME._arrival_dice(on_table, ITEM, NAMES) == ()
    assert GAME._arrival_dice(off_table, ITEM, NAMES) == (6, 6, 6, 6, 6)
    # Its card: fired where it was aimed, as the battery on the table.
    landed = GAME._arrival(on_table, ITEM, ())
    snap = replace(on_table, board=dict(landed.board))
    (card,) = GAME.arrival_cards(snap, NAMES)
    assert card.lands == card.aimed == (60.0, 120.0) and card.deviation == {}
    assert card.stands[0].request["firer"] == "field-gun"


def _rehearsed(snap: Snapshot) -> dict[str, Any]:
    items = [{"id": ITEM.id, "kind": ITEM.kind, "arrival_turn": 1, "data": DATA}]
    options = {"firers": {}, "sos": [], "brigades": {}}
    return GAME._rehearse(snap, "attacker", items, NAMES, options, 1, 1, 1)


def test_the_rehearsal_agrees_with_the_arrival() -> None:
    on_table, off_table = _rehearsed(_snap(60.0)), _rehearsed(_snap(None))
    planned = replace(_snap(60.0), variants={PLANNED_FIRE_DEVIATION: "pre-registered"})
    # On the table: as if no fire deviated; off the table it deviates.
    (turn,), (unobserved,) = on_table["turn_by_turn"], off_table["turn_by_turn"]
    assert [v["deviates"] for v in turn["volleys"]] == [False]
    assert [v["deviates"] for v in unobserved["volleys"]] == [True]
    assert turn["stands"] == _rehearsed(planned)["turn_by_turn"][0]["stands"] != unobserved["stands"]
    said = " ".join(on_table["assumptions"])
    assert (
        "the batteries the plan names that stand on the table (items 5), are not off-table artillery" in said
    )
    assert "(items 5)" not in " ".join(off_table["assumptions"])
