"""The club's real HTTPS in Chromium (issue 28, "Done when" 2 and 3): the real `firestep serve --club`, one per
module (each start a fork of a process that built its app once: ClubServer), and a Chromium trusting the club
authority as a tablet does once it has followed /trust (no ignore_https_errors, no pinned key).

Joining by QR: a referee makes the join cards, each card's QR code is read off the screen by a decoder
(zxing-cpp) and its link signs a fresh browser into that seat with one tap; the laptop's plain address shows a
browser that does not trust the club the trust steps, and moves one that does on to HTTPS; the trust steps,
the join page, the card sheet and the club's start page at the four sizes (one page each, resized), checked
with axe-core (WCAG 2.2 AA). Games are made through the API (over the club's HTTPS, trusting only its
authority).

The secure context: a referee's pages are a secure context controlled by the service worker, which keeps the
seat's board and map; the map holds a screen wake lock and says so (its toggle turns it off, for the next page
too); with the server stopped both show their last state, not live, with its time, and a page never opened
says the server cannot be reached; a marker tapped then is applied exactly once when the server is back on the
same ports and data folder (where it issues itself a new key, signed by the same authority: the tablet keeps
trusting it). This is the browser tier's one offline test (issue 33).

Chromium on Linux takes the authorities a user added from the NSS database in $HOME/.pki/nssdb (what its
"Manage certificates > Authorities > Import" writes). There are no NSS tools here, so the test writes that
database with the NSS library Chromium itself uses (libnss3, through ctypes), with the authority as a tablet
gets it from /trust; the tablets' Chromium runs with that HOME. A Chromium without it refuses the page, which
the first test checks."""

from __future__ import annotations

import ctypes
import io
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import zxingcpp
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from PIL import Image
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from app.services.seating import REFEREE
from rules.core.vocabulary import SIDES
from tests.app.club.served import ROOT, Club, free_ports
from tests.frontend.conftest import (
    CHROMIUM,
    CHROMIUM_ARGS,
    TABLET_LANDSCAPE,
    assert_no_horizontal_scroll,
    screenshot,
    small_targets,
)
from tests.frontend.games import sign_in
from tests.frontend.test_accessibility import violations_at_every_size
from tests.frontend.test_club_offline import controlled, expect_not_live, wait_kept
from tests.frontend.test_night_theme import at_night_and_clean
from tests.frontend.test_offline_taps import add_marker_button, marker_events, start, suppression

pytestmark = pytest.mark.browser

OUTBOX_RETRY_MS = 10_000  # frontend/static/js/outbox.js RETRY_MS: how long a kept tap waits for its next try


# The club servers' maker, one per module: what `firestep serve --club` builds that needs no port nor the
# club's keys, built once (its modules, `app.main:app` from the same environment, the app's schema, its
# templates and the PDF engine: ~4 s of CPU a start, which the restart below paid again), then each start a
# fork of it running the command itself, `app.cli`'s main as `python -m app.cli` runs it: the keys, the
# worker, the ports and the app's start are the command's own, in each fork.
_CLUB_MAKER = """
import os, signal, sys, threading
import app.cli, app.server, app.club.addresses, app.club.authority, app.club.signing, app.club.qr
import app.main, app.pages, app.core.pdf_engine
app.main.app.openapi()
app.pages.compile_templates()
app.core.pdf_engine.pdf_engine_problem()
assert threading.active_count() == 1, "a fork must copy no other thread"
signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the servers are reaped as they end
log, args = sys.argv[1], sys.argv[2:]
for _ in sys.stdin:
    pid = os.fork()
    if pid:
        print(pid, flush=True)
        continue
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    out = os.open(log, os.O_WRONLY | os.O_APPEND)
    os.dup2(out, 1)
    os.dup2(out, 2)
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    sys.argv = ["firestep", *args]
    code = 0
    try:
        app.cli.main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    finally:
        sys.stdout.flush()
        os._exit(code)
"""


