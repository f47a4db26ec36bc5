"""Join by QR (issue 28): the referee's join card sheet and the join link each card opens, on SQLite and
PostgreSQL. A card's QR code decodes (zxing-cpp) to its seat's link with the code in the fragment; posting
that code on the link's page seats a fresh device; the referee's card carries a referee join code, never the
token; new cards revoke the old codes, which are then refused in plain words; wrong codes count against the
join rate limit; only the referee sees or prints the cards."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import zxingcpp
from fastapi.testclient import TestClient
from PIL import Image

from app.guard import auth
from app.pages import seats
from app.services.seating import REFEREE
from rules.core.vocabulary import SIDES
from tests import csrf
from tests.app.games.conftest import new_game, start_game
from tests.conftest import require


def decode_svg_qr(svg: str) -> str:
    """The text of a QR code drawn as the page's SVG path, read back by a real decoder: the path's modules are
    redrawn as a PNG, which zxing-cpp decodes."""
    rows = _svg_modules(svg)
    png = io.BytesIO()
    _matrix_png(rows, png)
    results = zxingcpp.read_barcodes(Image.open(io.BytesIO(png.getvalue())))
    assert len(results) == 1, results
    return str(results[0].text)


def _svg_modules(svg: str) -> list[list[bool]]:
    """The dark modules of the page's inline SVG (app.club.qr): its size in its viewBox, and one path of
    rectangles a module high or more ('M x y h w v h h -w Z')."""
    (path,) = re.findall(r'<path fill="#000" d="([^"]+)"', svg)
    size = int(re.search(r'viewBox="0 0 (\d+) ', svg).group(1))  # type: ignore[union-attr]
    grid = [[False] * size for _ in range(size)]
    for x, y, w, h in re.findall(r"M(\d+) (\d+)h(\d+)v(\d+)h-\d+Z", path):
        for row in range(int(y), int(y) + int(h)):
            for col in range(int(x), int(x) + int(w)):
                grid[row][col] = True
    return grid


def _matrix_png(rows: list[list[bool]], out: io.BytesIO, scale: int = 8) -> None:
    size = len(rows)
    img = Image.new("L", (size * scale, size * scale), 255)
    for r, row in enumerate(rows):
        for c, dark in enumerate(row):
            if dark:
                img.paste(0, (c * scale, r * scale, (c + 1) * scale, (r + 1) * scale))
    img.save(out, format="PNG")


def make_cards(client: TestClient, game_id: int) -> dict[str, str]:
    """The referee makes a sheet; each seat's card decoded: seat -> its link."""
    r = client.post(f"/games/{game_id}/join-cards", data=csrf.form(client), follow_redirects=False)
    assert r.status_code == 303, r.text
    page = client.get(f"/games/{game_id}/join-cards")
    assert page.status_code == 200, page.text
    cards = re.findall(r'data-join-card="(\w+)">.*?(<svg.*?</svg>)', page.text, re.DOTALL)
    links = {seat: decode_svg_qr(svg) for seat, svg in cards}
    assert set(links) == {REFEREE, *SIDES}
    return links


def referee_client(client: TestClient) -> tuple[int, dict[str, str], str]:
    """A game made on the start page: this client is its referee (token in its cookie)."""
    g = new_game(client)
    token = g.referee["Authorization"].removeprefix("Bearer ")
    client.cookies.set(auth.COOKIE_NAME, token)
    return g.id, g.codes, token


def join_by_link(device: TestClient, link: str, extra: dict[str, Any] | None = None) -> Any:
    """What the join page does: GET the link's path (the fragment stays on the device), then post the code."""
    parts = urlsplit(link)
    page = device.get(parts.path)
    assert page.status_code == 200, page.text
    assert "Join as" in page.text and "#code" not in page.text
    code = dict(p.split("=", 1) for p in parts.fragment.split("&"))["code"]
    return device.post(
        parts.path, data=csrf.form(device, {"code": code, **(extra or {})}), follow_redirects=False
    )


def test_each_card_decodes_to_a_link_that_seats_a_fresh_device(client: TestClient) -> None:
    game_id, _, token = referee_client(client)
    links = make_cards(client, game_id)
    for seat, link in links.items():
        parts = urlsplit(link)
        assert parts.path == f"/games/{game_id}/join/{seat}"
        assert parts.query == "" and re.fullmatch(r"code=[A-Z2-9]{5}-[A-Z2-9]{5}", parts.fragment), link
        assert token not in link  # the referee's card carries a join code, never the token
        device = TestClient(client.app)
        r = join_by_link(device, link)
        assert r.status_code == 303, r.text
        assert device.cookies.get(auth.COOKIE_NAME)
        home = f"/games/{game_id}/referee" if seat == REFEREE else f"/games/{game_id}/fire-plan"
        assert r.headers["location"] == home
        who = device.get(f"/api/v1/games/{game_id}/devices" if seat == REFEREE else home)
        assert who.status_code == 200, who.text


