"""A hostile client against every write endpoint (issue 12, denial of service and unbounded input).

The endpoints come from the app's own route table, so a new one is covered the day it is added. Each gets
an oversized body (413 naming the limit), malformed JSON, a 300-deep body, and for each of its body fields
the values a hostile client tries: NaN and Infinity literals (Python's json accepts them), 2**63 and 2**31
(past SQLite's and PostgreSQL's integers), `false` for a number and a 300-deep value. Every answer is a 4xx
naming the field or the limit, never a 5xx. Storage-touching endpoints run on both backends."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import iter_route_contexts
from fastapi.testclient import TestClient
from sqlalchemy import event, text

from app.core.config import MAX_BODY_BYTES_DEFAULT
from app.main import app as default_app
from tests.conftest import BACKENDS, _postgresql_base, _postgresql_database, _sqlite_clone, make_client

WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")
STORAGE_PREFIXES = ("/api/v1/games", "/api/v1/join", "/api/v1/campaigns", "/api/v1/events", "/api/v1/league")
DEEP = 300


def _write_routes() -> list[tuple[str, str, bool]]:
    """(method, path, has a body) of every write endpoint under /api/v1."""
    found = []
    for route in iter_route_contexts(default_app.router.routes):
        path = getattr(route, "path_format", "")  # the template without convertors ({campaign_id:int})
        if not path.startswith("/api/v1"):
            continue
        for method in sorted(set(getattr(route, "methods", ()) or ()) & set(WRITE_METHODS)):
            found.append((method, path, getattr(route, "body_field", None) is not None))
    return found


ROUTES = _write_routes()
STORAGE = [r for r in ROUTES if r[1].startswith(STORAGE_PREFIXES)]
STATELESS = [r for r in ROUTES if not r[1].startswith(STORAGE_PREFIXES)]


def _route_id(r: tuple[str, str, bool]) -> str:
    return f"{r[0]} {r[1]}"


def test_the_route_table_has_the_write_endpoints_we_know() -> None:
    # Guards the enumeration itself: an empty or partial table would make every test below pass vacuously.
    paths = {p for _, p, _ in ROUTES}
    assert {"/api/v1/games", "/api/v1/games/{game_id}", "/api/v1/campaigns/{campaign_id}/map"} <= paths
    assert {
        "/api/v1/rulesets/flanders-fields/lookups/coverage",
        "/api/v1/rulesets/flanders-fields/order-roll",
    } <= paths
    assert len(STORAGE) >= 20 and len(STATELESS) >= 40


# -- the world the requests are sent into -----------------------------------------------------------------
class World:
    """A game and a campaign to aim at, with the tokens that get past authentication to the validation."""

    def __init__(self, client: TestClient, storage: bool = True) -> None:
        self.client = client
        self.game_id = self.campaign_id = 0
        self.referee = self.organiser = self.event_organiser = self.league_organiser = ""
        if storage:
            self._create(client)

    def _create(self, client: TestClient) -> None:
        created = client.post("/api/v1/games", json={"scenario": "mons-1914"})
        assert created.status_code == 201, created.text
        self.game_id = created.json()["game"]["id"]
        self.referee = created.json()["referee_token"]
        camp = client.post("/api/v1/campaigns", json={})
        assert camp.status_code == 201, camp.text
        self.campaign_id = camp.json()["campaign"]["id"]
        self.organiser = camp.json()["organiser_token"]
        event = client.post(
            "/api/v1/events",
            json={"name": "Club night", "ruleset": "flanders-fields", "period": "early", "rounds": 3},
        )
        assert event.status_code == 201, event.text
        self.event_organiser = event.json()["organiser_token"]
        league = client.post("/api/v1/leagues", json={"name": "League"})
        assert league.status_code == 201, league.text
        self.league_organiser = league.json()["organiser_token"]

    def url(self, path: str) -> str:
        values = {
            "game_id": self.game_id,
            "campaign_id": self.campaign_id,
            "unit_id": 1,
            "item_id": 1,
            "event_id": 1,
            "league_id": 1,
            "result_id": 1,  # a league's game
            "key_id": 1,  # a key a league trusts
            "number": 1,  # an event's round
            "table_id": 1,  # an event round's table
            "player_id": 1,  # a player registered at an event
            "side": "attacker",
            "resolver": "order-roll",
            "device_id": 1,
            "template_id": 1,
            "table_battle_id": 1,
            "scenario_id": "mons-1914",
        }
        return re.sub(r"\{(\w+)\}", lambda m: str(values[m.group(1)]), path)

    def headers(self, path: str) -> dict[str, str]:
        token = (
            self.organiser
            if path.startswith("/api/v1/campaigns")
            else self.event_organiser
            if path.startswith("/api/v1/events")
            else self.league_organiser
            if path.startswith("/api/v1/leagues")
            else self.referee
        )
        auth = {"Authorization": f"Bearer {token}"} if token else {}
        return {**auth, "Content-Type": "application/json"}


def _schema() -> dict[str, Any]:
    return default_app.openapi()


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        node = schema["components"]["schemas"][name]
    return node


def _body_properties(method: str, path: str) -> dict[str, dict[str, Any]]:
    """The top-level fields of the endpoint's JSON body, with their (resolved) schemas."""
    schema = _schema()
    op = schema["paths"][path][method.lower()]
    body = _resolve(schema, op["requestBody"]["content"]["application/json"]["schema"])
    return {name: _resolve(schema, prop) for name, prop in body.get("properties", {}).items()}


