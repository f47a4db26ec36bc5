"""Browser tests: a real uvicorn server on a free 127.0.0.1 port with a migrated temporary SQLite database (and,
for the tests that take `new_page_any_backend`, the same over PostgreSQL),
driven by Debian's Chromium through Playwright (never a downloaded browser).

Screenshots go to tests/artifacts/ (git-ignored) as <page>-<width>x<height>.png.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import _postgresql_base, _postgresql_database, _sqlite_clone, require

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = os.environ.get("FIRESTEP_CHROMIUM", "/usr/bin/chromium")
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
ALL_VIEWPORTS = (TABLET_LANDSCAPE, TABLET_PORTRAIT, REFEREE_SCREEN)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def _serve(url: str, var: Path) -> Iterator[str]:
    """uvicorn on a free port over the migrated database at `url`, until the block ends."""
    port = _free_port()
    env = {**os.environ, "FIRESTEP_DATABASE_URL": url, "FIRESTEP_VAR_DIR": str(var)}
    log = (var / "server.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120  # a loaded 2-core machine is slow to import the app
        while True:
            try:
                with urllib.request.urlopen(f"{base}/healthz", timeout=1):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"server did not start: {(var / 'server.log').read_text()}") from None
                time.sleep(0.05)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()


# A server, and so a database, per module: no browser test meets what another module's tests left behind (the
# lobby, the scenarios, the join limits), whatever order they run in. Within a module each test makes its own
# games; a module whose tests share more than that says so.
@pytest.fixture(scope="module")
def server_url(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    var = tmp_path_factory.mktemp("frontend-server")
    with _serve(_sqlite_clone(sqlite_template, var), var) as base:
        yield base


@pytest.fixture(scope="module")
def postgresql_server_url(
    postgresql_template: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """The same server over a new PostgreSQL database (FIRESTEP_TEST_DATABASE_URL; in CI it must be there)."""
    var = tmp_path_factory.mktemp("frontend-server-pg")
    with (
        _postgresql_database(_postgresql_base(), template=postgresql_template) as url,
        _serve(url, var) as base,
    ):
        yield base


@pytest.fixture
def any_server_url(backend: str, request: pytest.FixtureRequest) -> str:
    """The live server on the test's backend (both in turn where it is marked `storage`)."""
    name = "server_url" if backend == "sqlite" else "postgresql_server_url"
    return str(request.getfixturevalue(name))


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    require(Path(CHROMIUM).exists(), f"Chromium ({CHROMIUM}, set FIRESTEP_CHROMIUM)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def _page_maker(browser: Any, server_url: str, contexts: list[Any], foreign: list[str]) -> Callable[..., Any]:
    def make(viewport: dict[str, int] = TABLET_LANDSCAPE, has_touch: bool = True) -> Any:
        ctx = browser.new_context(viewport=viewport, has_touch=has_touch, base_url=server_url)
        contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.on(
            "request",
            lambda req: (
                None if req.url.startswith((server_url, "data:", "blob:")) else foreign.append(req.url)
            ),
        )
        return page

    return make


@pytest.fixture
def new_page(browser: Any, server_url: str) -> Iterator[Callable[..., Any]]:
    """Open a page in a fresh browser context (its own cookies, like a separate device). Every request it
    makes must go to the test server: anything else fails the test."""
    contexts: list[Any] = []
    foreign: list[str] = []
    yield _page_maker(browser, server_url, contexts, foreign)
    for ctx in contexts:
        ctx.close()
    assert not foreign, f"requests to other hosts: {foreign}"


@pytest.fixture
def new_page_any_backend(browser: Any, any_server_url: str) -> Iterator[Callable[..., Any]]:
    """new_page, on a server over SQLite and then over PostgreSQL."""
    contexts: list[Any] = []
    foreign: list[str] = []
    yield _page_maker(browser, any_server_url, contexts, foreign)
    for ctx in contexts:
        ctx.close()
    assert not foreign, f"requests to other hosts: {foreign}"


def screenshot(page: Any, name: str) -> Path:
    vp = page.viewport_size
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}-{vp['width']}x{vp['height']}.png"
    page.screenshot(path=str(path), full_page=vp["width"] != 1920)
    return path


def assert_no_horizontal_scroll(page: Any) -> None:
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= page.viewport_size["width"], f"page scrolls sideways: {scroll_width}px wide"


def small_targets(page: Any) -> list[str]:
    """Visible controls under 44x44 CSS pixels (text links inside paragraphs excepted)."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('button, a.button, a.chip-link, a.resolver-link, .mainnav a,'
              + ' label.chip, label.face, label.toggle, input[type=number], input[type=text], select, summary')]
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
