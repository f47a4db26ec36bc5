"""Issue 23's silent readings of 2mm Earth 1418 and Vimy Ridge over HTTP: `GET /api/v1/rulesets/{id}` lists each
as an erratum (both readings, the lines they quote, the default and why), and a request picks the other
reading with `variants`: both readings are asked for and their answers differ as the text says. Issue 38's
silent readings of Flanders Fields are listed the same way, and issue 53's of 2mm Earth 1418's play."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import _sqlite_clone, make_client

EARTH = "2mm-earth-1418"
VIMY = "vimy-ridge"


@pytest.fixture(scope="module")
def api(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One migrated SQLite app for the module: these lookups store nothing."""
    var_dir = tmp_path_factory.mktemp("ruleset_errata")
    with make_client(_sqlite_clone(sqlite_template, var_dir), var_dir) as c:
        yield c


# erratum id -> (its rule set, the default, the other readings, a line each reading's source quotes)
ERRATA = {
    "bonus-which-die": (EARTH, "best-die", {"designated-die"}, "(line 212)"),
    "transport-order": (EARTH, "rate-first", {"additive", "cap-on-total"}, "(line 218)"),
    "overwatch-who": (EARTH, "stationary-only", {"always-when-blocked"}, "(line 210)"),
    "recovery-resilience": (EARTH, "built-in", {"current"}, "(line 212)"),
    # Issue 53: where a company finding cover may end, and the 'single target' of half a bombardment's shots.
    "find-cover": (EARTH, "any-better", {"nearest-better"}, "HIGH COMMANDS"),
    "bombardment-target": (EARTH, "sub-unit", {"platoon"}, "ARTILLERY"),
    "trench-zoc": (VIMY, "occupied-hex", {"any-hex"}, "(line 111)"),
    "trench-nationality": (VIMY, "any-trench", {"enemy-trench-only"}, "14.2 Trench Lines (line 1"),
}


@pytest.mark.parametrize("eid", sorted(ERRATA))
def test_the_ruleset_lists_the_erratum(api: TestClient, eid: str) -> None:
    ruleset, default, others, line = ERRATA[eid]
    r = api.get(f"/api/v1/rulesets/{ruleset}")
    assert r.status_code == 200
    erratum = {e["id"]: e for e in r.json()["errata"]}[eid]
    assert erratum["default"] == default and erratum["note"]  # the default, and why
    readings = {x["id"]: x for x in erratum["readings"]}
    assert set(readings) == {default, *others}
    for reading in readings.values():
        assert line in reading["source"] and reading["text"].count("'") >= 2  # the line and its words


def resolve(api: TestClient, ruleset: str, resolver: str, body: dict[str, Any]) -> dict[str, Any]:
    r = api.post(f"/api/v1/rulesets/{ruleset}/{resolver}", json=body)
    assert r.status_code == 200, r.text
    return dict(r.json())


