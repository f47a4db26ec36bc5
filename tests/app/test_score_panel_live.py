"""The score's panels on a game's live feed (app/pages/score_panel.py's `frame_panel`, issue 67's done-when: live
acts reach the other devices as fast as before): a frame carries a seat's panels only where they show what the
feed last carried to such seats did not (a stand moved on no objective carries none, as before the panels were
the server's), and they are built once per kind of seat and page per change, however many streams follow it.
The feed is app.core.live's, its audiences rendered as app.routes.events' stream renders them."""

from __future__ import annotations

import collections
import functools
import json
import re
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.core import live
from app.pages import score_panel
from app.routes import events as events_route
from app.services import events as events_service
from app.services.seating import Viewer
from tests.app.core.test_live_audiences import run_alone
from tests.app.test_score_panel import BRIDGE, contested, fragment, no_clock

SEATS = ("referee", "attacker", "defender")
AUDIENCES = [(role, view) for view in ("map", "board") for role in SEATS]
Frames = dict[tuple[str, str], list[dict[str, Any]]]


class Streams:
    """A game's feed followed by `n` streams of each seat's map and board (one audience each)."""

    def __init__(self, http: TestClient, game_id: int, n: int) -> None:
        engine = http.app.state.engine  # type: ignore[attr-defined]
        self.feed = live.Feed(game_id, functools.partial(events_service.feed_read, engine))
        self.stack = ExitStack()
        self.keys: dict[tuple[str, str], Any] = {}
        for role, view in AUDIENCES:
            roles = list(SEATS) if role == "referee" else [role]
            shows = functools.partial(
                lambda shown, item: item.visibility in shown, frozenset(["all", *roles])
            )

            def render(
                events: list[Any],
                shared: live.Shared,
                roles: list[str] = roles,
                who: str = role,
                view: str = view,
            ) -> list[str]:
                dicts = [events_service.event_dict(e, roles) for e in events]
                with Session(engine) as session:
                    return events_route._with_view(
                        session, game_id, Viewer(game_id, who), view, dicts, shared
                    )

            key = self.keys[(role, view)] = (tuple(roles), view)
            for _ in range(n):
                self.stack.enter_context(self.feed.audience(key, shows, render))
        self.seen = events_service.feed_read(engine, game_id, 0, 10_000)[0][-1].id

    def wake(self) -> Frames:
        """The feed woken by the acts since the last wake-up: each audience's frames of them."""
        self.feed.wakes += 1
        run_alone(functools.partial(self.feed.refresh, self.seen))  # not under a browser test's loop (ci138)
        items = self.feed.after(self.seen) or []
        self.seen = items[-1].id
        return {
            who: [json.loads(i.frames[key].decode().split("data: ", 1)[1]) for i in items if i.frames[key]]
            for who, key in self.keys.items()
        }


@pytest.fixture
def streams(sqlite_client: TestClient) -> Iterator[tuple[TestClient, Any, Streams]]:
    g = contested(sqlite_client)
    s = Streams(sqlite_client, g.id, 3)
    with s.stack:
        yield sqlite_client, g, s


def call(http: TestClient, g: Any, side: str) -> None:
    r = http.post(
        f"/api/v1/games/{g.id}/score/calls", headers=g.referee, json={"objective_id": BRIDGE, "side": side}
    )
    assert r.status_code == 200, r.text


def move(http: TestClient, g: Any, by: float) -> None:
    """One of the attacker's stands on the table, far from every objective, moved `by` cm (the referee's drag)."""
    units = http.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    stand = next(
        u for u in units if u["side"] == "attacker" and u["x"] is not None and not u.get("off_table")
    )
    body = {
        "x": stand["x"] + by,
        "y": stand["y"],
        "facing_deg": stand["facing_deg"] or 90.0,
        "override": True,
    }
    r = http.post(f"/api/v1/games/{g.id}/units/{stand['id']}/move", headers=g.referee, json=body)
    assert r.status_code == 200, r.text


