"""The organiser's live view of an event day (issue 57): one stream that follows many games at once (every
table of the round), on the live broker's own feeds (app.core.live), sending the whole board as one frame
after each burst of wake-ups rather than each game's events."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import ExitStack

from app.core.live import KEEPALIVE_SECONDS, Broker, FeedRead, Subscription, sse_frame


async def watch(
    broker: Broker,
    game_ids: list[int],
    read: FeedRead,
    snapshot: Callable[[], list[str]],
    is_disconnected: Callable[[], Awaitable[bool]],
    every: float = 0.0,
) -> AsyncGenerator[bytes, None]:
    """Yield an SSE `board` frame of each `snapshot()` gives (read in a worker thread; none when it has nothing
    new) at once, then whenever any of the games is published (an event day's organiser: every table's game at
    once), at most once in `every` seconds: the wake-ups meanwhile are one snapshot, read after them, so forty
    busy tables cost the organiser's view a read per `every`, not one per event. The games' feeds are the ones
    their own streams share (`read` must be theirs)."""
    with ExitStack() as stack:
        subs = [stack.enter_context(broker.subscribe(g, read)) for g in game_ids]
        yield b"retry: 1000\n\n"
        sent = 0
        while True:
            for data in await asyncio.to_thread(snapshot):
                sent += 1
                yield sse_frame(sent, "board", data).encode()
            if every:
                await asyncio.sleep(every)  # what wakes it meanwhile is read once, after
            woken = await _any(subs, KEEPALIVE_SECONDS)
            while not woken:
                if await is_disconnected():
                    return
                yield b": keep-alive\n\n"
                woken = await _any(subs, KEEPALIVE_SECONDS)


async def _any(subs: list[Subscription], timeout: float) -> bool:
    """Whether any of the subscriptions was woken within `timeout` (every one woken is cleared)."""
    if not subs:
        await asyncio.sleep(timeout)
        return False
    waits = [asyncio.ensure_future(s.event.wait()) for s in subs if not s.event.is_set()]
    if len(waits) == len(subs):
        done, _ = await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    else:
        done = {None}  # type: ignore[arg-type]
    for w in waits:
        w.cancel()
    for s in subs:
        s.event.clear()
    return bool(done)
