"""The scenario editor's page without a browser: what it carries from the rules (each terrain kind's cover and
movement, the zones' depth), the organiser key where the server wants one, and its refusals as pages."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.config import Settings
from app.main import create_app
from rules.flanders_fields.book.cover import cover_for
from rules.flanders_fields.planning.scenarios import DEPLOY_DEPTH
from rules.flanders_fields.resolvers.movement import move_allowance_cm
from rules.table.terrain import FEATURE_KINDS
from tests.frontend.test_start_page_http import link


def editor_data(html: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="scn-data">(.*?)</script>', html, re.S)
    assert found, "the page carries no editor data"
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def test_the_page_carries_the_rules_terrain_cover_and_movement(sqlite_client: TestClient) -> None:
    page = sqlite_client.get("/scenarios/new")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    data = editor_data(page.text)
    kinds = {k["kind"]: k for k in data["kinds"]}
    assert list(kinds) == list(FEATURE_KINDS)
    for kind in FEATURE_KINDS:
        assert kinds[kind]["cover"]["cover"] == cover_for([kind]), kind
    # Combinations the book names: "a trench in a wood is classed as Hard Cover rather than Medium".
    assert {"kinds": ["trench"], "cover": cover_for(["woods", "trench"])} in [
        {k: w[k] for k in ("kinds", "cover")} for w in kinds["woods"]["with"]
    ]
    # Woods are Close Terrain in the movement table; roads are roads.
    for kind, terrain in (("woods", "close"), ("road", "road"), ("hill", "cross-country")):
        row = kinds[kind]["move"]["by_period"]["mid"]["infantry"]
        assert kinds[kind]["move"]["terrain"] == terrain
        assert row["allowance_cm"] == move_allowance_cm("mid", "infantry", terrain)
    # Lines that become areas ask for their breadth; wire has its standard belt.
    assert (kinds["trench"]["breadth"], kinds["wire"]["breadth"], kinds["woods"]["breadth"]) == (
        "width_cm",
        "depth_cm",
        None,
    )
    assert data["zone_depth"]["cm"] == DEPLOY_DEPTH
    assert "data-organiser-key" not in page.text  # this server does not ask for one


def test_edit_pages_know_shipped_from_stored_and_refuse_unknown(client: TestClient) -> None:
    mons = client.get("/scenarios/mons-1914/edit")
    assert mons.status_code == 200 and "data-shipped" in mons.text
    missing = client.get("/scenarios/no-such-scenario/edit")
    assert missing.status_code == 404 and "text/html" in missing.headers["content-type"]
    assert "no-such-scenario" in missing.text
    odd = client.get("/scenarios/%3Cb%3E%20not%20an%20id/edit")
    assert odd.status_code == 404 and "text/html" in odd.headers["content-type"] and "<b>" not in odd.text


@pytest.fixture
def keyed_client(migrated_url: str, tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(database_url=migrated_url, var_dir=tmp_path, organiser_key="club-night-key")
    with TestClient(create_app(settings)) as c:
        yield c


def test_the_page_asks_for_the_organiser_key_where_the_server_wants_it(keyed_client: TestClient) -> None:
    page = keyed_client.get("/scenarios/new")
    assert page.status_code == 200
    assert "data-organiser-key" in page.text and 'data-organiser-header="X-Organiser-Key"' in page.text
    # The game is started through the start page's form, which takes the key as a field.
    assert re.search(r'<form method="post" action="/games/new"[^>]*data-start-form', page.text)
    # The key typed once in the Save panel is sent with Start as a copy of that field (dom.js's data-copy-of).
    assert re.search(
        r'<input type="hidden" name="organiser_key" value="" data-copy-of="scn-organiser-key">', page.text
    )
    assert 'id="scn-organiser-key" name="organiser_key"' in page.text


def test_a_2mm_scenarios_page_carries_its_chart_its_terrain_classes_and_its_demo(
    sqlite_client: TestClient,
) -> None:
    start = sqlite_client.get("/").text
    page = sqlite_client.get(link(start, "Build a Battle for 2mm Earth 1418 scenario"))
    assert page.status_code == 200
    data = editor_data(page.text)
    assert (data["ruleset"], data["has_periods"], data["class_property"]) == (
        "2mm-earth-1418",
        False,
        "terrain_class",
    )
    # Its terrain classes (the kit's), each with its cover, and its forces from its characteristics chart.
    assert [c["id"] for c in data["classes"]] == [
        "open",
        "rough",
        "defensible",
        "fortification",
        "impractical",
        "road",
    ]
    assert data["chart"]["title"] == "characteristics chart" and "data-chart-forces" in page.text
    assert "data-org-forces" not in page.text and "data-terrain-class" in page.text
    # Its bases by kind (deployed to scale) and zones as deep as its demo battle's.
    assert data["sizes"]["bases"]["line-inf"] == {"shape": "rect", "w": 2.0, "d": 1.0}
    assert data["zone_depth"]["cm"] == 60
    # Its demo opens in the editor as an example, as a 2mm scenario (a shipped one: saving makes a copy).
    demo = sqlite_client.get(link(page.text, "The farm and the redoubt: a demo battle for 2mm Earth 1418"))
    assert demo.status_code == 200 and "data-shipped" in demo.text
    assert editor_data(demo.text)["ruleset"] == "2mm-earth-1418"
    assert sqlite_client.get("/scenarios/new?ruleset=chess").status_code == 404