class ClubServer:
    """`firestep serve --club` as tests/app/club/served.py starts it (a fork of the module's maker above),
    stopped at once (as a laptop that leaves the wifi) and started again on the same ports over the same data
    folder and database."""

    def __init__(self, sqlite_template: Path, folder: Path) -> None:
        self.db = folder / "firestep.db"
        shutil.copyfile(sqlite_template, self.db)
        self.club = Club(*free_ports(2), folder / "data", folder / "server.log")
        self.club.log.touch()
        self.pid: int | None = None
        # The ports and host in the environment, as `serve --club` sets them before it builds the app.
        env = {
            "PATH": "/usr/bin:/bin",
            "FIRESTEP_DATABASE_URL": f"sqlite:///{self.db}",
            "FIRESTEP_VAR_DIR": str(self.club.var),
            "FIRESTEP_CLUB_PORT": str(self.club.https_port),
            "FIRESTEP_CLUB_HTTP_PORT": str(self.club.http_port),
            "FIRESTEP_HOST": "127.0.0.1",
        }
        args = ["serve", "--club", "--no-setup", "--host", "127.0.0.1"]
        args += ["--port", str(self.club.https_port), "--http-port", str(self.club.http_port)]
        with self.club.log.open("ab") as log:
            self.maker = subprocess.Popen(
                [sys.executable, "-c", _CLUB_MAKER, str(self.club.log), *args],
                cwd=ROOT,
                env=env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
            )

    def _running(self) -> bool:
        if self.pid is None:
            return False
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        return True

    def start(self) -> None:
        assert self.maker.stdin and self.maker.stdout
        self.maker.stdin.write("start\n")
        self.maker.stdin.flush()
        line = self.maker.stdout.readline()
        assert line, f"the club server's maker ended: {self.club.log.read_text()}"
        self.pid = int(line)
        deadline = time.monotonic() + 120  # a loaded 2-core machine is slow to import the app
        while True:
            try:
                if self.club.https("127.0.0.1", "/healthz").status == 200:
                    return
            except OSError:
                pass
            assert self._running(), self.club.log.read_text()
            assert time.monotonic() < deadline, "the club server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.pid is not None:
            os.kill(self.pid, signal.SIGKILL)
            deadline = time.monotonic() + 10  # as long as the process's wait was given before it was a fork
            while self._running():
                assert time.monotonic() < deadline, "the killed club server was not reaped"
                time.sleep(0.005)
            self.pid = None

    def close(self) -> None:
        self.stop()
        self.maker.kill()
        self.maker.wait(timeout=10)


def trust_authority(home: Path, pem: bytes) -> None:
    """Add the authority to the NSS database of this HOME, trusted to identify web sites ("C,,"), as
    `certutil -A -t C,,` would."""
    db = home / ".pki" / "nssdb"
    db.mkdir(parents=True)
    der = x509.load_pem_x509_certificate(pem).public_bytes(serialization.Encoding.DER)
    nss, smime = ctypes.CDLL("libnss3.so"), ctypes.CDLL("libsmime3.so")
    ptr = ctypes.c_void_p
    nss.NSS_InitReadWrite.argtypes = [ctypes.c_char_p]
    nss.CERT_GetDefaultCertDB.restype = ptr
    nss.PK11_GetInternalKeySlot.restype = ptr
    nss.PK11_NeedUserInit.argtypes = [ptr]
    nss.PK11_InitPin.argtypes = [ptr, ctypes.c_char_p, ctypes.c_char_p]
    nss.PK11_ImportCert.argtypes = [ptr, ptr, ctypes.c_ulong, ctypes.c_char_p, ctypes.c_int]
    nss.CERT_DecodeTrustString.argtypes = [ptr, ctypes.c_char_p]
    nss.CERT_ChangeCertTrust.argtypes = [ptr, ptr, ptr]
    nss.CERT_DestroyCertificate.argtypes = [ptr]
    nss.PK11_FreeSlot.argtypes = [ptr]
    smime.CERT_DecodeCertFromPackage.restype = ptr
    smime.CERT_DecodeCertFromPackage.argtypes = [ctypes.c_char_p, ctypes.c_int]
    assert nss.NSS_InitReadWrite(f"sql:{db}".encode()) == 0
    slot = nss.PK11_GetInternalKeySlot()
    if nss.PK11_NeedUserInit(slot):
        assert nss.PK11_InitPin(slot, None, b"") == 0  # a new database, no password (certutil -N)
    cert = smime.CERT_DecodeCertFromPackage(der, len(der))
    assert cert
    assert nss.PK11_ImportCert(slot, cert, 0, b"firestep club", 0) == 0
    trust = (ctypes.c_uint * 3)()  # CERTCertTrust: SSL, e-mail, object signing
    assert nss.CERT_DecodeTrustString(trust, b"C,,") == 0
    assert nss.CERT_ChangeCertTrust(nss.CERT_GetDefaultCertDB(), cert, trust) == 0
    nss.CERT_DestroyCertificate(cert)
    nss.PK11_FreeSlot(slot)
    assert nss.NSS_Shutdown() == 0
    assert {"cert9.db", "key4.db"} <= {f.name for f in db.iterdir()}


