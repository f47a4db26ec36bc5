"""The live feed's audiences (app/core/live.py): the streams that may read the same (one render key) share one
rendering of each event, made with the feed's read, and the bytes of it; a stream never gets a frame of
another audience, so what one side may not see never reaches its streams."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from app.core import live

GAME = 1
ROLES = ("attacker", "defender", "referee")


@dataclass
class Row:
    id: int
    kind: str
    visibility: str
    text: str


class Log:
    """A game's event log as the feed reads it, and every rendering asked of it (the audience's roles)."""

    def __init__(self) -> None:
        self.rows: list[Row] = []
        self.rendered: list[str] = []

    def read(self, game_id: int, after_id: int, limit: int) -> tuple[list[live.FeedItem], frozenset[int]]:
        new = [r for r in self.rows if r.id > after_id][:limit]
        return [live.FeedItem(r.id, r.visibility, r) for r in new], frozenset(range(1, 10))

    def shows(self, role: str) -> Any:
        return lambda item: role == "referee" or item.visibility in ("all", role)

    def render(self, role: str) -> live.Render:
        def render(rows: list[Any], shared: live.Shared) -> list[str]:
            self.rendered.append(role)
            return [json.dumps({"id": r.id, "text": r.text}) for r in rows]

        return render

    def backlog(self, role: str) -> Any:
        """A stream's own read of what it missed, as it opens."""

        def backlog(after_id: int, limit: int) -> list[live.Frame]:
            shown = [r for r in self.rows if r.id > after_id and self.shows(role)(r)][:limit]
            return [(r.id, r.kind, json.dumps({"id": r.id, "text": r.text})) for r in shown]

        return backlog

    def viewing(self, role: str, token_id: int) -> live.Viewing:
        return live.Viewing(
            read=self.read,
            backlog=self.backlog(role),
            shows=self.shows(role),
            key=(role,),
            render=self.render(role),
            token_id=token_id,
        )


def run_alone(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run a test's event loop in a thread of its own: a browser test before it on the same worker may leave
    Playwright's loop running in this one, where asyncio.run() refuses to start."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, main()).result()


async def connected() -> bool:
    return False


def test_streams_of_one_audience_share_one_rendering_and_the_other_side_never_gets_it() -> None:
    async def run() -> None:
        log, broker = Log(), live.InProcessBroker()
        devices = [("attacker", 1), ("attacker", 2), ("defender", 3), ("referee", 4)]
        streams: list[AsyncGenerator[bytes, None]] = [
            live.stream(broker, GAME, 0, log.viewing(role, token), connected) for role, token in devices
        ]
        log.rows.append(Row(1, "turn", "all", "the game begins"))
        for s in streams:
            assert await anext(s) == b"retry: 1000\n\n"  # subscribed
            assert b'"the game begins"' in await anext(s)  # its own backlog
        log.rows += [Row(2, "marker", "all", "a marker"), Row(3, "plan", "attacker", "the attacker's plan")]
        broker.publish(GAME)
        got = [await anext(s) for s in streams]

        feed = broker.feed(GAME)
        assert feed is not None and feed.reads == 1
        # One rendering per audience for the event, made with the read, whatever the number of devices.
        assert sorted(log.rendered) == sorted(ROLES) and feed.renders == 3
        attacker, attacker_too, defender, referee = got
        assert attacker == attacker_too
        assert b'"the attacker\'s plan"' in attacker and b'"a marker"' in attacker
        assert b"plan" not in defender and b'"a marker"' in defender
        assert referee == attacker  # the referee sees every event
        # What each stream sent is its audience's frames as the feed keeps them, not remade per device.
        marker, plan = feed.items
        assert attacker == marker.frames[("attacker",)] + plan.frames[("attacker",)]
        assert defender == marker.frames[("defender",)] and plan.frames[("defender",)] == b""
        for s in streams:
            await s.aclose()

    run_alone(run)


def test_an_audience_that_missed_a_read_renders_its_frames_once_for_all_its_streams() -> None:
    async def run() -> None:
        log = Log()
        log.rows += [Row(1, "marker", "all", "a marker"), Row(2, "plan", "attacker", "the attacker's plan")]
        feed = live.Feed(GAME, log.read)
        await feed.refresh(0)  # read with no audience following: nothing rendered
        assert log.rendered == [] and all(i.frames == {} for i in feed.items)
        with feed.audience(("defender",), log.shows("defender"), log.render("defender")):
            first, second = await asyncio.gather(
                feed.frames(("defender",), feed.items), feed.frames(("defender",), feed.items)
            )
        assert first == second and b'"a marker"' in first and b"plan" not in first
        assert log.rendered == ["defender"]

    run_alone(run)
