"""Tables of organisation: every table builds the counts its chart and notes give."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.core.errors import NotFoundError, RulesError
from rules.flanders_fields.book.organisation import (
    ORGANISATION_TABLES,
    TABLES,
    Unit,
    build_force,
    build_template,
    count_units,
)
from rules.flanders_fields.book.table_sizes import BASES
from rules.flanders_fields.ruleset import FlandersFields


def n(unit: Unit, level: str, kind: str) -> int:
    return count_units(unit).get(level, {}).get(kind, 0)


# Expected counts per table at its default grade, stated from the charts (box counts quoted). Brigades or
# regiments per division: ORGANISATION "Comprising 2-4 (normally 3) regiments" (erratum
# org-infantry-formations-per-division).
EXPECTED: dict[str, dict[tuple[str, str], int]] = {
    # British 1914-15: "Infantry Battalion" x4 per brigade, "Infantry Company" x4, "Infantry Platoon 3 Fig
    # Stand" x4, "MMG Platoon 1 Vickers Model"; "3 Batteries Each with 1 x 18ld"; "Howitzer Brigade 3 Batteries";
    # "Heavy Battery 2 x 60ld Guns"; "Cavalry Squadron 4 Figs"
    "gb-1914": {
        ("brigade", "infantry-brigade"): 3,
        ("battalion", "infantry-battalion"): 12,
        ("company", "rifle-company"): 48,
        ("platoon", "rifle-platoon"): 192,
        ("platoon", "mmg"): 12,
        ("battery", "field-battery"): 3,
        ("battery", "howitzer-battery"): 3,
        ("battery", "heavy-battery"): 1,
        ("company", "cavalry-squadron"): 1,
    },
    # Late 1915-16 (default Raw: "Two thirds of all battalions must be classed as Raw"): four battalions, four
    # companies of four platoons, "LMG Platoon 4 Lewis", "Machine Gun Company 8 x Vickers MMG", "Light Mortar
    # Battery 4 x 3" Trench Mortar", "3 x Medium Trench Mortar Batteries", "Pioneer Battalion".
    "gb-1915": {
        ("brigade", "infantry-brigade"): 3,
        ("battalion", "infantry-battalion"): 12,
        ("battalion", "pioneer-battalion"): 1,
        ("company", "rifle-company"): 52,
        ("platoon", "rifle-platoon"): 208,
        ("platoon", "lmg"): 13,
        ("platoon", "mmg"): 8,
        ("platoon", "light-mortar"): 4,
        ("battery", "medium-mortar"): 3,
        ("battery", "heavy-mortar"): 1,
        ("battery", "field-battery"): 2,
        ("battery", "howitzer-battery"): 1,
    },
    # Spring 1917 (default Experienced): four battalions per brigade ("Most Empire Infantry Divisions lost their
    # fourth battalion ... early 1918"), "Pioneer Battalion (As Infantry Battalion)", four companies each
    # "reduced to three platoons" for Experienced troops; "Machine Gun Battalion" of four "MMG Company (4 Models)".
    "gb-1917": {
        ("brigade", "infantry-brigade"): 3,
        ("battalion", "infantry-battalion"): 12,
        ("battalion", "pioneer-battalion"): 1,
        ("battalion", "mmg-battalion"): 1,
        ("company", "rifle-company"): 52,
        ("platoon", "rifle-platoon"): 156,
        ("company", "mmg-company"): 4,
        ("platoon", "mmg"): 16,
    },
    # "This diagram is at a ratio of 3:1": three Tank Companies of four "Tank Section 1 Model".
    "gb-tank-battalion": {
        ("company", "tank-company"): 3,
        ("section", "tank"): 12,
        ("stand", "battalion-command"): 1,
    },
    # Three "Cavalry Squadron" of four "Cavalry Troop 2 Figs"; "MG Section 2 Vickers MGs".
    "gb-cavalry-regiment": {
        ("company", "cavalry-squadron"): 3,
        ("platoon", "cavalry-troop"): 12,
        ("platoon", "mmg"): 2,
        ("stand", "regiment-command"): 1,
    },
    # French 1914-15: three battalions, four companies of three platoons, "MMG Platoon 1 Hotchkiss"; three
    # "Field Artillery Group 4 x 75mm Field Guns".
    "fr-1914": {
        ("regiment", "infantry-regiment"): 3,
        ("battalion", "infantry-battalion"): 9,
        ("company", "rifle-company"): 36,
        ("platoon", "rifle-platoon"): 108,
        ("platoon", "mmg"): 9,
        ("battery", "field-battery"): 12,
    },
    # French 1917: "MMG Company 2 x Hotchkiss" per battalion, "Heavy Weapons Company 4 x Trench Mortars".
    "fr-1917": {
        ("regiment", "infantry-regiment"): 3,
        ("battalion", "infantry-battalion"): 9,
        ("company", "rifle-company"): 36,
        ("platoon", "rifle-platoon"): 108,
        ("platoon", "mmg"): 18,
        ("platoon", "light-mortar"): 12,
        ("battery", "field-battery"): 12,
    },
    # German 1914-15: "MMG Company 2 x Maxim"; two Field Artillery Regiments of two Groups, "3 Batteries Each
    # with 1 x 77mm Field Guns*", "*NB One group of one regiment comprises field howitzers".
    "de-1914": {
        ("regiment", "infantry-regiment"): 3,
        ("battalion", "infantry-battalion"): 9,
        ("company", "rifle-company"): 36,
        ("platoon", "rifle-platoon"): 108,
        ("platoon", "mmg"): 18,
        ("battery", "field-battery"): 9,
        ("battery", "howitzer-battery"): 3,
    },
    # German 1916-18: "MMG Company 2-4 Maxim" (low end, erratum org-chart-multiples); groups of "3 Batteries Each
    # with 2 Gun model"; "Heavy Weapons Platoon 2 x Granatenwerfer 1 x Light Minenwerfer".
    "de-1916": {
        ("regiment", "infantry-regiment"): 3,
        ("battalion", "infantry-battalion"): 9,
        ("company", "rifle-company"): 36,
        ("platoon", "rifle-platoon"): 108,
        ("platoon", "mmg"): 18,
        ("stand", "light-mortar"): 9,
        ("battery", "field-battery"): 6,
        ("battery", "howitzer-battery"): 3,
    },
    # Storm battalion: four companies of three platoons, two "MMG Company 3-6 Maxim", "Flamethrower Platoon 2-4",
    # "Field Gun Battery 1 x 76.2mm", "Mortar battery 2-4 76mm Mortars".
    "de-storm-battalion": {
        ("company", "rifle-company"): 4,
        ("platoon", "rifle-platoon"): 12,
        ("company", "mmg-company"): 2,
        ("platoon", "mmg"): 6,
        ("stand", "flamethrower"): 2,
        ("battery", "field-battery"): 1,
        ("platoon", "light-mortar"): 2,
    },
}


def test_every_table_is_checked() -> None:
    assert set(EXPECTED) == set(TABLES) == set(ORGANISATION_TABLES)
    assert len(TABLES) == 10


@pytest.mark.parametrize("table_id", sorted(EXPECTED))
def test_counts_per_table(table_id: str) -> None:
    force = build_force(table_id)
    for (level, kind), expected in EXPECTED[table_id].items():
        assert n(force, level, kind) == expected, (level, kind)


def test_british_1917_raw_keeps_four_platoons() -> None:
    # Only "Experienced and veteran units must have their infantry companies reduced to three platoons"
    raw = build_force("gb-1917", quality="raw")
    assert n(raw, "platoon", "rifle-platoon") == 52 * 4
    vet = build_force("gb-1917", quality="veteran")
    assert n(vet, "platoon", "rifle-platoon") == 52 * 3


def test_as_drawn_and_high_variants() -> None:
    drawn = build_force("gb-1917", variants={"org-infantry-formations-per-division": "as-drawn"})
    assert n(drawn, "battalion", "infantry-battalion") == 4  # one brigade box of four battalions
    fr = build_force("fr-1914", variants={"org-infantry-formations-per-division": "as-drawn"})
    assert n(fr, "regiment", "infantry-regiment") == 2  # "Infantry Regiment Infantry Regiment"
    high = build_force("de-storm-battalion", variants={"org-chart-multiples": "high"})
    assert n(high, "platoon", "mmg") == 12 and n(high, "stand", "flamethrower") == 4
    hq = build_force("gb-1914", variants={"org-chart-multiples": "high"}).children[0]
    assert hq.kind == "division-command" and hq.models == 5  # "Div HQ 4-5 Figs"


def test_models_and_quality() -> None:
    force = build_force("gb-1914", quality="veteran")
    stands = force.stands()
    platoon = next(s for s in stands if s.kind == "rifle-platoon")
    assert platoon.models == 3 and platoon.base == "infantry-platoon" and platoon.quality == "veteran"
    # "Crewed Weapons such as artillery, machineguns and mortars are always classed as Experienced"
    assert all(
        s.quality == "experienced" for s in stands if s.kind in ("mmg", "field-battery", "heavy-battery")
    )
    heavy = next(s for s in stands if s.kind == "heavy-battery")
    assert heavy.models == 2 and heavy.gun == "60pdr-field-gun"  # "Heavy Battery 2 x 60ld Guns"
    storm = build_force("de-storm-battalion")
    assert next(s for s in storm.stands() if s.kind == "rifle-platoon").quality == "storm"


def test_ids_unique_bases_known() -> None:
    for tid in TABLES:
        force = build_force(tid)
        ids = [u.id for u in force.walk()]
        assert len(ids) == len(set(ids))
        assert all(u.base in BASES for u in force.stands())
        assert all(u.base is None or not u.children for u in force.walk())


@pytest.mark.parametrize(
    ("table_id", "quality"),
    [("gb-1914", "raw"), ("de-storm-battalion", "veteran"), ("gb-tank-battalion", "veteran")],
)
def test_quality_the_text_forbids_is_refused(table_id: str, quality: str) -> None:
    # "all divisions are considered to be Experienced and up to half may be upgraded to Veteran"; storm troops
    # "always classed as Veteran"; tanks "Raw ... after which they may be upgraded to Experienced".
    with pytest.raises(RulesError) as err:
        build_force(table_id, quality=quality)
    assert err.value.field == "quality" and err.value.allowed


def test_unknown_table_and_template() -> None:
    with pytest.raises(NotFoundError):
        build_force("us-1918")
    with pytest.raises(RulesError) as err:
        build_template("gb-1914", "brigade", id_prefix="x")
    assert err.value.field == "template"


@given(st.sampled_from(sorted(TABLES)), st.data())
def test_every_grade_builds(table_id: str, data: st.DataObject) -> None:
    quality = data.draw(st.sampled_from(ORGANISATION_TABLES[table_id]["qualities"]))
    force = build_force(table_id, quality=quality, name="Test force")
    assert force.name == "Test force" and force.quality == quality
    assert all(u.quality in (quality, "experienced") for u in force.walk())


def test_datasets() -> None:
    rs = FlandersFields()
    listing = rs.data("organisation-tables")
    assert {t["id"] for t in listing} == set(TABLES)
    one = rs.data("organisation-gb-1917")
    assert one["nation"] == "british" and one["force"]["level"] == "division"
