"""A live frame carries what its page needs to apply the event without a request (issue 25): the map's view
the units the event touched, as /units answers them to that device, and the game's state when the game
changed; the referee board's view the pieces of the board `/referee/changes` would answer for it. Each is
rendered once per kind of viewer, however many devices follow, and one event stays under 10 KB."""

from __future__ import annotations

import json
import threading
from typing import Any

import httpx
import pytest
from sqlalchemy.engine import make_url

from app.core import live
from app.guard.auth import COOKIE_NAME
from tests.app.games.conftest import Game, advance_to, live_url, new_game, start_game  # noqa: F401 (a fixture)
from tests.app.games.test_live_and_concurrency import Listener
from tests.app.hostile.test_secrets import token_of

EVENT_BYTES = 10_000  # the project's budget for one live event per device


def stream(base: str, g: Game, view: str) -> str:
    return f"{base}/api/v1/games/{g.id}/stream?view={view}"


def caught_up(http: httpx.Client, g: Game, *listeners: tuple[Listener, dict[str, str]]) -> None:
    """Each listener has read the log so far (as its device may read it)."""
    for listener, who in listeners:
        listener.take(len(http.get(f"/api/v1/games/{g.id}/events", headers=who).json()))


def company_target(http: httpx.Client, g: Game) -> dict[str, Any]:
    """A defender rifle platoon whose company has other platoons: MG fire on it suppresses them all."""
    units = http.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    platoons = [u for u in units if u["side"] == "defender" and u["kind"] == "rifle-platoon"]
    return next(p for p in platoons if sum(q["parent_id"] == p["parent_id"] for q in platoons) > 1)


def test_a_map_frame_carries_the_units_it_touched_and_the_state_when_the_game_moved(
    live_url: str,  # noqa: F811
    migrated_url: str,
) -> None:
    with httpx.Client(base_url=live_url, timeout=30) as http:
        g = new_game(http)
        start_game(http, g)
        maps = [Listener(stream(live_url, g, "map"), g.defender) for _ in range(3)]
        board = Listener(stream(live_url, g, "board"), g.referee)
        caught_up(http, g, *((m, g.defender) for m in maps), (board, g.referee))
        feed = live.local_broker(make_url(migrated_url)).feed(g.id)
        assert feed is not None
        renders = feed.renders

        target = company_target(http, g)
        r = http.post(
            f"/api/v1/games/{g.id}/units/{target['id']}/markers",
            headers=g.attacker,
            json={"delta": 1, "fire": "mg"},
        )
        assert r.status_code == 200, r.text
        changed = {c["unit"] for c in r.json()["changes"] if "unit" in c}
        assert len(changed) > 1  # the whole company
        frames = [m.take(1)[0][1] for m in maps]
        assert all(f == frames[0] for f in frames)
        frame = frames[0]
        assert frame["id"] == r.json()["event_id"] and "refetch" not in frame
        # The units, exactly as this device reads them from /units (less the names, read with /units).
        assert {u["id"] for u in frame["units"]} == changed | {target["id"]}
        for u in frame["units"]:
            read = http.get(f"/api/v1/games/{g.id}/units/{u['id']}", headers=g.defender).json()
            assert u == {k: v for k, v in read.items() if k not in ("short_name", "full_name", "plain_name")}
        assert all(u["suppression"] >= 1 for u in frame["units"])
        assert "state" not in frame  # stands only: the map keeps its board and turn
        ((_, on_board),) = board.take(1)
        assert on_board["id"] == frame["id"] and "board" in on_board
        # Three map devices and one board: two renderings of the event, not four.
        assert feed.renders - renders == 2
        plain = Listener(f"{live_url}/api/v1/games/{g.id}/stream", g.attacker)  # a lookup page's: no view
        caught_up(http, g, (plain, g.attacker))

        version = http.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["version"]
        r = http.post(f"/api/v1/games/{g.id}/turn/advance", headers=g.referee, json={"version": version})
        assert r.status_code == 200, r.text
        state = http.get(f"/api/v1/games/{g.id}/state", headers=g.defender).json()
        last = maps[0].take(1)[0][1]
        while last["id"] < state["last_event_id"]:
            last = maps[0].take(1)[0][1]
        assert last["state"] == {k: state[k] for k in last["state"]}
        assert set(last["state"]) >= {"status", "turn", "side_to_move", "step", "board"}
        # Issue 69: a side's seat is told which reading the referee now plays (the record said "Game updated").
        version = http.get(f"/api/v1/games/{g.id}", headers=g.referee).json()["version"]
        played = {"version": version, "variants": {"raw-firer-penalty": "main-text"}}
        assert http.patch(f"/api/v1/games/{g.id}", headers=g.referee, json=played).status_code == 200
        assert maps[0].take(1)[0][1]["notice"] == "The referee now plays Raw troops shooting: main text."
        # A lookup page's stream (no view) is told too (a seat's lookup kept the old answer unmarked).
        heard = plain.take(1)[0][1]
        while "notice" not in heard and heard["kind"] != "game-updated":
            heard = plain.take(1)[0][1]
        assert heard["notice"] == "The referee now plays Raw troops shooting: main text.", heard
        for m in (*maps, board, plain):
            m.close()