@pytest.fixture(scope="module")
def _club_server(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ClubServer]:
    server = ClubServer(sqlite_template, tmp_path_factory.mktemp("club"))
    server.start()
    yield server
    server.close()


@pytest.fixture
def club_server(_club_server: ClubServer) -> ClubServer:
    """The module's club server, running (the offline test stops it and starts it again: should it fail in
    between, the next test still finds it serving)."""
    if _club_server.pid is None:
        _club_server.start()
    return _club_server


@pytest.fixture(scope="module")
def _trusting_chromium(
    browser: Any, _club_server: ClubServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Any]:
    """A Chromium of the session's Playwright that trusts the club's authority (from /trust; nothing else was
    added): the authority stays the same across the server's restarts."""
    home = tmp_path_factory.mktemp("tablet-home")
    trust_authority(home, _club_server.club.authority_pem())
    chromium = browser.browser_type.launch(
        executable_path=CHROMIUM, args=CHROMIUM_ARGS, env={**os.environ, "HOME": str(home)}
    )
    yield chromium
    chromium.close()


@pytest.fixture
def tablet(_trusting_chromium: Any, club_server: ClubServer) -> Iterator[Callable[..., Any]]:
    """Tablets (browser contexts: each its own cookies) of the trusting Chromium on the club's HTTPS address;
    every request they make must go to the club server (its plain port too: the trust page's address)."""
    club = club_server.club
    base = f"https://127.0.0.1:{club.https_port}"
    plain = f"http://127.0.0.1:{club.http_port}"
    contexts: list[Any] = []
    foreign: list[str] = []

    def make(viewport: dict[str, int] = TABLET_LANDSCAPE) -> Any:
        ctx = _trusting_chromium.new_context(viewport=viewport, has_touch=True, base_url=base)
        contexts.append(ctx)
        ctx.on(
            "request",
            lambda req: (
                None if req.url.startswith((base, plain, "data:", "blob:")) else foreign.append(req.url)
            ),
        )
        page = ctx.new_page()
        page.set_default_timeout(20_000)
        page.on("dialog", lambda dialog: dialog.dismiss())
        return page

    yield make
    for ctx in contexts:
        ctx.close()
    assert not foreign, f"requests to other hosts: {foreign}"


def api(page: Any, club: Club) -> httpx.Client:
    """The API as this page's device over the club's HTTPS, trusting only the authority."""
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "firestep_token")
    return httpx.Client(
        base_url=f"https://127.0.0.1:{club.https_port}",
        headers={"Authorization": f"Bearer {token}"},
        verify=club.trusting_only_authority(),
        timeout=10,
    )


def seed_club_game(club: Club, referee: Any) -> int:
    """A Mons 1914 game made through the API over the club's HTTPS, this page's device its referee."""
    with httpx.Client(
        base_url=f"https://127.0.0.1:{club.https_port}", verify=club.trusting_only_authority(), timeout=30
    ) as anyone:
        made = anyone.post("/api/v1/games", json={"scenario": "mons-1914"})
        assert made.status_code == 201, made.text
    sign_in(referee, made.json()["referee_token"])
    return int(made.json()["game"]["id"])


def scan(page: Any, seat: str) -> str:
    """Read a card's QR code off the screen, as a tablet's camera would: a screenshot of it, decoded."""
    png = page.locator(f'[data-join-card="{seat}"] svg').screenshot()
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    assert len(found) == 1, found
    return str(found[0].text)


def fits(name: str) -> Callable[[Any], None]:
    """The layout check at each size: no sideways scroll (and a picture under FIRESTEP_SCREENSHOTS=1)."""

    def check(page: Any) -> None:
        assert_no_horizontal_scroll(page)
        screenshot(page, name)

    return check


