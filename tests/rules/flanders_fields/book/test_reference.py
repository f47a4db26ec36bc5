"""Reference data: ranges, arcs, priority, tanks, block houses, template areas, artillery allowances,
formations, each against the rule book's lines."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rules.flanders_fields.book import reference as ref
from rules.flanders_fields.book.table_sizes import TEMPLATES
from rules.flanders_fields.ruleset import FlandersFields


def test_weapon_ranges() -> None:
    r = ref.weapon_ranges()
    # "Machine Guns 70cm (Beaten Zone 15cm)", "Infantry & LMGs 45cm", "Tanks 30cm",
    # "Mortars (All Types) 10 (Min)-100cm (Max)", "Artillery (Open Sights) 200cm", "Flamethrowers 5cm"
    assert (r["machine-gun"]["max_cm"], r["machine-gun"]["beaten_zone_cm"]) == (70, 15)
    assert r["infantry-lmg"]["max_cm"] == 45 and r["tank"]["max_cm"] == 30
    assert (r["mortar"]["min_cm"], r["mortar"]["max_cm"]) == (10, 100)
    assert r["artillery-open-sights"]["max_cm"] == 200 and r["flamethrower"]["max_cm"] == 5
    # "reduced range of 45cm" (BLOCK HOUSES) against "Block Houses 50cm (Beaten Zone 10cm)" (WEAPON RANGES)
    assert r["block-house"]["max_cm"] == 45 and r["block-house"]["beaten_zone_cm"] == 10
    assert ref.weapon_ranges({"blockhouse-range": "weapon-ranges"})["block-house"]["max_cm"] == 50
    assert ref.block_houses({"blockhouse-range": "weapon-ranges"})["max_range_cm"] == 50


def test_arcs_and_priority() -> None:
    a = ref.ARCS_OF_FIRE
    # "Straight ahead the width of the unit plus 10cm on each side." / mortars "plus 5cm on each side"
    assert (
        a["infantry-lmg"]["extra_each_side_cm"] == 10
        and a["field-heavy-artillery"]["extra_each_side_cm"] == 10
    )
    assert a["mortar"]["extra_each_side_cm"] == 5 and a["mortar"]["may_reface"]["heavy"] is False
    # "MACHINE GUNS 45o Arc, fire zone is 2cm wide, up to 3 targets"
    assert (
        a["machine-gun"]["arc_deg"],
        a["machine-gun"]["fire_zone_width_cm"],
        a["machine-gun"]["max_targets"],
    ) == (45, 2, 3)
    p = ref.TARGET_PRIORITY
    # "2. Any enemy in arc within 15cm. 3. Enemy straight ahead within 30cm."
    assert [x["rank"] for x in p] == [1, 2, 3, 4]
    assert p[1]["within_cm"] == 15 and p[2]["within_cm"] == 30


def test_tank_types() -> None:
    t = ref.TANK_TYPES
    assert set(t) == {"british-male", "british-female", "whippet", "st-chamond", "renault", "a7v"}
    assert all(x.max_range_cm == 30 for x in t.values())
    # "May NOT Move and fire" (male, St Chamond, A7V); "May Move and fire" (female, Whippet; Renault LMG once)
    assert [t[k].move_and_fire for k in ("british-male", "st-chamond", "a7v")] == [False] * 3
    assert [t[k].move_and_fire for k in ("british-female", "whippet", "renault")] == [True] * 3
    # "-1 to fire effect if moved"
    assert t["british-female"].move_fire_penalty == -1 and t["whippet"].move_fire_penalty == -1
    # "May engage up to 2 targets to flanks or front"; Whippet "1 targets to each side, and front"
    assert sum(x["count"] for x in t["british-male"].targets) == 2
    assert sum(x["count"] for x in t["whippet"].targets) == 3
    assert t["whippet"].weight_class == "light" and t["a7v"].weight_class == "heavy"


def test_template_areas_use_the_geometry_templates() -> None:
    areas = ref.template_areas()
    assert set(areas) == set(TEMPLATES)
    # "a rectangle 10x10cm"; "SOS ... 10cm wide by 5cm deep"; mortars "3cm", "4cm", "5cm square"; MG "2x10cm"
    assert (areas["artillery"]["width_cm"], areas["artillery"]["depth_cm"]) == (10, 10)
    assert (areas["sos"]["width_cm"], areas["sos"]["depth_cm"]) == (10, 5)
    assert [areas[k]["width_cm"] for k in ("light-mortar", "medium-mortar", "heavy-mortar")] == [3, 4, 5]
    assert (areas["mg-indirect"]["width_cm"], areas["mg-indirect"]["depth_cm"]) == (2, 10)
    # "bases not fully covered by the blast template are attacked at -2"
    assert (
        areas["medium-mortar"]["partial_modifier"] == -2 and areas["heavy-mortar"]["partial_modifier"] == -2
    )
    assert areas["artillery"]["partial_modifier"] == -2
    assert areas["light-mortar"]["partial_modifier"] == 0
    assert (
        ref.template_areas({"light-mortar-partial": "general-rule"})["light-mortar"]["partial_modifier"] == -2
    )
    # "A Rolling Barrage covers an area 20cm wide"; "There is a danger area 6cm behind the RB"
    assert areas["rolling-barrage"]["depth_cm"] == 20 and areas["rolling-barrage"]["danger_zone_cm"] == 6


@given(st.integers(min_value=1, max_value=4), st.booleans())
def test_artillery_allowances(regiments: int, division: bool) -> None:
    # "each Regiment may be allocated a Superimposed Field battery and a further heavy battery ... for every two
    # regiments/brigades. A single Super Heavy battery may be allocated if a game is played using an entire
    # division."
    s = ref.superimposed_allowance(regiments, division)
    assert s["field"] == regiments and s["heavy"] == regiments // 2 and s["super_heavy"] == int(division)
    # "about one brigade of field artillery per regiment and one brigade of heavy artillery per two Regiments"
    d = ref.defending_allowance(regiments)
    assert d == {"field_brigades": regiments, "heavy_brigades": regiments // 2, "super_heavy": 0}


def test_formations() -> None:
    # "RAW troops must maintain contact ..., EXPERIENCED ... up to 5cm ..., Veteran ... up to 10cm";
    # "All Storm troop battalions are veteran."
    assert ref.formations()["max_gap_cm"] == {"raw": 0, "experienced": 5, "veteran": 10, "storm": 10}


def test_datasets_registered() -> None:
    rs = FlandersFields()
    for name in (
        "weapon-ranges",
        "arcs-of-fire",
        "target-priority",
        "tank-types",
        "block-houses",
        "template-areas",
        "artillery-allowances",
        "formations",
    ):
        assert rs.data(name)
    assert rs.data("artillery-allowances")["superimposed"]["from_period"] == "late"
