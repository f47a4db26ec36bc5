"""The organiser's live view of an event day (issue 57): one stream that follows many games at once (every
table of the round), on the live broker's own feeds (app.core.live), sending the whole board as one frame
after each burst of wake-ups rather than each game's events. The games it follows come with each read of the
board: an event's own channel (`event_channel`) wakes it as a round is committed, and from then on it follows
that round's games (a stream opened in round 1 went silent once round 2 was committed: session 16).

The board is read once per change for every stream open on the event in this process (`Shared`), as a game's
feed reads its events once for its streams; each stream renders its own frames from it. An event has at most
`MAX_STREAMS` open at once (`Boards`): the hostile pass of session 17 found each stream read the whole board
and its feeds at every wake-up (200 tables: 0.4 s of CPU a frame), with no bound on the streams."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from app.core.live import KEEPALIVE_SECONDS, Broker, Feed, FeedRead, Subscription, sse_frame
from app.errors import TooManyRequests

T = TypeVar("T")
K = TypeVar("K")

# An event's board streams open at once in a process: an organiser's few devices, and a stream or two a dropped
# connection leaves until its keep-alive finds it gone (KEEPALIVE_SECONDS).
MAX_STREAMS = 8
RETRY_AFTER_SECONDS = int(KEEPALIVE_SECONDS)


def event_channel(event_id: int) -> int:
    """The broker's key for an event day's own wake-ups (a round committed), beside its games' keys: a game's
    id is positive, so the event's is its id negated (a notification's payload, app.core.live)."""
    return -event_id


@dataclass(frozen=True)
class Read(Generic[T]):
    """A read of the board: the feeds that wake it (the event's channel, its round's games) and the board."""

    feeds: list[int]
    board: T


class Shared(Generic[T]):
    """One event's board, read (in a worker thread) once per change for all its streams in this process: a read
    serves every stream whose followed feeds were woken no more times than they had been as it began (a feed
    counts its wake-ups before it wakes the streams: `Feed.wakes`)."""

    def __init__(self, read: Callable[[], Read[T]]) -> None:
        self._read = read
        self._lock = asyncio.Lock()
        self._seen: dict[int, tuple[Feed, int]] = {}
        self._last: Read[T] | None = None
        self.reads = 0
        self._kept_lock = threading.Lock()
        self._kept: tuple[object, Any] | None = None  # one key's value, of whatever type its `make` gave

    def kept(self, key: object, make: Callable[[], K]) -> K:
        """`make()` once per `key` for all the event's streams (the last key's kept): what every stream draws
        from, such as the standings of the event's version, read once rather than once a stream (the hostile
        pass of session 19: 8 streams each built the same 43 kB piece on every settle, 0.7 s of CPU)."""
        with self._kept_lock:
            if self._kept is None or self._kept[0] != key:
                self._kept = (key, make())
            return self._kept[1]

    async def fresh(self, followed: dict[int, Subscription]) -> Read[T]:
        """The board as read after every wake-up of the `followed` feeds so far: the last read, else a new one."""
        async with self._lock:
            if self._last is None or not self._heard(followed):
                self._seen = {
                    key: (sub.feed, sub.feed.wakes) for key, sub in followed.items()
                }  # before the read
                self._last = await asyncio.to_thread(self._read)
                self.reads += 1
            return self._last

    def _heard(self, followed: dict[int, Subscription]) -> bool:
        """Whether the last read began after every wake-up of the `followed` feeds (a feed made anew counts
        from 0 again: another feed)."""
        for key, sub in followed.items():
            feed, wakes = self._seen.get(key, (None, -1))
            if feed is not sub.feed or wakes < sub.feed.wakes:
                return False
        return True


class Boards:
    """Each event's `Shared` board while a stream of it is open in this process, and at most `per_event`
    streams an event."""

    def __init__(self, per_event: int = MAX_STREAMS) -> None:
        self.per_event = per_event
        self._lock = threading.Lock()
        self._open: dict[int, tuple[Shared[object], int]] = {}

    def admit(self, event_id: int, read: Callable[[], Read[T]]) -> tuple[Shared[T], Callable[[], None]]:
        """The event's shared board (`read` makes it for the first stream) and how the stream leaves it (once,
        however often called); past `per_event` streams, 429."""
        with self._lock:
            shared, streams = self._open.get(event_id, (None, 0))
            if streams >= self.per_event:
                raise TooManyRequests(
                    f"this event already has {self.per_event} board streams open, the limit per event: close one "
                    f"or try again in {RETRY_AFTER_SECONDS} s",
                    RETRY_AFTER_SECONDS,
                )
            shared = shared or Shared(read)  # type: ignore[arg-type]
            self._open[event_id] = (shared, streams + 1)
        left = threading.Event()

        def leave() -> None:
            with self._lock:
                if left.is_set():
                    return
                left.set()
                _, streams = self._open[event_id]
                if streams > 1:
                    self._open[event_id] = (shared, streams - 1)
                else:
                    del self._open[event_id]

        return shared, leave  # type: ignore[return-value]

    def streams(self, event_id: int) -> int:
        with self._lock:
            return self._open.get(event_id, (None, 0))[1]


async def watch(
    broker: Broker,
    channel: int,
    shared: Shared[T],
    read: FeedRead,
    frames: Callable[[T], list[str]],
    is_disconnected: Callable[[], Awaitable[bool]],
    leave: Callable[[], None],
    every: float = 0.0,
    feeds: Callable[[], list[int]] | None = None,
) -> AsyncGenerator[bytes, None]:
    """Yield an SSE `board` frame of each `frames(board)` gives (in a worker thread; none when it has nothing
    new) at once, then whenever `channel` or any feed the board's last read named is published (an event
    day's organiser: its channel and every table's game at once), at most once in `every` seconds: the
    wake-ups meanwhile are one read, after them, so forty busy tables cost the organiser's view a read per
    `every`, not one per event, shared by the event's streams. A feed newly named is subscribed and the board
    read again (then its read counts it), so a game followed from a new round on is never moved unheard. The
    games' feeds are the ones their own streams share (`read` must be theirs). `feeds`: the feeds the board's
    first read will name, asked first (in a worker thread) and followed before it, so the stream's first frame is
    one read, not a read and another once they are heard. It ends with `leave()`."""
    followed: dict[int, tuple[ExitStack, Subscription]] = {}
    try:
        yield b"retry: 1000\n\n"
        sent = 0
        _follow(broker, read, followed, [channel, *(await asyncio.to_thread(feeds) if feeds else [])])
        while True:
            now = await shared.fresh({key: sub for key, (_, sub) in followed.items()})
            if not set(now.feeds) <= set(followed):
                _follow(broker, read, followed, now.feeds)  # then read with them heard
                continue
            _follow(broker, read, followed, now.feeds)
            for data in await asyncio.to_thread(frames, now.board):
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
        leave()
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