def both(
    api: TestClient, ruleset: str, resolver: str, body: dict[str, Any], eid: str, reading: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The answer under the default reading, and under `reading` picked with `variants`."""
    picked = resolve(api, ruleset, resolver, {**body, "variants": {eid: reading}})
    assert picked["variants"] == {eid: reading}
    return resolve(api, ruleset, resolver, body), picked


def test_bonus_on_the_best_or_a_designated_die(api: TestClient) -> None:
    # Machineguns 1/3(+1), two bases: 3 dice; line infantry R4 dug in in a fortification +3R = R7, which only a
    # 6 with the bonus reaches: any of 3 dice, 1 - (5/6)^3 = 91/216, or the designated one, 1/6.
    body = {
        "shooter": "machineguns",
        "bases": 2,
        "target": "line-inf",
        "target_cover": {"terrain": "fortification", "posture": "dug-in"},
        "dice": [2, 6, 1],
    }
    best, marked = both(api, EARTH, "shoot", body, "bonus-which-die", "designated-die")
    assert Fraction(best["probabilities_exact"]["1 hit"]) == 1 - Fraction(5, 6) ** 3 == Fraction(91, 216)
    assert Fraction(marked["probabilities_exact"]["1 hit"]) == Fraction(1, 6)
    assert (best["outcome_key"], marked["outcome_key"]) == ("1 hit", "0 hits")  # the 6 is not the first die


def test_transport_order(api: TestClient) -> None:
    # Line infantry 6cm, motorised +50%, road +25%: 6 x 1.5 x 1.25 = 11.25 rate first; 6 x (1 + .5 + .25) =
    # 10.5 added together; assaulting (+100%) 22.5 rate first, 12 with the cap on the total.
    body = {"unit": "line-inf", "transport": "motorised", "terrain": ["road"]}
    rate_first, additive = both(api, EARTH, "move", body, "transport-order", "additive")
    assert Fraction(rate_first["outcome"]["exact_cm"]) == Fraction(45, 4)
    assert Fraction(additive["outcome"]["exact_cm"]) == Fraction(21, 2)
    assault = {**body, "assaulting": True}
    rate_first, capped = both(api, EARTH, "move", assault, "transport-order", "cap-on-total")
    assert Fraction(rate_first["outcome"]["exact_cm"]) == Fraction(45, 2)
    assert Fraction(capped["outcome"]["exact_cm"]) == 12


def test_a_moving_firer_overwatching_past_terrain(api: TestClient) -> None:
    # "Sub-units who have remained stationary" against "the firer can always use overwatch".
    body = {
        "shooter": "line-inf",
        "bases": 3,
        "bases_with_direct_line": 0,
        "target_resilience": 4,
        "posture": "moving",
        "overwatch": True,
    }
    refused = api.post(f"/api/v1/rulesets/{EARTH}/line-of-sight", json=body)
    assert refused.status_code == 422 and "overwatch" in refused.text
    picked = {**body, "variants": {"overwatch-who": "always-when-blocked"}}
    assert resolve(api, EARTH, "line-of-sight", picked)["outcome_key"] == "overwatch"


def test_recovery_die_against_built_in_or_current_resilience(api: TestClient) -> None:
    # Line infantry R4 moving in the open (-3R): R4 recovers on 1-4 (2/3), R1 on a 1 (1/6).
    body = {"resilience": 4, "cover": {"terrain": "open", "posture": "moving"}, "dice": [3]}
    built_in, current = both(api, EARTH, "recovery", body, "recovery-resilience", "current")
    assert Fraction(built_in["probabilities_exact"]["recovered"]) == Fraction(2, 3)
    assert Fraction(current["probabilities_exact"]["recovered"]) == Fraction(1, 6)
    assert (built_in["outcome_key"], current["outcome_key"]) == ("recovered", "not recovered")
    no_cover = {"resilience": 4, "variants": {"recovery-resilience": "current"}}
    r = api.post(f"/api/v1/rulesets/{EARTH}/recovery", json=no_cover)
    assert r.status_code == 422 and "cover" in r.text


def test_trench_zoc_into_an_empty_hex(api: TestClient) -> None:
    # "into a hex that is occupied by an opposing unit": an empty hex across the trench is in the ZOC unless the
    # trench shields every hex (and then Allied replacements may arrive there, 11.3).
    body = {"across_trench_hexside": True, "hex_holds_opposing_unit": False}
    occupied_only, any_hex = both(api, VIMY, "zone-of-control", body, "trench-zoc", "any-hex")
    assert occupied_only["outcome"]["zone_of_control_extends"] is True
    assert any_hex["outcome"]["zone_of_control_extends"] is False
    # ... and so whether an Allied replacement may arrive in an empty Allied trench hex facing it (11.3).
    arrival = {
        "side": "allied",
        "turn": 3,
        "eliminated_units_returned": 1,
        "arrival": "allied-trench-hex",
        "arrival_in_enemy_zoc": True,
        "enemy_zoc_only_across_trench": True,
    }
    refused = api.post(f"/api/v1/rulesets/{VIMY}/replacement", json=arrival)
    assert refused.status_code == 422 and "arrival_in_enemy_zoc" in refused.text
    picked = {**arrival, "variants": {"trench-zoc": "any-hex"}}
    assert resolve(api, VIMY, "replacement", picked)["outcome"]["allowed"] is True


def test_attack_across_the_attackers_own_trench(api: TestClient) -> None:
    # "regardless of the nationality of the trench line" against "across an enemy trench hexside".
    body = {"across_trench_hexside": True, "hex_terrain": "town", "trench_of": "attacker"}
    any_trench, enemy_only = both(
        api, VIMY, "trench-hexside", body, "trench-nationality", "enemy-trench-only"
    )
    assert any_trench["outcome"]["crt_line"] == "Trench hexside, Woods"
    assert enemy_only["outcome"]["crt_line"] == "Town, Hill, La Folie Farm"


def test_an_unknown_reading_is_refused_naming_the_readings(api: TestClient) -> None:
    body = {"resilience": 4, "variants": {"recovery-resilience": "whatever"}}
    r = api.post(f"/api/v1/rulesets/{EARTH}/recovery", json=body)
    assert r.status_code == 422 and "built-in" in r.text and "current" in r.text


# Issue 38: Flanders Fields' silent readings of what the table fills and an answer does.
# erratum id -> (the default, the other reading, words of the line the default's reading quotes)
FLANDERS_READINGS = {
    "commander-reach": ("battalion", "ordered-unit", "more than 25cm from its Battalion Commander"),
    "deep-suppression-on-table": ("playsheet", "main-text", "off table artillery support"),
    "range-measured": ("closest", "centres", "closest distance between"),
    "become-suppressed": ("stays-suppressed", "marker", "become Suppressed"),
    "aircraft-suppression-spread": ("platoon", "company", "infantry become suppressed"),
    "dead-commander-orders": ("no-modifier", "field-promotion", "no command stand modifier"),
    "road-march-cover": ("field-craft", "open", "experienced and veteran troops"),
    "assault-draw-cover": ("terrain", "soft", "fall back 3cm"),
    # Issue 53: what an assault spends of its unit's order.
    "assault-action": ("move-action", "order-only", "Troops require an order to move into contact"),
    # Session 21: one area shot suppressing two platoons of a company.
    "shot-suppresses-company": ("each-platoon", "once", "Each platoon the shot suppresses"),
}


def test_flanders_fields_silent_readings_are_served_with_both_readings(api: TestClient) -> None:
    r = api.get("/api/v1/rulesets/flanders-fields")
    assert r.status_code == 200
    served = {e["id"]: e for e in r.json()["errata"]}
    for eid, (default, other, words) in FLANDERS_READINGS.items():
        erratum = served[eid]
        readings = {x["id"]: x for x in erratum["readings"]}
        assert erratum["default"] == default and set(readings) == {default, other}, eid
        assert erratum["note"] and words in readings[default]["text"], eid
        assert all(x["source"].startswith("Flanders Fields") and x["text"] for x in readings.values()), eid
