"""The referee board's clock form as the board's live changes draw it anew (app/pages/referee.py, `clock_form`
in _referee_parts.html; issue 67: clock-set.js no longer fills it from a frame): the changes of the limits set,
and of their undo, carry the form as GET /api/v1/games/{id}/clock answers the limits, swapped out of band by its
id; a seat's changes carry none. The form posted is set in its units by the server (app.pages.referee.set_clock);
the typing kept through a swap is the browser's (tests/frontend/test_game_clock.py)."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from app.guard.security import NOTICE_HEADER
from tests import csrf
from tests.app.games.conftest import Game, new_game
from tests.app.test_score_panel import seated

HTMX = {"HX-Request": "true", "Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
FORM = re.compile(r'<details class="clock-set" id="clock-set" hx-swap-oob="true"[^>]*>.*?</details>', re.S)


def form_after(client: TestClient, g: Game, seat: dict[str, str], event_id: int) -> str | None:
    """The clock form the board's changes carry for event `event_id` to this seat (None: no form)."""
    seated(client, g, seat)
    r = client.get(f"/games/{g.id}/referee/changes?after={event_id - 1}", headers={"HX-Request": "true"})
    assert r.status_code == 200, r.text
    found = FORM.search(r.text)
    return found.group(0) if found else None


def seconds_of(form: str) -> dict[str, int | None]:
    """Each limit the form shows, in seconds (its number times its unit's), None where it is empty."""
    numbers = dict(re.findall(r'name="(\w+)" type="number"[^>]*value="([^"]*)"', form))
    units = {
        name: re.search(r'<option value="(\d+)" selected', options).group(1)  # type: ignore[union-attr]
        for name, options in re.findall(r'<select name="(\w+)_unit"[^>]*>(.*?)</select>', form, re.S)
    }
    return {name: int(v) * int(units[name]) if v else None for name, v in numbers.items()}


def as_the_api_says(limits: dict[str, Any]) -> dict[str, int | None]:
    shown = {f"game_{s}": v for s, v in limits["game_seconds"].items()}
    shown |= {f"turn_{s}": v for s, v in limits["turn_seconds"].items()}
    return shown | {"end_under": limits["end_under_seconds"]}


def logged(client: TestClient, g: Game, kind: str) -> int:
    events = client.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json()
    return int(next(e["id"] for e in reversed(events) if e["kind"] == kind))


def held_to_the_api(client: TestClient, g: Game, event_id: int) -> dict[str, int | None]:
    """The referee's form in the changes of event `event_id`, each limit and rule as the clock's API answers it
    (a seat's changes carry none); its limits in seconds."""
    limits = client.get(f"/api/v1/games/{g.id}/clock", headers=g.referee).json()["limits"]
    form = form_after(client, g, g.referee, event_id)
    assert form is not None
    shown = seconds_of(form)
    assert shown == as_the_api_says(limits)
    assert set(re.findall(r'name="(\w+)" checked', form)) == {
        k for k in ("dispute_pause", "finish_act") if limits[k]
    }
    assert form_after(client, g, g.attacker, event_id) is None
    return shown


def test_the_limits_set_and_undone_bring_the_referee_s_form_anew_as_the_api_answers_them(
    sqlite_client: TestClient,
) -> None:
    client = sqlite_client
    g = new_game(client, {"scenario": "mons-1914", "clock": {"game_minutes": 120}})
    body = {"game_seconds": {"defender": 4530}, "turn_seconds": {"defender": 45}, "finish_act": True}
    r = client.put(f"/api/v1/games/{g.id}/clock/limits", headers=g.referee, json=body)
    assert r.status_code == 200, r.text
    set_id = logged(client, g, "clock-limits-set")
    shown = held_to_the_api(client, g, set_id)
    assert shown["game_defender"] == 4530 and shown["turn_defender"] == 45
    # The undo brings back the limits chosen as the game was created, and the form with them.
    assert client.post(f"/api/v1/games/{g.id}/events/{set_id}/undo", headers=g.referee).status_code == 200
    shown = held_to_the_api(client, g, logged(client, g, "undo"))
    assert shown["game_defender"] == 7200 and shown["turn_defender"] is None


