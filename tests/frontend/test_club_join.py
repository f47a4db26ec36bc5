"""Join by QR in Chromium over the club's HTTPS (issue 28, "Done when" 3): the real `firestep serve --club`,
a referee makes the join cards, each card's QR code is read off the screen by a decoder (zxing-cpp) and its
link signs a fresh browser into that seat with one tap; the laptop's plain address shows a browser that does
not trust the club the trust steps, and moves one that does on to HTTPS. Then /trust, the join page and the
card sheet at the four sizes (one page each, resized), checked with axe-core (WCAG 2.2
AA). Games are made through the API (over the club's HTTPS, trusting only its authority).

Chromium is not told to ignore certificate errors (no ignore_https_errors). It has no system store to add an
authority to here (no NSS tools), so it is launched trusting the club server's own key
(--ignore-certificate-errors-spki-list, the key of the certificate the authority signed); the chain to the
authority itself is verified by tests/app/club/test_serve_club.py with a client trusting only the authority. A
Chromium without that flag refuses the page, which the first test checks."""

from __future__ import annotations

import base64
import hashlib
import io
import socket
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

from app.guard import auth
from tests.app.club.served import Club, serve_club
from tests.frontend.axe import serious_violations
from tests.frontend.conftest import (
    CHROMIUM,
    CHROMIUM_ARGS,
    REFEREE_SCREEN,
    TABLET_LANDSCAPE,
    TABLET_PORTRAIT,
    assert_no_horizontal_scroll,
    screenshot,
)
from tests.frontend.games import sign_in

pytestmark = pytest.mark.browser  # Chromium on the club's HTTPS

PHONE = {"width": 390, "height": 844}
SIZES = (TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE, REFEREE_SCREEN)


@pytest.fixture(scope="module")
def club(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Club]:
    with serve_club(sqlite_template, tmp_path_factory.mktemp("club-browser")) as c:
        yield c


def _server_key_pin(club: Club) -> str:
    """base64(SHA-256(SubjectPublicKeyInfo)) of the certificate the server presents, verified against the
    authority first (so the browser is told to trust only what the authority signed)."""
    context = club.trusting_only_authority()
    with (
        socket.create_connection(("127.0.0.1", club.https_port), timeout=30) as raw,
        context.wrap_socket(raw, server_hostname="127.0.0.1") as tls,
    ):
        der = tls.getpeercert(binary_form=True)
    assert der is not None
    spki = (
        x509.load_der_x509_certificate(der)
        .public_key()
        .public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    return base64.b64encode(hashlib.sha256(spki).digest()).decode()


@pytest.fixture(scope="module")
def club_browser(club: Club, browser: Any) -> Iterator[Any]:
    """A second Chromium from the session's Playwright (one per process), trusting the club server's key."""
    pin = _server_key_pin(club)
    b = browser.browser_type.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, f"--ignore-certificate-errors-spki-list={pin}"]
    )
    yield b
    b.close()


@pytest.fixture
def device(club: Club, club_browser: Any) -> Iterator[Callable[..., Any]]:
    """A fresh browser context (its own cookies: another device) on the club's HTTPS address; every request
    it makes must go to the club server."""
    contexts: list[Any] = []
    foreign: list[str] = []
    base = f"https://127.0.0.1:{club.https_port}"
    plain = f"http://127.0.0.1:{club.http_port}"

    def make(viewport: dict[str, int] = TABLET_LANDSCAPE) -> Any:
        ctx = club_browser.new_context(viewport=viewport, has_touch=True, base_url=base)
        contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(20_000)
        page.on(
            "request",
            lambda req: (
                None if req.url.startswith((base, plain, "data:", "blob:")) else foreign.append(req.url)
            ),
        )
        return page

    yield make
    for ctx in contexts:
        ctx.close()
    assert not foreign, f"requests to other hosts: {foreign}"


def scan(page: Any, seat: str) -> str:
    """Read a card's QR code off the screen, as a tablet's camera would: a screenshot of it, decoded."""
    png = page.locator(f'[data-join-card="{seat}"] svg').screenshot()
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    assert len(found) == 1, found
    return str(found[0].text)


