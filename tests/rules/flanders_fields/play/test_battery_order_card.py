"""Who rolls a battery's artillery action die, on its stand card: the battery itself, or under the reading
"one roll for a brigade's artillery" (erratum artillery-roll-per: brigade) its artillery group (issue 38,
item 5)."""

from __future__ import annotations

from dataclasses import replace

from rules.core.acts import Roll
from rules.core.game import Position
from rules.core.records import Snapshot, StandAct, UnitState
from rules.core.rolls import work_out
from rules.registry import get_game_rules, get_ruleset
from tests.rules.flanders_fields.play.test_game_rules import DEFAULTS

GAME = get_game_rules("flanders-fields")


def _unit(uid: int, parent: int | None, level: str, kind: str, x: float | None = None) -> UnitState:
    base = "field-artillery" if x is not None else None
    y = None if x is None else 2.2
    return UnitState(uid, parent, "attacker", level, kind, f"unit {uid}", base=base, x=x, y=y, state=DEFAULTS)


UNITS = (
    _unit(1, None, "regiment", "infantry-regiment"),
    _unit(2, 1, "battalion", "field-artillery-group"),
    _unit(3, 2, "battery", "field-battery", 10.0),
    _unit(4, 2, "battery", "howitzer-battery", 20.0),
)


def _order_roll(snap: Snapshot, unit_id: int) -> tuple[int, str]:
    (act,) = [
        a for a in GAME.stand_card(snap, unit_id) if isinstance(a, StandAct) and a.label == "Order roll"
    ]
    return act.unit_id, act.why


def test_each_battery_rolls_for_itself_by_default_and_its_group_rolls_under_the_brigade_reading() -> None:
    snap = Snapshot("flanders-fields", "early", UNITS, 120.0, 180.0, turn=1)
    assert _order_roll(snap, 3) == (3, "") and _order_roll(snap, 4) == (4, "")
    brigade = replace(snap, variants={"artillery-roll-per": "brigade"})
    assert _order_roll(brigade, 3) == (2, "unit 3 takes the order roll of unit 2")
    assert _order_roll(brigade, 4)[0] == 2


def test_the_groups_order_roll_is_rolled_as_regimental_artillery() -> None:
    snap = Snapshot(
        "flanders-fields", "early", UNITS, 120.0, 180.0, turn=1, variants={"artillery-roll-per": "brigade"}
    )
    roll = Roll(resolver="order-roll", dice=[6], unit_id=2)
    w = work_out(GAME, GAME.book.roll_terms, get_ruleset("flanders-fields"), snap, roll)
    assert w.request.unit == "regimental-artillery"
    assert [(c.unit_id, c.field) for c in w.changes] == [(2, "actions_left"), (2, "ordered_turn")]


def test_the_reading_changes_who_rolls_not_when() -> None:
    """ "III. Individual Regimental/Brigade Artillery" is rolled in the support orders (1914 sheet step 1, later
    sheets step 5) under either reading of erratum artillery-roll-per (issue 53, finding 9): the group rolling
    for its batteries is refused in the battalion orders, as a battery rolling for itself is."""
    for period, support, battalion in (("early", 0, 1), ("mid", 4, 5), ("late", 4, 5)):
        for reading, roller in (("battery", 3), ("brigade", 2)):
            snap = Snapshot(
                "flanders-fields",
                period,
                UNITS,
                120.0,
                180.0,
                turn=1,
                variants={"artillery-roll-per": reading},
            )
            roll = Roll(resolver="order-roll", dice=[6], unit_id=roller)

            def refused(step: int, snap: Snapshot = snap, roll: Roll = roll) -> object:
                return GAME.roll_refusal("playing", snap, Position(1, "attacker", step), roll, "attacker")

            assert refused(support) is None, (period, reading)
            assert refused(battalion) is not None, (period, reading)