def test_the_referee_s_form_posted_sets_the_limits_in_its_units_and_answers_the_form_as_set(
    sqlite_client: TestClient,
) -> None:
    """The form posted by htmx (app.pages.referee.set_clock): each limit its number times its unit's seconds, an
    empty one no limit, a box ticked its rule; one act, the clock's API then answering it; the answer the form
    drawn as set. A seat posting it is refused 403 (the pipeline's referee-only act), no token 401."""
    client = sqlite_client
    g = new_game(client, {"scenario": "mons-1914", "clock": {"game_minutes": 120}})
    typed = {"game_attacker": "", "game_attacker_unit": "60", "turn_attacker": "", "turn_attacker_unit": "60",
             "game_defender": "75", "game_defender_unit": "60", "turn_defender": "45", "turn_defender_unit": "1",
             "finish_act": "on", "end_under": "", "end_under_unit": "60"}  # fmt: skip
    url = f"/games/{g.id}/referee/clock"
    for seat, status in ((g.attacker, 403), (g.referee, 200)):
        seated(client, g, seat)
        r = client.post(url, data=csrf.form(client, typed), headers=HTMX)
        assert r.status_code == status, r.text
    limits = client.get(f"/api/v1/games/{g.id}/clock", headers=g.referee).json()["limits"]
    assert limits["game_seconds"] == {"attacker": None, "defender": 4500}
    assert limits["turn_seconds"] == {"attacker": None, "defender": 45}
    assert (limits["finish_act"], limits["dispute_pause"], limits["end_under_seconds"]) == (True, False, None)
    # The answer is the form open, its own line beside its button saying what was set (the newcomer pass: on a
    # phone it folded, nothing in sight saying it took); posted again as it stands, it is no act, nothing logged.
    assert re.search(r'<details class="clock-set" id="clock-set" data-keep-open="clock-set" open>', r.text)
    said = "Clock set: the defender 75 min for the game; the defender 45 s each turn; a side out of time finishes"
    assert f'<p role="status" data-clock-said>{said}' in r.text, r.text
    logged_before = len(client.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json())
    again = client.post(url, data=csrf.form(client, typed), headers=HTMX)
    assert again.status_code == 200 and "data-clock-said>Nothing changed: the clock was already set so.<" in (
        again.text
    )
    assert len(client.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json()) == logged_before
    answered = seconds_of(r.text)
    assert (answered["game_defender"], answered["turn_defender"], answered["game_attacker"]) == (
        4500,
        45,
        None,
    )
    client.cookies.clear()
    assert client.post(url, data=csrf.form(client, typed), headers=HTMX).status_code == 401


def test_a_limit_the_clock_refuses_is_the_page_s_refusal_naming_it_and_sets_nothing(
    sqlite_client: TestClient,
) -> None:
    """A number the clock takes not (a word, none, a sign, past the longest game, NaN) or a huge one typed in
    the form is refused 422 in one sentence naming its field, as PUT .../clock/limits refuses it; the limits stay
    as they were (the hostile pass: ClockLimits' own ValidationError reached no handler, a 500)."""
    client = sqlite_client
    g = new_game(client, {"scenario": "mons-1914", "clock": {"game_minutes": 120}})
    before = client.get(f"/api/v1/games/{g.id}/clock", headers=g.referee).json()["limits"]
    seated(client, g, g.referee)
    # The browser's own checks are off (the newcomer pass: 0, -5 and 2.5 were stopped by Chromium's bubble, not
    # the app's sentence): each reaches the app, whose refusal names the limit.
    board = client.get(f"/games/{g.id}/referee").text
    assert re.search(r"<form data-clock-form novalidate ", board), board
    for typed in ("abc", "0", "-5", "2.5", "NaN", "1e3", "99999", "9" * 5000):
        form = {
            **dict.fromkeys(("game_attacker", "turn_attacker", "end_under"), ""),
            "game_defender": typed,
            "game_defender_unit": "60",
            "turn_defender": "",
            "turn_defender_unit": "1",
        }
        r = client.post(f"/games/{g.id}/referee/clock", data=csrf.form(client, form), headers=HTMX)
        assert r.status_code == 422, (typed[:20], r.status_code, r.text[:300])
        said = r.headers[NOTICE_HEADER]
        assert said == "Defender, for the game: a whole number from 1 to 1,440 minutes (86,400 seconds).", (
            said
        )
    assert client.get(f"/api/v1/games/{g.id}/clock", headers=g.referee).json()["limits"] == before


