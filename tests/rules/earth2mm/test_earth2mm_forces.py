"""2mm Earth 1418's forces built from its characteristics chart (an SF of sub-units of bases, each base of its
chart kind) and its terrain classes as its table kit offers them to the scenario editor."""

from __future__ import annotations

import pytest

from rules.core.errors import RulesError
from rules.core.forces import document_units
from rules.earth2mm.data import COVER, UNIT_IDS
from rules.earth2mm.play.kit import KIT
from rules.earth2mm.play.table import CLASS_OF_KIND, TERRAIN_CLASSES
from rules.registry import get_game_rules

CHART = get_game_rules("2mm-earth-1418").book.force_chart


def test_an_sf_is_built_of_sub_units_each_of_bases_of_its_kind() -> None:
    assert CHART is not None and [k.id for k in CHART.kinds] == list(UNIT_IDS)
    entry = {
        "name": "1st Bn",
        "quality": "elite",
        "sub_units": [{"kind": "line-inf", "bases": 3, "name": "A Coy"}, {"kind": "machineguns", "bases": 2}],
    }
    sf = document_units(CHART.build(entry, "", "gb-1"))
    assert (sf["name"], sf["level"], sf["kind"], sf["quality"], sf["base"]) == (
        "1st Bn",
        "battalion",
        "formation",
        "elite",
        None,
    )
    a, mg = sf["children"]
    assert (a["name"], a["level"], a["kind"], a["base"]) == ("A Coy", "company", "line-inf", None)
    assert mg["name"] == "Machineguns x1/2 (sub-unit 2)"
    # Each base stands on the kit's base of its kind, so the table, its shots and its circles see it.
    assert [(b["id"], b["level"], b["base"]) for b in mg["children"]] == [
        ("gb-1/2/1", "platoon", "machineguns"),
        ("gb-1/2/2", "platoon", "machineguns"),
    ]
    assert all(b["base"] in KIT.bases for b in a["children"]) and len(a["children"]) == 3
    assert "STRATEGIC FORMATIONS" in sf["source"] and "Line/good inf" in a["source"]


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ({"sub_units": []}, "f.sub_units"),
        ({"sub_units": [{"kind": "line-inf", "bases": 1}] * 13}, "f.sub_units"),
        ({"sub_units": [{"kind": "rifles", "bases": 2}]}, "f.sub_units.0.kind"),
        (
            {"sub_units": [{"kind": "line-inf", "bases": 2}, {"kind": "line-inf", "bases": 13}]},
            "f.sub_units.1.bases",
        ),
        ({"quality": "veteran", "sub_units": [{"kind": "line-inf", "bases": 2}]}, "f.quality"),
    ],
)
def test_an_entry_the_chart_does_not_build_is_refused_naming_its_field(entry: dict, field: str) -> None:
    assert CHART is not None
    with pytest.raises(RulesError) as refused:
        CHART.build(entry, "f", "x")
    assert refused.value.field == field


def test_a_base_added_by_hand_stands_on_its_kinds_base_and_nothing_else_does() -> None:
    assert CHART is not None
    assert CHART.base_of("platoon", "mother-tank") == "mother-tank"
    assert CHART.base_of("company", "mother-tank") is None
    assert CHART.base_of("platoon", "formation") is None


def test_the_kit_offers_each_terrain_class_with_its_cover_and_the_kinds_of_it() -> None:
    classes = {c.id: c for c in KIT.terrain_classes}
    assert tuple(classes) == TERRAIN_CLASSES
    # "Rough -2R -1R +1R" and "Moving from or in rough terrain = (-25% distance)".
    assert classes["rough"].text == "Rough: moving -2R, stationary -1R, dug in +1R; moves -25% distance."
    assert COVER["rough"] == (-2, -1, 1)
    assert "not on the cover table" in classes["road"].text and "+25%" in classes["road"].text
    assert {k for c in classes.values() for k in c.kinds} == set(CLASS_OF_KIND)
