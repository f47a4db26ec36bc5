"""Browser tests: a real uvicorn server on a free 127.0.0.1 port with a migrated temporary SQLite database,
driven by Debian's Chromium through Playwright (never a downloaded browser).

With FIRESTEP_SCREENSHOTS=1, screenshots go to tests/artifacts/ (git-ignored) as <page>-<width>x<height>.png.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.conftest import ARTIFACTS, _sqlite_clone, require

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("FIRESTEP_CHROMIUM", "/usr/bin/chromium")
# The session's pages run in Chromium's headless shell where it is installed (.ci/run installs it): the same engine
# without the full browser's windowing layers, 29 s of CPU where the full browser took 52 s over the same 13 tests
# (test_map_play, test_event_day, test_lookup; Chromium 156), and Chromium is most of the browser tier's CPU. The
# full browser stays for what only it does: a tablet's screen wake lock (the shell has no screen: it refuses one).
HEADLESS_SHELL = (
    os.environ.get("FIRESTEP_CHROMIUM_SHELL") or shutil.which("chromium-headless-shell") or CHROMIUM
)
# One generous deadline for every wait on a page (a locator, an expect, a wait_for_function): a wait ends as soon
# as its state holds, so a long deadline costs a passing test nothing, and a busy machine (two busy processes
# beside the two workers: .ci/loaded) is not a failure. No test sets a shorter one.
DEADLINE_MS = 30_000
expect.set_options(timeout=DEADLINE_MS)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TABLET_LANDSCAPE = {"width": 1180, "height": 820}
TABLET_PORTRAIT = {"width": 820, "height": 1180}
REFEREE_SCREEN = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
ALL_VIEWPORTS = (TABLET_LANDSCAPE, TABLET_PORTRAIT, REFEREE_SCREEN)


# Each browser module has its own server (below), and importing the app takes a second of CPU: so each xdist
# worker imports what `app.main` imports once, in a server maker that has started no thread, and every server
# is a fork of it (copy-on-write, a few milliseconds). The fork sets its database and data folder, imports
# `app.main` (which builds the app from the environment) and serves `app.main:app` with uvicorn, as
# `uvicorn app.main:app` does. Its worker process (fire-plan rehearsals, app/core/worker.py) is forked there
# too, before uvicorn starts a thread: the server spawns a fresh interpreter that imports the app (a second or
# more of CPU, which each module that opens a fire plan paid again); the worker runs the same code either way.
# The rule sets' generated routes, most of building an app, are built here once and shared by every fork's app,
# as tests/conftest.py shares them between the TestClient apps; the PDF engine is loaded here once too.
_MAKER = r"""
import functools, json, os, signal, socket, sys, threading
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
import uvicorn
from fastapi import FastAPI
from starlette_compress import CompressMiddleware
from app import errors, pages
from app.core import live, worker
from app.core.config import Settings, get_settings
from app.core.db import check_schema, make_engine
from app.guard import idempotency, limits, security
from app.routes import api_routers, rulesets
from app import openapi as api_schema
from app.core import pdf_engine
from tests.shared_routes import resolve, share_for_the_process
rulesets.build_routers = functools.cache(rulesets.build_routers)
rulesets.build_routers()
pdf_engine.pdf_engine_problem()  # WeasyPrint loaded here once: each server's start checks it (~1 s of CPU)
# The routers' routes resolved here once (tests/shared_routes.py), included as create_app includes them (the
# same routers, under an app with its operation ids): each fork's app finds them resolved (~1 s of CPU a server).
share_for_the_process()
routes_of = FastAPI(generate_unique_id_function=api_schema.operation_id)
for router in api_routers():
    routes_of.include_router(router)
for router in pages.page_routers():
    routes_of.include_router(router, include_in_schema=False)
resolve(routes_of.router.routes)
# Every page's template compiled here once: a fork finds it in the environment's cache (copied), where each server
# compiled the templates its module's pages use again.
from app.pages.templates import templates
for name in templates.env.list_templates():
    templates.env.get_template(name)
