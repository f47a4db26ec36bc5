"""The organiser's live view of an event day (issue 57): one stream that follows many games at once (every
table of the round), on the live broker's own feeds (app.core.live), sending the whole board as one frame
after each burst of wake-ups rather than each game's events. The games it follows are asked again at each
wake-up: an event's own channel (`event_channel`) wakes it as a round is committed, and from then on it follows
that round's games (a stream opened in round 1 went silent once round 2 was committed: session 16)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import ExitStack

from app.core.live import KEEPALIVE_SECONDS, Broker, FeedRead, Subscription, sse_frame


def event_channel(event_id: int) -> int:
    """The broker's key for an event day's own wake-ups (a round committed), beside its games' keys: a game's
    id is positive, so the event's is its id negated (a notification's payload, app.core.live)."""
    return -event_id


async def watch(
    broker: Broker,
    feeds: Callable[[], list[int]],
    read: FeedRead,
    snapshot: Callable[[], list[str]],
    is_disconnected: Callable[[], Awaitable[bool]],
    every: float = 0.0,
) -> AsyncGenerator[bytes, None]:
    """Yield an SSE `board` frame of each `snapshot()` gives (read in a worker thread; none when it has nothing
    new) at once, then whenever any of the feeds `feeds()` names is published (an event day's organiser: its
    channel and every table's game at once), at most once in `every` seconds: the wake-ups meanwhile are one
    snapshot, read after them, so forty busy tables cost the organiser's view a read per `every`, not one per
    event. `feeds()` is asked (in a worker thread) before each snapshot and its feeds subscribed before the
    snapshot is read, so a game followed from a new round on is never moved unheard. The games' feeds are the
    ones their own streams share (`read` must be theirs)."""
    followed: dict[int, tuple[ExitStack, Subscription]] = {}
    try:
        yield b"retry: 1000\n\n"
        sent = 0
        while True:
            _follow(broker, read, followed, await asyncio.to_thread(feeds))
            for data in await asyncio.to_thread(snapshot):
                sent += 1
                yield sse_frame(sent, "board", data).encode()
            if every:
                await asyncio.sleep(every)  # what wakes it meanwhile is read once, after
            subs = [sub for _, sub in followed.values()]
            woken = await _any(subs, KEEPALIVE_SECONDS)
            while not woken:
                if await is_disconnected():
                    return
                yield b": keep-alive\n\n"
                woken = await _any(subs, KEEPALIVE_SECONDS)
    finally:
        for stack, _ in followed.values():
            stack.close()


def _follow(
    broker: Broker, read: FeedRead, followed: dict[int, tuple[ExitStack, Subscription]], keys: list[int]
) -> None:
    """Subscribe to the feeds of `keys` not followed yet, and let go of those followed no longer."""
    for key in set(followed) - set(keys):
        followed.pop(key)[0].close()
    for key in keys:
        if key not in followed:
            stack = ExitStack()
            followed[key] = (stack, stack.enter_context(broker.subscribe(key, read)))


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
