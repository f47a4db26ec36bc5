"""The game clock's panel as the server renders it for one seat (app/pages/clock_panel.py, issue 67): each side's
face read from the same GameClock that GET /api/v1/games/{id}/clock answers, the referee's buttons to the referee
alone and a player's dispute button where the clock's settings allow one, each a write the outbox sends to the
clock's API; a live frame of a clock event carrying the seat's panel. The template's context is held to the function
that renders it. The faces running on, the flag and the taps are the browser's (tests/frontend/test_game_clock.py)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from jinja2 import StrictUndefined, meta

from app.data.schemas_clock import GameClock, SideClockOut
from app.pages.clock_panel import ClockPanel, Face, face_of
from app.pages.templates import templates
from tests import csrf
from tests.app.games.conftest import Game, new_game, start_game
from tests.app.test_score_panel import frame_of, seated

CLOCK = {"scenario": "mons-1914", "clock": {"turn_minutes": 1, "dispute_pause": True}}


def panel(http: TestClient, g: Game, seat: dict[str, str]) -> str:
    seated(http, g, seat)
    r = http.get(f"/games/{g.id}/clock/panel", headers={"HX-Request": "true"})
    assert r.status_code == 200, r.text
    return r.text


def buttons(fragment: str) -> list[tuple[str, str, dict[str, Any]]]:
    """Each button's words and the write api-action.js sends through the outbox: its URL and body."""
    found = re.findall(r'<button[^>]*data-api="([^"]+)"(?: data-body="([^"]*)")?>([^<]+)</button>', fragment)
    return [(label, url, json.loads(html.unescape(body or "{}"))) for url, body, label in found]


def faces(fragment: str) -> dict[str, dict[str, Any]]:
    """Each side's face: its seconds as read, and which of its flags are set."""
    found = re.findall(
        r'<span class="clock-side" data-clock-side="(\w+)" data-clock-seconds="([^"]+)"([^>]*)>', fragment
    )
    return {
        side: {"seconds": float(s), "flags": set(re.findall(r"data-[\w-]+", rest))} for side, s, rest in found
    }


def test_the_template_s_context_is_the_panel_s() -> None:
    """The names the fragment reads are the ones `ClockPanel.context` gives, its comment names them and the
    panel's fields, and it renders from them alone, strictly."""
    env = templates.env
    source = env.loader.get_source(env, "_clock_panel.html")[0]  # type: ignore[union-attr]
    said = re.search(r"Required context: (.*?)\. The clock's faces", source, re.S)
    assert said is not None
    empty = ClockPanel(faces=(), paused="", buttons=(), state="stopped")
    read = meta.find_undeclared_variables(env.parse(source)) - set(env.globals)
    assert read == set(empty.context()), read  # nothing of a request or a game: a frame carries it
    assert all(name in said.group(1) for name in ("clock_panel", "faces", "paused", "buttons", "state"))
    shown = env.overlay(undefined=StrictUndefined).from_string(source).render(**empty.context())
    assert 'data-clock-state="stopped"' in shown


