"""The score's panels as the server renders them for one seat (app/pages/score_panel.py, issue 67): the chip's
points, the dashboard, the map's objective cards and the board's end list, read from the same service that
answers GET /api/v1/games/{id}/score and held to it; the referee's call offered to the referee alone, a form
played through the act pipeline whose answer is the panels anew, and a refusal in its one sentence naming its
field or rule. The template's context is held to the function that renders it. The swaps, taps and layout are
the browser's (tests/frontend/test_map_score.py, test_referee_result.py)."""

from __future__ import annotations

import html
import re
from dataclasses import fields
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from jinja2 import StrictUndefined, meta

from app.data.schemas_score import GameScore
from app.guard.auth import COOKIE_NAME
from app.guard.security import CSRF_SCOPE_KEY
from app.pages.score_panel import ScorePanel, panel_of
from app.pages.templates import templates
from tests import csrf
from tests.app.games.conftest import Game, new_game, start_game

BRIDGE = "bridge-1"  # the shipped Mons' bridge 1: x 37..43, y 117..123 cm


def seated(http: TestClient, g: Game, seat: dict[str, str]) -> None:
    http.cookies.set(COOKIE_NAME, seat["Authorization"].removeprefix("Bearer "))


def words(fragment: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", fragment)))


def fragment(http: TestClient, g: Game, seat: dict[str, str], view: str) -> str:
    seated(http, g, seat)
    r = http.get(f"/games/{g.id}/score/panel?view={view}", headers={"HX-Request": "true"})
    assert r.status_code == 200, r.text
    return r.text


def contested(http: TestClient) -> Game:
    """Mons started, a British platoon 0.25 cm onto bridge 1's far edge: nobody holds it, and it is contested."""
    g = new_game(http)
    start_game(http, g)
    units = http.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    tommy = next(u for u in units if u["side"] == "defender" and u["base"] == "infantry-platoon" and u["x"])
    body = {"x": 40.0, "y": 123.5, "facing_deg": 270.0, "override": True}
    r = http.post(f"/api/v1/games/{g.id}/units/{tommy['id']}/move", headers=g.referee, json=body)
    assert r.status_code == 200, r.text
    return g


def test_the_template_s_context_is_the_panel_s(sqlite_client: TestClient) -> None:
    """The names the fragment reads are the ones `ScorePanel.context` gives (beside the page's game and request
    and the templates' globals), its comment names them, and it renders from them alone, strictly."""
    env = templates.env
    source = env.loader.get_source(env, "_score_panel.html")[0]  # type: ignore[union-attr]
    g = contested(sqlite_client)
    score = GameScore.model_validate(
        sqlite_client.get(f"/api/v1/games/{g.id}/score", headers=g.referee).json()
    )
    game = SimpleNamespace(id=g.id, status="playing", ruleset="flanders-fields")
    said = re.search(r"Required context: (.*?)\. Each part", source, re.S)
    assert said is not None
    for referee, view in ((True, "board"), (False, "map")):
        panel = panel_of(game, score, referee, view)  # type: ignore[arg-type]
        read = meta.find_undeclared_variables(env.parse(source)) - set(env.globals)
        assert read == {"game", "request", *panel.context()}, read
        assert all(name in said.group(1) for name in read)
        assert all(f.name in said.group(1) for f in fields(ScorePanel) if f.name not in ("game_id", "turn"))
        strict = env.overlay(undefined=StrictUndefined)
        shown = strict.from_string(source).render(
            game=game, request=SimpleNamespace(scope={CSRF_SCOPE_KEY: lambda: "token"}), **panel.context()
        )
        assert "Contested: the referee's call." in words(shown)
        assert ("data-score-call=" in shown) == referee


@pytest.mark.parametrize("view", ["map", "board"])
def test_each_seat_reads_the_score_the_api_answers_and_only_the_referee_a_call(
    sqlite_client: TestClient, view: str
) -> None:
    http = sqlite_client
    g = contested(http)
    answer = http.get(f"/api/v1/games/{g.id}/score", headers=g.referee).json()
    assert next(o for o in answer["objectives"] if o["id"] == BRIDGE)["contested"]
    for seat, calls in ((g.referee, 3), (g.attacker, 0), (g.defender, 0)):
        shown = fragment(http, g, seat, view)
        for side in answer["sides"]:
            assert re.search(rf'data-side-points="{side["side"]}".*?<b>{side["points"]}</b>', shown)
        assert words(shown).count("Contested: the referee's call") >= 1
        # The calls on the dashboard's line, and on the map's card or in the end's list.
        assert shown.count(f'data-score-call="{BRIDGE}"') == calls * 2
        assert ("data-objective-cards" in shown) == (view == "map")
        assert ("data-end-settle" in shown) == (view == "board" and seat is g.referee)
    # A view that is none is refused by its field; a game that is none, 404.
    bad = http.get(f"/games/{g.id}/score/panel?view=lookup", headers={"HX-Request": "true"})
    assert bad.status_code == 422 and bad.json()["field"] == "view", bad.text
    assert http.get(f"/games/{g.id + 999}/score/panel", headers={"HX-Request": "true"}).status_code == 404
    http.cookies.clear()
    # No seat on this device: the join form, nothing of the game's score.
    r = http.get(f"/games/{g.id}/score/panel", headers={"HX-Request": "true"})
    assert r.status_code == 401 and "data-side-points" not in r.text


def call(http: TestClient, g: Game, seat: dict[str, str], data: dict[str, Any]) -> Any:
    seated(http, g, seat)
    return http.post(f"/games/{g.id}/score/calls", data=csrf.form(http, data), headers={"HX-Request": "true"})


def test_the_referee_s_call_is_an_act_its_answer_the_panels_its_refusal_one_sentence(
    sqlite_client: TestClient,
) -> None:
    http = sqlite_client
    g = contested(http)
    # Refused: a side's seat (its rule), a side that is none, an objective that is none; nothing written.
    for seat, data, status, says in (
        (
            g.attacker,
            {"objective_id": BRIDGE, "side": "defender"},
            403,
            "only the referee may call an objective",
        ),
        (g.referee, {"objective_id": BRIDGE, "side": "allies"}, 422, "side"),
        (g.referee, {"objective_id": "Bridge 9!", "side": ""}, 422, "objective_id"),
        (
            g.referee,
            {"objective_id": "bridge-9", "side": ""},
            422,
            "Objective id: no such objective in this game",
        ),
    ):
        r = call(http, g, seat, data)
        assert r.status_code == status, r.text
        assert says in r.text, r.text
        said = r.json()["detail"] if r.text.startswith("{") else r.text  # a field's, as the app's 422 says it
        assert len(said) <= 120 and said.count(". ") == 0, said
        assert r.headers.get("X-Firestep-Notice", said) == said
    bridge = next(
        o
        for o in http.get(f"/api/v1/games/{g.id}/score", headers=g.referee).json()["objectives"]
        if o["id"] == BRIDGE
    )
    assert not bridge["called_by_referee"]
    r = call(http, g, g.referee, {"objective_id": BRIDGE, "side": "defender", "view": "map"})
    assert r.status_code == 200, r.text
    assert "Held by the defender (1 stand), as the referee called it." in words(r.text)
    after = http.get(f"/api/v1/games/{g.id}/score", headers=g.referee).json()
    bridge = next(o for o in after["objectives"] if o["id"] == BRIDGE)
    assert (bridge["holder"], bridge["called_by_referee"]) == ("defender", True)
    assert next(s for s in after["sides"] if s["side"] == "defender")["points"] == 1
    events = http.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json()
    logged = events["events"] if isinstance(events, dict) else events
    assert any(e["kind"] == "objective-called" for e in logged)
