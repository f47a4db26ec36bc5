"""The worst texts a user can give, in every text a scenario, a game and a fire plan store: each is either
stored as given and then read back by every page, export, sheet and live frame (none of them failing), or
refused at the door with a 422 naming its field (a lone surrogate, which JSON can escape but no encoding can
write: stored, it made every later read of its scenario or game a 500). Both backends. Values outside the
format's own vocabulary (a unit's level, kind or gun) and units nested past its depth are refused by name."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rules.flanders_fields.shipped import DOCUMENTS
from tests.app.games.conftest import Game, bearer, live_url  # noqa: F401  (live_url is a fixture)
from tests.app.hostile.test_secrets import advance, aiming_point, pdf_text, sse_frames

# Stored as given and read back everywhere, escaped where markup is: markup, a template's own syntax, SQL, a
# right-to-left override, astral and combining characters, a byte-order mark, line and paragraph separators,
# controls, and a text of backslash escapes.
WORST = (
    '<script>alert("x")</script><img src=x onerror=alert(1)>',
    "{{ 7*7 }} {% raw %}${7*7}",
    "'; DROP TABLE game; --",
    "\u202eevil\u202c \ufeff\u2028\u2029",
    "😀 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 e\u0301 \U0010fffd",
    "tab\tline\r\nbell\x07 esc\x1b",
    "\\ud800 \\u0000 %00 %ED%A0%80",
)
# Refused with the field named: no encoding writes a lone surrogate, and PostgreSQL holds no NUL.
UNSTORABLE = ("a\ud800b", "\udfff", "a\x00b")
WORST_TEXT = " | ".join(WORST)


def ok(r: Any, status: int = 200) -> Any:
    assert r.status_code == status, r.text[:500]
    return r.json() if r.headers.get("content-type", "").startswith("application/json") else r.text


def post_json(c: TestClient, path: str, body: Any, **kw: Any) -> Any:
    """Sent as a browser's JSON.stringify sends it: lone surrogates escaped, everything else as UTF-8."""
    raw = json.dumps(body, ensure_ascii=False, allow_nan=False).encode("utf-8", "surrogatepass")
    raw = raw.replace(b"\xed\xa0\x80", b"\\ud800").replace(b"\xed\xbf\xbf", b"\\udfff")
    return c.request(
        kw.pop("method", "POST"), path, content=raw, headers={"content-type": "application/json"}
    )


def strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def worst_scenario(text: str) -> tuple[dict[str, Any], list[list[str | int]]]:
    """Mons 1914 with `text` in every text field a scenario stores, and the paths of those fields."""
    doc = copy.deepcopy(dict(DOCUMENTS["mons-1914"]))
    doc.pop("id")
    doc["fire_plan"] = {}
    unit = doc["sides"]["attacker"]["forces"][0]
    feature = doc["terrain"]["features"][0]["properties"]
    fields: list[list[str | int]] = []
    for path, value in (
        (["title"], text[:200]),
        (["date"], text[:100]),
        (["source"], text),
        (["objectives"], text),
        (["victory"], text),
        (["notes", 0], text),
        (["fire_plan", "memo"], text),
        (["terrain", "features", 0, "properties", "name"], text),
        (["terrain", "features", 0, "properties", "memo"], text),
        (["sides", "attacker", "forces", 0, "name"], text[:200]),
        (["sides", "attacker", "forces", 0, "source"], text[:300]),
    ):
        node: Any = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        fields.append(path)
    assert unit["name"] and feature["name"]
    return doc, fields


