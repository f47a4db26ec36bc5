"""Creating a game with forces built from the organisation tables (SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from shapely import Polygon

from rules.flanders_fields.book.organisation import build_force, count_units
from rules.flanders_fields.book.table_sizes import BASES
from rules.table.frame import oriented_rect
from tests.app.games.conftest import new_game, units_by_ref


def _errors(r: Any) -> list[dict[str, Any]]:
    assert r.status_code == 422, r.text
    return list(r.json()["errors"])


def test_game_from_two_tables_builds_places_and_grades_the_forces(client: TestClient) -> None:
    g = new_game(
        client,
        {
            "forces": [
                {"side": "attacker", "table_id": "de-1914", "quality": "veteran", "name": "Ersatz Division"},
                {"side": "defender", "table_id": "gb-1914"},
            ]
        },
    )
    game = g.body["game"]
    # Both tables are drawn for 1914 ("German Infantry Division 1914-1915", "British and Empire Division
    # 1914-15"): the game is early war, and each side's nation is its table's.
    assert (game["period"], game["attacker_nation"], game["defender_nation"]) == (
        "early",
        "german",
        "british",
    )
    units = units_by_ref(client, g)
    de = [u for u in units.values() if u["side"] == "attacker"]
    gb = [u for u in units.values() if u["side"] == "defender"]
    # Stored as built: the same tree, unit for unit, as build_force gives.
    for side_units, table, quality in ((de, "de-1914", "veteran"), (gb, "gb-1914", None)):
        built = build_force(table, quality=quality)
        counts: dict[str, dict[str, int]] = {}
        for u in side_units:
            counts.setdefault(u["level"], {}).setdefault(u["kind"], 0)
            counts[u["level"]][u["kind"]] += 1
        assert counts == count_units(built)
    # The German division: "Three Infantry Regiments ... three battalions" each, nine battalions.
    assert sum(u["kind"] == "infantry-battalion" for u in de) == 9
    # The British division: three brigades of four battalions.
    assert sum(u["kind"] == "infantry-battalion" for u in gb) == 12
    root = next(u for u in de if u["parent_id"] is None)
    assert root["name"] == "Ersatz Division" and root["ref"] == "forces-0/de-1914"
    # The requested grade, except "Crewed Weapons ... are always classed as Experienced".
    assert {u["quality"] for u in de if u["kind"] == "rifle-platoon"} == {"veteran"}
    assert {u["quality"] for u in de if u["kind"] == "mmg"} == {"experienced"}
    assert {u["quality"] for u in gb if u["kind"] == "rifle-platoon"} == {"experienced"}  # the table default

    # Every stand is either placed in its side's 15 cm zone at its own base edge, facing the enemy, without
    # overlapping another, or off the table with its whole battalion.
    length, width = game["table_length_cm"], game["table_width_cm"]
    zones = {"attacker": (0.0, 15.0, 90.0), "defender": (length - 15.0, length, 270.0)}
    shapes: list[Polygon] = []
    by_id = {u["id"]: u for u in units.values()}
    for u in units.values():
        if u["base"] is None:
            continue
        if u["x"] is None:
            assert u["off_table"], u["ref"]
            group, up = u, u["parent_id"]  # its battalion, or the stand itself outside any
            while up is not None:
                if by_id[up]["level"] == "battalion":
                    group = by_id[up]
                up = by_id[up]["parent_id"]
            assert group["off_table"], u["ref"]
            continue
        lo, hi, facing = zones[u["side"]]
        base = BASES[u["base"]]
        shape = oriented_rect((u["x"], u["y"]), u["facing_deg"], base.width_cm, base.depth_cm)
        x0, y0, x1, y1 = shape.bounds
        assert u["facing_deg"] == facing and x0 >= 0 and x1 <= width and lo <= y0 and y1 <= hi, u["ref"]
        assert not any(shape.intersects(s) for s in shapes), u["ref"]
        shapes.append(shape)
    placed = {side: sum(u["x"] is not None for u in units.values() if u["side"] == side) for side in zones}
    assert placed["attacker"] > 100 and placed["defender"] > 100

    # The log says where the forces came from.
    events = client.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json()
    created = next(
        e for e in (events if isinstance(events, list) else events["events"]) if e["kind"] == "game-created"
    )
    assert [f["table_id"] for f in created["payload"]["forces"]] == ["de-1914", "gb-1914"]


def test_a_small_force_is_placed_whole_and_the_same_table_twice_gets_distinct_ids(client: TestClient) -> None:
    g = new_game(
        client,
        {
            "period": "late",
            "forces": [
                {"side": "attacker", "table_id": "de-storm-battalion"},
                {"side": "attacker", "table_id": "de-storm-battalion", "name": "Second storm battalion"},
                {"side": "defender", "table_id": "gb-tank-battalion", "quality": "experienced"},
            ],
        },
    )
    units = units_by_ref(client, g)
    stands = [u for u in units.values() if u["base"] is not None]
    assert len(stands) == 2 * len(build_force("de-storm-battalion").stands()) + len(
        build_force("gb-tank-battalion").stands()
    )
    assert all(u["x"] is not None and not u["off_table"] for u in stands)
    assert {r.split("/")[0] for r in units} == {"forces-0", "forces-1", "forces-2"}
    # TANK CORPS: raw by default; asked experienced here. Tanks are crewed, so experienced either way.
    assert {u["quality"] for u in stands if u["side"] == "defender"} == {"experienced"}


def test_bad_forces_are_422_naming_the_field_and_the_tables_that_would_do(client: TestClient) -> None:
    r = client.post(
        "/api/v1/games",
        json={
            "period": "early",
            "defender_nation": "british",
            "forces": [
                {"side": "attacker", "table_id": "de-1914"},
                {"side": "defender", "table_id": "gb-1066"},
            ],
        },
    )
    (err,) = _errors(r)
    assert err["loc"] == ["body", "forces", 1, "table_id"]
    assert err["allowed"] == ["gb-1914", "gb-cavalry-regiment"]  # the British tables drawn for early war
    # A table of the other nation.
    r = client.post(
        "/api/v1/games",
        json={"defender_nation": "french", "forces": [{"side": "defender", "table_id": "gb-1914"}]},
    )
    (err,) = _errors(r)
    assert err["loc"] == ["body", "forces", 0, "table_id"] and err["allowed"] == ["fr-1914"]
    # A table not drawn for the game's period: gb-1914 is the "British and Empire Division 1914-15".
    r = client.post(
        "/api/v1/games", json={"period": "late", "forces": [{"side": "defender", "table_id": "gb-1914"}]}
    )
    (err,) = _errors(r)
    assert err["loc"] == ["body", "forces", 0, "table_id"] and "gb-1917" in err["allowed"]
    # A quality the table does not allow: the 1914 BEF has no raw troops.
    r = client.post(
        "/api/v1/games", json={"forces": [{"side": "defender", "table_id": "gb-1914", "quality": "raw"}]}
    )
    (err,) = _errors(r)
    assert err["loc"] == ["body", "forces", 0, "quality"] and err["allowed"] == ["experienced", "veteran"]
    # Not a quality at all: the request model refuses it.
    r = client.post(
        "/api/v1/games", json={"forces": [{"side": "defender", "table_id": "gb-1914", "quality": "elite"}]}
    )
    assert _errors(r)[0]["loc"] == ["body", "forces", 0, "quality"]
    # A scenario brings its own forces.
    r = client.post(
        "/api/v1/games",
        json={"scenario": "mons-1914", "forces": [{"side": "defender", "table_id": "gb-1914"}]},
    )
    assert _errors(r)[0]["loc"] == ["body", "forces"]
    # Nothing was created by the refusals.
    assert client.get("/api/v1/games").json() == []


def test_a_force_added_later_uses_the_same_checks_and_its_own_ids(client: TestClient) -> None:
    g = new_game(client, {"period": "mid", "forces": [{"side": "attacker", "table_id": "gb-1915"}]})
    r = client.post(
        f"/api/v1/games/{g.id}/forces", headers=g.referee, json={"side": "attacker", "table_id": "de-1916"}
    )
    (err,) = _errors(r)
    assert err["loc"] == ["body", "table_id"] and err["allowed"] == [
        "gb-1915",
        "gb-1917",
        "gb-cavalry-regiment",
        "gb-tank-battalion",
    ]
    r = client.post(
        f"/api/v1/games/{g.id}/forces", headers=g.attacker, json={"side": "attacker", "table_id": "gb-1915"}
    )
    assert r.status_code == 201, r.text
    assert {u["ref"].split("/")[0] for u in r.json()} == {"forces-1"}
    assert len(units_by_ref(client, g)) == 2 * sum(1 for _ in build_force("gb-1915").walk())


def test_field_promotion_reason_says_what_the_flag_is(client: TestClient) -> None:
    g = new_game(client, {"forces": [{"side": "attacker", "table_id": "de-1914"}]})
    units = units_by_ref(client, g)
    bn = "forces-0/de-1914/infantry-regiment-1/infantry-battalion-1"
    company, hq = units[f"{bn}/rifle-company-1"], units[f"{bn}/battalion-command-1"]
    started = client.post(f"/api/v1/games/{g.id}/turn/advance", headers=g.referee, json={"version": 1})
    assert started.status_code == 200, started.text

    def reason() -> tuple[bool, str]:
        r = client.post(
            f"/api/v1/games/{g.id}/ask/order-roll",
            headers=g.referee,
            json={"unit_id": company["id"], "dice": [4]},
        )
        assert r.status_code == 200, r.text
        f = next(f for f in r.json()["filled"] if f["field"] == "field_promotion")
        return f["value"], f["why"]

    assert reason() == (False, "Battalion HQ is not a field promotion")
    hq_now = client.get(f"/api/v1/games/{g.id}/units/{hq['id']}", headers=g.referee).json()
    r = client.put(
        f"/api/v1/games/{g.id}/units/{hq['id']}",
        headers=g.referee,
        json={"version": hq_now["version"], "field_promotion": True},
    )
    assert r.status_code == 200, r.text
    assert reason() == (True, "Battalion HQ is a field promotion")
