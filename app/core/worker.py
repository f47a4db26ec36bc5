"""The worker process: CPU-heavy work (a fire plan's rehearsal, a PDF's layout) runs in one process at a lower
priority, off the server's own process (threads would hold the GIL and stall every other request). The worker
ends with its server however the server ends (Ctrl-C, SIGTERM, kill -9), on every system: see _worker_started."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from app.core.platform import lower_priority

_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()


def _end_with(parent: multiprocessing.process.BaseProcess) -> None:
    parent.join()  # waits on the server's sentinel (a pipe or a process handle): ready once it is gone
    os._exit(0)


def _worker_started() -> None:
    """In the worker process, first: lower its priority; leave Ctrl-C to the server (a terminal sends it to
    every process of the command; interrupted here, the worker would print a traceback and the pool would
    break, leaking its semaphores); and end when the server process ends, however it ends. A thread watching
    the parent, since a parent killed outright (kill -9, a closed console) stops no child by itself, and
    Linux's parent-death signal exists nowhere else."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    lower_priority()
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent,), name="firestep-watchdog", daemon=True).start()


def _executor() -> ProcessPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            # spawn: forking a server process that runs threads could copy a lock some thread holds (and
            # spawn is the one start method on Windows and the default on macOS).
            context = multiprocessing.get_context("spawn")
            _pool = ProcessPoolExecutor(1, mp_context=context, initializer=_worker_started)
        return _pool


def start_worker(warm: Callable[[], Any] = os.getpid) -> None:
    """Start the worker process now, in the background, so that the first job does not wait for it to import
    the app (seconds); its first job `warm` (picklable), which readies what later jobs need. Nothing waits for
    it here, and its failure is no one's: a job asked for meanwhile runs after it."""
    _executor().submit(warm)


def stop_worker() -> None:
    """End the worker now, with the server that started it: a job still running answers a request that is
    ending too, and waiting for a worker still importing the app could take seconds. The pool's queues are
    then released here, not leaked (Python warns of leaked semaphores at exit otherwise)."""
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is None:
        return
    for process in list(
        (getattr(pool, "_processes", None) or {}).values()
    ):  # Python 3.14: terminate_workers()
        process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


def _discard(pool: ProcessPoolExecutor) -> None:
    global _pool
    with _pool_lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=False, cancel_futures=True)


def _submit(fn: Callable[..., Any], *args: Any) -> Any:
    pool = _executor()
    try:
        return pool.submit(fn, *args).result()
    except BrokenProcessPool:
        _discard(pool)
        raise


def submit(fn: Callable[..., Any], *args: Any) -> Any:
    """fn(*args) in the worker process (fn and args picklable); once more with a new worker if it died
    (killed, out of memory)."""
    try:
        return _submit(fn, *args)
    except BrokenProcessPool:
        return _submit(fn, *args)


def _timed(fn: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    """In the worker: fn(*args) with the CPU seconds it took."""
    start = time.process_time()
    made = fn(*args)
    return made, time.process_time() - start


def timed(fn: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    """fn(*args) in the worker process with the CPU seconds it took there; what it raises there (a RulesError, a
    NotFoundError: rules.core.errors keeps their parts across the process) is raised here."""
    made, cpu = submit(_timed, fn, *args)
    return made, cpu
