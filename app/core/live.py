"""Live updates: tell every connected device that a game's event log has grown.

The broker carries only "game N has new events"; the event log in the database is the one source of what
happened. A stream reads `id > last seen` from the database after each wake-up, which gives Last-Event-ID
resume and live delivery by the same code path and can never skip an event.

The broker interface is `publish(game_id)`, `subscribe(game_id, read)` and `start()`/`stop()` (the app's
lifespan). `make_broker(engine)` picks one:
- SQLite: `InProcessBroker`, fan-out within this process (SQLite is one server process).
- PostgreSQL: `PostgresBroker`. A write's transaction runs `pg_notify('firestep_events', '<game_id>')` just
  before it commits (PostgreSQL delivers it at commit, never for a rolled-back write), and one listener
  connection per process (`LISTEN firestep_events`) hands each notification to this process's in-process
  fan-out. Every worker and every host on the same database therefore wakes its own streams.

Per process and game, one `Feed` reads the new rows once per wake-up (every visibility, plus which of the
game's devices are still active) and all of that process's streams on the game take their frames from it.
A frame carries what its kind of viewer needs to apply the event without a request (a page's view: the map's
units, the referee board's fragments). The streams that may read the same (same viewer roles and view: one
render key) are one audience of the feed: in the same worker thread as the read, each audience's frames are
rendered once and kept as the bytes sent, which every stream of the audience writes as they are (an event
costs a rendering per audience, not per device; a stream never gets a frame of another audience). A stream
that has fallen behind the feed's tail (a resume from long ago) reads its own backlog first, as every stream
does when it opens.
"""

from __future__ import annotations

import asyncio
import bisect
import logging
import threading
import weakref
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy import event as sa_event
from sqlalchemy import text
from sqlalchemy.engine import URL, Engine
from sqlmodel import Session

from app.data.schemas_answers import LoggedEvent

log = logging.getLogger(__name__)

# A backlog (resume, or a stream that fell behind) is read in pages of this many rows.
PAGE = 500
# How many recent events a game's feed keeps for streams that are a little behind.
TAIL = 1000
KEEPALIVE_SECONDS = 15.0
CHANNEL = "firestep_events"
RECONNECT_MAX_SECONDS = 10.0


@dataclass
class FeedItem:
    """One event as the shared read found it; `frames` holds what each audience's streams send of it (the SSE
    bytes, empty for an audience that may not see it), by render key."""

    id: int
    visibility: str
    event: Any
    frames: dict[Any, bytes] = field(default_factory=dict)


# read(game_id, after_id, limit) -> (events after after_id in id order, every visibility; active device ids)
FeedRead = Callable[[int, int, int], tuple[list[FeedItem], frozenset[int]]]


class Shared:
    """What the renderings of the same events share whatever their render key (the board as it now is):
    made once, by the first rendering thread that needs it, the others wait for it (one value may be made of
    another: the lock is re-entrant). `kept`: what the feed keeps between wake-ups (a view's structure, brought
    up to date by each wake-up's events rather than read anew: `Feed.kept`); a Shared of its own otherwise.
    `events`: a feed read's events (all the game's after `after`, in id order; None outside a feed's read)."""

    def __init__(self, kept: Shared | None = None, events: list[Any] | None = None, after: int = 0) -> None:
        self._lock = threading.RLock()
        self._values: dict[Any, Any] = {}
        self._kept = kept
        self.events = events
        self.after = after

    def since(self, upto: int) -> list[Any] | None:
        """The game's events after event `upto` as the feed's read found them, or None when the read does not
        reach back that far (or this is no feed's read): what was kept as of `upto` is then read anew."""
        reaches = self.events is not None and upto >= self.after
        return [e for e in self.events or () if e.id > upto] if reaches else None

    @property
    def newest(self) -> int:  # the newest event's id of the read (a value read now is at least as new)
        return self.events[-1].id if self.events else self.after

    @property
    def kept(self) -> Shared:
        if self._kept is None:
            self._kept = Shared()
        return self._kept

    def get(self, key: Any, make: Callable[[], Any]) -> Any:
        with self._lock:
            if key not in self._values:
                self._values[key] = make()
            return self._values[key]


# render(events, shared) -> each event's frame data (JSON on one line) for one render key; run in a worker
# thread
Render = Callable[[list[Any], Shared], list[str]]


