"""The Vimy Ridge and 2mm Earth 1418 rules added for issue 17 over HTTP: answers with exact odds, 422s naming
the field for what the rules do not allow, the errata listed with both readings, and each resolver's
lookup form rendered from its request schema and answering a POST."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import _sqlite_clone, make_client

VIMY = "/api/v1/rulesets/vimy-ridge"
EARTH = "/api/v1/rulesets/2mm-earth-1418"


@pytest.fixture(scope="module")
def api(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One migrated SQLite app for the module: these lookups store nothing."""
    var_dir = tmp_path_factory.mktemp("vimy_2mm")
    with make_client(_sqlite_clone(sqlite_template, var_dir), var_dir) as c:
        yield c


NEW_ERRATA = {
    "vimy-ridge": {
        "la-folie-woods-bombardment",
        "zero-hour",
        "los-no-mans-land",
        "german-replacement-zoc",
        "artillery-track",
    },
    "2mm-earth-1418": {"dug-in-artillery", "reroll-shooters", "mixed-artillery-mean", "gas-duration"},
}


@pytest.mark.parametrize("ruleset", sorted(NEW_ERRATA))
def test_errata_are_listed_with_both_readings_and_a_default(api: TestClient, ruleset: str) -> None:
    errata = {e["id"]: e for e in api.get(f"/api/v1/rulesets/{ruleset}").json()["errata"]}
    assert NEW_ERRATA[ruleset] <= set(errata)
    for eid in NEW_ERRATA[ruleset]:
        readings = errata[eid]["readings"]
        assert len(readings) == 2 and errata[eid]["default"] in {r["id"] for r in readings}
        assert all(r["source"] and r["text"] for r in readings)


@pytest.mark.parametrize(
    ("path", "body", "key", "odds"),
    [
        (
            f"{VIMY}/observation",
            {"observing_side": "allied", "distance_hexes": 5, "intervening": {"woods": True}},
            "not observed",
            {"not observed": "1/1"},
        ),
        (
            f"{VIMY}/observation",
            {
                "observing_side": "german",
                "distance_hexes": 5,
                "observer_on": "peak",
                "intervening": {"woods": True},
            },
            "observed",
            {"observed": "1/1"},
        ),
        (
            f"{VIMY}/zone-of-control",
            {"across_trench_hexside": True, "hex_holds_opposing_unit": True},
            "inhibited",
            {"inhibited": "1/1"},
        ),
        (
            f"{VIMY}/trench-hexside",
            {"across_trench_hexside": True, "hex_terrain": "hill"},
            "Trench hexside, Woods",
            {"Trench hexside, Woods": "1/1"},
        ),
        (
            f"{VIMY}/set-up",
            {
                "side": "german",
                "trench_line_side": "east",
                "german_division": "16th Bavarian",
                "units_south_79th_reserve": True,
            },
            "allowed",
            {"allowed": "1/1"},
        ),
        (f"{VIMY}/divisional-integrity", {"attacking_units": 2}, "allowed", {"allowed": "1/1"}),
        (
            f"{VIMY}/support-fire-draw",
            {"side": "german", "allotted": 2, "mix": "1,2,3", "dice": [3, 1]},
            "1+3",
            {"1+2": "1/3", "1+3": "1/3", "2+3": "1/3"},
        ),
        (
            f"{VIMY}/replacement",
            {"side": "german", "turn": 6, "depleted_units_returned": 2, "arrival": "east-edge"},
            "allowed",
            {"allowed": "1/1"},
        ),
        (
            f"{EARTH}/line-of-sight",
            {
                "shooter": "line-inf",
                "bases": 3,
                "bases_with_direct_line": 3,
                "cloud_across_lines": "transparent-gas",
                "target_resilience": 4,
            },
            "shoot",
            {"shoot": "1/1"},
        ),
        (
            f"{EARTH}/gas-cloud",
            {"gas": "short-term", "bounds_since_laid": 3, "variants": {"gas-duration": "three-bounds"}},
            "dispersed",
            {"dispersed": "1/1"},
        ),
        (
            f"{EARTH}/mixed-artillery",
            {"field_guns": 3, "howitzers_120": 1, "bases_firing": 4},
            "shots",
            {"shots": "1/1"},
        ),
        (
            f"{EARTH}/transport-bonus",
            {"unit": "line-inf", "command_bases_left": 0},
            "bonus lost",
            {"bonus lost": "1/1"},
        ),
        (
            f"{EARTH}/injury-movement",
            {"under_fire_from": "different-shooter", "resilience": 4, "dice": [5]},
            "halved",
            {"halved": "1/3", "restored": "2/3"},
        ),
        (
            f"{EARTH}/shoot",
            {
                "shooter": "mounted-rifles",
                "bases": 2,
                "target": "whippets",
                "target_bases": 2,
                "variants": {"reroll-shooters": "infantry-and-heavy-weapons"},
                "dice": [5],
            },
            "1 hit",
            {"0 hits": "1/3", "1 hit": "2/3"},
        ),
    ],
)
def test_resolvers_answer_with_exact_odds(
    api: TestClient, path: str, body: dict[str, Any], key: str, odds: dict[str, str]
) -> None:
    r = api.post(path, json=body)
    assert r.status_code == 200, r.text
    assert r.json()["outcome_key"] == key
    assert r.json()["probabilities_exact"] == odds
    assert r.json()["sources"]


