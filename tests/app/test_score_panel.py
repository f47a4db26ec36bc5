"""The score's panels as the server renders them for one seat (app/pages/score_panel.py, issue 67): the chip's
points, the dashboard, the map's objective cards and the board's end list, read from the same service that
answers GET /api/v1/games/{id}/score and held to it; the referee's call offered to the referee alone, a button
naming the API's call that the outbox sends; the live frames that may change the score carrying each seat's panels.
The template's context is held to the function that renders it. The swaps, taps and layout are the browser's
(tests/frontend/test_map_score.py, test_referee_result.py)."""

from __future__ import annotations

import html
import json
import re
from dataclasses import fields
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from jinja2 import StrictUndefined, meta
from sqlmodel import Session

from app.core import live
from app.data.schemas_score import GameScore, VictoryMetOut
from app.guard.auth import COOKIE_NAME
from app.pages.score_panel import ScorePanel, panel_of
from app.pages.templates import templates
from app.routes import events as events_route
from app.services import events as events_service
from app.services.seating import Viewer
from tests import csrf
from tests.app.games.conftest import Game, new_game, played_ago, start_game

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
        assert read == {"game", *panel.context()}, read  # nothing of a request: a frame carries it
        assert all(name in said.group(1) for name in read)
        assert all(f.name in said.group(1) for f in fields(ScorePanel) if f.name not in ("game_id", "turn"))
        strict = env.overlay(undefined=StrictUndefined)
        shown = strict.from_string(source).render(game=game, **panel.context())
        # Whose it is as the stands stand, as the points count it (the newcomer pass: "contested" beside a side's points).
        assert (
            "Contested: the referee's call (as the stands stand, the defender's: a stand is within 1 cm of its edge)."
            in words(shown)
        )
        assert ("data-score-call=" in shown) == referee


def test_a_victory_condition_met_is_flagged_only_while_the_game_is_played(sqlite_client: TestClient) -> None:
    """The newcomer pass: the seats' chips still said "victory condition met" once the referee had ended it."""
    g = contested(sqlite_client)
    score = GameScore.model_validate(
        sqlite_client.get(f"/api/v1/games/{g.id}/score", headers=g.referee).json()
    )
    said = "Scenario victory condition 1: the attacker reached 2 victory points first, in turn 1."
    met = VictoryMetOut(number=1, kind="points", winner="attacker", turn=1, words=said, played_on=False)
    game = SimpleNamespace(id=g.id, status="playing", ruleset="flanders-fields")
    playing = panel_of(game, score.model_copy(update={"met": [met]}), False, "map")  # type: ignore[arg-type]
    over = panel_of(game, score.model_copy(update={"met": [met], "status": "finished"}), False, "map")  # type: ignore[arg-type]
    assert "victory condition met" in playing.flag_words and "victory condition met" not in over.flag_words


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


def calls_in(fragment: str) -> list[tuple[str, dict[str, Any]]]:
    """Each call button's write as api-action.js sends it through the outbox: its URL and body."""
    found = re.findall(
        r"<button[^>]*data-api=\"([^\"]+)\" data-body='([^']+)'[^>]*data-score-call=", fragment
    )
    return [(url, json.loads(html.unescape(body))) for url, body in found]