def seed_club_game(club: Club, referee: Any) -> int:
    """A Mons 1914 game made through the API over the club's HTTPS, this page's device its referee."""
    with httpx.Client(
        base_url=f"https://127.0.0.1:{club.https_port}", verify=club.trusting_only_authority(), timeout=30
    ) as anyone:
        made = anyone.post("/api/v1/games", json={"scenario": "mons-1914"})
        assert made.status_code == 201, made.text
    sign_in(referee, made.json()["referee_token"])
    return int(made.json()["game"]["id"])


def make_cards(referee: Any, game_id: int) -> None:
    referee.goto(f"/games/{game_id}/join-cards")
    referee.get_by_role("button", name="Make new join cards").click()
    expect(referee.locator("[data-join-card]")).to_have_count(3)


def test_a_browser_that_does_not_trust_the_club_is_shown_the_trust_steps(club: Club, browser: Any) -> None:
    """Such a browser refuses the HTTPS address; typing the laptop's plain address shows it the trust steps
    (once its background try of the HTTPS address fails), which pass axe at every size."""
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
        found: list[str] = []
        for size in SIZES:
            page.set_viewport_size(size)
            assert_no_horizontal_scroll(page)
            screenshot(page, "trust-plain")
            found += [
                f"trust-plain at {size['width']}x{size['height']}: {v}" for v in serious_violations(page)
            ]
        assert not found, "\n".join(found)
    finally:
        ctx.close()


def test_a_scanned_join_card_signs_a_fresh_browser_in_with_one_tap(club: Club, device: Any) -> None:
    referee = device()
    base = f"https://127.0.0.1:{club.https_port}"
    # A device that trusts the club and types the laptop's plain address goes straight on to HTTPS.
    referee.goto(f"http://127.0.0.1:{club.http_port}/")
    referee.wait_for_url(f"{base}/")
    game_id = seed_club_game(club, referee)
    make_cards(referee, game_id)
    links = {seat: scan(referee, seat) for seat in (auth.REFEREE, *auth.SIDES)}
    homes = {
        auth.REFEREE: f"{base}/games/{game_id}/referee",
        "attacker": f"{base}/games/{game_id}/fire-plan",
        "defender": f"{base}/games/{game_id}/fire-plan",
    }
    for seat, link in links.items():
        assert link.startswith(f"{base}/games/{game_id}/join/{seat}#code="), link
        player = device()
        player.goto(link)
        assert player.evaluate("isSecureContext")
        assert "#" not in player.url  # the code left the address bar and the history
        expect(player.get_by_label("Join code (on the card)")).to_be_hidden()
        button = player.get_by_role("button", name="Join as the")
        expect(button).to_contain_text(seat)
        button.click()  # the one tap
        player.wait_for_url(homes[seat])
        assert player.evaluate("isSecureContext")
        expect(player.locator("main")).not_to_contain_text("has not joined this game")
    # New cards revoking the old ones (refused in the page's alert, seating nobody; the new card seating) is
    # the HTTP tier's: tests/app/club/test_join_cards.py::test_new_cards_revoke_the_old_codes_...


def test_trust_join_and_card_pages_pass_axe_at_every_size(club: Club, device: Any) -> None:
    referee = device()
    game_id = seed_club_game(club, referee)
    make_cards(referee, game_id)
    link = scan(referee, "defender")
    found: list[str] = []
    player = device()
    pages = [
        ("trust", referee, "/trust"),
        ("join-cards", referee, f"/games/{game_id}/join-cards"),
        ("join-link", player, link),
        ("start-club", referee, "/"),
    ]
    for name, page, url in pages:
        page.set_viewport_size(TABLET_LANDSCAPE)
        page.goto(url)
        page.wait_for_load_state()
        for size in SIZES:
            page.set_viewport_size(size)
            assert_no_horizontal_scroll(page)
            screenshot(page, name)
            found += [f"{name} at {size['width']}x{size['height']}: {v}" for v in serious_violations(page)]
            if name == "start-club":
                # The start page of a club server shows the /trust QR code, which reads as the plain-HTTP /trust.
                png = page.locator("[data-trust-qr] svg").screenshot()
                (decoded,) = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
                assert decoded.text == f"http://127.0.0.1:{club.http_port}/trust", size
    assert not found, "\n".join(found)
