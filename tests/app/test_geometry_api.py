"""Flanders Fields' geometry lookups (/api/v1/rulesets/flanders-fields/lookups/...): hand-worked cases from the
rule book and refusals that name the field."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

API = "/api/v1/rulesets/flanders-fields/lookups"


def _inf(sid: str, x: float, y: float, side: str = "defender", facing: float = 270) -> dict[str, Any]:
    return {"id": sid, "side": side, "base": "infantry-platoon", "center": [x, y], "facing_deg": facing}


def _box(kind: str, x0: float, y0: float, x1: float, y1: float, **props: Any) -> dict[str, Any]:
    ring = [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]
    return {
        "type": "Feature",
        "id": kind,
        "geometry": {"type": "Polygon", "coordinates": [ring]},
        "properties": {"kind": kind, **props},
    }


def _fc(*features: dict[str, Any]) -> dict[str, Any]:
    return {"type": "FeatureCollection", "features": list(features)}


def test_coverage_half_under_a_ten_by_ten_is_partial(reading_client: TestClient) -> None:
    # "a rectangle 10x10cm"; partially covered bases are "attacked at -2"
    body = {
        "template": {"kind": "artillery", "center": [50, 50]},
        "stands": [_inf("half", 55, 50), _inf("in", 50, 50), _inf("touch", 56.5, 50), _inf("away", 80, 50)],
    }
    r = reading_client.post(f"{API}/coverage", json=body)
    assert r.status_code == 200, r.text
    out = r.json()
    assert (out["full"], out["partial"], out["outside"]) == (["in"], ["half"], ["touch", "away"])
    assert out["ambiguous"] == ["touch"]
    assert out["template"]["type"] == "Polygon"


def test_coverage_refuses_duplicate_ids_and_unknown_kinds(reading_client: TestClient) -> None:
    r = reading_client.post(
        f"{API}/coverage",
        json={
            "template": {"kind": "artillery", "center": [50, 50]},
            "stands": [_inf("a", 1, 1), _inf("a", 9, 9)],
        },
    )
    assert r.status_code == 422
    assert r.json()["errors"][0]["loc"] == ["body", "stands", 1, "id"]
    r = reading_client.post(f"{API}/coverage", json={"template": {"kind": "howitzer", "center": [0, 0]}})
    assert r.status_code == 422
    assert r.json()["errors"][0]["loc"][:3] == ["body", "template", "kind"]


def test_mg_fire_beaten_zone_penalties(reading_client: TestClient) -> None:
    # "Up to three targets in the beaten zone are also attacked but at -1 on the die roll for the first
    # target, -2 for the second etc."
    body = {
        "gun": {"center": [60, 10], "facing_deg": 90, "side": "attacker"},
        "aim_deg": 90,
        "stands": [
            _inf("t1", 60, 40),
            _inf("t2", 60, 45),
            _inf("t3", 60, 50),
            _inf("t4", 60, 54),
            _inf("t5", 60, 57),
        ],
    }
    r = reading_client.post(f"{API}/mg-fire", json=body)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["first_target"] == "t1" and out["range_cm"] == 70 and out["beaten_zone_cm"] == 15
    assert [(h["id"], h["penalty"]) for h in out["beaten_zone"]] == [("t2", -1), ("t3", -2), ("t4", -3)]
    assert out["short_range"] is False and out["zone"]["type"] == "Polygon"


def test_mg_fire_outside_the_arc_is_a_422_naming_aim_deg(reading_client: TestClient) -> None:
    body = {"gun": {"center": [60, 10], "facing_deg": 90}, "aim_deg": 170, "stands": []}
    r = reading_client.post(f"{API}/mg-fire", json=body)
    assert r.status_code == 422
    assert r.json()["errors"][0]["loc"] == ["body", "aim_deg"]


def test_block_house_range_follows_the_erratum(reading_client: TestClient) -> None:
    # "Block Houses fire as machineguns but with a reduced range of 45cm" (default) vs WEAPON RANGES
    # "Block Houses 50cm" (variant). A target whose near edge is 47 cm from the face.
    body: dict[str, Any] = {
        "gun": {"kind": "blockhouse", "center": [60, 10], "facing_deg": 90, "width_cm": 6, "depth_cm": 6},
        "aim_deg": 90,
        "stands": [_inf("t", 60, 60.75, side="attacker")],
    }
    r = reading_client.post(f"{API}/mg-fire", json=body)
    assert r.status_code == 200 and r.json()["first_target"] is None and r.json()["range_cm"] == 45
    body["variants"] = {"blockhouse-range": "weapon-ranges"}
    r = reading_client.post(f"{API}/mg-fire", json=body)
    assert r.json()["first_target"] == "t" and r.json()["beaten_zone_cm"] == 10


def test_distance_between_bases(reading_client: TestClient) -> None:
    body = {
        "a": {"base": "infantry-platoon", "center": [0, 0]},
        "b": {"base": "battalion-command", "center": [10, 0]},
    }
    r = reading_client.post(f"{API}/distance", json=body)
    assert r.status_code == 200
    assert abs(r.json()["distance_cm"] - (10 - 1.5 - 1)) < 1e-6


def test_line_of_sight_dead_ground_behind_a_building(reading_client: TestClient) -> None:
    # "troops within 2.5cm of a building are safe from being spotted by observers on a hill"
    terrain = _fc(_box("hill", 50, 0, 70, 20, height_cm=3), _box("village", 55, 40, 65, 50))
    body = {"viewer": _inf("v", 60, 10, "attacker", 90), "target": _inf("t", 60, 52.75), "terrain": terrain}
    r = reading_client.post(f"{API}/line-of-sight", json=body)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["visible"] is False and out["dead_ground"] is True
    assert out["blocked_by"] == {"id": "village", "kind": "village"}
    body["target"] = _inf("t", 60, 56)
    out = reading_client.post(f"{API}/line-of-sight", json=body).json()
    assert out["visible"] is True and out["visibility_cm"] == 100 and out["target_cover"] == "open"


def test_line_of_sight_bad_geometry_names_the_feature(reading_client: TestClient) -> None:
    bad = _box("woods", 0, 0, 10, 10)
    bad["geometry"]["coordinates"] = [[[0, 0], [10, 10], [10, 0], [0, 10], [0, 0]]]
    body = {"viewer": _inf("v", 60, 10), "target": _inf("t", 60, 50), "terrain": _fc(bad)}
    r = reading_client.post(f"{API}/line-of-sight", json=body)
    assert r.status_code == 422
    assert r.json()["errors"][0]["loc"] == ["body", "terrain", "features", 0, "geometry"]


def test_arc_and_priority(reading_client: TestClient) -> None:
    body = {
        "firer": _inf("f", 60, 10, "attacker", 90),
        "firer_kind": "infantry",
        "stands": [_inf("closest", 65, 20), _inf("near", 50, 24), _inf("ahead", 60, 35), _inf("out", 90, 20)],
    }
    r = reading_client.post(f"{API}/arc", json=body)
    assert r.status_code == 200, r.text
    assert [(p["id"], p["priority"]) for p in r.json()["priority"]] == [
        ("closest", 1),
        ("near", 2),
        ("ahead", 3),
    ]


def test_move_through_wood_wire_and_a_fired_zone(reading_client: TestClient) -> None:
    terrain = _fc(
        _box("woods", 0, 20, 120, 25),
        {
            "type": "Feature",
            "id": "wire",
            "geometry": {"type": "LineString", "coordinates": [[0, 28], [120, 28]]},
            "properties": {"kind": "wire", "depth_cm": 4},
        },
    )
    body = {
        "period": "mid",
        "mover": "infantry",
        "stand": _inf("p", 60, 10, "attacker", 90),
        "path": [[60, 30]],
        "terrain": terrain,
        "fire_zones": [{"id": "z", "template": {"kind": "artillery", "center": [60, 30]}, "fired": True}],
    }
    r = reading_client.post(f"{API}/move", json=body)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["length_cm"] == 20 and out["by_terrain"] == {"close": 5, "cross-country": 15}
    # Mid-war playsheet: cross country 20 cm, close terrain 10 cm: 15/20 + 5/10 > 1.
    assert out["allowances"] == {"close": 10, "cross-country": 20} and out["fits"] is False
    assert out["wire"] == [{"id": "wire", "belts": 2}]  # "every 2cm depth of wire"
    assert out["fire_zones_entered"] == [{"id": "z", "penalty": -1}]


def test_move_unknown_mover_is_422(reading_client: TestClient) -> None:
    body = {"period": "mid", "mover": "zeppelin", "stand": _inf("p", 60, 10), "path": [[60, 30]]}
    r = reading_client.post(f"{API}/move", json=body)
    assert r.status_code == 422 and r.json()["errors"][0]["loc"][:2] == ["body", "mover"]


def test_gas_drift_and_forecast(reading_client: TestClient) -> None:
    r = reading_client.post(
        f"{API}/gas-drift",
        json={"cloud": {"center": [60, 30]}, "wind_deg": 90, "speed_cm": 17, "stands": [_inf("s", 60, 46)]},
    )
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["cloud"]["center"] == [60, 47]
    assert out["covered"]["full"] == ["s"]
    r = reading_client.post(
        f"{API}/gas-forecast",
        json={
            "cloud": {"center": [60, 30]},
            "wind_deg": 90,
            "speed_cm": 15,
            "turns": 2,
            "stands": [_inf("s", 60, 47)],
        },
    )
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["method"] == "exact" and [t["dispersed_exact"] for t in out["turns"]] == ["1/6", "11/36"]
    r = reading_client.post(
        f"{API}/gas-forecast",
        json={"cloud": {"center": [60, 30]}, "wind_deg": 90, "speed_cm": 15, "turns": 7},
    )
    assert r.status_code == 422 and r.json()["errors"][0]["loc"] == ["body", "turns"]


def test_barrage_advance(reading_client: TestClient) -> None:
    body = {
        "barrage": {"center": [60, 40], "facing_deg": 90},
        "distance_cm": 20,
        "stands": [_inf("d", 60, 60), _inf("keen", 60, 45.75, "attacker", 90)],
    }
    r = reading_client.post(f"{API}/barrage-advance", json=body)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["barrage"]["center"] == [60, 60]
    assert out["passed_over"]["full"] == ["d", "keen"]
    assert [(h["id"], h["at_risk_exact"]) for h in out["danger"]] == [("keen", "1/2")]


def test_deviate_and_grid_references(reading_client: TestClient) -> None:
    r = reading_client.post(
        f"{API}/deviate", json={"side": "defender", "aim": [60, 90], "direction_clock": 12, "distance_cm": 5}
    )
    assert r.status_code == 200 and r.json()["point"] == [60, 85]
    r = reading_client.post(f"{API}/grid-to-table", json={"side": "defender", "along_cm": 64, "up_cm": 120})
    assert r.json()["point"] == [56, 60]
    r = reading_client.post(f"{API}/table-to-grid", json={"side": "defender", "point": [56, 60]})
    assert (r.json()["along_cm"], r.json()["up_cm"]) == (64, 120)
    r = reading_client.post(
        f"{API}/deviate", json={"side": "defender", "aim": [60, 90], "direction_clock": 13, "distance_cm": 5}
    )
    assert r.status_code == 422


def test_cover_endpoint_and_dataset(reading_client: TestClient) -> None:
    terrain = _fc(_box("woods", 0, 0, 50, 50), _box("trench", 10, 10, 40, 14))
    body = {
        "terrain": terrain,
        "stands": [{**_inf("t", 20, 12), "quality": "raw"}, {**_inf("o", 80, 80), "quality": "veteran"}],
    }
    r = reading_client.post(f"{API}/cover", json=body)
    assert r.status_code == 200, r.text
    assert [(s["id"], s["cover"]) for s in r.json()["stands"]] == [("t", "hard"), ("o", "soft")]
    r = reading_client.get("/api/v1/rulesets/flanders-fields/cover-classes")
    assert r.status_code == 200 and r.json()["rules"][0]["cover"] == "fortified"
