"""A seat's answers are kept by no cache another device reads (the hostile pass of issue 67): the stand card's
fragments, the score panel, a game's pages and a token's JSON said nothing of caching, so a shared cache could
hand one seat's view to the next device asking the same URL. Every answer is private to the device that asked
unless its route says otherwise (app/guard/caching.py); what a route says itself is left as it said it."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from app.guard.caching import PRIVATE
from tests.app.games.conftest import advance_to, new_game
from tests.app.games.test_fire_refusals import mg_facing


def test_every_answer_drawn_for_a_seat_is_private_to_its_device(client: TestClient) -> None:
    g = new_game(client)
    mg, target = mg_facing(client, g)
    advance_to(client, g, "battalion-orders")
    api = f"/api/v1/games/{g.id}"
    rolled = client.post(
        f"{api}/resolve/order-roll", headers=g.attacker, json={"unit_id": mg["id"], "dice": [6]}
    )
    card = f"/games/{g.id}/map/units/{mg['id']}"
    seat_cookie = g.attacker["Authorization"].removeprefix("Bearer ")
    client.cookies.set(COOKIE_NAME, seat_cookie)
    try:
        fragments = [
            client.get(url, headers={"HX-Request": "true"})
            for url in (
                f"{card}/acts",
                f"{card}/targets/shooting",
                f"{card}/play/shooting?act=Shoot&target={target['id']}",
                f"{card}/done/{rolled.json()['event_id']}?act=Order%20roll",
                f"/games/{g.id}/score/panel",
            )
        ]
        pages = [client.get(f"/games/{g.id}/{page}") for page in ("map", "fire-plan", "referee")]
    finally:
        client.cookies.clear()
    read_by_token = [
        client.get(f"{api}/state", headers=g.attacker),
        client.get(f"{api}/units", headers=g.referee),
    ]
    for r in (*fragments, *pages, *read_by_token):
        assert r.status_code in (200, 403), (r.url, r.status_code)
        assert r.headers["cache-control"] == PRIVATE, r.url
        assert "Cookie" in [v.strip() for v in r.headers["vary"].split(",")], r.url
    # A route's own word stands: a versioned static file is the same for every device.
    static = client.get("/static/css/app.css?v=1")
    assert static.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert "Cookie" not in static.headers.get("vary", "")


def test_a_page_answering_htmx_with_its_fragment_says_it_varies_on_the_header(
    reading_client: TestClient,
) -> None:
    """A cache (the browser's, the service worker's) must not answer the lookup page's URL with its panel: the
    answer says `Vary: HX-Request` wherever the route read it, and only there (the secrets walk reads a page's
    fragment where its answer says so)."""
    page, fragment = (reading_client.get("/lookup", headers=h) for h in ({}, {"HX-Request": "true"}))
    assert page.text != fragment.text
    for r in (page, fragment):  # each once (the hostile pass found "Cookie, Accept-Encoding, Cookie")
        said = [v.strip() for v in r.headers["vary"].split(",")]
        assert "HX-Request" in said and len(said) == len(set(said)), said
    assert "HX-Request" not in reading_client.get("/").headers["vary"]


def test_the_app_reads_the_htmx_header_only_where_it_says_so() -> None:
    """Every read of HX-Request is app.pages.common.is_htmx's, which marks the answer as varying on it."""
    app = Path(__file__).resolve().parents[3] / "app"
    reads = re.compile(r"""headers(\.get\(|\[)\s*["']hx-request["']""", re.IGNORECASE)
    readers = sorted(str(p.relative_to(app)) for p in app.rglob("*.py") if reads.search(p.read_text()))
    assert readers == ["pages/common.py"]