def test_a_board_frame_carries_what_referee_changes_answers(live_url: str) -> None:  # noqa: F811
    with httpx.Client(base_url=live_url, timeout=30) as http:
        g = new_game(http)
        start_game(http, g)
        views = {
            who: Listener(stream(live_url, g, "board"), getattr(g, who)) for who in ("referee", "attacker")
        }
        caught_up(http, g, *((v, getattr(g, who)) for who, v in views.items()))
        target = company_target(http, g)
        r = http.post(
            f"/api/v1/games/{g.id}/units/{target['id']}/markers",
            headers=g.attacker,
            json={"delta": 1, "fire": "mg"},
        )
        assert r.status_code == 200, r.text
        event_id = r.json()["event_id"]
        for who, listener in views.items():
            ((_, frame),) = listener.take(1)
            assert frame["id"] == event_id and len(frame["board"]) > 0
            assert f'id="unit-{target["id"]}"' in frame["board"]
            http.cookies.set(COOKIE_NAME, token_of(getattr(g, who)))
            page = http.get(f"/games/{g.id}/referee/changes", params={"after": event_id - 1})
            http.cookies.clear()
            assert page.status_code == 200
            assert frame["board"] == page.text, who
            listener.close()


def test_one_frame_stays_under_10_kb_for_the_biggest_acts_of_mons(live_url: str) -> None:  # noqa: F811
    with httpx.Client(base_url=live_url, timeout=30) as http:
        g = new_game(http)
        # A bombardment in the German fire plan arrives as the game starts.
        plan = f"/api/v1/games/{g.id}/fireplans"
        item = {"arrival_turn": 1, "item": {"kind": "bombardment", "grid": [90, 120], "turns": 1}}
        assert http.post(f"{plan}/attacker/items", headers=g.attacker, json=item).status_code == 201
        for side in ("attacker", "defender"):
            assert http.post(f"{plan}/{side}/lock", headers=getattr(g, side)).is_success
        listeners = {
            (who, view): Listener(stream(live_url, g, view), getattr(g, who))
            for who in ("referee", "attacker", "defender")
            for view in ("map", "board")
        }
        caught_up(http, g, *((lis, getattr(g, who)) for (who, _), lis in listeners.items()))
        start_game(http, g)
        # MG fire on a company, then the turn moving on (the next step's panel, the state).
        target = company_target(http, g)
        r = http.post(
            f"/api/v1/games/{g.id}/units/{target['id']}/markers",
            headers=g.referee,
            json={"delta": 1, "fire": "mg"},
        )
        assert r.status_code == 200, r.text
        version = http.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["version"]
        assert http.post(
            f"/api/v1/games/{g.id}/turn/advance", headers=g.referee, json={"version": version}
        ).is_success
        last = max(e["id"] for e in http.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json())
        sizes: dict[str, int] = {}
        for (who, view), lis in listeners.items():
            while True:
                ((_, frame),) = lis.take(1)
                size = len(httpx.Response(200, json=frame).content)
                sizes[f"{who} {view} {frame['id']}"] = size
                assert "refetch" not in frame, (who, view, frame["kind"], size)
                if frame["id"] >= last:
                    break
            lis.close()
        assert 0 < max(sizes.values()) < EVENT_BYTES, sizes
        kinds = {e["kind"] for e in http.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json()}
        assert "fire-plan-arrival" in kinds  # the bombardment's arrival was among the frames measured