assert "app.main" not in sys.modules and threading.active_count() == 1, "a fork must copy no other thread"
signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the servers are reaped as they end
print("ready", flush=True)
for line in sys.stdin:
    order = json.loads(line)
    # The server's socket is bound here, before the fork, and held until uvicorn listens on it: a port picked,
    # let go and bound again a second later (the app's import between) could be taken meanwhile by another
    # worker's server, and the test then read that server's /healthz and database.
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    pid = os.fork()
    if pid:
        print(pid, sock.getsockname()[1], flush=True)
        sock.close()
        continue
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    log = os.open(order["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.environ.update(FIRESTEP_DATABASE_URL=order["url"], FIRESTEP_VAR_DIR=order["var"], **order["env"])
    worker._pool = ProcessPoolExecutor(1, mp_context=get_context("fork"), initializer=worker._worker_started)
    worker._pool.submit(os.getpid)
    # A test's API requests (Playwright's request context) reuse a kept-alive connection and, unlike a browser,
    # do not retry one the server closed as they sent on it: a server closing idle connections after its 5 s
    # default reset a request sent after a pause on a busy machine (ECONNRESET). Idle ones stay open here.
    # No browser test reads the API's schema: a test server builds it when asked, not in a thread as it starts
    # (~1.5 s of CPU a server, beside its module's first taps), which the served app does (tests/app covers it).
    api_schema.warm = lambda app: None
    config = uvicorn.Config("app.main:app", host="127.0.0.1", timeout_keep_alive=3600)
    uvicorn.Server(config).run(sockets=[sock])
    os._exit(0)
"""


@pytest.fixture(scope="session")
def _server_maker() -> Iterator[subprocess.Popen[str]]:
    maker = subprocess.Popen(
        [sys.executable, "-c", _MAKER],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert maker.stdin and maker.stdout
    assert maker.stdout.readline().strip() == "ready", "the server maker did not start"
    yield maker
    # Its work is done and it holds nothing: ended outright, as the servers are (a clean exit can take seconds
    # on a loaded machine).
    maker.kill()
    maker.wait()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


class _Server:
    """uvicorn on a free port (bound by the maker, held until it listens) over the migrated database at `url`,
    forked by the maker when made; `ready` waits for it to answer, `stop` kills it."""

    def __init__(
        self, maker: subprocess.Popen[str], url: str, var: Path, env: dict[str, str] | None = None
    ) -> None:
        assert maker.stdin and maker.stdout
        self.log = var / "server.log"
        order = {"url": url, "var": str(var), "log": str(self.log), "env": env or {}}
        maker.stdin.write(json.dumps(order) + "\n")
        maker.stdin.flush()
        pid, port = maker.stdout.readline().split()
        self.pid = int(pid)
        self.base = f"http://127.0.0.1:{port}"

    def ready(self) -> str:
        deadline = time.monotonic() + 120  # a loaded 2-core machine is slow
        while True:
            try:
                with urllib.request.urlopen(f"{self.base}/healthz", timeout=1):
                    return self.base
            except OSError:
                if not _alive(self.pid) or time.monotonic() > deadline:
                    raise RuntimeError(f"server did not start: {self.log.read_text()}") from None
                time.sleep(0.02)

    def stop(self) -> None:
        # Killed outright: a graceful stop (a fifth of a second, each module) keeps nothing a test reads; its
        # worker process ends with it (app/core/worker.py) and the database is a throwaway.
        os.kill(self.pid, signal.SIGKILL)
        while _alive(self.pid):
            time.sleep(0.005)


@contextmanager
def _serve(
    maker: subprocess.Popen[str], url: str, var: Path, env: dict[str, str] | None = None
) -> Iterator[str]:
    """uvicorn on a free port over the migrated database at `url` (its settings' `env` besides), until the
    block ends."""
    server = _Server(maker, url, var, env)
    try:
        yield server.ready()
    finally:
        server.stop()


def module_server(env: dict[str, str]) -> Any:
    """A module's own `server_url` fixture: a server over a fresh copy of the template with `env` among its
    settings (a CPU budget of none, say, so that one tap's work takes several requests), for that module's
    tests alone."""

    @pytest.fixture(scope="module")
    def server_url(
        _server_maker: Any, sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory
    ) -> Iterator[str]:
        var = tmp_path_factory.mktemp("frontend-server-own")
        with _serve(_server_maker, _sqlite_clone(sqlite_template, var), var, env) as base:
            yield base

    return server_url


class _SqliteServers:
    """The worker's servers over SQLite, one per module: each on a fresh copy of the template, started one module
    ahead and asked once by a thread of its own (its first answer builds the app's middleware and opens the
    database), so that no module waits for its own server while the next one starts beside its tests."""

    def __init__(
        self, maker: subprocess.Popen[str], template: Path, tmp_path_factory: pytest.TempPathFactory
    ) -> None:
        self.maker, self.template, self.tmp = maker, template, tmp_path_factory
        self.waiter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="next-server")
        self.spare: tuple[_Server, Future[str]] | None = None

    def _start(self) -> tuple[_Server, Future[str]]:
        var = self.tmp.mktemp("frontend-server")
        server = _Server(self.maker, _sqlite_clone(self.template, var), var)
        return server, self.waiter.submit(server.ready)

    def take(self) -> _Server:
        server, ready = self.spare or self._start()
        ready.result()
        self.spare = self._start()
        return server

    def close(self) -> None:
        if self.spare is not None:
            self.spare[0].stop()
        self.waiter.shutdown(wait=False, cancel_futures=True)


@pytest.fixture(scope="session")
def _sqlite_servers(
    _server_maker: subprocess.Popen[str], sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[_SqliteServers]:
    servers = _SqliteServers(_server_maker, sqlite_template, tmp_path_factory)
    yield servers
    servers.close()


# A server, and so a database, per module: no browser test meets what another module's tests left behind (the
# lobby, the scenarios, the join limits), whatever order they run in. Within a module each test makes its own
# games; a module whose tests share more than that says so.
@pytest.fixture(scope="module")
def server_url(_sqlite_servers: _SqliteServers) -> Iterator[str]:
    server = _sqlite_servers.take()
    yield server.base
    server.stop()


# A context's close that takes this long is stuck, not slow (it takes well under a second, a few on a loaded machine).
CLOSE_STUCK_S = 30


def _chromium_processes() -> list[tuple[int, str]]:
    """This worker's Chromium processes (descendants of this process through Playwright's driver): pid and
    what /proc says of each (its type, its state, R for running, and the CPU it has used), for a stuck close's
    warning."""
    stats: dict[int, list[str]] = {}  # pid -> the fields of /proc/<pid>/stat after the command's name
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with suppress(OSError, IndexError):  # gone meanwhile
                stats[int(entry.name)] = (entry / "stat").read_text().rsplit(")", 1)[1].split()
    mine, grew = {os.getpid()}, True
    while grew:
        more = {pid for pid, fields in stats.items() if int(fields[1]) in mine} - mine
        mine |= more
        grew = bool(more)
    found = []
    for pid in sorted(mine - {os.getpid()}):
        try:
            # Chromium rewrites its command line as one string (its process title): the flags by pattern.
            cmdline = (
                (Path("/proc") / str(pid) / "cmdline")
                .read_bytes()
                .replace(b"\0", b" ")
                .decode(errors="replace")
            )
        except OSError:
            continue
        if "chrom" not in cmdline.split(" ", 1)[0]:
            continue
        fields = stats[pid]
        kind = " ".join(re.findall(r"--(?:utility-sub-)?type=(\S+)", cmdline)) or "browser"
        ticks = int(fields[11]) + int(fields[12])
        found.append((pid, f"{pid} {kind} state {fields[0]} cpu {ticks / os.sysconf('SC_CLK_TCK'):.1f} s"))
    return found


class _Chromium:
    """The session's Chromium, launched again when a stuck context close had it ended (below)."""

    def __init__(self, playwright: Any) -> None:
        self._playwright = playwright
        self._browser: Any = None

    def current(self) -> Any:
        if self._browser is None or not self._browser.is_connected():
            self._browser = self._playwright.chromium.launch(
                executable_path=HEADLESS_SHELL, args=CHROMIUM_ARGS
            )
        return self._browser

    @property
    def browser_type(self) -> Any:
        """Playwright's Chromium, to launch one of another kind (test_club_secure_context's trusting one)."""
        return self._playwright.chromium

    def new_context(self, **options: Any) -> Any:
        return self.current().new_context(**options)

    def close_contexts(self, contexts: list[Any]) -> None:
        """Close each context; one whose close is stuck ends this Chromium, with a warning saying what each of
        its processes was doing, and the next test gets a new one. Chromium has been seen to never answer a
        context's close after a test's steps all passed (about one fresh-clone run in three, never when the
        module runs alone); a renderer busy all along would show here running (state R) with its CPU time, and a
        page's script stuck in a loop would be the app's bug."""
        for ctx in contexts:
            self._close(ctx)

    def _close(self, ctx: Any) -> None:
        closed = threading.Event()
        report: list[str] = []

        def end_if_stuck() -> None:
            if closed.wait(CLOSE_STUCK_S):
                return
            processes = _chromium_processes()  # a renderer spinning in a page's script reads state R
            report.extend(line for _, line in processes)
            for pid, _ in processes:
                with suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)

        watchdog = threading.Thread(target=end_if_stuck, daemon=True)
        watchdog.start()
        try:
            ctx.close()
        except PlaywrightError:
            pass  # its Chromium was ended: the context is gone with it
        finally:
            closed.set()
            watchdog.join()
        if report:
            warnings.warn(
                f"a browser context's close was stuck for {CLOSE_STUCK_S} s; Chromium was ended and started "
                "again. Its processes: " + " | ".join(report),
                stacklevel=1,
            )

    def close(self) -> None:
        if self._browser is not None and self._browser.is_connected():
            self._browser.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[_Chromium]:
    require(Path(CHROMIUM).exists(), f"Chromium ({CHROMIUM}, set FIRESTEP_CHROMIUM)")
    require(
        Path(HEADLESS_SHELL).exists(),
        f"Chromium's headless shell ({HEADLESS_SHELL}, set FIRESTEP_CHROMIUM_SHELL)",
    )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = _Chromium(pw)
        chromium.current()
        yield chromium
        chromium.close()


def _pages(
    browser: _Chromium, server_url: str, request: pytest.FixtureRequest
) -> Iterator[Callable[..., Any]]:
    """A maker of pages, each in a fresh browser context of its own (its own cookies, like a separate device)
    on `server_url`; every context closed after the test, and any request to another host fails it."""
    contexts: list[Any] = []
    foreign: list[str] = []
    workers = _service_workers(request)

    def make(viewport: dict[str, int] = TABLET_LANDSCAPE, has_touch: bool = True) -> Any:
        ctx = browser.new_context(
            viewport=viewport, has_touch=has_touch, base_url=server_url, service_workers=workers
        )
        contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(DEADLINE_MS)
        page.on(
            "request",
            lambda req: (
                None if req.url.startswith((server_url, "data:", "blob:")) else foreign.append(req.url)
            ),
        )
        return page

    yield make
    browser.close_contexts(contexts)
    assert not foreign, f"requests to other hosts: {foreign}"


def _service_workers(request: pytest.FixtureRequest) -> str:
    """The app's service worker runs only in a test marked `service_worker` (what it keeps is that test's
    subject), so no other test waits on its caching. Blocked to end a hang of a counters-page teardown's context
    close (Chromium is known to hang so over a busy worker: puppeteer/puppeteer#11627), the hang came once more
    with it blocked: its cause is still not found."""
    return "allow" if request.node.get_closest_marker("service_worker") else "block"


@pytest.fixture
def new_page(
    browser: _Chromium, server_url: str, request: pytest.FixtureRequest
) -> Iterator[Callable[..., Any]]:
    """Open a page in a fresh browser context (its own cookies, like a separate device). Every request it
    makes must go to the test server: anything else fails the test."""
    yield from _pages(browser, server_url, request)


def centre_on_top(page: Any, target: Any, scroll: bool = False) -> dict[str, Any]:
    """The target's centre and whether it is the topmost thing there ({x, y, onTop}), read in one evaluate (with
    `scroll`, scrolled into view first), looked at again each animation frame while it is not, for about ten
    seconds of frames: a live frame may redraw a card, or a list above it grow or shrink, between the test's
    looks, and the state to wait for is the control back in place, not a time."""
    at: dict[str, Any] = {}
    for _ in range(600):
        at = target.evaluate(
            """(el, scroll) => { if (scroll) el.scrollIntoView({block: 'nearest'});
                 const r = el.getBoundingClientRect(), x = r.x + r.width / 2, y = r.y + r.height / 2;
                 return {x, y, onTop: el.isConnected && el.contains(document.elementFromPoint(x, y))}; }""",
            scroll,
        )
        if at["onTop"]:
            return at
        next_frames(page, 1)
    return at


# A table point (cm) on the page (CSS pixels) as the open map draws it: a JS function of (x, y) for an evaluate.
PAGE_POINT = """(x, y) => { const m = window.firestepMap, p = m.screenPoint([x, y]);
  const r = m.leaflet.getContainer().getBoundingClientRect(); return { x: r.left + p.x, y: r.top + p.y }; }"""
# The same, the map panned first where the point is out of its sight (as a player pans to a stand).
IN_SIGHT = (
    """(x, y) => { const map = window.firestepMap.leaflet, ll = window.firestepMap.toLL([x, y]);
  if (!map.getBounds().contains(ll)) map.panTo(ll, { animate: false }); return ("""
    + PAGE_POINT
    + ")(x, y); }"
)


def next_frames(page: Any, frames: int) -> None:
    """`frames` animation frames on, as the page draws them; each given at most two seconds (frames come every
    16 ms on a drawn page, busy machine or not), so a page the browser has stopped drawing ends the wait where
    a frame alone would hold the test for ever."""
    page.evaluate(
        """(frames) => new Promise((done) => {
             const step = (left) => (left ? requestAnimationFrame(() => step(left - 1)) : done());
             step(frames);
             setTimeout(done, 2000 * frames);
           })""",
        frames,
    )


def htmx_idle(page: Any) -> None:
    """Until no htmx request of the page is on its way (htmx marks the element asking with .htmx-request)."""
    expect(page.locator(".htmx-request")).to_have_count(0)


def page_until(page: Any, predicate: str, arg: Any = None, timeout_ms: int = 15_000) -> Any:
    """The first truthy value of an async `predicate` (a JavaScript function of `arg`) run in the page, asked
    again every 100 ms for up to `timeout_ms`; None when it never is. Playwright's wait_for_function takes the
    Promise an async function returns for a truthy value at once, so it cannot wait on the caches."""
    return page.evaluate(
        f"""async (arg) => {{
              const predicate = {predicate};
              const end = Date.now() + {timeout_ms};
              for (;;) {{
                const value = await predicate(arg);
                if (value || Date.now() > end) return value || null;
                await new Promise((next) => setTimeout(next, 100));
              }}
            }}""",
        arg,
    )


def screenshot(page: Any, name: str) -> None:
    """A picture of the page for a person to look at, under FIRESTEP_SCREENSHOTS=1 only: it checks nothing, and
    the tests take some hundred of them at a tenth of a second to most of a second each (issue 33)."""
    if os.environ.get("FIRESTEP_SCREENSHOTS") != "1":
        return
    vp = page.viewport_size
    path = ARTIFACTS / f"{name}-{vp['width']}x{vp['height']}.png"
    page.screenshot(path=str(path), full_page=vp["width"] != 1920)


def assert_no_horizontal_scroll(page: Any) -> None:
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= page.viewport_size["width"], f"page scrolls sideways: {scroll_width}px wide"


def small_targets(page: Any) -> list[str]:
    """Visible controls under 44x44 CSS pixels (text links inside paragraphs excepted, not a download)."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('button, a.button, a.chip-link, a.resolver-link, .mainnav a,'
              + ' label.chip, label.face, label.toggle, legend > label, input[type=number], input[type=text], select, summary, a[download]')]
          .filter(el => el.offsetParent !== null)
          .filter(el => { const r = el.getBoundingClientRect(); return r.width < 44 || r.height < 44; })
          .map(el => el.outerHTML.slice(0, 80))"""
    )
    return found


def unlabelled_controls(page: Any) -> list[str]:
    """Form controls with no accessible name (label, aria-label, or a labelling fieldset for radios)."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('input:not([type=hidden]), select, textarea, button')]
          .filter(el => {
            if (el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')) return false;
            if (el.tagName === 'BUTTON') return !el.textContent.trim();
            if (el.closest('label') || (el.id && document.querySelector(`label[for="${el.id}"]`))) return false;
            return true;
          })
          .map(el => el.outerHTML.slice(0, 80))"""
    )
    return found
