"""A league's published site (issue 70) opened from its folder over file://, as a reader with no server opens it:
each kind of page reached by its links, axe-core clean, no sideways scroll and finger-sized links at the four
sizes, and axe-core clean at night too (a reader's dark system setting, issue 92); nothing requested but the
folder's own files. What the site holds is proved at the service tier (tests/app/league/test_league_site.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.core.db import make_engine
from app.services import league_site
from tests.app.league.test_league_site import with_claims
from tests.frontend.axe import serious_violations
from tests.frontend.conftest import (
    PHONE,
    REFEREE_SCREEN,
    TABLET_LANDSCAPE,
    TABLET_PORTRAIT,
    assert_no_horizontal_scroll,
    small_targets,
)
from tests.frontend.test_night_theme import at_night_and_clean

pytestmark = pytest.mark.browser

SIZES = (TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE, REFEREE_SCREEN)


def small_table_links(page: Any) -> list[str]:
    """Links in a table under 44x44 CSS pixels: the newcomer pass measured the standings' at 20 px tall."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('table a')]
          .filter(el => { const r = el.getBoundingClientRect(); return r.width < 44 || r.height < 44; })
          .map(el => el.outerHTML.slice(0, 80))"""
    )
    return found


def checked_at_every_size(page: Any) -> list[str]:
    found = []
    for size in SIZES:
        page.set_viewport_size(size)
        assert_no_horizontal_scroll(page)
        assert not small_targets(page), (page.url, size, small_targets(page))
        assert not small_table_links(page), (page.url, size, small_table_links(page))
        found += [f"{page.url} at {size['width']}x{size['height']}: {v}" for v in serious_violations(page)]
    return found


def test_the_published_site_opens_from_its_folder_at_every_size(
    sqlite_client: TestClient, tmp_path: Path, browser: Any
) -> None:
    league_id, _, _ = with_claims(sqlite_client)
    engine = make_engine(f"sqlite:///{tmp_path / 'firestep.db'}")
    with Session(engine) as session:
        league_site.publish(league_site.build(session, league_id), tmp_path / "site")
    engine.dispose()
    ctx = browser.new_context(viewport=TABLET_LANDSCAPE)
    try:
        page = ctx.new_page()
        asked: list[str] = []
        page.on("request", lambda req: asked.append(req.url))
        page.goto((tmp_path / "site" / "index.html").as_uri())
        found = checked_at_every_size(page)
        kinds = [page.url]  # a page of each kind, for the night below
        page.get_by_role("link", name="Ann v Bob: 6–2, Ann won").click()
        page.get_by_role("heading", name="Its signature").wait_for()
        found += checked_at_every_size(page)
        kinds.append(page.url)
        page.get_by_role("link", name="Arras").click()
        page.get_by_role("heading", name="Its games").wait_for()
        found += checked_at_every_size(page)
        kinds.append(page.url)
        page.get_by_role("link", name="Bob", exact=True).click()
        page.get_by_role("heading", name="Their games").wait_for()
        found += checked_at_every_size(page)
        kinds.append(page.url)
        page.get_by_role("link", name="Events").click()
        page.get_by_role("heading", name="Club night (event 7)").wait_for()
        found += checked_at_every_size(page)
        kinds.append(page.url)
        page.get_by_role("link", name="Standings").click()
        page.get_by_role("link", name="Hal", exact=True).click()  # of no club: his claimed games, marked
        page.get_by_role("heading", name="Their games on the organiser's claim").wait_for()
        found += checked_at_every_size(page)
        kinds.append(page.url)
        # At night (issue 92): a reader whose system is set dark reads each kind of page in the night palette.
        page.emulate_media(color_scheme="dark")
        for url in kinds:
            page.goto(url)
            found += at_night_and_clean(page, url)
        assert not found, "\n".join(found)
        assert all(url.startswith(f"file://{tmp_path}/site/") for url in asked), asked
    finally:
        browser.close_contexts([ctx])
