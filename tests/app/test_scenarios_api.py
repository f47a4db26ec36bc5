"""The scenario API on SQLite and PostgreSQL: import, export, replace, delete; bad files refused naming the
field with nothing saved changed; the organiser key, the import rate limit; a game from an imported
scenario has its terrain and its stands where the file puts them."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from shapely.geometry import Point, shape

from app.core.config import Settings
from app.data.bounded import MAX_SCENARIO_BYTES
from app.main import create_app
from app.services import scenarios as scenarios_service
from tests import csrf
from tests.app.games.conftest import new_game, units_by_ref
from tests.rules.core.test_scenario import hand_written, square

ORGANISER_KEY = "club-night-organiser-key"
API = "/api/v1/scenarios"
SHIPPED = tuple(scenarios_service.shipped())  # Mons 1914, then 2mm Earth 1418's demo battle


def listed(client: TestClient) -> list[dict[str, Any]]:
    r = client.get(API)
    assert r.status_code == 200, r.text
    return list(r.json())


def imported(client: TestClient, doc: dict[str, Any], **headers: str) -> dict[str, Any]:
    r = client.post(API, json=doc, headers=headers)
    assert r.status_code == 201, r.text
    return dict(r.json())


@pytest.mark.storage
def test_export_gives_back_what_was_imported(client: TestClient) -> None:
    doc = {**hand_written(), "id": "trench-raid"}
    assert imported(client, doc) == doc
    assert client.get(f"{API}/trench-raid").json() == doc
    ids = [(s["id"], s["shipped"]) for s in listed(client)]
    assert ids == [*((i, True) for i in SHIPPED), ("trench-raid", False)]
    # What was exported imports again as a copy under a new id, and exports the same.
    again = {**client.get(f"{API}/trench-raid").json(), "id": "trench-raid-copy"}
    assert imported(client, again) == again


def test_an_id_is_assigned_from_the_title_when_absent(client: TestClient) -> None:
    first = imported(client, hand_written())
    second = imported(client, hand_written())
    assert (first["id"], second["id"]) == ("trench-raid-at-dawn", "trench-raid-at-dawn-2")
    assert {k: v for k, v in first.items() if k != "id"} == hand_written()
    assert client.get(f"{API}/trench-raid-at-dawn-2").json() == second
    # An id starts with a letter: a title starting with a figure is named as a scenario.
    assert imported(client, {**hand_written(), "title": "1916: the raid"})["id"] == "scenario-1916-the-raid"


def test_the_shipped_mons_exports_its_file(client: TestClient) -> None:
    path = Path(__file__).resolve().parents[2] / "rules/flanders_fields/data/scenarios/mons-1914.json"
    assert client.get(f"{API}/mons-1914").json() == json.loads(path.read_text())
    assert client.get(f"{API}/no-such-scenario").status_code == 404


def loc(r: Any) -> str:
    """Where the refusal points (the request body's field, dotted)."""
    (err,) = r.json()["errors"]
    return ".".join(str(p) for p in err["loc"][1:])


def names(r: Any, field: str) -> bool:
    """Whether one of the refusal's errors names `field`."""
    return any(".".join(str(p) for p in e["loc"][1:]) == field for e in r.json()["errors"])


def test_bad_files_are_refused_naming_the_field_and_nothing_changes(client: TestClient) -> None:
    kept = imported(client, {**hand_written(), "id": "kept"})
    before = listed(client)
    off_table = hand_written()
    off_table["terrain"]["features"][2]["geometry"] = square(100, 60, 130, 80)
    bad_kind = hand_written()
    bad_kind["terrain"]["features"][0]["properties"]["kind"] = "lava"
    bad_table = hand_written()
    bad_table["sides"]["attacker"]["forces"][0]["table_id"] = "gb-2050"
    oversized = hand_written()
    oversized["notes"] = []
    oversized["terrain"]["features"][2]["properties"]["name"] = "x" * 1000
    oversized["fire_plan"] = {"attacker": ["y" * 1000] * 150}
    big = hand_written()
    stand = {"level": "stand", "kind": "rifle-platoon", "name": "x" * 190, "source": "y" * 290}
    big["sides"]["defender"]["forces"] = [{**stand, "id": f"u{i}"} for i in range(1999)]
    long_ids = hand_written()
    long_ids["sides"]["defender"]["forces"].append({"table_id": "de-1914", "id": "x" * 40})
    # No fortified positions before mid 1915 (the 1914 firing table has no Fortified column).
    fortified = {**hand_written(), "period": "early"}
    fortified["terrain"]["features"].append(
        {"type": "Feature", "properties": {"kind": "blockhouse"}, "geometry": square(50, 100, 56, 106)}
    )
    # Issue 52: units nested ~128 deep passed the request model and overflowed its serialiser (a 500).
    deep = hand_written()
    unit: dict[str, Any] = {"id": "top", "level": "stand", "kind": "rifle-platoon"}
    deep["sides"]["defender"]["forces"] = [unit]
    for i in range(130):
        child = {"id": f"u{i}", "level": "stand", "kind": "rifle-platoon"}
        unit["children"], unit = [child], child
    # Issue 55: the objectives on the table, typed at the door and checked whole.
    objective = {
        "type": "Feature",
        "geometry": {"type": "Point", "coordinates": [60, 90]},
        "properties": {"name": "Crossroads", "vp": 2, "scored": "each_turn"},
    }
    bad_vp = {**hand_written(), "table_objectives": {"type": "FeatureCollection", "features": [objective]}}
    bad_vp["table_objectives"]["features"] = [
        {**objective, "properties": {**objective["properties"], "vp": 101}}
    ]
    off_objective = {
        **hand_written(),
        "table_objectives": {"type": "FeatureCollection", "features": [objective]},
    }
    off_objective["table_objectives"]["features"] = [
        {**objective, "geometry": {"type": "Point", "coordinates": [60, 190]}}
    ]
    cases = [
        (bad_vp, "table_objectives.features.0.properties.vp", None),
        (off_objective, "table_objectives.features.0.geometry", ["x 0..120, y 0..180 cm"]),
        (deep, "sides.defender.forces", None),
        ({**hand_written(), "format": "firestep-scenario/9"}, "format", None),
        (fortified, "terrain.features.3", None),
        ({**hand_written(), "turns": False}, "turns", None),
        ({**hand_written(), "id": "1916"}, "id", None),
        ([1, 2, 3], "", None),
        ({**hand_written(), "period": "1950"}, "period", ["early", "mid", "late"]),
        (off_table, "terrain.features.2.geometry", ["x 0..120, y 0..180 cm"]),
        (bad_kind, "terrain.features.0.properties.kind", None),
        (bad_table, "sides.attacker.forces.0.table_id", None),
        (big, "body", [f"0..{MAX_SCENARIO_BYTES} bytes"]),
        (long_ids, "sides.defender.forces.1.id", ["unit ids of at most 120 characters"]),
    ]
    for doc, field, allowed in cases:
        for r in (client.post(API, json=doc), client.put(f"{API}/kept", json=doc)):
            assert r.status_code == 422, (field, r.text[:300])
            assert names(r, field), r.text[:300]
            if allowed is not None:
                assert r.json()["errors"][0]["allowed"] == allowed
    assert listed(client) == before
    assert client.get(f"{API}/kept").json() == kept


@pytest.mark.storage
def test_replace_and_delete(client: TestClient) -> None:
    imported(client, {**hand_written(), "id": "raid"})
    changed = {**hand_written(), "title": "Trench raid at dusk"}
    r = client.put(f"{API}/raid", json=changed)
    assert r.status_code == 200, r.text
    assert client.get(f"{API}/raid").json() == {**changed, "id": "raid"}
    r = client.put(f"{API}/raid", json={**changed, "id": "other"})
    assert r.status_code == 422 and loc(r) == "id"
    assert client.put(f"{API}/nowhere", json=changed).status_code == 404
    # An id already used is not overwritten by an import: the refusal names the one held, which the file may
    # replace (PUT) or sit beside (imported without its id: a copy with a new id, from its title).
    r = client.post(API, json={**changed, "id": "raid"})
    assert r.status_code == 409 and "PUT" in r.json()["why"]
    assert r.json()["current"] == {"id": "raid", "title": "Trench raid at dusk", "shipped": False}
    copy = client.post(API, json=changed)
    assert copy.status_code == 201 and copy.json()["id"] == "trench-raid-at-dusk"
    again = client.post(API, json=changed)
    assert again.status_code == 201 and again.json()["id"] == "trench-raid-at-dusk-2"
    assert client.get(f"{API}/raid").json() == {**changed, "id": "raid"}  # the held one as it was
    assert client.delete(f"{API}/raid").status_code == 204
    assert client.get(f"{API}/raid").status_code == 404
    assert client.delete(f"{API}/raid").status_code == 404


def test_the_shipped_scenario_is_neither_replaced_nor_deleted(client: TestClient) -> None:
    for r in (client.delete(f"{API}/mons-1914"), client.put(f"{API}/mons-1914", json=hand_written())):
        assert r.status_code == 403
        assert "ships with firestep" in r.json()["why"]
    r = client.post(API, json={**hand_written(), "id": "mons-1914"})
    assert r.status_code == 409 and r.json()["current"]["shipped"] is True  # kept beside it only
    assert client.get(f"{API}/mons-1914").json()["title"].startswith("German attack")


@pytest.fixture
def keyed_client(migrated_url: str, tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(
        database_url=migrated_url,
        var_dir=tmp_path,
        organiser_key=ORGANISER_KEY,
        scenario_import_limit="3 per 1 minute",
    )
    with TestClient(create_app(settings)) as c:
        yield c


def test_the_organiser_key_guards_import_replace_and_delete(keyed_client: TestClient) -> None:
    c = keyed_client
    doc = {**hand_written(), "id": "raid"}
    assert c.post(API, json=doc).status_code == 401
    assert c.post(API, json=doc, headers={"X-Organiser-Key": "guess"}).status_code == 403
    assert [s["id"] for s in listed(c)] == list(SHIPPED)
    imported(c, doc, **{"X-Organiser-Key": ORGANISER_KEY})
    for r in (c.put(f"{API}/raid", json=doc), c.delete(f"{API}/raid")):
        assert r.status_code == 401
    assert c.get(f"{API}/raid").json() == doc  # reading needs no key
    key = {"X-Organiser-Key": ORGANISER_KEY}
    assert c.delete(f"{API}/raid", headers=key).status_code == 204


def test_imports_are_rate_limited(keyed_client: TestClient) -> None:
    key = {"X-Organiser-Key": ORGANISER_KEY}
    codes = [keyed_client.post(API, json=hand_written(), headers=key).status_code for _ in range(4)]
    assert codes == [201, 201, 201, 429]
    r = keyed_client.put(f"{API}/trench-raid-at-dawn", json=hand_written(), headers=key)
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    assert len(listed(keyed_client)) == len(SHIPPED) + 3


def test_a_game_from_an_imported_scenario_has_its_terrain_and_stands(client: TestClient) -> None:
    doc = imported(client, {**hand_written(), "id": "raid"})
    game = new_game(client, {"scenario": "raid", "variants": {"mons-german-quality": "veteran"}})
    body = game.body["game"]
    assert (body["name"], body["period"], body["scenario"]) == ("Trench raid at dawn", "mid", "raid")
    assert (body["attacker_nation"], body["defender_nation"]) == ("british", "german")
    state = client.get(f"/api/v1/games/{game.id}/state", headers=game.referee).json()
    assert state["terrain"] == doc["terrain"]
    units = units_by_ref(client, game)
    platoon = units["de/company/platoon-1"]
    assert (platoon["x"], platoon["y"], platoon["facing_deg"]) == (50, 170, 270)
    assert units["de/company/platoon-2"]["off_table"] is True
    # The per-reading quality follows the game's reading.
    assert units["de/company"]["quality"] == "veteran"
    # The organisation-table battalion is built and deployed inside the attacker's zone.
    zone = shape(doc["sides"]["attacker"]["deployment_zone"])
    raiders = [u for ref, u in units.items() if ref.startswith("raiders/") and u["base"]]
    assert len(raiders) > 4 and all(u["quality"] in ("veteran", "experienced") for u in raiders)
    assert all(zone.contains(Point(u["x"], u["y"])) for u in raiders)
    # Deleting the scenario leaves the game as it is.
    assert client.delete(f"{API}/raid").status_code == 204
    assert (
        client.get(f"/api/v1/games/{game.id}/state", headers=game.referee).json()["terrain"] == doc["terrain"]
    )


def test_a_game_from_a_scenario_names_an_unknown_one(client: TestClient) -> None:
    """A body field naming nothing is a 422 naming the field (a 404 is an address naming nothing)."""
    r = client.post("/api/v1/games", json={"scenario": "no-such-scenario"})
    assert r.status_code == 422 and "no-such-scenario" in r.json()["detail"]
    assert r.json()["field"] == "scenario" and r.json()["errors"][0]["loc"] == ["body", "scenario"]


def test_the_start_page_lists_imported_scenarios(client: TestClient) -> None:
    imported(client, copy.deepcopy({**hand_written(), "id": "raid"}))
    page = client.get("/").text
    assert 'value="mons-1914"' in page and 'value="raid"' in page and "Trench raid at dawn" in page


def test_a_server_keeps_a_bounded_number_of_scenarios(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(scenarios_service, "MAX_SCENARIOS", 2)
    imported(client, hand_written())
    imported(client, hand_written())
    r = client.post(API, json=hand_written())
    assert r.status_code == 409 and "at most 2 scenarios" in r.json()["why"]
    assert len(listed(client)) == len(SHIPPED) + 2  # the shipped ones and the two kept


def test_the_fire_plan_page_draws_the_scenarios_own_zones(client: TestClient) -> None:
    doc = {**hand_written(), "id": "raid"}
    doc["sides"]["defender"]["deployment_zone"] = square(10, 150, 110, 180)
    imported(client, doc)
    game = new_game(client, {"scenario": "raid"})
    client.cookies.clear()
    token = game.referee["Authorization"].removeprefix("Bearer ")
    signed_in = client.post("/join", data=csrf.form(client, {"code": token}), follow_redirects=False)
    assert signed_in.status_code == 303
    plan = client.get(f"/games/{game.id}/fire-plan?side=defender").text
    zones = re.findall(
        r'<rect class="fp-zone fp-zone-(\w+)[^"]*" x="([^"]+)" y="([^"]+)" width="([^"]+)" '
        r'height="([^"]+)"',
        plan,
    )
    assert {(s, *map(float, xywh)) for s, *xywh in zones} == {
        ("attacker", 0, 0, 120, 15),
        ("defender", 10, 150, 100, 30),
    }