def test_a_browser_that_does_not_trust_the_club_is_shown_the_trust_steps(
    club_server: ClubServer, browser: Any
) -> None:
    """Such a browser refuses the HTTPS address; typing the laptop's plain address shows it the trust steps
    (once its background try of the HTTPS address fails), which pass axe at every size, by day and at night,
    every download a 44 px target. (/trust over HTTPS is
    the same page, trust.html, in the same state: its steps shown, the probe hidden.)"""
    club = club_server.club
    ctx = browser.new_context(viewport=TABLET_LANDSCAPE)
    try:
        with pytest.raises(PlaywrightError, match="ERR_CERT"):
            ctx.new_page().goto(f"https://127.0.0.1:{club.https_port}/")
        page = ctx.new_page()
        plain = f"http://127.0.0.1:{club.http_port}/"
        page.goto(plain)
        expect(page.get_by_role("heading", name="iPad and iPhone")).to_be_visible()
        expect(page.locator("[data-trust-probe]")).to_be_hidden()
        assert page.url == plain

        def fits_and_taps(page: Any) -> None:
            fits("trust-plain")(page)
            assert small_targets(page) == [], page.viewport_size  # the downloads too: 44 px each

        assert page.locator("a[download]").count() == 7
        found = violations_at_every_size(page, "trust-plain", fits_and_taps)
        # At night too (issue 92): the club's trust steps are served by no other test's server.
        page.emulate_media(color_scheme="dark")
        found += at_night_and_clean(page, "trust-plain at night")
        assert not found, "\n".join(found)
    finally:
        ctx.close()


@pytest.mark.long
def test_a_scanned_join_card_signs_a_fresh_browser_in_with_one_tap(
    club_server: ClubServer, tablet: Callable[..., Any]
) -> None:
    """Each seat's card; on the way, the card sheet, the join page (before its tap) and the club's start page
    at every size: no sideways scroll, axe-core."""
    club = club_server.club
    referee = tablet()
    base = f"https://127.0.0.1:{club.https_port}"
    # A device that trusts the club and types the laptop's plain address goes straight on to HTTPS.
    referee.goto(f"http://127.0.0.1:{club.http_port}/")
    referee.wait_for_url(f"{base}/")
    game_id = seed_club_game(club, referee)
    referee.goto(f"/games/{game_id}/join-cards")
    referee.get_by_role("button", name="Make new join cards").click()
    expect(referee.locator("[data-join-card]")).to_have_count(3)
    links = {seat: scan(referee, seat) for seat in (REFEREE, *SIDES)}
    found = violations_at_every_size(referee, "join-cards", fits("join-cards"))
    homes = {
        REFEREE: f"{base}/games/{game_id}/referee",
        "attacker": f"{base}/games/{game_id}/fire-plan",
        "defender": f"{base}/games/{game_id}/fire-plan",
    }
    for seat, link in links.items():
        assert link.startswith(f"{base}/games/{game_id}/join/{seat}#code="), link
        player = tablet()
        player.goto(link)
        assert player.evaluate("isSecureContext")
        assert "#" not in player.url  # the code left the address bar and the history
        expect(player.get_by_label("Join code (on the card)")).to_be_hidden()
        button = player.get_by_role("button", name="Join as the")
        expect(button).to_contain_text(seat)
        if seat == "defender":
            found += violations_at_every_size(player, "join-link", fits("join-link"))
        button.click()  # the one tap
        player.wait_for_url(homes[seat])
        assert player.evaluate("isSecureContext")
        expect(player.locator("main")).not_to_contain_text("has not joined this game")
    # New cards revoking the old ones (refused in the page's alert, seating nobody; the new card seating) is
    # the HTTP tier's: tests/app/club/test_join_cards.py::test_new_cards_revoke_the_old_codes_...

    def trust_qr_reads_as_plain_trust(page: Any) -> None:
        """The start page of a club server shows the /trust QR code, which reads as the plain-HTTP /trust."""
        fits("start-club")(page)
        png = page.locator("[data-trust-qr] svg").screenshot()
        (decoded,) = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
        assert decoded.text == f"http://127.0.0.1:{club.http_port}/trust", page.viewport_size

    referee.goto("/")
    found += violations_at_every_size(referee, "start-club", trust_qr_reads_as_plain_trust)
    assert not found, "\n".join(found)