@pytest.mark.storage
def test_the_worst_texts_are_stored_and_read_back_by_every_page_export_sheet_and_frame(
    client: TestClient,
    backend: str,
    live_url: str,  # noqa: F811
) -> None:
    c = client
    # A PDF renders its print view's HTML (read below on both backends) in the worker: rendered on SQLite, it
    # would render the same on PostgreSQL, where each render cost seconds of the suite and proved no storage.
    pdfs = backend == "sqlite"
    doc, _ = worst_scenario(WORST_TEXT)
    stored = ok(post_json(c, "/api/v1/scenarios", doc), 201)
    sid = stored["id"]
    doc["id"] = sid
    assert ok(c.get(f"/api/v1/scenarios/{sid}")) == doc  # exactly as given
    assert ok(post_json(c, f"/api/v1/scenarios/{sid}", doc, method="PUT")) == doc
    assert sid in {s["id"] for s in ok(c.get("/api/v1/scenarios"))}
    sheet = c.get(f"/api/v1/scenarios/{sid}/sheet.pdf" if pdfs else f"/api/v1/scenarios/{sid}/sheet")
    assert sheet.status_code == 200, sheet.text[:300]
    assert "DROP TABLE game" in (pdf_text(sheet) if pdfs else sheet.text)
    editor = ok(c.get(f"/scenarios/{sid}/edit"))
    assert "<script>alert(" not in editor

    # A game made from it, named with the worst texts, a fire plan item and a unit edit with them too.
    body = ok(post_json(c, "/api/v1/games", {"scenario": sid, "name": WORST_TEXT[:100]}), 201)
    tokens = {}
    for side in ("attacker", "defender"):
        tokens[side] = bearer(ok(c.post("/api/v1/join", json={"code": body["join_codes"][side]}))["token"])
        c.cookies.clear()
    g = Game(
        body["game"]["id"], bearer(body["referee_token"]), tokens["attacker"], tokens["defender"], {}, body
    )
    api = f"/api/v1/games/{g.id}"
    plan = f"{api}/fireplans/attacker/items"
    item = aiming_point(WORST_TEXT[:64], 1)
    ok(c.post(plan, headers=g.attacker, json=item), 201)
    for side, who in (("attacker", g.attacker), ("defender", g.defender)):
        ok(c.post(f"{api}/fireplans/{side}/lock", headers=who))
    advance(c, g)  # the game starts: the item arrives, logged in the frames

    last = ok(c.get(f"{api}/events", headers=g.referee))[-1]["id"]
    for who in (g.referee, g.attacker, g.defender):
        for path in (
            api,
            f"{api}/state",
            f"{api}/units",
            f"{api}/events",
            f"{api}/report",
            f"{api}/turn",
            f"{api}/me",
            f"{api}/arrivals",
            f"{api}/fireplans",
            f"{api}/fireplans/attacker/items",
            f"/playsheets/games/{g.id}",
            f"/playsheets/games/{g.id}/fire-plan/attacker",
            f"/playsheets/games/{g.id}/aiming-points",
        ):
            r = c.get(path, headers=who)
            assert r.status_code in (200, 403), (path, r.status_code, r.text[:300])
        for pdf in (
            f"/playsheets/games/{g.id}/fire-plan/attacker.pdf",
            f"/playsheets/games/{g.id}/aiming-points.pdf",
        ):
            if pdfs:
                pdf_text(c.get(pdf, headers=who))
        frames = sse_frames(live_url, g.id, who, last)
        assert frames and frames[-1]["id"] == last
        for frame in frames:
            json.loads(frame["data"])
    # The referee reads the worst texts back as given, in the state and the units.
    state = ok(c.get(f"{api}/state", headers=g.referee))
    assert WORST_TEXT in strings(state["terrain"]) and state["name"] == WORST_TEXT[:100]
    units = ok(c.get(f"{api}/units", headers=g.referee))
    assert WORST_TEXT[:200] in {u["name"] for u in units}
    # Every page of the game, for each seat: it answers, and markup in the texts is escaped.
    for who in (g.referee, g.attacker, g.defender):
        c.cookies.set("firestep_token", who["Authorization"].removeprefix("Bearer "))
        for page in (
            f"/games/{g.id}/referee",
            f"/games/{g.id}/map",
            f"/games/{g.id}/report",
            f"/games/{g.id}/fire-plan",
            f"/games/{g.id}/referee/changes?after=0",
            f"/games/{g.id}/join-cards",
            *([f"/games/{g.id}/join-cards.pdf"] if pdfs else []),
            f"/games/{g.id}/join/attacker",
            f"/games/{g.id}/table/edit",
            f"/lookup?game={g.id}",
            f"/lookup/flanders-fields/random-event?game={g.id}",
            "/",
        ):
            r = c.get(page)
            assert r.status_code in (200, 403, 409), (page, r.status_code, r.text[:300])
            assert "<script>alert(" not in r.text, page
        c.cookies.clear()