@pytest.mark.parametrize(
    ("path", "body", "loc"),
    [
        (
            f"{VIMY}/observation",
            {"observing_side": "german", "distance_hexes": 2, "aircraft_over_or_adjacent": True},
            ["body", "aircraft_over_or_adjacent"],
        ),
        (
            f"{VIMY}/observation",
            {"observing_side": "allied", "distance_hexes": 0},
            ["body", "distance_hexes"],
        ),
        (
            f"{VIMY}/trench-hexside",
            {"across_trench_hexside": True, "defender_in_no_mans_land": True},
            ["body", "across_trench_hexside"],
        ),
        (f"{VIMY}/set-up", {"side": "allied", "trench_line_side": "east"}, ["body", "trench_line_side"]),
        (
            f"{VIMY}/set-up",
            {
                "side": "german",
                "trench_line_side": "east",
                "north_of_river_line": True,
                "german_division": "79th Reserve",
            },
            ["body", "north_of_river_line"],
        ),
        (
            f"{VIMY}/set-up",
            {
                "side": "german",
                "trench_line_side": "east",
                "german_division": "16th Bavarian",
                "units_north_79th_reserve": True,
            },
            ["body", "units_north_79th_reserve"],
        ),
        (
            f"{VIMY}/divisional-integrity",
            {"attacking_units": 3, "divisions_among_attackers": 2},
            ["body", "divisions_among_attackers"],
        ),
        (
            f"{VIMY}/support-fire-draw",
            {"side": "allied", "allotted": 1, "target_in_la_folie_woods": True},
            ["body", "target_in_la_folie_woods"],
        ),
        (
            f"{VIMY}/support-fire-draw",
            {"side": "german", "allotted": 4, "mix": "1,2,3"},
            ["body", "allotted"],
        ),
        (f"{VIMY}/support-fire-draw", {"side": "german", "allotted": 1, "mix": "1;2"}, ["body", "mix"]),
        (f"{VIMY}/replacement", {"side": "allied", "turn": 2, "units_rebuilt": 1}, ["body", "turn"]),
        (
            f"{VIMY}/replacement",
            {
                "side": "allied",
                "turn": 3,
                "depleted_units_returned": 1,
                "arrival": "allied-trench-hex",
                "arrival_in_enemy_zoc": True,
            },
            ["body", "arrival_in_enemy_zoc"],
        ),
        (
            f"{VIMY}/bombardment",
            {
                "bombarding_side": "german",
                "la_folie_woods": True,
                "turn": 2,
                "variants": {"la-folie-woods-bombardment": "all-bombardment"},
            },
            ["body", "la_folie_woods"],
        ),
        (
            f"{VIMY}/bombardment",
            {
                "bombarding_side": "allied",
                "gas": True,
                "turn": 1,
                "variants": {"zero-hour": "no-turn-1-bombardment"},
            },
            ["body", "turn"],
        ),
        (
            f"{EARTH}/line-of-sight",
            {
                "shooter": "line-inf",
                "bases": 3,
                "bases_with_direct_line": 0,
                "target_resilience": 4,
                "posture": "digging",
                "overwatch": True,
            },
            ["body", "overwatch"],
        ),
        (
            f"{EARTH}/line-of-sight",
            {"shooter": "line-inf", "bases": 2, "bases_with_direct_line": 3, "target_resilience": 4},
            ["body", "bases_with_direct_line"],
        ),
        (f"{EARTH}/mixed-artillery", {"field_guns": 2, "bases_firing": 3}, ["body", "bases_firing"]),
        (f"{EARTH}/transport-bonus", {"unit": "field-guns"}, ["body", "unit"]),
        (f"{EARTH}/gas-cloud", {"gas": "smoke", "transparent": True}, ["body", "transparent"]),
        (
            f"{EARTH}/resilience",
            {"unit": "howitzers-120", "cover": {"posture": "dug-in"}},
            ["body", "cover", "posture"],
        ),
    ],
)
def test_what_the_rules_do_not_allow_is_422_naming_the_field(
    api: TestClient, path: str, body: dict[str, Any], loc: list[Any]
) -> None:
    r = api.post(path, json=body)
    assert r.status_code == 422, r.text
    assert r.json()["errors"][0]["loc"][: len(loc)] == loc