def test_a_clock_change_reaches_every_devices_stream_with_the_clock(live_url: str) -> None:  # noqa: F811
    """The referee's pause and the turn moving on (issue 55): each device's frame carries the clock as the
    event left it (the same for every viewer), so a device runs it on without a request."""
    with httpx.Client(base_url=live_url, timeout=30) as http:
        g = new_game(http)
        start_game(http, g)
        listeners = [
            Listener(stream(live_url, g, "map"), g.defender),
            Listener(stream(live_url, g, "board"), g.attacker),
        ]
        caught_up(http, g, (listeners[0], g.defender), (listeners[1], g.attacker))
        r = http.post(f"/api/v1/games/{g.id}/clock/pause", headers=g.referee)
        assert r.status_code == 200, r.text
        for listener in listeners:
            ((_, frame),) = listener.take(1)
            assert (
                frame["kind"] == "clock-paused"
                and frame["clock"]["paused"]
                and frame["clock"]["running"] == []
            )
        assert http.post(f"/api/v1/games/{g.id}/clock/resume", headers=g.referee).is_success
        version = http.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["version"]
        assert http.post(
            f"/api/v1/games/{g.id}/turn/advance", headers=g.referee, json={"version": version}
        ).is_success
        for listener in listeners:
            ((_, resumed),) = listener.take(1)
            assert resumed["kind"] == "clock-resumed" and resumed["clock"]["running"] == ["attacker"]
            ((_, step),) = listener.take(1)
            assert step["kind"] == "step" and "clock" in step
            listener.close()


NAVAL = [100.3125, 152.4375]  # a grid reference no other number of the game looks like


def sealed_naval_shoot(http: httpx.Client) -> tuple[Game, int]:
    """A 2mm Earth 1418 game two steps before the attacker's sealed naval shoot lands (execute-10), and the
    shoot's item id (the board's circle names it when it lands)."""
    g = new_game(http, {"ruleset": "2mm-earth-1418", "name": "Sealed bounds"})
    for side, y in (("attacker", 40.0), ("defender", 120.0)):
        unit = {"side": side, "name": f"{side} coy", "level": "company", "kind": "line-inf", "x": 60, "y": y}
        assert http.post(f"/api/v1/games/{g.id}/units", headers=g.referee, json=unit).status_code == 201
    start_game(http, g)
    item = {"kind": "naval-railway-bombardment", "battery": "attacker guns", "grid": NAVAL}
    r = http.post(
        f"/api/v1/games/{g.id}/fireplans/attacker/items",
        headers=g.attacker,
        json={"arrival_turn": 1, "item": item},
    )
    assert r.status_code == 201, r.text
    assert http.post(f"/api/v1/games/{g.id}/fireplans/attacker/lock", headers=g.attacker).is_success
    advance_to(http, g, "execute-8")
    return g, int(r.json()["id"])


def advance(http: httpx.Client, g: Game) -> dict[str, Any]:
    """The referee moves the game on one step: the answer."""
    version = http.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["version"]
    r = http.post(f"/api/v1/games/{g.id}/turn/advance", headers=g.referee, json={"version": version})
    assert r.status_code == 200, r.text
    return dict(r.json())


@pytest.mark.storage  # what a render reads after newer commits: each backend's own isolation
def test_a_frame_says_the_newest_event_its_parts_hold(live_url: str, migrated_url: str) -> None:  # noqa: F811
    """Issue 65: a frame's parts are read when it is rendered, which may be after newer events were written
    (a stream behind on a busy machine, a resume). The frame says the newest event its parts may hold
    (`as_of`, at least its own id), and shows nothing that had not happened by then: here the step before a
    sealed naval shoot lands, rendered once the shoot has landed, on the live feed (its read held until the
    next step is written: no timing) and in a backlog read afterwards."""
    with httpx.Client(base_url=live_url, timeout=30) as http:
        g, item = sealed_naval_shoot(http)
        listener = Listener(stream(live_url, g, "map"), g.defender)
        caught_up(http, g, (listener, g.defender))
        feed = live.local_broker(make_url(migrated_url)).feed(g.id)
        assert feed is not None
        read, held, release = feed.read, threading.Event(), threading.Event()

        def read_then_wait(game_id: int, after_id: int, limit: int) -> Any:
            got = read(game_id, after_id, limit)
            held.set()
            assert release.wait(30)  # rendered only once the next step is written
            return got

        feed.read = read_then_wait
        try:
            advance(http, g)
            assert held.wait(30) and advance(http, g)["turn"]["step"]["id"] == "execute-10"
        finally:
            feed.read = read
            release.set()
        log = http.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json()
        (landed,) = [e["id"] for e in log if e["kind"] == "fire-plan-arrival"]
        step = max(e["id"] for e in log if e["kind"] == "step" and e["step"] == "execute-9")
        ((_, live_frame),) = listener.take(1)
        listener.close()
        behind = Listener(stream(live_url, g, "map") + f"&after={step - 1}", g.defender)
        ((_, resumed),) = behind.take(1)
        behind.close()
        for frame in (live_frame, resumed):
            assert frame["id"] == step and "state" in frame
            as_of = frame.get("as_of_event", frame["id"])
            assert as_of >= frame["id"]
            shows = f'"item_id":{item},' in json.dumps(frame, separators=(",", ":"))
            assert shows == (as_of >= landed), (frame["id"], as_of, landed)