def test_each_seat_reads_the_clock_the_api_answers_and_only_the_referee_its_buttons(
    sqlite_client: TestClient,
) -> None:
    http = sqlite_client
    g = new_game(http, CLOCK)
    start_game(http, g)
    answer = GameClock.model_validate(http.get(f"/api/v1/games/{g.id}/clock", headers=g.referee).json())
    base = f"/api/v1/games/{g.id}/clock"
    for seat, offered in (
        (
            g.referee,
            {
                ("Pause clock", f"{base}/pause"),
                ("+1 min attacker", f"{base}/give"),
                ("+1 min defender", f"{base}/give"),
            },
        ),
        (g.attacker, {("Stop the clock: dispute", f"{base}/dispute")}),
        (g.defender, {("Stop the clock: dispute", f"{base}/dispute")}),
    ):
        shown = panel(http, g, seat)
        assert {(label, url) for label, url, _ in buttons(shown)} == offered
        read = faces(shown)
        for side in answer.sides:
            face = face_of(side, side.side)
            # Read a moment after the API's answer: a running side's seconds have run on by that moment at most.
            assert (
                0 <= face.seconds - read[side.side]["seconds"] < 5
                if side.running
                else face.seconds == read[side.side]["seconds"]
            )
            assert ("data-running" in read[side.side]["flags"]) == side.running
            assert ("data-clock-left" in read[side.side]["flags"]) == face.left
        assert 'data-clock-state="running"' in shown
    # Each "+1 min" names its side and a minute, as the API takes it.
    gives = [body for label, _, body in buttons(panel(http, g, g.referee)) if label.startswith("+1 min")]
    assert gives == [{"side": "attacker", "seconds": 60}, {"side": "defender", "seconds": 60}]
    # A game that is none, 404; no seat on this device: the join form, nothing of the clock.
    assert http.get(f"/games/{g.id + 999}/clock/panel", headers={"HX-Request": "true"}).status_code == 404
    http.cookies.clear()
    r = http.get(f"/games/{g.id}/clock/panel", headers={"HX-Request": "true"})
    assert r.status_code == 401 and "data-clock-side" not in r.text


def test_the_referee_s_pause_is_a_write_through_the_outbox_and_the_panel_says_paused(
    sqlite_client: TestClient,
) -> None:
    http = sqlite_client
    g = new_game(http, CLOCK)
    start_game(http, g)
    shown = panel(http, g, g.referee)
    assert "<form" not in shown and "csrf" not in shown.lower()
    (url,) = [u for label, u, _ in buttons(shown) if label == "Pause clock"]
    r = http.post(url, json={}, headers={**csrf.header(http), "Idempotency-Key": "clock-pause-1"})
    assert r.status_code == 200, r.text
    paused = panel(http, g, g.referee)
    assert 'data-clock-state="paused"' in paused and ">Paused<" in paused
    assert [label for label, _, _ in buttons(paused) if "clock" in label.lower()] == ["Resume clock"]
    assert not any("data-running" in f["flags"] for f in faces(paused).values())
    # A player may not stop a clock already stopped: no dispute button.
    assert buttons(panel(http, g, g.attacker)) == []


def test_the_panel_reads_itself_again_by_htmx_after_a_resync_a_write_or_a_frame_without_it(
    sqlite_client: TestClient,
) -> None:
    """The panel, on the page and in a frame alike, names its own address and the page events after which htmx
    reads it again (game-clock.js no longer reads it, nor keeps the server's list of clock events)."""
    http = sqlite_client
    g = new_game(http, CLOCK)
    start_game(http, g)
    seated(http, g, g.referee)
    read = f"/games/{g.id}/clock/panel"
    triggers = "firestep:resync from:document, firestep:refresh from:document, firestep:clock-read"
    wanted = f'data-game-clock="{read}" hx-get="{read}" hx-trigger="{triggers}" hx-swap="outerHTML"'
    page = http.get(f"/games/{g.id}/referee")
    assert page.status_code == 200, page.text
    assert page.text.count("data-game-clock=") == 1 and wanted in page.text
    assert wanted in panel(http, g, g.referee)
    r = http.post(
        f"/api/v1/games/{g.id}/clock/pause",
        json={},
        headers={**csrf.header(http), "Idempotency-Key": "clock-pause-3"},
    )
    assert r.status_code == 200, r.text
    paused = http.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json()[-1]["id"]
    assert wanted in frame_of(http, g, paused, "referee", "board")["clock_panel"]