@pytest.mark.long
def test_over_the_club_https_the_board_and_map_work_offline_and_a_tap_made_then_lands_once(
    club_server: ClubServer, tablet: Callable[..., Any]
) -> None:
    """The one offline test of the browser tier: the service worker keeps a seat's board and map, and a tap
    made while the server is down lands exactly once when it is back."""
    club = club_server.club
    page = tablet()
    # The page's timers on a clock the test can move on (it runs as the wall clock does until then): the
    # outbox's next try is made to come at once below, however long the restart took.
    page.clock.install()
    # The game made through the API; the referee's tablet signs in with the referee token (joining by a
    # scanned card is the test above).
    game_id = seed_club_game(club, page)
    http = api(page, club)
    start(http, game_id)
    before = time.time() * 1000
    board, map_page = f"/games/{game_id}/referee", f"/games/{game_id}/map"
    for url in (f"/games/{game_id}/fire-plan", f"/lookup?game={game_id}", board, map_page):
        controlled(page, url)  # a secure context (asserted), controlled by the service worker
    assert page.evaluate("!!navigator.serviceWorker.controller")
    # The map asks for a screen wake lock and says that it holds; off by its toggle, and kept off on the next
    # page; on again by it.
    assert page.evaluate("'wakeLock' in navigator")
    page.get_by_text("Menu", exact=True).click()
    toggle = page.locator("[data-wake-lock]")
    expect(toggle).to_be_visible()
    expect(toggle).to_have_attribute("data-wake-lock", "held")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(page.locator("[data-wake-lock-status]")).to_have_text(
        "On: the screen stays on while this page is open."
    )
    toggle.click()
    expect(toggle).to_have_attribute("data-wake-lock", "off")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    page.goto(board)
    expect(page.locator("[data-wake-lock]")).to_have_attribute("data-wake-lock", "off")
    page.get_by_text("Menu", exact=True).click()
    page.locator("[data-wake-lock]").click()
    expect(page.locator("[data-wake-lock]")).to_have_attribute("data-wake-lock", "held")
    page.goto(map_page)
    expect(page.locator("svg[data-table-map][data-loaded]")).to_have_count(1)
    stands = int(page.locator("[data-map-page]").get_attribute("data-loaded") or 0)
    assert stands > 0
    seat = wait_kept(
        page, board, map_page, f"/api/v1/games/{game_id}/state", f"/api/v1/games/{game_id}/units"
    )
    assert seat.startswith(f"{game_id}-referee-")
    assert page.locator('meta[name="firestep-seat"]').get_attribute("content") == seat
    expect(page.locator("[data-not-live]")).to_be_hidden()

    club_server.stop()
    # The board as it last stood, said to be not live with its time; a marker tapped now is kept.
    page.goto(board)
    expect(page.locator("#board")).to_be_visible()
    expect_not_live(page, before)
    button, unit_id = add_marker_button(page)
    button.click()
    expect(page.locator("#net-status")).to_contain_text("1 tap kept on this device")
    # The map as it last stood, its stands drawn from the kept state, not live.
    page.goto(map_page)
    expect(page.locator("svg[data-table-map][data-loaded]")).to_have_count(1)
    assert int(page.locator("[data-map-page]").get_attribute("data-loaded") or 0) == stands
    expect_not_live(page, before)
    assert page.evaluate("window.isSecureContext")
    # A page this seat never opened: said plainly, not another page; the map is still there after it.
    page.goto(f"/games/{game_id}/referee/changes")
    expect(page.get_by_role("heading", name="The server cannot be reached")).to_be_visible()
    page.goto(map_page)
    expect(page.locator("svg[data-table-map][data-loaded]")).to_have_count(1)

    club_server.start()  # same ports, same data folder; a new server key, signed by the same authority
    # The outbox sends the kept tap on its next try (within its 10 s), once, and says so; the live stream comes
    # back and the note goes. Once the page says it was sent, nothing of it waits to be sent again.
    page.clock.fast_forward(OUTBOX_RETRY_MS)
    expect(page.locator("#net-status")).to_contain_text(
        "Connection back: 1 tap made without a connection was sent.", timeout=30_000
    )
    assert page.evaluate("window.firestepOutbox.waiting()") == 0
    assert marker_events(http, game_id, unit_id) == 1
    assert suppression(http, game_id, unit_id) == 1
    expect(page.locator("[data-not-live]")).to_be_hidden(timeout=15_000)
    assert page.evaluate("!!navigator.serviceWorker.controller")
    http.close()