UNSTORABLE_AT = [
    ["title"],
    ["notes", 0],
    ["fire_plan", "memo"],
    ["terrain", "features", 0, "properties", "name"],
    ["sides", "attacker", "forces", 0, "name"],
]


@pytest.mark.storage
@pytest.mark.parametrize("text", UNSTORABLE, ids=["surrogate", "low-surrogate", "nul"])
def test_unstorable_text_is_refused_naming_its_field_and_nothing_is_stored(
    client: TestClient, text: str
) -> None:
    c = client
    before = ok(c.get("/api/v1/scenarios"))
    sid = ok(c.post("/api/v1/scenarios", json=worst_scenario("plain")[0]), 201)["id"]
    for path in UNSTORABLE_AT:
        doc, _ = worst_scenario("plain")
        node: Any = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = text
        for method, url in (("POST", "/api/v1/scenarios"), ("PUT", f"/api/v1/scenarios/{sid}")):
            r = post_json(c, url, doc, method=method)
            assert r.status_code == 422, (path, r.text[:300])
            assert r.json()["errors"][0]["loc"] == ["body", *path], r.text
            assert len(r.json()["detail"]) <= 120
    assert len(ok(c.get("/api/v1/scenarios"))) == len(before) + 1
    assert ok(c.get(f"/api/v1/scenarios/{sid}"))["title"] == doc["title"]
    # A game's name and terrain, and a fire plan's item, alike.
    r = post_json(c, "/api/v1/games", {"scenario": "mons-1914", "name": text})
    assert r.status_code == 422 and r.json()["field"] == "name", r.text
    terrain = {
        "type": "FeatureCollection",
        "features": [copy.deepcopy(DOCUMENTS["mons-1914"]["terrain"]["features"][0])],
    }
    terrain["features"][0]["properties"]["name"] = text
    r = post_json(c, "/api/v1/games", {"name": "ok", "terrain": terrain})
    assert r.status_code == 422, r.text
    assert r.json()["errors"][0]["loc"] == ["body", "terrain", "features", 0, "properties", "name"]


def _nested(levels: int) -> dict[str, Any]:
    top: dict[str, Any] = {"id": "n0", "name": "n", "level": "company", "kind": "rifle-company"}
    unit = top
    for i in range(1, levels):
        child = {"id": f"n{i}", "name": "n", "level": "company", "kind": "rifle-company"}
        unit["children"] = [child]
        unit = child
    return top


@pytest.mark.parametrize(
    ("key", "value", "where"),
    [
        ("gun", "ray-gun", "sides.attacker.forces.0.gun"),
        ("kind", "dragoon-of-mars", "sides.attacker.forces.0.kind"),
        ("level", "army-group", "sides.attacker.forces.0.level"),
        ("gun", "", "sides.attacker.forces.0.gun"),
        # Nested past the format's 20 levels: refused at the door, naming the forces list (app/data/bounded.py).
        ("children", [_nested(127)], "sides.attacker.forces"),
    ],
)
def test_values_outside_the_formats_vocabulary_and_depth_are_refused_by_name(
    reading_client: TestClient, key: str, value: Any, where: str
) -> None:
    doc, _ = worst_scenario("plain")
    doc["sides"]["attacker"]["forces"][0][key] = value
    r = reading_client.post("/api/v1/scenarios", json=doc)
    assert r.status_code == 422, r.text[:300]
    assert r.json()["field"].startswith(where), r.text[:300]
    assert len(r.json()["detail"]) <= 120


def test_a_special_rule_the_rule_set_does_not_have_is_refused_by_name(reading_client: TestClient) -> None:
    doc, _ = worst_scenario("plain")
    doc["special_rules"] = {"attacker": ["prussian-discipline", "death-ray"]}
    r = reading_client.post("/api/v1/scenarios", json=doc)
    assert r.status_code == 422, r.text[:300]
    assert r.json()["field"] == "special_rules.attacker.1" and "prussian-discipline" in r.json()["allowed"]