def panels(frames: Frames) -> dict[tuple[str, str], str | None]:
    """Each audience's panels carried by its frames of a wake-up (the last frame's), None for none."""
    return {
        who: next((f["score_panel"] for f in fs[::-1] if "score_panel" in f), None)
        for who, fs in frames.items()
    }


def test_a_move_that_changes_no_score_carries_no_panels_a_call_carries_each_seat_s_changed_ones(
    streams: tuple[TestClient, Any, Streams],
) -> None:
    http, g, s = streams
    seats = {"referee": g.referee, "attacker": g.attacker, "defender": g.defender}
    call(http, g, "defender")
    first = panels(s.wake())  # the feed's first: what its streams' pages read is not known, carried
    assert all(first.values()), first
    for by in (6.0, -6.0):
        move(http, g, by)
        frames = s.wake()
        assert all((fs and "units" in fs[-1]) or v == "board" for (_, v), fs in frames.items()), frames
        assert panels(frames) == dict.fromkeys(AUDIENCES), "a stand moved on no objective changes no panel"
    call(http, g, "attacker")
    called = panels(s.wake())
    for (role, view), panel in called.items():
        assert panel is not None and no_clock(panel) == no_clock(fragment(http, g, seats[role], view))
        assert no_clock(panel) != no_clock(first[(role, view)] or "")
        points = re.search(r'data-side-points="attacker">.*?<b>(\d+)</b>', panel)
        assert points is not None and points.group(1) == "1", panel  # the bridge called the attacker's


def test_the_panels_are_built_once_per_seat_and_page_per_change_however_many_streams(
    streams: tuple[TestClient, Any, Streams], monkeypatch: pytest.MonkeyPatch
) -> None:
    http, g, s = streams
    built: list[str] = []
    get_template = score_panel.templates.get_template

    def counted(name: str) -> Any:
        if name == "_score_panel.html":
            built.append(name)
        return get_template(name)

    monkeypatch.setattr(score_panel.templates, "get_template", counted)
    call(http, g, "defender")
    s.wake()
    assert len(built) == len(AUDIENCES)  # 3 streams each: one rendering of each seat's map and board
    built.clear()
    move(http, g, 6.0)
    s.wake()
    assert built == []  # the panels unchanged: none built
    call(http, g, "attacker")
    s.wake()
    assert len(built) == len(AUDIENCES)


def test_a_call_s_and_a_move_s_frames_read_again_neither_the_stands_names_nor_the_seals_and_the_clock_once(
    streams: tuple[TestClient, Any, Streams], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stands' names and the seals kept by the feed between its wake-ups (issue 67's "as fast as today"), read
    again once an event may have changed them (the turn moving on); the clock read once a wake-up for every seat
    and page, the score's and the frame's one reading: its stored row and the entries since (issue 93)."""
    http, g, s = streams
    read: collections.Counter[str] = collections.Counter()
    for module, name in (
        (score_panel.clock_service, "kept_of"),
        (score_panel, "stand_names"),
        (score_panel.secret_objectives, "commitments"),
    ):

        def counted(*args: Any, was: Any = getattr(module, name), name: str = name) -> Any:
            read[name] += 1
            return was(*args)

        monkeypatch.setattr(module, name, counted)
    call(http, g, "defender")
    read.clear()
    s.wake()
    assert read == {"kept_of": 1, "stand_names": 1, "commitments": 1}  # once for every seat and page
    for act in (functools.partial(move, http, g, 6.0), functools.partial(call, http, g, "attacker")):
        act()
        read.clear()
        s.wake()
        assert read == {"kept_of": 1}, act
    version = http.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["version"]
    r = http.post(f"/api/v1/games/{g.id}/turn/advance", headers=g.referee, json={"version": version})
    assert r.status_code == 200, r.text
    read.clear()
    s.wake()
    assert read["stand_names"] == read["commitments"] == 1