def test_new_cards_revoke_the_old_codes_which_are_refused_in_plain_words(client: TestClient) -> None:
    game_id, old_codes, _ = referee_client(client)
    first = make_cards(client, game_id)
    seated = TestClient(client.app)
    assert join_by_link(seated, first["attacker"]).status_code == 303
    second = make_cards(client, game_id)
    assert second != first
    for seat, link in first.items():
        r = join_by_link(TestClient(client.app), link)
        assert r.status_code == 422, (seat, r.text)
        # In the page's alert, which a screen reader reads out and the browser shows.
        alerts = re.findall(r'role="alert"[^>]*>(?:\s*<p>)?\s*([^<]*)', r.text)
        assert "That join code is not known here: check it with the referee." in [a.strip() for a in alerts]
        assert auth.COOKIE_NAME not in r.cookies
    # The codes the game was created with stopped working too; the seated device keeps its seat.
    r = client.post("/api/v1/join", json={"code": old_codes["defender"]})
    assert r.status_code == 422
    assert seated.get(f"/games/{game_id}/fire-plan").status_code == 200
    assert join_by_link(TestClient(client.app), second["referee"]).status_code == 303


def test_a_code_works_only_on_its_own_seats_link(client: TestClient) -> None:
    game_id, _, _ = referee_client(client)
    links = make_cards(client, game_id)
    attacker_code = urlsplit(links["attacker"]).fragment.removeprefix("code=")
    device = TestClient(client.app)
    for seat in ("defender", "referee"):
        r = device.post(
            f"/games/{game_id}/join/{seat}",
            data=csrf.form(device, {"code": attacker_code}),
            follow_redirects=False,
        )
        assert r.status_code == 422, r.text
        assert not device.cookies.get(auth.COOKIE_NAME)
    assert device.get(f"/games/{game_id}/join/general").status_code == 404
    assert device.get(f"/games/{game_id + 999}/join/attacker").status_code == 404


def test_a_device_holding_a_seat_is_asked_before_switching(client: TestClient) -> None:
    game_id, _, _ = referee_client(client)
    links = make_cards(client, game_id)
    device = TestClient(client.app)
    assert join_by_link(device, links["attacker"]).status_code == 303
    held = device.cookies.get(seats.GAMES_COOKIE)
    r = join_by_link(device, links["defender"])
    assert r.status_code == 409, r.text
    assert "already plays" in r.text and "the defender" in r.text
    assert device.cookies.get(seats.GAMES_COOKIE) == held
    r = join_by_link(device, links["defender"], {"replace_seat": "yes"})
    assert r.status_code == 303 and r.headers["location"] == f"/games/{game_id}/fire-plan"
    assert device.cookies.get(seats.GAMES_COOKIE) != held


def test_wrong_codes_count_against_the_join_limit(sqlite_client: TestClient) -> None:
    client = sqlite_client
    game_id, _, _ = referee_client(client)
    device = TestClient(client.app)
    statuses = [
        device.post(
            f"/games/{game_id}/join/attacker",
            data=csrf.form(device, {"code": f"WRONG-{n:05d}"}),
            follow_redirects=False,
        ).status_code
        for n in range(12)
    ]
    assert statuses[:10] == [422] * 10 and statuses[10:] == [429, 429], statuses
    # Over the limit, even the right code waits: guessing stops (the start page's join form shares the count).
    links = make_cards(client, game_id)
    r = join_by_link(device, links["attacker"])
    assert r.status_code == 429 and "Too many wrong join codes" in r.text and r.headers["retry-after"]
    r = device.post("/join", data=csrf.form(device, {"code": "WRONG-CODES"}), follow_redirects=False)
    assert r.status_code == 429


def test_only_the_referee_sees_makes_or_prints_the_cards(client: TestClient) -> None:
    game_id, codes, _ = referee_client(client)
    player = TestClient(client.app)
    r = player.post("/api/v1/join", json={"code": codes["attacker"]})
    player.cookies.set(auth.COOKIE_NAME, r.json()["token"])
    stranger = TestClient(client.app)
    for device, status in ((player, 403), (stranger, 401)):
        assert device.get(f"/games/{game_id}/join-cards").status_code == status
        assert device.get(f"/games/{game_id}/join-cards.pdf").status_code == status
        r = device.post(f"/games/{game_id}/join-cards", data=csrf.form(device), follow_redirects=False)
        assert r.status_code == status
    # Nobody's code changed: the attacker's code still seats.
    assert client.post("/api/v1/join", json={"code": codes["attacker"]}).status_code == 200
    # The referee's own device, posting without the CSRF token (a forged form), makes no cards either.
    r = client.post(f"/games/{game_id}/join-cards", data={}, follow_redirects=False)
    assert r.status_code == 403
    assert client.post("/api/v1/join", json={"code": codes["defender"]}).status_code == 200