@dataclass
class Audience:
    """The streams of a feed that share a render key: which events they may see, how theirs are rendered."""

    shows: Callable[[FeedItem], bool]
    render: Render
    streams: int = 0
    warmed: bool = False  # what it keeps in the feed readied (`Viewing.warm`), by its first stream


class Feed:
    """The new events of one game in this process, read and rendered once per wake-up for every stream on it."""

    def __init__(self, game_id: int, read: FeedRead) -> None:
        self.game_id = game_id
        self.read = read
        self.wakes = 0  # bumped by publish (any thread); a refresh reads only when it has moved
        self._seen = -1
        self.base: int | None = None  # items cover the ids in (base, high]
        self.high = 0
        self.items: list[FeedItem] = []
        self.active: frozenset[int] = frozenset()
        self.reads = 0
        self.renders = 0
        self.audiences: dict[Any, Audience] = {}
        self.kept = Shared()  # kept for the feed's life: each view's structure (the board's units)
        self.shared = Shared(self.kept)  # for the renderings after the latest read
        self._lock = asyncio.Lock()
        self._render_locks: dict[Any, asyncio.Lock] = {}

    @contextmanager
    def audience(self, key: Any, shows: Callable[[FeedItem], bool], render: Render) -> Iterator[Audience]:
        """A stream of render key `key` follows the feed: from the next read on, its audience's frames are
        rendered with the read."""
        joined = self.audiences.setdefault(key, Audience(shows, render))
        joined.streams += 1
        try:
            yield joined
        finally:
            joined.streams -= 1
            if not joined.streams:
                del self.audiences[key]

    async def refresh(self, after_id: int) -> None:
        """Bring the feed up to the latest wake-up: the first stream to get here reads (and renders), the others
        wait for that read and reuse it."""
        async with self._lock:
            if self.base is not None and self._seen == self.wakes:
                return
            wakes = self.wakes
            start = self.high if self.base is not None else after_id
            while True:
                audiences = dict(self.audiences)
                got, active, shared, renders = await asyncio.to_thread(self._read, start, audiences)
                self.reads += 1
                self.renders += renders
                if self.base is None:
                    self.base = self.high = start
                self.items.extend(got)
                if got:
                    self.shared = shared
                    self.high = start = got[-1].id
                self.active = active
                if len(got) < TAIL:
                    break
            if len(self.items) > TAIL:
                self.base = self.items[-TAIL - 1].id
                del self.items[:-TAIL]
            self._seen = wakes

    def _read(
        self, after_id: int, audiences: dict[Any, Audience]
    ) -> tuple[list[FeedItem], frozenset[int], Shared, int]:
        """In a worker thread: the new rows, each audience's frames of them (one thread for them all, so that
        the renderings neither wait on each other for the interpreter nor hand back one by one), and how many
        renderings that took."""
        got, active = self.read(self.game_id, after_id, TAIL)
        shared = Shared(self.kept, [i.event for i in got], after_id)
        renders = 0
        for key, audience in audiences.items():
            try:
                renders += self._render(key, audience, got, shared)
            except Exception:  # its own streams render them again, and fail alone (`frames`)
                log.exception("live: rendering game %s's frames for %r", self.game_id, key)
        return got, active, shared, renders

    @staticmethod
    def _render(key: Any, audience: Audience, items: list[FeedItem], shared: Shared) -> int:
        """The audience's frames of `items` (none of those it may not see), in one rendering if any."""
        shown = [i for i in items if audience.shows(i)]
        if shown:
            done = audience.render([i.event for i in shown], shared)
            for item, data in zip(shown, done, strict=True):
                item.frames[key] = sse_frame(item.id, item.event.kind, data).encode()
        for item in items:
            item.frames.setdefault(key, b"")
        return 1 if shown else 0

    async def frames(self, key: Any, items: list[FeedItem]) -> bytes:
        """What a stream of the audience `key` sends of `items`: rendered with the read, else (an audience that
        joined during that read) by the first of its streams that needs them, the others reusing them."""
        if any(key not in i.frames for i in items):
            lock = self._render_locks.setdefault(key, asyncio.Lock())
            async with lock:
                todo = [i for i in items if key not in i.frames]
                if todo:
                    audience = self.audiences[key]
                    self.renders += await asyncio.to_thread(self._render, key, audience, todo, self.shared)
        return b"".join([i.frames[key] for i in items])

    def after(self, last_id: int) -> list[FeedItem] | None:
        """The items after `last_id`, or None when the feed does not reach back that far."""
        if self.base is None or last_id < self.base:
            return None
        return self.items[bisect.bisect_right(self.items, last_id, key=lambda i: i.id) :]


