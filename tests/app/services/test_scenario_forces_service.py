"""A new scenario's forces in the browser's draft (issue 67; app.services.scenario_forces): a formation from an
organisation table or a chart of troops copied in under fresh ids, graded where its table allows (crewed weapons
keep their own), named, regraded, renamed and removed, a refusal naming its field; the format's cap of units held."""

from __future__ import annotations

from typing import Any

import pytest

from app.services import scenario_drafts as drafts
from app.services import scenario_forces as forces
from rules.core import scenario as S
from rules.core.errors import RulesError

FF = "flanders-fields"


def units(unit: dict[str, Any]) -> list[dict[str, Any]]:
    return list(forces.walk(unit))


def test_a_table_s_box_is_copied_under_fresh_ids_graded_but_its_guns_and_named() -> None:
    doc = drafts.empty_document(FF)
    offered = forces.choices(FF, "gb-1915")
    assert offered[0].label.endswith("(division, 257 stands)")  # the largest first
    labels = [c.label for c in offered]
    assert len(labels) == len(set(labels)) and any(
        c.label.startswith("Infantry Brigade (brigade") for c in offered
    )
    brigade = next(c.id for c in offered if c.label.startswith("Infantry Brigade"))
    first = forces.add_from_table(FF, doc, "defender", "gb-1915", brigade, "raw", "1st Brigade")
    again = forces.add_from_table(FF, doc, "defender", "gb-1915", brigade, None, "")
    assert first["id"] == f"defender-1/{brigade}" and again["id"] == f"defender-2/{brigade}"
    assert first["name"] == "1st Brigade" and again["name"].startswith("Infantry Brigade")
    grades = {
        (u["kind"] in forces.crewed_kinds(FF) or bool(u.get("gun")), u["quality"]) for u in units(first)
    }
    assert (False, "raw") in grades and (True, "raw") not in grades  # a crewed weapon keeps its own grade
    assert all(u["placement"] is None and u["off_table"] is False for u in units(first))
    assert doc["sides"]["defender"]["forces"] == [first, again]

    forces.regrade(FF, doc, again["id"], "veteran")
    forces.rename(doc, again["id"], "2nd Brigade")
    assert again["name"] == "2nd Brigade" and ("veteran" in {u["quality"] for u in units(again)})
    assert forces.remove(doc, first["id"]) == "1st Brigade" and doc["sides"]["defender"]["forces"] == [again]
    for call, field in (
        (lambda: forces.add_from_table(FF, doc, "attacker", "xx-1900", brigade, None, ""), "table"),
        (lambda: forces.add_from_table(FF, doc, "attacker", "gb-1915", "no-such-box", None, ""), "formation"),
        (lambda: forces.add_from_table(FF, doc, "attacker", "gb-1915", brigade, "legendary", ""), "quality"),
        (lambda: forces.regrade(FF, doc, again["id"], "legendary"), "quality"),
        (lambda: forces.remove(doc, "attacker-9"), "formation"),
    ):
        with pytest.raises(RulesError) as refused:
            call()
        assert refused.value.field == field


def test_a_chart_s_formation_and_the_draft_s_cap_of_units(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = drafts.empty_document("2mm-earth-1418")
    entry = {
        "quality": "elite",
        "sub_units": [{"kind": "line-inf", "bases": 3}, {"kind": "command", "bases": 1}],
    }
    built = forces.add_from_chart("2mm-earth-1418", doc, "attacker", entry)
    assert built["id"] == "attacker-1" and built["quality"] == "elite" and forces.stands_of(built) == 4
    assert all(u["id"] == "attacker-1" or u["id"].startswith("attacker-1/") for u in units(built))
    with pytest.raises(RulesError) as refused:
        forces.add_from_chart(
            "2mm-earth-1418", doc, "attacker", {"sub_units": [{"kind": "ogres", "bases": 1}]}
        )
    assert refused.value.field == "sub_units.0.kind"
    monkeypatch.setattr(S, "MAX_UNITS", len(units(built)) + 1)
    with pytest.raises(RulesError) as capped:
        forces.add_from_chart("2mm-earth-1418", doc, "attacker", entry)
    assert capped.value.field == "formation" and len(doc["sides"]["attacker"]["forces"]) == 1


def test_a_formation_s_deployment_is_kept_each_stand_placed_or_not_and_refused_by_name() -> None:
    """Placements are made on the map (scenario-deploy.js) and kept in the draft: a reload keeps them, and taking
    the panel's forces back after a later add keeps them too."""
    doc = drafts.empty_document(FF)
    unit = forces.add_from_table(FF, doc, "defender", "gb-1915", "gb-1915/mmg-company-1", None, "")
    first, second, *_ = [u["id"] for u in forces.walk(unit) if u.get("base")]
    forces.deploy(doc, unit["id"], False, {first: (10.0, 20.0, 270.0)})
    placed = {
        u["id"]: u["placement"] for u in forces.walk(doc["sides"]["defender"]["forces"][0]) if u.get("base")
    }
    assert placed[first] == {"center": [10.0, 20.0], "facing_deg": 270.0} and placed[second] is None
    for sent, field in (({"nobody": (1.0, 1.0, 0.0)}, "stand"), ({second: (121.0, 1.0, 0.0)}, "x")):
        with pytest.raises(RulesError) as e:
            forces.deploy(doc, unit["id"], False, sent)
        assert e.value.field == field
    forces.deploy(doc, unit["id"], True, {second: (5.0, 5.0, 90.0)})  # off the table: none placed
    held = doc["sides"]["defender"]["forces"][0]
    assert held["off_table"] is True and all(u.get("placement") is None for u in forces.walk(held))