def printed_cards(pdf: bytes, tmp_path: Path) -> list[list[str]]:
    """What each page of a join-card PDF decodes to (zxing-cpp on poppler's rendering), page by page."""
    pdftoppm = shutil.which("pdftoppm")
    # poppler is not a Python dependency: skipped on a developer's machine without it, failed in CI.
    require(pdftoppm is not None, "pdftoppm (poppler-utils), which reads the printed codes")
    assert pdftoppm is not None and pdf.startswith(b"%PDF")
    folder = tmp_path / f"cards-{len(list(tmp_path.iterdir()))}"
    folder.mkdir()
    (folder / "cards.pdf").write_bytes(pdf)
    subprocess.run(
        [pdftoppm, "-r", "100", "-png", str(folder / "cards.pdf"), str(folder / "page")], check=True
    )
    return [
        [str(found.text) for found in zxingcpp.read_barcodes(Image.open(page))]
        for page in sorted(folder.glob("page*.png"))
    ]


def test_the_pdf_has_one_card_to_a_page_each_decoding_to_its_seats_link(
    client: TestClient, tmp_path: Path
) -> None:
    game_id, _, _ = referee_client(client)
    before = client.get(f"/games/{game_id}/join-cards.pdf", follow_redirects=False)
    assert before.status_code == 303  # no sheet made on this device yet: the page that makes one
    links = make_cards(client, game_id)
    r = client.get(f"/games/{game_id}/join-cards.pdf")
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    assert r.headers["cache-control"] == "no-store"
    # The referee's card alone on the first page, then each side's on its own.
    assert printed_cards(r.content, tmp_path) == [[links[seat]] for seat in (REFEREE, *SIDES)]


def test_the_print_menus_join_cards_are_always_a_pdf(client: TestClient, tmp_path: Path) -> None:
    game_id, codes, _ = referee_client(client)
    # No sheet made on this device: the menu's post makes one (new codes) and answers it as a PDF.
    r = client.post(f"/games/{game_id}/join-cards.pdf", data=csrf.form(client), follow_redirects=False)
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf", r.text
    first = printed_cards(r.content, tmp_path)
    assert [len(page) for page in first] == [1, 1, 1]
    assert client.post("/api/v1/join", json={"code": codes["attacker"]}).status_code == 422  # replaced
    # Printed again within the hour: the same cards (nothing voided), which seat a fresh device.
    again = client.post(f"/games/{game_id}/join-cards.pdf", data=csrf.form(client), follow_redirects=False)
    assert printed_cards(again.content, tmp_path) == first
    assert join_by_link(TestClient(client.app), first[1][0]).status_code == 303
    # A forged post (no CSRF token) prints nothing and changes no code.
    assert client.post(f"/games/{game_id}/join-cards.pdf", data={}).status_code == 403
    assert printed_cards(client.get(f"/games/{game_id}/join-cards.pdf").content, tmp_path) == first


def test_a_device_joining_a_game_in_play_opens_on_the_map(client: TestClient) -> None:
    g = new_game(client)
    start_game(client, g)
    client.cookies.set(auth.COOKIE_NAME, g.referee["Authorization"].removeprefix("Bearer "))
    links = make_cards(client, g.id)
    device = TestClient(client.app)
    r = join_by_link(device, links["defender"])
    assert r.status_code == 303 and r.headers["location"] == f"/games/{g.id}/map"
    assert device.get(r.headers["location"]).status_code == 200
    # The start page's join form sends a side there too.
    other = TestClient(client.app)
    code = urlsplit(links["attacker"]).fragment.removeprefix("code=")
    r = other.post("/join", data=csrf.form(other, {"code": code}), follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/games/{g.id}/map"


def test_a_seat_is_named_as_its_book_names_the_side(client: TestClient) -> None:
    """Vimy Ridge names its sides (Canadian and German, Book.side_names): its join cards and the referee board's
    columns say so, where they read the lobby's nation fields ('Attacker allied') before (issue 62's words)."""
    g = new_game(client, {"name": "Vimy", "ruleset": "vimy-ridge", "attacker_nation": "allied"})
    client.cookies.set(auth.COOKIE_NAME, g.referee["Authorization"].removeprefix("Bearer "))
    make_cards(client, g.id)
    cards = client.get(f"/games/{g.id}/join-cards").text
    assert "The attacker (Canadian)" in cards and "The defender (German)" in cards
    board = client.get(f"/games/{g.id}/referee").text
    assert re.search(r'Attacker <span class="muted">Canadian</span>', board), board