def test_a_unit_the_form_does_not_offer_is_refused_naming_its_limit_and_sets_nothing(
    sqlite_client: TestClient,
) -> None:
    """A limit's unit is its select's min (60) or s (1), or none sent (minutes); any other is refused 422 naming
    the limit, as the new game's form refuses it (the hostile pass: "3600", "0" and a word were read as minutes,
    the limit set)."""
    client = sqlite_client
    g = new_game(client, {"scenario": "mons-1914", "clock": {"game_minutes": 120}})
    before = client.get(f"/api/v1/games/{g.id}/clock", headers=g.referee).json()["limits"]
    seated(client, g, g.referee)
    url = f"/games/{g.id}/referee/clock"
    for name, unit, said in (
        ("game_defender", "3600", "Defender, for the game: its unit is min or s."),
        ("turn_attacker", "0", "Attacker, each turn: its unit is min or s."),
        ("end_under", "hours", "The time left that ends the game: its unit is min or s."),
    ):
        form = {name: "75", f"{name}_unit": unit}
        r = client.post(url, data=csrf.form(client, form), headers=HTMX)
        assert (r.status_code, r.headers.get(NOTICE_HEADER)) == (422, said), (
            unit,
            r.status_code,
            r.text[:200],
        )
    assert client.get(f"/api/v1/games/{g.id}/clock", headers=g.referee).json()["limits"] == before
    # No unit sent: minutes, as before (the form's other boxes empty, as the board's form sends them).
    boxes = dict.fromkeys(
        ("game_attacker", "game_defender", "turn_attacker", "turn_defender", "end_under"), ""
    )
    r = client.post(url, data=csrf.form(client, {**boxes, "game_defender": "75"}), headers=HTMX)
    assert r.status_code == 200, r.text
    limits = client.get(f"/api/v1/games/{g.id}/clock", headers=g.referee).json()["limits"]
    assert limits["game_seconds"]["defender"] == 4500


def test_a_body_with_no_limit_of_the_form_is_refused_and_sets_nothing(sqlite_client: TestClient) -> None:
    """The hostile passes: a body that is no form (JSON, plain text, none) was read as an empty form, every limit
    cleared with a 200; then a form of one empty box alone did the same. Each is refused naming the form's first
    limit missing, and the limits stand."""
    client = sqlite_client
    g = new_game(client, {"scenario": "mons-1914", "clock": {"game_minutes": 120}})
    before = client.get(f"/api/v1/games/{g.id}/clock", headers=g.referee).json()["limits"]
    seated(client, g, g.referee)
    token = csrf.header(client)
    for body, kind in (
        ('{"game_attacker": 9}', "application/json"),
        ("game_attacker=9", "text/plain"),
        ("", None),
        ("end_under=", "application/x-www-form-urlencoded"),
    ):
        headers = {**HTMX, **token, **({"content-type": kind} if kind else {})}
        r = client.post(f"/games/{g.id}/referee/clock", content=body, headers=headers)
        said = r.headers.get(NOTICE_HEADER)
        assert (r.status_code, said) == (422, "Attacker, for the game: missing from the form."), (
            kind,
            r.text[:200],
        )
    assert client.get(f"/api/v1/games/{g.id}/clock", headers=g.referee).json()["limits"] == before
