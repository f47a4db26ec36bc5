"""Printed sheets as PDFs (a scenario's sheet, the period playsheets, forms, cards, the template kit):
rendered once per inputs (the document or sheet, the paper, the readings) and kept, in the worker process
(app.core.worker) rather than the threads that answer other requests, and, for anyone without a token,
charged to the asking address's CPU budget (app.guard.security.sheet_render_allowed: 429 with Retry-After
once it is spent). Twenty renders of new readings in a row cost 11.6 s of the server's CPU (issue 35)."""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Any

from app.core import worker
from app.core.pdf_engine import require_pdf_engine
from app.errors import TooManyRequests
from app.guard import security

CACHE_BYTES = 64 * 1024 * 1024  # a sheet is 50-500 kB: hundreds of them
RENDERING = 4  # renders running or waiting for the worker, per server process; one per address
RETRY_AFTER_SECONDS = 3

_cache: OrderedDict[Hashable, bytes] = OrderedDict()
_cached_bytes = 0
_rendering: dict[Hashable, Future[bytes]] = {}
_by_address: Counter[str] = Counter()
_lock = threading.Lock()


def _take(key: Hashable) -> bytes | None:
    with _lock:
        made = _cache.get(key)
        if made is not None:
            _cache.move_to_end(key)
        return made


def _keep(key: Hashable, made: bytes) -> None:
    global _cached_bytes
    with _lock:
        if key not in _cache:
            _cache[key] = made
            _cached_bytes += len(made)
        while _cached_bytes > CACHE_BYTES and len(_cache) > 1:
            _cached_bytes -= len(_cache.popitem(last=False)[1])


def forget() -> None:
    """Drop every kept sheet (a test's fresh start)."""
    global _cached_bytes
    with _lock:
        _cache.clear()
        _cached_bytes = 0


@contextmanager
def _admitted(address: str) -> Iterator[None]:
    with _lock:
        if _by_address[address] >= 1:
            raise TooManyRequests(
                f"a sheet is already being printed for this address: try again in {RETRY_AFTER_SECONDS} s",
                RETRY_AFTER_SECONDS,
            )
        if _by_address.total() >= RENDERING:
            raise TooManyRequests(
                f"the server is printing {RENDERING} sheets already: try again in {RETRY_AFTER_SECONDS} s",
                RETRY_AFTER_SECONDS,
            )
        _by_address[address] += 1
    try:
        yield
    finally:
        with _lock:
            _by_address[address] -= 1
            if _by_address[address] <= 0:
                del _by_address[address]


def pdf(key: Hashable, anonymous: bool, fn: Callable[..., bytes], *args: Any) -> bytes:
    """The sheet `fn(*args)` makes (picklable: it runs in the worker process), kept under `key`, which names
    every input. A request for a sheet being rendered waits for that render. `anonymous`: the asker has no
    token, and a new render is charged to its address. Without the PDF engine: 503 naming its remedy."""
    require_pdf_engine()
    while True:
        made = _take(key)
        if made is not None:
            return made
        with _lock:
            running = _rendering.get(key)
            if running is None:
                running = _rendering[key] = Future()
                mine = True
            else:
                mine = False
        if not mine:
            try:
                return running.result()
            except Exception:  # the render was refused to its asker (its address's budget): ask anew
                continue
        try:
            made = _render(anonymous, fn, *args)
        except BaseException as e:
            running.set_exception(e)
            raise
        else:
            _keep(key, made)
            running.set_result(made)
            return made
        finally:
            with _lock:
                _rendering.pop(key, None)


def _render(anonymous: bool, fn: Callable[..., bytes], *args: Any) -> bytes:
    if anonymous:
        security.sheet_render_allowed()
    with _admitted(security.client_address()):
        made, cpu = worker.timed(fn, *args)
    if anonymous:
        security.sheet_rendered(cpu)
    assert isinstance(made, bytes)
    return made
