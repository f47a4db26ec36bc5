"""Flanders Fields' fire plan drawn on the page's grid (its FirePlanTerms.marks): each template of fire where
it lands, each gas cloud as its side's own gas template, each rolling barrage a band across the table."""

from __future__ import annotations

import pytest

from rules.flanders_fields.play.rehearsal import plan_marks
from rules.registry import get_game_rules
from rules.table.frame import Table, grid_to_table

ITEMS = [
    {
        "id": "1",
        "kind": "bombardment",
        "arrival_turn": 2,
        "data": {"grid": [35, 166], "battery": "3", "turns": 2},
    },
    {
        "id": "2",
        "kind": "gas",
        "arrival_turn": 1,
        "data": {"grid": [60, 140], "gas": "offensive", "wind_deg": 90},
    },
    {
        "id": "3",
        "kind": "rolling-barrage",
        "arrival_turn": 3,
        "data": {"start_up_cm": 20, "duration_turns": 3, "halts": [2]},
    },
]


@pytest.mark.parametrize("side", ["attacker", "defender"])
def test_each_item_is_drawn_by_its_kind(side: str) -> None:
    table = Table()
    fire, gas, band = plan_marks(side, ITEMS, table)
    assert (fire.label, fire.kind, fire.template, fire.band) == ("T2", "bombardment", "artillery", None)
    assert fire.point == pytest.approx(grid_to_table(side, 35, 166, table))
    assert (gas.label, gas.kind, gas.template) == ("T1", "gas", f"gas-{side}")
    assert (band.label, band.kind, band.template) == ("barrage T3", "band", None)
    assert band.band is not None and band.band[1] - band.band[0] > 0
    assert band.point == (table.width_cm / 2, sum(band.band) / 2)


def test_the_rule_set_declares_its_drawing_and_its_rehearsal() -> None:
    terms = get_game_rules("flanders-fields").book.plan_terms
    assert terms.marks is plan_marks
    assert terms.rehearsal is not None and {"firers", "sos", "brigades"} <= set(terms.rehearsal.model_fields)
    earth = get_game_rules("2mm-earth-1418").book.plan_terms
    assert earth.marks is None and earth.rehearsal is None
