"""The HTML routes without a browser: page or fragment by HX-Request, every resolver's form for every period,
the installable-app files, and errors as pages rather than JSON."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from app.routes.pages import form_specs, humanise, period_labels
from rules.registry import all_rulesets

RESOLVERS = [
    (rs.id, rid, p) for rs in all_rulesets() for rid in rs.resolvers for p in (rs.period_ids or (None,))
]


def test_lookup_is_a_page_or_a_fragment(sqlite_client: TestClient) -> None:
    page = sqlite_client.get("/lookup")
    assert page.status_code == 200 and page.text.lstrip().startswith("<!doctype html>")
    fragment = sqlite_client.get("/lookup", headers={"HX-Request": "true"})
    assert fragment.status_code == 200
    assert "<html" not in fragment.text and 'id="panel"' in fragment.text


@pytest.mark.parametrize(("ruleset", "resolver", "period"), RESOLVERS)
def test_every_resolver_form_renders_and_rolls(
    sqlite_client: TestClient, ruleset: str, resolver: str, period: str | None
) -> None:
    q = f"?period={period}" if period else ""
    form = sqlite_client.get(f"/lookup/{ruleset}/{resolver}{q}", headers={"HX-Request": "true"})
    assert form.status_code == 200, form.text
    rolled = sqlite_client.post(
        f"/lookup/{ruleset}/{resolver}",
        data={"period": period or "", "action": "roll"},
        headers={"HX-Request": "true"},
    )
    assert rolled.status_code == 200, rolled.text
    # Either an answer or a refusal in words; never a raw JSON body.
    assert 'id="answer"' in rolled.text or 'class="errors"' in rolled.text
    assert '{"detail"' not in rolled.text


def test_unknown_resolver_is_an_html_404(sqlite_client: TestClient) -> None:
    r = sqlite_client.get("/lookup/flanders-fields/no-such-thing")
    assert r.status_code == 404
    assert "text/html" in r.headers["content-type"] and "unknown resolver" in r.text


def test_game_pages_ask_to_join_without_a_seat(sqlite_client: TestClient) -> None:
    created = sqlite_client.post("/api/v1/games", json={"scenario": "mons-1914"}).json()
    gid = created["game"]["id"]
    for page in ("referee", "map", "fire-plan"):
        r = sqlite_client.get(f"/games/{gid}/{page}")
        assert r.status_code == 401 and "Join code" in r.text
    assert sqlite_client.get("/games/999999/referee").status_code == 404


def test_bad_join_code_is_a_message(sqlite_client: TestClient) -> None:
    r = sqlite_client.post("/join", data={"code": "ZZZZZ-ZZZZZ"})
    assert r.status_code == 422 and "not known here" in r.text


def test_installable_app_files(sqlite_client: TestClient) -> None:
    manifest = json.loads(sqlite_client.get("/manifest.webmanifest").text)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/lookup"
    sizes = {i["sizes"] for i in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert sqlite_client.get(icon["src"]).status_code == 200
    sw = sqlite_client.get("/sw.js")
    assert sw.status_code == 200 and "javascript" in sw.headers["content-type"]
    for line in sw.text.splitlines():  # every file the worker caches exists
        line = line.strip().rstrip(",")
        if line.startswith('"/'):
            assert sqlite_client.get(line.strip('"')).status_code == 200, line


def test_form_specs_from_a_schema() -> None:
    from rules.registry import get_ruleset

    specs = {s.name: s for s in form_specs(get_ruleset("flanders-fields").resolvers["order-roll"].Request)}
    assert specs["quality"].kind == "enum" and "veteran" in specs["quality"].options
    assert specs["command_suppression"].kind == "int" and specs["command_suppression"].minimum == 0
    assert specs["in_gas"].kind == "bool"
    assert "period" not in specs and "dice" not in specs


def test_labels() -> None:
    assert humanise("range_cm") == "Range (cm)"
    assert humanise("no-effect") == "No effect"
    periods = [
        {"id": "a", "name": "Western Front 1914 to 1915"},
        {"id": "b", "name": "Western Front 1916 on"},
    ]
    assert period_labels(periods) == {"a": "1914 to 1915", "b": "1916 on"}
