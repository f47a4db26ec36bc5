"""Helpers for the browser tests of game pages: seed a game through the API, or create and join it through
the pages themselves where those taps are what is tested."""

from __future__ import annotations

import re
from typing import Any

from tests.frontend.conftest import next_frames


def create_mons_game(page: Any) -> tuple[int, dict[str, str]]:
    """Create the Mons 1914 scenario from the start page; this page's device becomes the referee."""
    page.goto("/")
    page.get_by_role("button", name="Create game").click()
    page.wait_for_selector("[data-join-code]")
    codes = {
        el.get_attribute("data-join-code"): el.inner_text().strip()
        for el in page.locator("[data-join-code]").all()
    }
    href = page.get_by_role("link", name="Referee screen").get_attribute("href")
    match = re.search(r"/games/(\d+)/", href or "")
    assert match, href
    return int(match.group(1)), codes


def join(page: Any, code: str) -> None:
    page.goto("/")
    page.get_by_label("Join code from your card").fill(code)
    page.get_by_role("button", name="Join", exact=True).click()
    page.wait_for_load_state()


def csrf_header(page: Any) -> dict[str, str]:
    """The header this page's scripts send with an API write that its cookie authorises (the token is the
    page's `firestep_csrf` cookie, app/guard/security.py): for tests that call the API as the page's device."""
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "firestep_csrf")
    return {"x-csrftoken": token}


def bearer(token: str) -> dict[str, str]:
    """The header of an API write made as a seat's token rather than the page's cookie (no CSRF token needed)."""
    return {"authorization": f"Bearer {token}"}


def seed_game(page: Any, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
    """A game made through the API, with no tap (the Mons 1914 scenario unless `body` says otherwise), and this
    page's device seated as its referee. Returns the id and the API's answer (referee token, join codes)."""
    created = page.request.post("/api/v1/games", data=body or {"scenario": "mons-1914"})
    assert created.status == 201, created.text()
    answer: dict[str, Any] = created.json()
    sign_in(page, answer["referee_token"])
    return int(answer["game"]["id"]), answer


def sign_in(page: Any, token: str) -> None:
    """Seat this page's device with a token, as the join form's cookie would (the test servers are on 127.0.0.1)."""
    page.context.add_cookies([{"name": "firestep_token", "value": token, "domain": "127.0.0.1", "path": "/"}])


def join_by_api(page: Any, code: str) -> str:
    """Seat this page's device with a side's join code through the API (no tap); returns the device's token."""
    joined = page.request.post("/api/v1/join", data={"code": code})
    assert joined.status == 200, joined.text()
    token: str = joined.json()["token"]
    sign_in(page, token)
    return token


def fresh_defender_platoon(units: list[dict[str, Any]]) -> int:
    """A defender platoon of a company of several platoons, none of them suppressed: MG fire at it marks the
    whole company, each stand's first marker."""
    platoons = [
        u for u in units if u["side"] == "defender" and u["kind"] == "rifle-platoon" and u["suppression"] == 0
    ]
    chosen: int = next(
        p
        for p in platoons
        if sum(q["parent_id"] == p["parent_id"] for q in platoons) > 1
        and all(q["suppression"] == 0 for q in units if q["parent_id"] == p["parent_id"])
    )["id"]
    return chosen


def settled(page: Any) -> None:
    """Two frames on, as the eye reads the table: a card docks, and a notice's row or the card may move the map,
    in the frame after it is drawn (table-dock.js)."""
    next_frames(page, 2)


def at_rest(page: Any, selector: str) -> dict[str, float]:
    """The box of `selector` once it and the map are still: a card docking or a notice's row may pan or zoom the
    map for a few frames after the tap that showed it, so a drag begun at once may miss it."""
    seen = None
    for _ in range(60):
        settled(page)
        now = page.evaluate(
            """(sel) => { const m = window.firestepMap, r = document.querySelector(sel).getBoundingClientRect();
                 const busy = m.leaflet._animatingZoom || Boolean(m.leaflet._panAnim?._inProgress);
                 return [r.x, r.y, r.width, r.height, busy]; }""",
            selector,
        )
        if now == seen and not now[-1]:
            return {"x": now[0], "y": now[1], "width": now[2], "height": now[3]}
        seen = now
    raise AssertionError(f"{selector} never came to rest: {seen}")


def resized(page: Any, size: dict[str, int]) -> None:
    """The open table map's window at `size`, once the map says it is drawn for it (table-map.js redraws after
    a short timer: a handle measured before then may move under the pointer)."""
    page.set_viewport_size(size)
    page.wait_for_function(
        "(s) => document.querySelector('[data-map-page]').dataset.drawnFor === s",
        arg=f"{size['width']}x{size['height']}",
    )


def map_at(page: Any, size: dict[str, int]) -> None:
    """The open table map at `size` as it opens there, without loading it again: resized, its redraw in the
    orientation that fits waited for, and the whole table fitted again as it is on opening (the Whole table
    button's fit: a resize in the same orientation keeps the zoom)."""
    resized(page, size)
    settled(page)  # the map's own resize observers (table-dock.js) have run: nothing moves it after the fit
    page.locator("[data-zoom='table']").evaluate("(b) => b.click()")


def open_maps(game_id: int, *pages: Any) -> None:
    """The game's table map on each page, loaded side by side as the devices at a table would be (each goto
    returns once its answer starts), then each waited for until drawn and on the live stream."""
    for page in pages:
        page.goto(f"/games/{game_id}/map", wait_until="commit")
    for page in pages:
        page.locator("svg[data-table-map][data-loaded]").wait_for()
        page.locator("[data-map-page][data-live-connected]").wait_for()