def _accepts_boolean(schema: dict[str, Any], prop: dict[str, Any]) -> bool:
    if prop.get("type") == "boolean" or prop == {}:
        return True
    return any(_accepts_boolean(schema, _resolve(schema, p)) for p in prop.get("anyOf", []))


def _deep(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


HOSTILE_VALUES = {
    "NaN": "NaN",
    "Infinity": "Infinity",
    "-Infinity": "-Infinity",
    "2**63": str(2**63),
    "2**31": str(2**31),
    "false": "false",
    "300-deep": _deep(DEEP),
    # PostgreSQL text and JSON cannot hold NUL: refused at the door on every backend, naming the field.
    "NUL": '"a\\u0000b"',
}


def _detail(resp: Any) -> Any:
    """The bad fields of a refusal (none for a 400); its one sentence is checked on every test client
    (tests/conftest.py)."""
    body = resp.json()
    assert "detail" in body and ("errors" in body or resp.status_code == 400), body
    return body.get("errors", [])


def _assert_refused_naming_limit(resp: Any, limit: int) -> None:
    assert resp.status_code == 413, (resp.status_code, resp.text[:300])
    assert str(limit) in json.dumps(_detail(resp)), resp.text


def _oversized(client: TestClient, world: World, method: str, path: str, has_body: bool) -> None:
    limit = MAX_BODY_BYTES_DEFAULT
    body = b'{"name": "' + b"x" * limit + b'"}'
    resp = client.request(method, world.url(path), content=body, headers=world.headers(path))
    _assert_refused_naming_limit(resp, limit)
    if not has_body:
        return  # an endpoint without a body never reads one, so a chunked body costs nothing

    # Chunked: no Content-Length to refuse up front, so the count of bytes read must stop it.
    def chunks() -> Iterator[bytes]:
        yield b'{"name": "'
        for _ in range(limit // 65536 + 2):
            yield b"x" * 65536
        yield b'"}'

    resp = client.request(method, world.url(path), content=chunks(), headers=world.headers(path))
    _assert_refused_naming_limit(resp, limit)


def _malformed(client: TestClient, world: World, method: str, path: str) -> None:
    bodies = {
        "malformed JSON": '{"version": ',
        "300-deep body": _deep(DEEP),
        "300-deep list": "[" * DEEP + "]" * DEEP,
        "100000-deep list": "[" * 100_000 + "]" * 100_000,
        "NaN body": "NaN",
    }
    for what, raw in bodies.items():
        resp = client.request(method, world.url(path), content=raw, headers=world.headers(path))
        assert 400 <= resp.status_code < 500, (what, resp.status_code, resp.text[:300])
        detail = _detail(resp)
        if resp.status_code == 422:
            assert all(e["loc"][0] == "body" for e in detail), (what, detail)


def _hostile_fields(client: TestClient, world: World, method: str, path: str) -> None:
    schema = _schema()
    props = _body_properties(method, path)
    assert props, f"{method} {path} has a body without fields"
    for name, prop in props.items():
        for what, literal in HOSTILE_VALUES.items():
            raw = f'{{"{name}": {literal}}}'
            resp = client.request(method, world.url(path), content=raw, headers=world.headers(path))
            assert resp.status_code < 500, (name, what, resp.status_code, resp.text[:300])
            if what == "false" and _accepts_boolean(schema, prop):
                continue
            detail = _detail(resp)
            assert resp.status_code == 422, (name, what, resp.status_code, detail)
            # The field itself is refused (not merely the others found missing), and named.
            named = [e for e in detail if list(e["loc"][:2]) == ["body", name]]
            assert named, (f"{method} {path}: {name}={what} was accepted", detail)


def _check(client: TestClient, world: World, method: str, path: str, has_body: bool) -> None:
    _oversized(client, world, method, path, has_body)
    if has_body:
        _malformed(client, world, method, path)
        _hostile_fields(client, world, method, path)


@pytest.fixture(scope="module", params=BACKENDS)
def storage_world(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[World]:
    """One game and campaign on each backend for every storage route's refusals (a world each cost more than
    the checks): each request is refused before its route acts, or passes `false` to a flag on a body that
    lacks what the route needs, so no route's check changes what the next one meets."""
    var = tmp_path_factory.mktemp("storage")
    if request.param == "sqlite":
        database = nullcontext(_sqlite_clone(request.getfixturevalue("sqlite_template"), var))
    else:
        template = request.getfixturevalue("postgresql_template")
        database = _postgresql_database(_postgresql_base(), template=template)
    with database as url, make_client(url, var) as c:
        yield World(c)


@pytest.mark.parametrize("route", STORAGE, ids=_route_id)
def test_storage_endpoint_refuses_hostile_input(storage_world: World, route: tuple[str, str, bool]) -> None:
    _check(storage_world.client, storage_world, *route)


@pytest.fixture(scope="module")
def sqlite_world(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """One app, game and campaign on SQLite for every route of the stateless and path-id checks (a world or
    app each cost more than the checks): each request is refused before any route acts (stateless routes
    keep nothing anyway), so none changes what the next one meets."""
    var = tmp_path_factory.mktemp("world")
    with make_client(_sqlite_clone(sqlite_template, var), var) as c:
        yield World(c)


@pytest.mark.parametrize("route", STATELESS, ids=_route_id)
def test_stateless_endpoint_refuses_hostile_input(sqlite_world: World, route: tuple[str, str, bool]) -> None:
    _check(sqlite_world.client, World(sqlite_world.client, storage=False), *route)


@pytest.mark.parametrize("route", [r for r in ROUTES if "_id}" in r[1]], ids=_route_id)
def test_ids_in_the_path_are_bounded(sqlite_world: World, route: tuple[str, str, bool]) -> None:
    method, path, _ = route
    world = sqlite_world
    for huge in (2**31, 2**63):
        url = re.sub(r"\{(\w+_id)\}", str(huge), path)
        url = world.url(url)
        resp = world.client.request(method, url, content="{}", headers=world.headers(path))
        assert resp.status_code == 422, (url, resp.status_code, resp.text[:300])
        assert any(e["loc"][0] == "path" for e in _detail(resp))


# -- terrain: the domain's limits, named ------------------------------------------------------------------
def _square(x: float = 10, y: float = 10, size: float = 10) -> list[list[float]]:
    return [[x, y], [x + size, y], [x + size, y + size], [x, y + size], [x, y]]


def _terrain(*features: dict[str, Any]) -> dict[str, Any]:
    return {"type": "FeatureCollection", "features": list(features)}


def _feature(coords: list[list[list[float]]] | None = None, **props: Any) -> dict[str, Any]:
    return {
        "type": "Feature",
        "geometry": {"type": "Polygon", "coordinates": coords or [_square()]},
        "properties": {"kind": "woods", **props},
    }


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"a": value}
    return value


def _circle_ring(n: int) -> list[list[float]]:
    import math

    ring = [
        [60 + 20 * math.cos(2 * math.pi * i / n), 90 + 20 * math.sin(2 * math.pi * i / n)] for i in range(n)
    ]
    return [*ring, ring[0]]


BAD_TERRAIN = {
    "too many features": (
        _terrain(*[_feature([_square(1 + (i % 10) * 11, 1 + (i // 10) * 1.5, 1)]) for i in range(1001)]),
        ["body", "terrain", "features"],
    ),
    "too many vertices in a ring": (
        _terrain(_feature([_circle_ring(5000)])),
        ["body", "terrain", "features", 0, "geometry"],
    ),
    "too many rings": (
        _terrain(_feature([_square(0, 0, 100)] + [_square(1 + i, 1, 0.5) for i in range(60)])),
        ["body", "terrain", "features", 0, "geometry"],
    ),
    "off the table": (
        _terrain(_feature([_square(5000, 10)])),
        ["body", "terrain", "features", 0, "geometry"],
    ),
    "properties nested 300 deep": (
        _terrain(_feature(note=_nested(300))),
        ["body", "terrain", "features", 0, "properties"],
    ),
    "too many properties": (
        _terrain(_feature(**{f"p{i}": i for i in range(200)})),
        ["body", "terrain", "features", 0, "properties"],
    ),
    "a long string": (
        _terrain(_feature(name="x" * 100_000)),
        ["body", "terrain", "features", 0, "properties"],
    ),
    "NaN in properties": (
        _terrain(_feature(note={"x": [float("nan")]})),
        ["body", "terrain", "features", 0, "properties"],
    ),
}


def _post_json(client: TestClient, url: str, payload: Any, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    # json.dumps writes NaN as the literal NaN, as a hostile client would.
    return client.post(url, content=json.dumps(payload), headers=headers)


@pytest.mark.parametrize("case", BAD_TERRAIN, ids=list(BAD_TERRAIN))
def test_game_terrain_beyond_the_table_is_refused_naming_the_field(client: TestClient, case: str) -> None:
    terrain, loc = BAD_TERRAIN[case]
    resp = _post_json(client, "/api/v1/games", {"name": "hostile", "terrain": terrain})
    assert resp.status_code == 422, (resp.status_code, resp.text[:500])
    detail = resp.json()["errors"]
    assert any(e["loc"][: len(loc)] == loc for e in detail), detail
    assert client.get("/api/v1/games").json() == [], "nothing stored"

    world = World(client)
    patched = client.patch(
        f"/api/v1/games/{world.game_id}",
        content=json.dumps({"version": 1, "terrain": terrain}),
        headers=world.headers("/api/v1/games"),
    )
    assert patched.status_code == 422, (patched.status_code, patched.text[:500])
    assert any(e["loc"][: len(loc)] == loc for e in patched.json()["errors"])


@pytest.mark.storage
def test_the_largest_legitimate_game_fits_under_the_limits(client: TestClient) -> None:
    """A full table: the most features, each ring at the vertex cap, forces for both sides."""
    from app.data.bounded import MAX_FEATURES, MAX_VERTICES_PER_RING, MAX_VERTICES_TOTAL

    per_feature = MAX_VERTICES_TOTAL // MAX_FEATURES
    assert per_feature <= MAX_VERTICES_PER_RING
    features = []
    for i in range(MAX_FEATURES):
        x, y = 2 + (i % 20) * 5.9, 2 + (i // 20) * 7
        n = per_feature - 1
        import math

        ring = [
            [x + 2 + 2 * math.cos(2 * math.pi * k / n), y + 2 + 2 * math.sin(2 * math.pi * k / n)]
            for k in range(n)
        ]
        features.append(_feature([[*ring, ring[0]]], name=f"wood {i}", note="thick undergrowth"))
    body = {
        "name": "the largest game",
        "period": "early",
        "terrain": _terrain(*features),
        "forces": [
            {"side": "attacker", "table_id": "de-1914"},
            {"side": "defender", "table_id": "gb-1914"},
        ],
    }
    raw = json.dumps(body)
    assert len(raw.encode()) < MAX_BODY_BYTES_DEFAULT
    resp = client.post("/api/v1/games", content=raw, headers={"Content-Type": "application/json"})
    assert resp.status_code == 201, resp.text[:500]


@pytest.mark.parametrize("version", [2**31, 2**63, -1, True], ids=["2**31", "2**63", "negative", "true"])
@pytest.mark.storage
def test_unit_version_out_of_range_is_refused(client: TestClient, version: Any) -> None:
    world = World(client)
    units = client.get(f"/api/v1/games/{world.game_id}/units", headers=world.headers("/api/v1/games")).json()
    unit = units[0]
    resp = client.put(
        f"/api/v1/games/{world.game_id}/units/{unit['id']}",
        content=json.dumps({"version": version}),
        headers=world.headers("/api/v1/games"),
    )
    assert resp.status_code == 422, resp.text
    assert any(e["loc"] == ["body", "version"] for e in resp.json()["errors"])


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity"])
def test_aiming_point_must_be_finite(client: TestClient, value: str) -> None:
    world = World(client)
    units = client.get(f"/api/v1/games/{world.game_id}/units", headers=world.headers("/api/v1/games")).json()
    unit = units[0]
    resp = client.put(
        f"/api/v1/games/{world.game_id}/units/{unit['id']}",
        content=f'{{"version": {unit["version"]}, "aiming_point": [10, {value}]}}',
        headers=world.headers("/api/v1/games"),
    )
    assert resp.status_code == 422, resp.text
    assert any(e["loc"][:3] == ["body", "aiming_point", 1] for e in resp.json()["errors"])


@pytest.mark.parametrize("where", ["fields", "fields.nested"])
def test_resolve_fields_refuse_deep_and_non_finite_values(client: TestClient, where: str) -> None:
    world = World(client)
    for hostile in (_nested(300), float("nan"), float("inf")):
        fields = {"unit": hostile} if where == "fields" else {"unit": {"x": [hostile]}}
        resp = _post_json(
            client, f"/api/v1/games/{world.game_id}/resolve/order-roll", {"fields": fields}, world.referee
        )
        assert resp.status_code == 422, resp.text[:300]
        assert any(e["loc"][:2] == ["body", "fields"] for e in resp.json()["errors"])


@pytest.mark.parametrize("value", ["NaN", "Infinity", "1e400", "true"])
def test_resolver_requests_refuse_non_finite_and_boolean_numbers(
    reading_client: TestClient, value: str
) -> None:
    resp = reading_client.post(
        "/api/v1/rulesets/flanders-fields/lookups/distance",
        content='{"a": {"base": "infantry", "center": [10, 10]}, "b": {"base": "infantry", "center": [20, '
        + value
        + "]}}",
        headers={"Content-Type": "application/json"},
    )
    assert resp.status_code == 422, resp.text
    # A rule set's own request model: the base config refuses them for every resolver.
    resp = reading_client.post(
        "/api/v1/rulesets/flanders-fields/order-roll",
        content='{"period": "early", "unit": "rifle-company", "dice": [' + value + "]}",
        headers={"Content-Type": "application/json"},
    )
    assert resp.status_code == 422, resp.text
    assert any(e["loc"][:2] == ["body", "dice"] for e in resp.json()["errors"]), resp.text


# -- what is already stored: reads never fail, the lobby never loads it ---------------------------------------
def _store_terrain(client: TestClient, game_id: int, terrain: dict[str, Any]) -> None:
    """Write terrain straight into the table, past the API's limits, as an older version might have."""
    engine = client.app.state.engine  # type: ignore[attr-defined]
    with engine.begin() as conn:
        conn.execute(
            text("UPDATE game SET terrain = :t WHERE id = :id"), {"t": json.dumps(terrain), "id": game_id}
        )


@functools.cache
def huge_stored() -> dict[str, Any]:
    """Past every limit the API puts on terrain, as an older version might have stored it: one ring of three times
    the vertices a whole terrain may have, a note nested 300 deep, larger than any request body the API takes.
    (It was 200,000 vertices, 8 MB: the same limits passed, ~1 s more of each read of the state.) Made once, in
    the worker that runs a test of it (at import, both workers made it while collecting)."""
    from app.data.bounded import MAX_VERTICES_TOTAL

    huge = _terrain(_feature([_circle_ring(3 * MAX_VERTICES_TOTAL)], note=_nested(300)))
    assert len(json.dumps(huge)) > MAX_BODY_BYTES_DEFAULT
    return huge


@pytest.mark.storage
def test_a_stored_deep_or_huge_terrain_never_makes_a_read_fail(client: TestClient) -> None:
    world = World(client)
    _store_terrain(client, world.game_id, huge_stored())
    auth = {"Authorization": f"Bearer {world.referee}"}
    for url in (
        f"/api/v1/games/{world.game_id}/state",
        f"/api/v1/games/{world.game_id}",
        "/api/v1/games",
        f"/api/v1/games/{world.game_id}/turn",
        f"/api/v1/games/{world.game_id}/units",
        "/",
    ):
        resp = client.get(url, headers=auth)
        assert resp.status_code == 200, (url, resp.status_code, resp.text[:300])


def _statements_during(client: TestClient, url: str) -> list[str]:
    engine = client.app.state.engine  # type: ignore[attr-defined]
    seen: list[str] = []

    def record(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", record)
    try:
        resp = client.get(url)
        assert resp.status_code == 200, resp.text[:300]
    finally:
        event.remove(engine, "before_cursor_execute", record)
    return seen


@pytest.mark.parametrize("url", ["/api/v1/games", "/"])
def test_the_lobby_never_loads_terrain_or_board(client: TestClient, url: str) -> None:
    world = World(client)
    _store_terrain(client, world.game_id, huge_stored())
    statements = [s for s in _statements_during(client, url) if re.search(r"\bFROM game\b", s)]
    assert statements, "the lobby reads the games"
    for s in statements:
        assert not re.search(r"\bgame\.(terrain|board)\b", s), s
    lobby = client.get("/api/v1/games").json()
    assert [g["id"] for g in lobby] == [world.game_id]
    assert "terrain" not in lobby[0]


@pytest.mark.parametrize("url", ["/api/v1/campaigns", "/campaigns"])
def test_the_campaign_lobby_never_loads_a_campaigns_state(client: TestClient, url: str) -> None:
    """The lobby shows each campaign's turn and phase, read out of the state by the database: the state
    itself (the whole campaign map and its troops) is never loaded."""
    world = World(client)
    statements = [s for s in _statements_during(client, url) if re.search(r"\bFROM campaign\b", s)]
    assert statements, "the lobby reads the campaigns"
    # What the database reads out of the state in place (SQLite JSON_EXTRACT, PostgreSQL ->>) is allowed.
    extract = re.compile(r"JSON_EXTRACT\(campaign\.state, [^)]*\)|campaign\.state\s*->>?\s*[^\s)]+")
    for s in statements:
        assert not re.search(r"\bcampaign\.(state|adjacency)\b", extract.sub("", s)), s
    if url.startswith("/api"):
        (lobby,) = client.get(url).json()
        assert lobby["id"] == world.campaign_id and (lobby["turn"], lobby["phase"]) == (1, "initiative")
    else:
        assert "turn 1 · initiative" in client.get(url).text


@pytest.mark.storage
def test_nul_characters_are_refused_wherever_they_come_in(client: TestClient) -> None:
    """A NUL in a JSON string (a value or a key, however deep), a form field, a query parameter or the path
    is a 422 naming where it is, never a 500 from the database."""
    c = client
    r = c.post("/api/v1/games", json={"scenario": "mons-1914", "name": "a\u0000b"})
    assert r.status_code == 422 and _detail(r)[0]["loc"] == ["body", "name"], r.text
    r = c.post("/api/v1/games", json={"scenario": "mons-1914", "variants": {"x\u0000": "y"}})
    assert r.status_code == 422 and _detail(r)[0]["loc"] == ["body", "variants", "x\u0000"], r.text
    r = c.post("/api/v1/join", json={"code": "AB\u0000C"})
    assert r.status_code == 422 and _detail(r)[0]["loc"] == ["body", "code"], r.text
    r = c.post("/join", data={"code": "AB\x00C"})
    assert r.status_code == 422 and "code" in r.text, r.text
    r = c.get("/api/v1/games", params={"q": "a\x00"})
    assert r.status_code == 422 and _detail(r)[0]["loc"] == ["query", "q"], r.text
    r = c.get("/lookup/flanders-fields/order-roll%00")
    assert r.status_code == 422 and _detail(r)[0]["loc"] == ["path"], r.text
    # A literal backslash-u text is not a NUL and passes.
    r = c.post("/api/v1/games", json={"scenario": "mons-1914", "name": "a\\u0000b"})
    assert r.status_code == 201, r.text
    assert c.get(f"/api/v1/games/{r.json()['game']['id']}").json()["name"] == "a\\u0000b"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"])
@pytest.mark.parametrize("content_type", ["application/json", None])
def test_json_in_another_encoding_than_utf8_is_refused(
    client: TestClient, encoding: str, content_type: str | None
) -> None:
    """json.loads reads UTF-16 and UTF-32 too, where the NUL test on the body's bytes cannot see an escaped
    NUL: such a body is a 422 on every backend (a 500 on PostgreSQL and a stored NUL on SQLite before), with
    or without a content type (FastAPI parses a body that names none as JSON)."""
    body = json.dumps({"scenario": "mons-1914", "name": "a\u0000b"}).encode(encoding)
    headers = {"content-type": content_type} if content_type else {}
    before = client.get("/api/v1/games").json()
    r = client.post("/api/v1/games", content=body, headers=headers)
    assert r.status_code == 422, r.text
    assert _detail(r)[0]["loc"] == ["body"] and "UTF-8" in _detail(r)[0]["msg"], r.text
    assert client.get("/api/v1/games").json() == before
    # The same request in UTF-8, with and without a byte-order mark, is read (and its NUL refused by name).
    for utf8 in (body.decode(encoding).encode("utf-8"), body.decode(encoding).encode("utf-8-sig")):
        r = client.post("/api/v1/games", content=utf8, headers=headers)
        assert r.status_code == 422 and _detail(r)[0]["loc"] == ["body", "name"], r.text


def test_the_doors_own_refusals_carry_the_security_headers(reading_client: TestClient) -> None:
    """A body over the size limit and a NUL are answered before any route runs: with the headers all the same."""
    from tests.app.hostile.test_csrf_headers_limits import assert_security_headers

    declared = reading_client.post(
        "/api/v1/games", content=b"{}", headers={"content-length": str(MAX_BODY_BYTES_DEFAULT + 1)}
    )
    streamed = reading_client.post("/api/v1/games", content=iter([b"x" * MAX_BODY_BYTES_DEFAULT, b"x"]))
    nul = reading_client.post("/api/v1/games", json={"name": "a\u0000"})
    for r, status in ((declared, 413), (streamed, 413), (nul, 422)):
        assert r.status_code == status, r.text
        assert_security_headers(r)


def test_an_unreadable_cookie_header_is_a_refusal_naming_it(reading_client: Any) -> None:
    """asgi-csrf parses the Cookie header with http.cookies, which raises on "$;": a 422, never a 500."""
    r = reading_client.get("/api/v1/events/1/board", headers={"Cookie": "0=;$; firestep_organiser=00"})
    assert r.status_code == 422 and r.json()["field"] == "cookie"


def test_an_id_of_more_digits_than_python_converts_names_no_route(sqlite_world: World) -> None:
    """The hostile pass of session 17: an `{id:int}` of 4,301 digits or more matched the route and its conversion
    raised (Python converts at most 4,300 digits): a 500. It names no route now (app/__init__.py)."""
    paths = {
        r.path
        for r in iter_route_contexts(sqlite_world.client.app.routes)
        if ":int}" in getattr(r, "path", "")
    }
    assert paths, "no route takes an {id:int}: this test would prove nothing"
    for path in sorted(paths):
        url = re.sub(r"\{\w+:int\}", "9" * 4301, path)
        resp = sqlite_world.client.get(url, headers=sqlite_world.headers(path))
        assert resp.status_code in (404, 405), (path, resp.status_code, resp.text[:200])


# -- the lookup's ids in the query: bounded as a path's are ------------------------------------------------------
def test_the_lookups_game_and_unit_ids_in_the_query_are_bounded(client: TestClient) -> None:
    """The hostile pass: a game's or a unit's id in a lookup page's query past SQLite's 64 bits was a 500 (the
    database could not cast it), and `3_0` read as 30. Each is a 422 naming the field; a whole id still reads."""
    from app.guard.auth import COOKIE_NAME
    from tests.app.games.conftest import new_game

    g = new_game(client)
    client.cookies.set(COOKIE_NAME, g.referee["Authorization"].removeprefix("Bearer "))
    pages = ("/lookup?game={game}", "/lookup/flanders-fields/order-roll?game={game}",
             "/lookup/flanders-fields/order-roll/errata?game={game}")  # fmt: skip
    try:
        for page in pages:
            assert client.get(page.format(game=g.id)).status_code == 200, page
            for bad in (str(2**63), str(2**31), "-9223372036854775809", "0", f"{g.id}_0", f"+{g.id}"):
                url = page.format(game=bad)
                answer = client.get(url)
                assert answer.status_code == 422 and "game" in answer.text, (url, answer.status_code)
            url = f"{page.format(game=g.id)}&unit={2**63}"
            if "errata" not in page:
                answer = client.get(url)
                assert answer.status_code == 422 and "unit" in answer.text, (url, answer.status_code)
    finally:
        client.cookies.clear()


def test_a_host_header_longer_than_a_host_name_is_refused_at_the_door(client: TestClient) -> None:
    """The hostile pass: the pages write their links and QR codes from the Host header, and one of 2,300 characters
    was a 500 where the QR encoder could not hold the link. A host name and its port are at most 259 characters:
    a longer Host is a 400 naming it, whatever the address; the longest a host can be is served."""
    from app.guard.limits import HOST_MOST

    longest = "h" * (HOST_MOST - len(":8000")) + ":8000"
    assert client.get("/", headers={"host": longest}).status_code == 200
    for path in ("/", "/events", "/api/v1/rulesets"):
        answer = client.get(path, headers={"host": longest + "h"})
        assert answer.status_code == 400 and answer.json()["field"] == "host", (path, answer.text[:300])