# The lookup form of each new resolver: a field it must show, and a form POST with its expected answer.
FORMS = [
    (
        "vimy-ridge",
        "observation",
        "intervening.woods",
        {"observing_side": "allied", "distance_hexes": "4", "intervening.woods": "true"},
        "not observed",
    ),
    (
        "vimy-ridge",
        "zone-of-control",
        "across_trench_hexside",
        {"across_trench_hexside": "true", "hex_holds_opposing_unit": "true"},
        "inhibited",
    ),
    (
        "vimy-ridge",
        "trench-hexside",
        "hex_terrain",
        {"across_trench_hexside": "true", "hex_terrain": "woods"},
        "Trench hexside, Woods",
    ),
    ("vimy-ridge", "set-up", "trench_line_side", {"side": "allied", "trench_line_side": "west"}, "allowed"),
    (
        "vimy-ridge",
        "divisional-integrity",
        "divisions_among_attackers",
        {"attacking_units": "3", "divisions_among_attackers": "1"},
        "allowed",
    ),
    (
        "vimy-ridge",
        "support-fire-draw",
        "mix",
        {"side": "german", "allotted": "1", "mix": "1,2,3", "dice.0": "2"},
        "2",
    ),
    (
        "vimy-ridge",
        "replacement",
        "arrival",
        {"side": "allied", "turn": "3", "units_rebuilt": "2"},
        "allowed",
    ),
    (
        "2mm-earth-1418",
        "line-of-sight",
        "overwatch",
        {
            "shooter": "line-inf",
            "bases": "3",
            "bases_with_direct_line": "0",
            "target_resilience": "4",
            "overwatch": "true",
        },
        "overwatch",
    ),
    (
        "2mm-earth-1418",
        "gas-cloud",
        "bounds_since_laid",
        {"gas": "short-term", "bounds_since_laid": "1"},
        "present",
    ),
    (
        "2mm-earth-1418",
        "mixed-artillery",
        "very_heavy_guns",
        {"field_guns": "2", "very_heavy_guns": "1", "bases_firing": "3"},
        "shots",
    ),
    (
        "2mm-earth-1418",
        "transport-bonus",
        "command_bases_left",
        {"unit": "line-inf", "command_bases_left": "0"},
        "bonus lost",
    ),
    (
        "2mm-earth-1418",
        "injury-movement",
        "under_fire_from",
        {"under_fire_from": "different-shooter", "resilience": "4", "dice.0": "2"},
        "restored",
    ),
]


@pytest.mark.parametrize(("ruleset", "resolver", "field", "form", "key"), FORMS)
def test_lookup_form_renders_and_answers(
    api: TestClient, ruleset: str, resolver: str, field: str, form: dict[str, str], key: str
) -> None:
    page = api.get(f"/lookup/{ruleset}/{resolver}")
    assert page.status_code == 200, page.text
    assert f'name="{field}"' in page.text
    answered = api.post(f"/lookup/{ruleset}/{resolver}", data=form, headers={"HX-Request": "true"})
    assert answered.status_code == 200, answered.text
    assert 'id="answer"' in answered.text and 'class="errors"' not in answered.text
    assert f'class="outcome outcome-{key}"' in answered.text


def test_lookup_form_refuses_in_words(api: TestClient) -> None:
    form = {"attacking_units": "3", "divisions_among_attackers": "2"}
    r = api.post("/lookup/vimy-ridge/divisional-integrity", data=form, headers={"HX-Request": "true"})
    assert r.status_code == 200 and 'class="errors"' in r.text
    assert "only units of the same division may take part in the same attack" in r.text
