"""A shot from the table attacks the stands of its area or its beaten zone in the same roll: each on its own
die, named with its modifiers, and what each result does carried out (issue 38, item 4)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.acts import Roll
from rules.core.errors import RulesError
from rules.core.records import Snapshot, UnitState
from rules.core.rolls import Rolled, work_out
from rules.flanders_fields.play.changes import SuppressionAdded, UnitKilled
from rules.registry import get_game_rules, get_ruleset
from tests.rules.flanders_fields.play.test_game_rules import DEFAULTS, stand, with_state

GAME = get_game_rules("flanders-fields")
RULESET = get_ruleset("flanders-fields")


def _head(uid: int, parent: int | None, level: str, kind: str, name: str) -> UnitState:
    return UnitState(uid, parent, "defender", level, kind, name, quality="experienced", state=DEFAULTS)


def _defender(uid: int, parent: int, x: float, y: float, **state: Any) -> UnitState:
    return stand(
        uid, parent, "rifle-platoon", x, y, side="defender", quality="experienced", facing_deg=270.0, **state
    )


def _table(*firers: UnitState, **board: Any) -> Snapshot:
    """Two defending companies: A Coy's platoon 21 at (60, 40), B Coy's 31 and 32 close behind it and 33 well
    behind; the firers are the attacker's."""
    units = (
        _head(1, None, "battalion", "infantry-battalion", "2nd Bn"),
        _head(2, 1, "company", "rifle-company", "A Coy"),
        _defender(21, 2, 60, 40),
        _defender(22, 2, 90, 40),
        _head(3, 1, "company", "rifle-company", "B Coy"),
        _defender(31, 3, 60, 45),
        _defender(32, 3, 60, 50),
        _defender(33, 3, 60, 70),
        *firers,
    )
    return Snapshot("flanders-fields", "early", units, 120.0, 180.0, turn=1, board=board)


def _shot(snap: Snapshot, firer: int, target: int, dice: list[int] | None, **fields: Any) -> Rolled:
    roll = Roll(resolver="shooting", fields=fields, dice=dice, unit_id=firer, target_id=target)
    return work_out(GAME, GAME.book.roll_terms, RULESET, snap, roll)


MG = stand(10, None, "mmg", 60, 10, base="heavy-mg", facing_deg=90.0)


def test_an_mg_rolls_its_target_and_two_stands_of_another_company_in_its_beaten_zone() -> None:
    # "Up to three targets in the beaten zone are also attacked but at -1 on the die roll for the first
    # target, -2 for the second etc." 31 and 32 lie within 15 cm of 21's rear edge; 33 does not.
    w = _shot(_table(MG), 10, 21, [2, 6, 6])
    also = w.resolution["also"]
    assert [(a["unit_id"], a["name"], a["die"]) for a in also] == [(31, "unit 31", 6), (32, "unit 32", 6)]
    assert [[(m["label"], m["value"]) for m in a["modifiers"]] for a in also] == [
        [("Beaten zone target 1", -1)],
        [("Beaten zone target 2", -2)],
    ]
    assert w.resolution["dice"] == [2, 6, 6] and w.resolution["outcome_key"] == "no-effect"
    assert [a["outcome"] for a in also] == ["killed", "suppressed"]  # soft cover: suppress 4, kill 5
    # One roll's changes: 31 destroyed, then 32's suppression spreads to the rest of B Coy (MG fire).
    hit = [(type(c), c.unit_id) for c in w.changes if isinstance(c, (UnitKilled, SuppressionAdded))]
    assert hit == [(UnitKilled, 31), (SuppressionAdded, 32), (SuppressionAdded, 33)]


BATTERY = stand(40, None, "field-battery", 60, 10, base="field-artillery", facing_deg=90.0)


def test_a_battery_rolls_every_stand_fully_or_partly_under_its_square_on_its_aiming_point() -> None:
    # The 10 cm square on (60, 45.5) runs y 40.5 to 50.5: 31 is fully under it, 21 and 32 only partly (-2),
    # 22 (x 90) and 33 (y 70) not at all. "Any infantry platoon or support weapon which falls fully with the
    # area of effect are attacked at full effect, if ... only partially ... it is attacked at -2".
    aimed = with_state(BATTERY, aiming_point=[60, 45.5])
    w = _shot(_table(aimed), 40, 31, [4, 6, 5])
    assert w.request.partial_template is False  # the target itself is fully under it
    also = w.resolution["also"]
    assert [(a["unit_id"], [(m["label"], m["value"]) for m in a["modifiers"]]) for a in also] == [
        (21, [("Only partly under the template", -2)]),
        (32, [("Only partly under the template", -2)]),
    ]
    assert w.resolution["dice"] == [4, 6, 5]
    rolled = {a["unit_id"]: a["outcome"] for a in also}
    assert (w.resolution["outcome_key"], rolled) == ("suppressed", {21: "suppressed", 32: "no-effect"})


def test_without_an_aiming_point_the_square_is_on_the_target_and_a_stand_outside_it_is_refused() -> None:
    w = _shot(_table(BATTERY), 40, 21, None)  # on 21: y 35 to 45, x 55 to 65 takes 31 partly
    assert [(a.unit_id, a.partial_template) for a in w.request.also] == [(31, True)]
    aimed = with_state(BATTERY, aiming_point=[60, 45.5])
    with pytest.raises(RulesError) as e:
        _shot(_table(aimed), 40, 33, None)
    assert e.value.field == "target_id" and e.value.allowed == [21, 31, 32]


def test_a_mortar_square_is_centred_on_its_target() -> None:
    # "Medium Mortars have an area of effect 4cm square centred on a single platoon base": 2 cm either side
    # of 31 (y 45) reaches 32's base (y 49.25) not at all and 21's (y 40.75) not at all.
    mortar = stand(50, None, "medium-mortar", 60, 10, base="support-weapon", facing_deg=90.0)
    w = _shot(_table(mortar), 50, 31, [3])
    assert w.request.also == [] and w.request.partial_template is False


def test_the_odds_are_the_first_targets_and_each_other_stand_has_its_own() -> None:
    w = _shot(_table(MG), 10, 21, [2, 6, 6])
    alone = RULESET.resolve("shooting", w.request.model_copy(update={"also": [], "dice": [2]})).as_dict()
    assert w.resolution["probabilities_exact"] == alone["probabilities_exact"]
    assert w.resolution["also"][1]["probabilities_exact"] == {"no-effect": "5/6", "suppressed": "1/6"}


def test_inside_a_game_the_table_names_the_stands_a_shot_also_attacks() -> None:
    with pytest.raises(RulesError) as e:
        _shot(_table(MG), 10, 21, None, also=[{"name": "anyone", "unit_id": 22}])
    assert e.value.field == "fields.also"


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"firer": "infantry", "also": [{"name": "b"}]}, "also"),
        (
            {"firer": "mg", "also": [{"name": f"b{i}", "beaten_zone_index": i + 1} for i in range(3)] * 2},
            "also",
        ),
        ({"firer": "mg", "also": [{"name": "b", "beaten_zone_index": 2}]}, "also.0.beaten_zone_index"),
        ({"firer": "field-gun", "also": [{"name": "b", "cover": "fortified"}]}, "also.0.cover"),
    ],
)
def test_the_resolver_refuses_other_stands_its_firer_cannot_attack(
    fields: dict[str, Any], field: str
) -> None:
    req = RULESET.resolvers["shooting"].Request.model_validate({"period": "early", "range_cm": 20, **fields})
    with pytest.raises(RulesError) as e:
        RULESET.resolve("shooting", req)
    assert e.value.field == field