def test_the_referee_s_call_is_a_write_through_the_outbox_to_the_api(sqlite_client: TestClient) -> None:
    """A call button is no form of its own: it names the API's call and its body, which api-action.js sends
    through the outbox (an idempotency key, kept offline); posted as written it is the call, logged, and no page
    takes a call around it. Its refusals are the API's (tests/app/games/test_play_to_a_result.py)."""
    http = sqlite_client
    g = contested(http)
    shown = fragment(http, g, g.referee, "map")
    assert "<form" not in shown and "csrf" not in shown.lower()
    offered = calls_in(shown)
    assert {(url, body["side"]) for url, body in offered if body["objective_id"] == BRIDGE} == {
        (f"/api/v1/games/{g.id}/score/calls", side) for side in ("attacker", "defender", None)
    }
    url, body = next((u, b) for u, b in offered if b["objective_id"] == BRIDGE and b["side"] == "defender")
    r = http.post(url, json=body, headers={**csrf.header(http), "Idempotency-Key": "score-call-1"})
    assert r.status_code == 200, r.text
    after = http.get(f"/api/v1/games/{g.id}/score", headers=g.referee).json()
    bridge = next(o for o in after["objectives"] if o["id"] == BRIDGE)
    assert (bridge["holder"], bridge["called_by_referee"]) == ("defender", True)
    assert next(s for s in after["sides"] if s["side"] == "defender")["points"] == 1
    again = http.post(url, json=body, headers={**csrf.header(http), "Idempotency-Key": "score-call-1"})
    assert again.json() == r.json()  # the outbox's retry of the same tap: sent once
    events = http.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json()
    assert sum(1 for e in events if e["kind"] == "objective-called") == 1
    assert "Held by the defender (1 stand), as the referee called it." in words(
        fragment(http, g, g.referee, "map")
    )
    page_call = http.post(f"/games/{g.id}/score/calls", data=csrf.form(http, {"objective_id": BRIDGE}))
    assert page_call.status_code in (404, 405), page_call.text


def no_clock(panel: str) -> str:
    """A panel without its clocks' faces (read a moment apart, a running clock's differs)."""
    return re.sub(r'(data-side-clock="\w+">)[^<]*', r"\1", panel)


def frame_of(http: TestClient, g: Game, event_id: int, role: str, view: str) -> dict[str, Any]:
    """The frame a stream of `view` sends a seat of `role` for one event (a feed's read of it alone)."""
    with Session(http.app.state.engine) as session:  # type: ignore[attr-defined]
        roles = ["attacker", "defender", "referee"] if role == "referee" else [role]
        (ev,) = events_service.list_events(session, g.id, roles, event_id - 1, 1)
        (data,) = events_route._with_view(
            session, g.id, Viewer(g.id, role), view, [events_service.event_dict(ev, roles)], live.Shared()
        )
    frame: dict[str, Any] = json.loads(data)
    return frame


