"""What each template covers on the map, as the server renders it (app/pages/template_coverage.py, issue 67): each
template's lists say what the rule set's coverage lookup answers (POST /api/v1/rulesets/{id}/lookups/coverage,
the same function) for the stands on the table, each stand in one list only and by the name the map gives it,
the one tap marks only the stands fully under beyond doubt, and every seat reads the same (the table is
public). The template's context is the one `Coverage.context` builds. The tap and the map's classes are the
browser's (tests/frontend/test_map.py)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from app.pages.template_coverage import Coverage, CoverLine, TemplateCoverage, _covered
from tests.app.games.conftest import Game, new_game, start_game

TEMPLATE = Path(__file__).resolve().parents[3] / "frontend" / "templates" / "_template_coverage.html"


def fragment(http: TestClient, g: Game, seat: dict[str, str]) -> str:
    http.cookies.set(COOKIE_NAME, seat["Authorization"].removeprefix("Bearer "))
    try:
        answer = http.get(f"/games/{g.id}/map/coverage", headers={"HX-Request": "true"})
    finally:
        http.cookies.clear()
    assert answer.status_code == 200, answer.text
    return answer.text


def words(part: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", part)))


def stand(c: TestClient, g: Game, x: float, y: float) -> dict[str, Any]:
    body = {"side": "defender", "name": "Test platoon", "level": "platoon", "kind": "rifle-platoon",
            "base": "infantry-platoon", "x": x, "y": y, "facing_deg": 270}  # fmt: skip
    r = c.post(f"/api/v1/games/{g.id}/units", headers=g.referee, json=body)
    assert r.status_code == 201, r.text
    return dict(r.json()["unit"])


def test_each_template_lists_what_the_coverage_lookup_answers(client: TestClient) -> None:
    g = new_game(client)
    assert "No template is on the table." in words(fragment(client, g, g.attacker))
    inside, edge = stand(client, g, 60, 100), stand(client, g, 60, 105.5)
    start_game(client, g)
    laid = client.post(
        f"/api/v1/games/{g.id}/templates",
        headers=g.attacker,
        json={"kind": "artillery", "x": 60, "y": 101, "rotation": 90},
    )
    assert laid.status_code == 201, laid.text
    template = laid.json()["template"]
    units = client.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    on_table = [
        {"id": str(u["id"]), "side": u["side"], "base": u["base"], "center": [u["x"], u["y"]],
         "facing_deg": u["facing_deg"] if u["facing_deg"] is not None else 90}
        for u in units
        if u["x"] is not None and u["y"] is not None and u["base"] and not u["off_table"] and not u["killed"]
    ]  # fmt: skip
    asked = client.post(
        f"/api/v1/rulesets/{g.body['game']['ruleset']}/lookups/coverage",
        json={"template": {"kind": "artillery", "center": [60, 101], "facing_deg": 90}, "stands": on_table},
    ).json()
    part = fragment(client, g, g.attacker)
    names = {u["id"]: u["short_name"] for u in units}
    block = re.search(rf'data-coverage-template="{template["id"]}".*?</div>', part, re.S)
    assert block and "Artillery · Attacker" in words(block.group(0))
    doubt = {int(i) for i in asked["ambiguous"]}
    full = [int(i) for i in asked["full"] if int(i) not in doubt]
    assert full == [inside["id"]]
    assert f'data-coverage="full" data-count="{len(full)}"' in part
    assert f'data-units="{inside["id"]}"' in part and f"+1 marker on {names[inside['id']]}" in words(part)
    listed = re.findall(r'data-coverage="(\w+)" data-count="\d+">([^<]*)<', part)
    assert [k for k, text in listed if names[edge["id"]] in text] in (["partial"], ["ambiguous"])
    cover = json.loads(html.unescape(re.search(r'data-cover="([^"]*)"', part).group(1)))  # type: ignore[union-attr]
    assert cover[str(inside["id"])] == "cov-full" and cover[str(edge["id"])] in ("cov-partial", "cov-full")
    # Every seat reads the same table.
    assert fragment(client, g, g.defender) == part == fragment(client, g, g.referee)


def test_the_template_renders_the_context_its_function_builds() -> None:
    text = TEMPLATE.read_text()
    kind = f"{Coverage.__module__}.{Coverage.__name__}"
    required = re.search(rf"Required context: (\w+) \({re.escape(kind)}\)", text)
    assert required and set(Coverage((), "{}", "").context()) == {required.group(1)}
    for var, made in (("cv", Coverage), ("t", TemplateCoverage), ("line", CoverLine)):
        read = set(re.findall(rf"\b{var}\.(\w+)", text))
        assert read and read <= set(made.__dataclass_fields__), (var, read)


def test_a_change_is_worked_out_once_for_every_device_and_only_for_the_template_it_moved(
    sqlite_client: TestClient,
) -> None:
    """The hostile pass of s11: every open map reads the panel after every change, each read asking the lookup for
    every template (60 templates over 942 stands: ~1 s a read). A template's answer is kept for the stands and
    table it was worked out for: the other seats' reads of the same table ask the lookup nothing, and a template
    moved is worked out again alone."""
    c = sqlite_client
    g = new_game(c)
    start_game(c, g)
    laid = [
        c.post(
            f"/api/v1/games/{g.id}/templates",
            headers=g.attacker,
            json={"kind": "artillery", "x": 20 + 20 * i, "y": 101, "rotation": 90},
        ).json()["template"]
        for i in range(3)
    ]
    _covered.cache_clear()
    first = fragment(c, g, g.attacker)
    assert _covered.cache_info().misses == 3
    assert fragment(c, g, g.defender) == first == fragment(c, g, g.referee)
    assert _covered.cache_info().misses == 3  # the other seats: nothing asked again
    moved = c.patch(f"/api/v1/games/{g.id}/templates/{laid[0]['id']}", headers=g.attacker, json={"x": 30})
    assert moved.status_code == 200, moved.text
    fragment(c, g, g.attacker)
    assert _covered.cache_info().misses == 4  # the moved template alone
