"""Printed sheets as PDFs (a scenario's sheet, the period playsheets, forms, cards, the template kit):
rendered once per inputs (the document or sheet, the paper, the readings) and kept, in the worker process
(app.core.worker) rather than the threads that answer other requests, and, for anyone without a token,
charged to the asking address's CPU budget (a `Budget`, which the door counts and the route hands in:
app.guard.security.SheetBudget, 429 with Retry-After once it is spent). Twenty renders of new readings in a
row cost 11.6 s of the server's CPU (issue 35). A sheet the same for everyone (issue 52: a period's playsheet
as printed, of a few fixed inputs) is never charged (`pdf(..., everyone=True)`). A printed sheet, of readings
or none, is kept on disk in the data folder (`pdf(..., kept_in=)`, app.services.sheet_store), keyed by what it
is made of (issue 91: a repeat, after any restart, is a file read and charged to no one)."""

from __future__ import annotations

import hashlib
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from functools import cache
from importlib.metadata import version
from pathlib import Path
from typing import Any, Protocol

import playsheets
import rules
from app.core import worker
from app.core.pdf_engine import pdf_engine_problem, require_pdf_engine
from app.errors import TooManyRequests
from app.services import sheet_store

CACHE_BYTES = 64 * 1024 * 1024  # a sheet is 50-500 kB: hundreds of them
RENDERING = 4  # renders running or waiting for the worker, per server process; one per address
RETRY_AFTER_SECONDS = 3

_cache: OrderedDict[Hashable, bytes] = OrderedDict()
_cached_bytes = 0
_rendering: dict[Hashable, Future[bytes]] = {}
_by_address: Counter[str] = Counter()
_lock = threading.Lock()


class Budget(Protocol):
    """The asker's part in a new render, as the door counts it (app.guard.security.SheetBudget, so the services
    import nothing of the door): its address, which has one render at a time; `check`, before the render (429
    once its budget is spent); `charge`, the render's CPU seconds after it."""

    @property
    def address(self) -> str: ...

    def check(self) -> None: ...

    def charge(self, cpu_seconds: float) -> None: ...


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


# -- sheets the same for everyone ----------------------------------------------------------------------------------
@cache
def release() -> str:
    """What a kept sheet was printed by: a digest of the rules and the playsheets as installed and of the
    renderer's version, so an upgrade prints its sheets anew (a folder of its own, the old ones removed)."""
    digest = hashlib.sha256(version("weasyprint").encode())
    for package in (playsheets, rules):
        root = Path(package.__file__ or "").parent
        for path in sorted(root.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _kept(folder: Path) -> sheet_store.Kept:
    return sheet_store.Kept(folder, release())


@cache
def warm() -> bool:
    """In the worker, first at the server's start (app.cli): the PDF engine loaded and a small page laid out in
    the sheets' faces (playsheets.render.warm_pdf), which the first PDF after a start waited for (5-11 s on a
    busy laptop). Without the engine (app.core.pdf_engine) nothing: False, the sheets print from the browser.
    Once per process."""
    if pdf_engine_problem() is not None:
        return False
    from playsheets.render import warm_pdf

    warm_pdf()
    return True


def pdf(
    key: Hashable,
    budget: Budget,
    fn: Callable[..., bytes],
    *args: Any,
    kept_in: Path | None = None,
    everyone: bool = False,
) -> bytes:
    """The sheet `fn(*args)` makes (picklable: it runs in the worker process), kept under `key`, which names
    what it is made of. A request for a sheet being rendered waits for that render. `budget`: the asker's, which
    a new render is checked against and charged to (an asker with a token is never charged). `kept_in`: kept on
    disk in that folder too (app.services.sheet_store), for every process and start: a repeat is a file read,
    charged to no one. `everyone`: the sheet is the same for everyone (no input of the asker's own: a period's
    playsheet as printed, a blank form), so its render is charged to no one either. Without the PDF engine: 503
    naming its remedy."""
    require_pdf_engine()
    kept = None if kept_in is None else _kept(kept_in)
    while True:
        made = _take(key)
        if made is None and kept is not None and (made := kept.get(key)) is not None:
            _keep(key, made)
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
            made = _render_stock(fn, *args) if everyone else _render(budget, fn, *args)
        except BaseException as e:
            running.set_exception(e)
            raise
        else:
            _keep(key, made)
            if kept is not None:
                kept.put(key, made)
            running.set_result(made)
            return made
        finally:
            with _lock:
                _rendering.pop(key, None)


def _render_stock(fn: Callable[..., bytes], *args: Any) -> bytes:
    """A sheet the same for everyone: no address's budget nor its one-at-a-time (a device opening the print
    menu's sheets at once), rendered once whoever asks (the inputs are a few fixed ones)."""
    made, _cpu = worker.timed(fn, *args)
    assert isinstance(made, bytes)
    return made


def _render(budget: Budget, fn: Callable[..., bytes], *args: Any) -> bytes:
    budget.check()
    with _admitted(budget.address):
        made, cpu = worker.timed(fn, *args)
    budget.charge(cpu)
    assert isinstance(made, bytes)
    return made