def test_a_frame_that_may_change_the_score_carries_each_seat_s_panels(
    sqlite_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The map's and the board's live frames of a call carry the panels as that seat reads them (the referee's
        with its calls, a side's without), so no device asks for them after a frame; a frame of a marker, which
        leaves the score as it was, carries none; panels over their budget are not carried (null: the page reads them),
    the rest of the frame is."""
    http = sqlite_client
    g = contested(http)
    seats = {"referee": g.referee, "attacker": g.attacker, "defender": g.defender}
    moved = http.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json()[-1][
        "id"
    ]  # the bridge contested
    for view in ("map", "board"):
        for role, seat in seats.items():
            panel = frame_of(http, g, moved, role, view)["score_panel"]
            assert no_clock(panel) == no_clock(fragment(http, g, seat, view))
            assert (f'data-score-call="{BRIDGE}"' in panel) == (role == "referee")
    r = http.post(
        f"/api/v1/games/{g.id}/score/calls",
        headers=g.referee,
        json={"objective_id": BRIDGE, "side": "defender"},
    )
    assert r.status_code == 200, r.text
    called = r.json()["event"]["id"]
    for view in ("map", "board"):
        for role, seat in seats.items():
            frame = frame_of(http, g, called, role, view)
            panel = frame["score_panel"]
            assert no_clock(panel) == no_clock(fragment(http, g, seat, view))
            assert "Held by the defender (1 stand), as the referee called it." in words(panel)
    units = http.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    platoon = next(u for u in units if u["side"] == "defender" and u["kind"] == "rifle-platoon")
    marked = http.post(
        f"/api/v1/games/{g.id}/units/{platoon['id']}/markers",
        headers=g.attacker,
        json={"delta": 1, "fire": "rifle"},
    )
    assert marked.status_code == 200, marked.text
    for view in ("map", "board"):
        assert "score_panel" not in frame_of(http, g, marked.json()["event_id"], "attacker", view)
    # The panels have a budget of their own, the frame's (8 KB): the bytes the page would read otherwise, beside a
    # frame's other parts (a map frame of the referee's with them was 7,957 bytes for a stand's move); over it, null.
    whole = frame_of(http, g, called, "referee", "map")
    monkeypatch.setattr(live, "FRAME_BYTES", len(whole["score_panel"]) - 1)
    cut = frame_of(http, g, called, "referee", "map")
    assert cut["score_panel"] is None and cut["score"] == whole["score"] and "refetch" not in cut


def test_a_frame_reads_the_clock_as_of_its_newest_event_not_as_it_is_rendered(
    sqlite_client: TestClient,
) -> None:
    """Issue 65: the same events render the same frames whenever they are rendered (ci54: two renders of a step's
    frame a second apart differed, its score chip's clock 0:01 and 0:00). The score's and the clock's panels read
    the clock as of the frame's newest event, as its `clock` does, not as of the render: a game whose events were
    logged an hour ago has its frames' clocks as they stood then, seconds into the turn, not an hour on."""
    http = sqlite_client
    g = new_game(http)
    start_game(http, g)
    played_ago(http, g, 3600)
    step = http.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json()[-1]
    for role, view in (("referee", "map"), ("attacker", "map"), ("referee", "board")):
        frame = frame_of(http, g, step["id"], role, view)
        used = {s["side"]: s["used_seconds"] for s in frame["clock"]["sides"]}
        assert used["attacker"] < 60, used  # as of the step: the game started a moment before it
        chip = re.search(r'data-side-clock="attacker">\s*([\d:]+)', frame["score_panel"])
        assert chip is not None and chip.group(1).startswith("0:"), chip
        face = re.search(r'data-clock-side="attacker" data-clock-seconds="([^"]+)"', frame["clock_panel"])
        assert face is not None and float(face.group(1)) == used["attacker"], face


def test_every_part_the_board_s_score_sends_at_the_start_has_its_place_on_the_board_in_set_up(
    sqlite_client: TestClient,
) -> None:
    """The referee taps Start: the score's read (or its frame) may reach the board before the board's own turn
    panel is drawn anew for play; a part with no place in the page is an htmx error (test_screens.py read
    `htmx:oobErrorNoTarget, [data-end-settle]` once in a run). The set-up board holds a place for each part."""
    g = new_game(sqlite_client)
    seated(sqlite_client, g, g.referee)
    board = sqlite_client.get(f"/games/{g.id}/referee")
    assert board.status_code == 200
    start_game(sqlite_client, g)
    parts = re.findall(r'hx-swap-oob="\w+:\[([\w-]+)\]"', fragment(sqlite_client, g, g.referee, "board"))
    assert "data-end-settle" in parts
    assert [p for p in parts if not re.search(rf"<[^>]*\s{p}[\s=>]", board.text)] == []


def test_the_map_s_objective_card_names_the_stands_on_it_as_the_map_labels_them(
    sqlite_client: TestClient,
) -> None:
    """The stands holding an objective are named on its map card by the server, by the short names the map's
    labels show (the units' read), for every seat; table-objectives.js names none itself. Not on the board's."""
    http = sqlite_client
    g = contested(http)
    r = http.post(
        f"/api/v1/games/{g.id}/score/calls",
        headers=g.referee,
        json={"objective_id": BRIDGE, "side": "defender"},
    )
    assert r.status_code == 200, r.text
    (held,) = next(
        o
        for o in http.get(f"/api/v1/games/{g.id}/score", headers=g.referee).json()["objectives"]
        if o["id"] == BRIDGE
    )["stands"]
    short = next(
        u for u in http.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json() if u["id"] == held
    )
    for seat in (g.referee, g.attacker, g.defender):
        card = (
            fragment(http, g, seat, "map")
            .split(f'data-objective-card="{BRIDGE}"', 1)[1]
            .split("</div>", 1)[0]
        )
        on = re.search(r"<p[^>]*data-objective-on[^>]*>([^<]*)</p>", card)
        assert on is not None and "hidden" not in on.group(0), card
        assert html.unescape(on.group(1)) == f"On it: {short['short_name']}."
    assert "data-objective-on" not in fragment(http, g, g.referee, "board")