class Subscription:
    """One connected device. `wait` returns True when woken, False on timeout."""

    def __init__(self, feed: Feed) -> None:
        self.feed = feed
        self.loop = asyncio.get_running_loop()
        self.event = asyncio.Event()

    async def wait(self, timeout: float) -> bool:
        try:
            async with asyncio.timeout(timeout):  # no extra task per wait, unlike wait_for
                await self.event.wait()
        except TimeoutError:
            return False
        self.event.clear()
        return True


def _wake(subs: list[Subscription]) -> None:
    for sub in subs:
        sub.event.set()


class Broker(Protocol):
    def publish(self, game_id: int) -> None: ...

    def subscribe(self, game_id: int, read: FeedRead) -> Any: ...  # a context manager of a Subscription

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class InProcessBroker:
    """Fan-out to the streams of one database within this process, with one feed per game."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subs: dict[int, set[Subscription]] = {}
        self._feeds: dict[int, Feed] = {}

    def publish(self, game_id: int) -> None:
        with self._lock:
            feed = self._feeds.get(game_id)
            if feed is not None:
                feed.wakes += 1  # before the streams wake, so their refresh reads
            subs = list(self._subs.get(game_id, ()))
        # One hand-over per event loop, not one per stream: from the loop's own thread (the PostgreSQL
        # listener) the streams are woken directly; from a worker thread (a commit) by one thread-safe call.
        by_loop: dict[asyncio.AbstractEventLoop, list[Subscription]] = {}
        for sub in subs:
            by_loop.setdefault(sub.loop, []).append(sub)
        try:
            here: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        for loop, group in by_loop.items():
            if loop is here:
                _wake(group)
            else:
                with suppress(RuntimeError):  # a loop already closed has no streams left to wake
                    loop.call_soon_threadsafe(_wake, group)

    def wake_all(self) -> None:
        """Wake every stream (after notifications may have been missed, e.g. a listener reconnect)."""
        with self._lock:
            games = list(self._subs)
        for game_id in games:
            self.publish(game_id)

    @contextmanager
    def subscribe(self, game_id: int, read: FeedRead) -> Iterator[Subscription]:
        with self._lock:
            feed = self._feeds.setdefault(game_id, Feed(game_id, read))
            sub = Subscription(feed)
            self._subs.setdefault(game_id, set()).add(sub)
        try:
            yield sub
        finally:
            with self._lock:
                self._subs[game_id].discard(sub)
                if not self._subs[game_id]:
                    del self._subs[game_id]
                    del self._feeds[game_id]

    def subscribers(self, game_id: int) -> int:
        with self._lock:
            return len(self._subs.get(game_id, ()))

    def feed(self, game_id: int) -> Feed | None:
        with self._lock:
            return self._feeds.get(game_id)

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None


def _libpq_url(url: URL) -> str:
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


class PostgresBroker:
    """LISTEN/NOTIFY across processes and hosts: one listener connection per process feeds the in-process
    fan-out. Writers notify inside their own transaction (`_before_commit`), so no extra connection."""

    def __init__(self, url: URL, local: InProcessBroker) -> None:
        self.dsn = _libpq_url(url)
        self.local = local
        self._task: asyncio.Task[None] | None = None
        self._ready: asyncio.Event | None = None

    def publish(self, game_id: int) -> None:
        """Notify outside any transaction (a write in a session notifies by itself)."""
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as conn:
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, str(game_id)))

    @contextmanager
    def subscribe(self, game_id: int, read: FeedRead) -> Iterator[Subscription]:
        self._ensure_listening()
        with self.local.subscribe(game_id, read) as sub:
            yield sub

    def _ensure_listening(self) -> None:
        if self._task is None or self._task.done():
            self._ready = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._listen(), name="firestep-listen")

    async def start(self) -> None:
        """Open the listener before serving, so the first streams need not wait for it."""
        self._ensure_listening()
        assert self._ready is not None
        with suppress(TimeoutError):
            await asyncio.wait_for(self._ready.wait(), 10)

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with suppress(asyncio.CancelledError):
                await task

    async def _listen(self) -> None:
        import psycopg

        delay = 0.25
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    delay = 0.25
                    # Anything committed before LISTEN took effect (or while disconnected) was not heard:
                    # every stream re-reads once, which costs nothing when there was nothing.
                    self.local.wake_all()
                    if self._ready is not None:
                        self._ready.set()
                    async for note in conn.notifies():
                        if note.payload.removeprefix("-").isdecimal():  # an event's own is negative (watch)
                            self.local.publish(int(note.payload))
            except (psycopg.Error, OSError) as exc:
                log.warning("live: listener connection lost (%s); reconnecting in %.1fs", exc, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, RECONNECT_MAX_SECONDS)


# One in-process fan-out per database in this process, so that every app and every session on the same
# database (tests run several apps in one process) reach the same streams.
_LOCAL: dict[str, InProcessBroker] = {}
_LOCAL_LOCK = threading.Lock()


def _key(url: URL) -> str:
    return url.render_as_string(hide_password=True)


def local_broker(url: URL) -> InProcessBroker:
    with _LOCAL_LOCK:
        return _LOCAL.setdefault(_key(url), InProcessBroker())


def is_postgresql(url: URL) -> bool:
    return url.get_backend_name() == "postgresql"


def make_broker(engine: Engine) -> Broker:
    """The broker for an app on this engine: LISTEN/NOTIFY on PostgreSQL, in-process on SQLite."""
    local = local_broker(engine.url)
    return PostgresBroker(engine.url, local) if is_postgresql(engine.url) else local


# Writers mark the session; the games are published only once the transaction commits, so a woken stream
# always finds the rows it was told about.
_PENDING = "firestep_live_games"


def mark(session: Session, game_id: int) -> None:
    session.info.setdefault(_PENDING, set()).add(game_id)


def _url_of(session: Any) -> URL:
    return _engine_of(session).url


def _engine_of(session: Any) -> Engine:
    bind = session.get_bind()
    engine: Engine = getattr(bind, "engine", bind)
    return engine


# The broker each engine's commits wake (None on PostgreSQL, whose listener wakes them), found once an engine:
# its URL rendered and hashed at every commit was 6% of a marker's commit.
_WOKEN: weakref.WeakKeyDictionary[Engine, InProcessBroker | None] = weakref.WeakKeyDictionary()


def _woken_by(engine: Engine) -> InProcessBroker | None:
    if engine not in _WOKEN:
        _WOKEN[engine] = None if is_postgresql(engine.url) else local_broker(engine.url)
    return _WOKEN[engine]


@sa_event.listens_for(Session, "before_commit")
def _before_commit(session: Any) -> None:
    games = session.info.get(_PENDING)
    if games and is_postgresql(_url_of(session)):
        # Delivered by PostgreSQL at commit to every listener (every worker, every host), in commit order.
        for game_id in sorted(games):
            session.execute(
                text("SELECT pg_notify(:channel, :game)"), {"channel": CHANNEL, "game": str(game_id)}
            )


@sa_event.listens_for(Session, "after_commit")
def _after_commit(session: Any) -> None:
    games = session.info.pop(_PENDING, None)
    if not games:
        return
    local = _woken_by(_engine_of(session))
    if local is None:
        return  # the listener of each process (this one included) wakes its streams
    for game_id in games:
        local.publish(game_id)


@sa_event.listens_for(Session, "after_rollback")
def _after_rollback(session: Any) -> None:
    session.info.pop(_PENDING, None)


def sse_frame(event_id: int, kind: str, data: str) -> str:
    """One Server-Sent Event; `data` is JSON on one line."""
    return f"id: {event_id}\nevent: {kind}\ndata: {data}\n\n"


Frame = tuple[int, str, str]  # id, kind, JSON


@dataclass(frozen=True)
class Viewing:
    """What one stream needs from the app, all without I/O except `backlog` and `render` (run in a worker
    thread).

    backlog(after_id, limit): this viewer's frames after after_id from the database, or None once its
      device is no longer active.
    shows(item): whether this viewer may see an item of the shared feed at all.
    key, render: the render key of this viewer (the same for every viewer who may read the same) and how an
      event is rendered for it.
    token_id: the device, checked against the feed's active devices after every wake-up.
    warm(kept): as the first stream of its audience opens, readies what its view keeps in the feed
      (`Feed.kept`), so that the first event is not the one to read it.
    aside(feed): a frame that is no event of the game (an event table's round timer), as JSON or None: asked
      as the stream opens and after every wake-up (a write that moved it marks the game's feed with no event
      of its own), sent as an `aside` frame with no id (the events' ids and Last-Event-ID stay theirs) when it
      differs from the last one sent; None: the game has none, never asked again. Its reads kept in the feed.
    """

    read: FeedRead
    backlog: Callable[[int, int], list[Frame] | None]
    shows: Callable[[FeedItem], bool]
    key: Any
    render: Render
    token_id: int | None
    warm: Callable[[Shared], None] | None = None
    aside: Callable[[Feed], str | None] | None = None


ASIDE = "aside"  # the SSE event name of a frame that is no event of the game (`Viewing.aside`)


async def stream(
    broker: Broker,
    game_id: int,
    last_id: int,
    viewing: Viewing,
    is_disconnected: Callable[[], Awaitable[bool]],
) -> AsyncGenerator[bytes, None]:
    """Yield SSE frames: everything after `last_id`, then each new event as it is published."""
    with (
        broker.subscribe(game_id, viewing.read) as sub,  # subscribe before reading: nothing falls between
        sub.feed.audience(viewing.key, viewing.shows, viewing.render) as audience,
    ):
        yield b"retry: 1000\n\n"
        if viewing.warm is not None and not audience.warmed:  # once, not once per device
            audience.warmed = True
            await asyncio.to_thread(viewing.warm, sub.feed.kept)
        aside: list[Any] = [viewing.aside, None]  # how to ask (None: no more), the last aside frame sent

        async def aside_frame() -> bytes:
            data = await asyncio.to_thread(aside[0], sub.feed) if aside[0] is not None else None
            if data is None:
                aside[0] = None
            if data is None or data == aside[1]:
                return b""
            aside[1] = data
            return f"event: {ASIDE}\ndata: {data}\n\n".encode()

        while True:
            # Every row the feed has already read was committed before this backlog read starts (a game's
            # writes are serialised by its row lock), so the backlog covers them: skip past them after it.
            covered = sub.feed.high if sub.feed.base is not None else 0
            while True:  # this viewer's own backlog
                frames = await asyncio.to_thread(viewing.backlog, last_id, PAGE)
                if frames is None:
                    return
                if frames:
                    yield "".join(sse_frame(*frame) for frame in frames).encode()
                    last_id = frames[-1][0]
                if len(frames) < PAGE:
                    break
            last_id = max(last_id, covered)  # events after the last one shown were not this viewer's
            if sent_aside := await aside_frame():
                yield sent_aside
            while True:  # live: the shared feed
                if not await sub.wait(KEEPALIVE_SECONDS):
                    # A gone client is noticed here at the latest (or as soon as a frame cannot be sent).
                    if await is_disconnected():
                        return
                    yield b": keep-alive\n\n"
                    continue
                await sub.feed.refresh(last_id)
                if viewing.token_id not in sub.feed.active:
                    return  # revoked, or deleted with its game
                if sent_aside := await aside_frame():
                    yield sent_aside
                items = sub.feed.after(last_id)
                if items is None:
                    break  # fell behind the feed's tail: read the backlog
                if items:
                    sent = await sub.feed.frames(viewing.key, items)
                    if sent:
                        yield sent
                    last_id = items[-1].id


# -- views: what a kind of page needs in each frame to apply the event without a request -------------------
# A view's parts: parts(session, game, viewer, events as `events.event_dict` gives them, shared) -> one dict of
# extra frame keys per event, as that viewer may read them. Registered by the module that draws the page (the
# referee board's by app.pages.referee; routes never import pages), asked for by name on the stream.
ViewParts = Callable[[Session, Any, Any, list[LoggedEvent], Shared], list[dict[str, Any]]]
VIEWS: dict[str, ViewParts] = {}
# warm(session, game, kept): what a view keeps in a feed, read as a stream opens (`Viewing.warm`).
ViewWarm = Callable[[Session, Any, Shared], None]
WARMS: dict[str, ViewWarm] = {}
# A frame longer than this carries the event alone and says `refetch`: the page reads what changed instead
# (one event stays under 10 KB on the wire for every device).
FRAME_BYTES = 8_000


def view(name: str) -> Callable[[ViewParts], ViewParts]:
    def register(parts: ViewParts) -> ViewParts:
        VIEWS[name] = parts
        return parts

    return register


def view_warm(name: str) -> Callable[[ViewWarm], ViewWarm]:
    def register(warm: ViewWarm) -> ViewWarm:
        WARMS[name] = warm
        return warm

    return register
