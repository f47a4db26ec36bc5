"""The benchmarks' server (bench/serving.Process): a server that fails to start leaves nothing running (issue 88:
a four-worker server kept respawning its workers for 23 minutes after its start had failed)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import serving

# A server that fails to start: it starts a worker in its process group (as uvicorn's supervisor does), writes
# its own pid and its worker's, and ends without answering.
FAILS = (
    "import subprocess, sys; "
    "w = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)']); "
    "open(sys.argv[1], 'w').write(f'{w.pid}'); sys.exit(3)"
)


def running(pid: int) -> bool:
    """Whether the process runs (an ended one not yet reaped, a zombie, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc")
def test_a_server_that_fails_to_start_leaves_no_worker_running(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    with pytest.raises(RuntimeError, match="server exited"):
        serving.Process([sys.executable, "-c", FAILS, str(pids)], serving.free_port(), {})
    worker = int(pids.read_text())
    try:
        assert not running(worker)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(worker, signal.SIGKILL)


def test_a_failed_start_is_said_so_from_a_thread_that_runs_an_event_loop() -> None:
    """CI's shuffled suite once ran the test above on a thread with an event loop running: the health probe's
    asyncio.run refused, and the start's failure read as that."""

    async def start() -> None:
        serving.Process([sys.executable, "-c", "import sys; sys.exit(3)"], serving.free_port(), {})

    # A loop of its own on a thread of its own: the suite's own thread may have one running already (CI's did).
    raised: list[BaseException] = []
    thread = threading.Thread(target=lambda: raised.extend(_raised(lambda: asyncio.run(start()))))
    thread.start()
    thread.join()
    assert [type(e) for e in raised] == [RuntimeError] and "server exited" in str(raised[0]), raised


def _raised(call: Callable[[], object]) -> list[BaseException]:
    try:
        call()
    except BaseException as e:  # the start's failure, whatever it is, for the test's thread to read
        return [e]
    return []