def test_each_face_carries_its_out_of_time_words_shown_once_it_is_flagged() -> None:
    """A face running down to nothing is flagged out of time in the browser (game-clock.js sets
    data-out-of-time); the words it then shows are the server's, in every face, shown by the flag alone."""
    faces_of = (Face("attacker", "British", 3.0, True, "left this turn", True, False),)
    faces_of += (Face("defender", "German", 0.0, True, "left this turn", False, True),)
    shown = templates.get_template("_clock_panel.html").render(
        **ClockPanel(faces_of, "", (), "running").context()
    )
    words = (
        '<span class="clock-what">left this turn</span> <strong class="clock-out">out of time</strong></span>'
    )
    assert shown.count(words) == 2, shown
    assert "data-out-of-time" in faces(shown)["defender"]["flags"]
    assert "data-out-of-time" not in faces(shown)["attacker"]["flags"]
    css = Path(__file__).resolve().parents[2] / "frontend/static/css/score.css"
    assert ".clock-side:not([data-out-of-time]) .clock-out { display: none; }" in css.read_text(
        encoding="utf-8"
    )


def test_a_frame_of_a_clock_event_carries_each_seat_s_panel(sqlite_client: TestClient) -> None:
    """The map's and the board's live frames of a pause carry the clock's panel as that seat reads it, so no
    device asks for it after the frame; a frame of an event the clock does not read carries none."""
    http = sqlite_client
    g = new_game(http, CLOCK)
    start_game(http, g)
    seated(http, g, g.referee)
    r = http.post(
        f"/api/v1/games/{g.id}/clock/pause",
        json={},
        headers={**csrf.header(http), "Idempotency-Key": "clock-pause-2"},
    )
    assert r.status_code == 200, r.text
    paused = http.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json()[-1]["id"]
    for role, view in (("referee", "board"), ("referee", "map"), ("attacker", "map")):
        carried = frame_of(http, g, paused, role, view)["clock_panel"]
        assert 'data-clock-state="paused"' in carried
        assert ("Resume clock" in carried) == (role == "referee")
    units = http.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    mark = next(u for u in units if u["side"] == "attacker" and u["x"] is not None)
    marked = http.post(
        f"/api/v1/games/{g.id}/units/{mark['id']}/markers",
        json={"delta": 1, "override": True},
        headers=g.referee,
    )
    assert marked.status_code == 200, marked.text
    assert "clock_panel" not in frame_of(http, g, marked.json()["event_id"], "attacker", "map")


def test_a_face_shows_the_tighter_limit_else_the_time_used() -> None:
    """Issue 64: a face says which time it shows: the time left in the turn or the game, whichever is less, else
    the time used (less what was given back)."""
    side = {
        "side": "attacker",
        "running": True,
        "used_seconds": 100.0,
        "given_seconds": 30.0,
        "turn_used_seconds": 10.0,
        "turn_given_seconds": 0.0,
        "out_of_time": False,
    }
    cases = [
        ((None, None), (70.0, False, "used")),
        ((None, 50.0), (50.0, True, "left this turn")),
        ((500.0, 50.0), (50.0, True, "left this turn")),
        ((40.0, 50.0), (40.0, True, "left in the game")),
        ((40.0, None), (40.0, True, "left in the game")),
    ]
    for (left_game, left_turn), (seconds, left, what) in cases:
        s = SideClockOut.model_validate(
            {**side, "remaining_seconds": left_game, "turn_remaining_seconds": left_turn}
        )
        f = face_of(s, "Attacker")
        assert (f.seconds, f.left, f.what) == (seconds, left, what)


def test_a_player_s_dispute_button_is_bound_on_the_map(sqlite_client: TestClient) -> None:
    """The newcomer pass of s11: a player's "Stop the clock: dispute" on the map did nothing, its page loading the
    script that sends a button's write (api-action.js) for the referee alone. Every seat's map loads it."""
    http = sqlite_client
    g = new_game(http, CLOCK)
    start_game(http, g)
    for seat in (g.attacker, g.defender, g.referee):
        seated(http, g, seat)
        page = http.get(f"/games/{g.id}/map").text
        assert re.search(r'<script src="/static/js/api-action\.js[^"]*" defer>', page), "no api-action.js"
    seated(http, g, g.attacker)
    assert f'data-api="/api/v1/games/{g.id}/clock/dispute"' in http.get(f"/games/{g.id}/map").text
